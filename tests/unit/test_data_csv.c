/* CSV reader: delimiters (given and detected), header detection, label columns, quoting, layout
 * variations, scikit-learn's bundled CSVs, and every kind of malformed input. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "data/dataset.h"
#include "kernelmix.h"

#define TMP "test_data_csv.tmp"
#define SKLEARN_DATA "/usr/lib/python3/dist-packages/sklearn/datasets/data/"

static void write_text(const char *text)
{
    FILE *f = fopen(TMP, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    size_t len = strlen(text);
    CHECK(fwrite(text, 1, len, f) == len);
    fclose(f);
}

/* Reads text with the given options and checks shape, labels (NULL: none) and every value. */
static void check_read(const char *text, km_csv_options options, size_t n, size_t d, const double *labels,
                       const double *values)
{
    write_text(text);
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_read_csv(TMP, &options, &data));
    remove(TMP);
    if (!data) {
        fprintf(stderr, "  while reading \"%s\"\n", text);
        return;
    }
    int ok = km_dataset_rows(data) == n && km_dataset_dim(data) == d && !data->sparse &&
             !km_dataset_labels(data) == !labels;
    for (size_t i = 0; ok && i < n; i++) {
        ok = !labels || km_dataset_labels(data)[i] == labels[i];
        for (size_t j = 0; ok && j < d; j++)
            ok = km_dataset_value(data, i, j) == values[i * d + j];
    }
    if (!ok) {
        fprintf(stderr, "unexpected dataset (%zu x %zu) from \"%s\"\n", km_dataset_rows(data), km_dataset_dim(data),
                text);
        check_failures++;
    }
    km_dataset_free(data);
}

static km_csv_options with(int label_column, int header, char delimiter)
{
    km_csv_options options = {
        .size = sizeof options, .label_column = label_column, .header = header, .delimiter = delimiter};
    return options;
}

static void test_defaults(void)
{
    km_csv_options options = KM_CSV_OPTIONS_INIT;
    CHECK(options.label_column == -1 && options.header == -1 && options.delimiter == ',');
    const double y[] = {3, 6}, X[] = {1, 2, 4, 5};
    check_read("1,2,3\n4,5,6\n", options, 2, 2, y, X);
    km_dataset *data = NULL;
    write_text("1,2,3\n");
    CHECK_OK(km_dataset_read_csv(TMP, NULL, &data)); /* NULL options: the defaults */
    CHECK(data && km_dataset_rows(data) == 1 && km_dataset_labels(data)[0] == 3.0);
    CHECK(data && strcmp(data->source, TMP) == 0);
    km_dataset_free(data);
    remove(TMP);
}

static void test_label_columns(void)
{
    const double y0[] = {0, 1}, X0[] = {1.5, 2, -3, 4e2};
    check_read("0,1.5,2\n1,-3,4e2\n", with(0, 0, ','), 2, 2, y0, X0);
    const double y1[] = {1.5, -3}, X1[] = {0, 2, 1, 4e2};
    check_read("0,1.5,2\n1,-3,4e2\n", with(-2, 0, ','), 2, 2, y1, X1);
    const double y2[] = {1.5, -3}, X2[] = {0, 2, 1, 4e2};
    check_read("0,1.5,2\n1,-3,4e2\n", with(1, 0, ','), 2, 2, y2, X2);
    const double X3[] = {0, 1.5, 2, 1, -3, 4e2};
    check_read("0,1.5,2\n1,-3,4e2\n", with(KM_CSV_NO_LABEL, 0, ','), 2, 3, NULL, X3);
}

static void test_headers(void)
{
    const double y[] = {0}, X[] = {1, 2};
    check_read("a,b,y\n1,2,0\n", with(-1, -1, ','), 1, 2, y, X);
    /* a text label does not make a header by itself, nor do nan/inf: the row parser reports those */
    check_read("1,2,0\n", with(-1, -1, ','), 1, 2, y, X);
    /* an explicit header line is skipped whatever it holds, even with another field count */
    check_read("\"unbalanced,x\n1,2,0\n", with(-1, 1, ','), 1, 2, y, X);
    /* header: 0 and a numeric first line: both lines are data */
    const double y2[] = {9, 0}, X2[] = {7, 8, 1, 2};
    check_read("7,8,9\n1,2,0\n", with(-1, 0, ','), 2, 2, y2, X2);
    /* quoted header names with delimiters inside, then a quoted value and "" escapes */
    check_read("\"a,b\",\"say \"\"hi\"\"\",label\n\"1\", 2 ,0\n", with(-1, -1, ','), 1, 2, y, X);
}

static void test_delimiters(void)
{
    const double y[] = {3, 6}, X[] = {1, 2, 4, 5};
    check_read("1;2;3\n4;5;6\n", with(-1, -1, 0), 2, 2, y, X);
    check_read("1\t2\t3\n4\t5\t6\n", with(-1, -1, 0), 2, 2, y, X);
    check_read("  1   2   3\n4 5 6   \n", with(-1, -1, 0), 2, 2, y, X);
    check_read("1 , 2 ,3\n4,5 , 6\n", with(-1, -1, 0), 2, 2, y, X);
    check_read("1|2|3\n4|5|6\n", with(-1, -1, '|'), 2, 2, y, X);
    check_read("1 2 3\n4 5 6\n", with(-1, -1, ' '), 2, 2, y, X);
    /* CRLF, blank lines, a byte-order mark and no final newline */
    check_read("\xEF\xBB\xBF" "1,2,3\r\n\r\n   \r\n4,5,6", with(-1, -1, 0), 2, 2, y, X);
}

/* scikit-learn's CSVs start with "n_samples,n_features,class names", skipped with header = 1 (and
 * detected as a header, being text). Counts per class from sklearn's dataset descriptions. */
static void test_sklearn_files(void)
{
    static const struct {
        const char *file;
        size_t n, d, classes[3];
        double first;
    } files[] = {
        {SKLEARN_DATA "breast_cancer.csv", 569, 30, {212, 357, 0}, 17.99},
        {SKLEARN_DATA "iris.csv", 150, 4, {50, 50, 50}, 5.1},
        {SKLEARN_DATA "wine_data.csv", 178, 13, {59, 71, 48}, 14.23},
    };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
        for (int header = -1; header <= 1; header += 2) {
            km_csv_options options = KM_CSV_OPTIONS_INIT;
            options.header = header;
            km_dataset *data = NULL;
            CHECK_OK(km_dataset_read_csv(files[f].file, &options, &data));
            if (!data)
                continue;
            CHECK(km_dataset_rows(data) == files[f].n && km_dataset_dim(data) == files[f].d);
            CHECK(km_dataset_value(data, 0, 0) == files[f].first);
            size_t counts[3] = {0, 0, 0}, others = 0;
            for (size_t i = 0; i < km_dataset_rows(data); i++) {
                double label = km_dataset_labels(data)[i];
                if (label == 0.0 || label == 1.0 || label == 2.0)
                    counts[(int)label]++;
                else
                    others++;
            }
            CHECK(others == 0);
            CHECK(counts[0] == files[f].classes[0] && counts[1] == files[f].classes[1] &&
                  counts[2] == files[f].classes[2]);
            km_dataset_free(data);
        }
}

typedef struct bad_case {
    const char *text;
    km_csv_options options;
    km_status status;
    int line;
    const char *problem;
} bad_case;

static void test_bad_inputs(void)
{
    const km_csv_options plain = with(-1, -1, ','), no_header = with(-1, 0, ',');
    const bad_case cases[] = {
        {"", plain, KM_EFORMAT, 1, "no data rows"},
        {"\n\n", plain, KM_EFORMAT, 2, "no data rows"},
        {"a,b,c\n", plain, KM_EFORMAT, 1, "no data rows after the header"},
        {"1,2,3\n4,5\n", plain, KM_EFORMAT, 2, "2 fields, expected 3"},
        {"1,2,3\n\n4,5,6,7\n", plain, KM_EFORMAT, 3, "4 fields, expected 3"},
        {"1,,3\n", plain, KM_EFORMAT, 1, "empty field 2"},
        {"1,2,3,\n", plain, KM_EFORMAT, 1, "empty field 4"},
        {"1,2,3\n1,x,3\n", plain, KM_EFORMAT, 2, "non-numeric value 'x' in field 2"},
        {"1,x,3\n", no_header, KM_EFORMAT, 1, "non-numeric value 'x' in field 2"},
        {"1,2,cat\n", plain, KM_EFORMAT, 1, "non-numeric label 'cat' in field 3"},
        {"1,nan,2\n", plain, KM_EFORMAT, 1, "value 'nan' in field 2 is not finite"},
        {"1,2,3\n1,2,-inf\n", plain, KM_EFORMAT, 2, "label '-inf' in field 3 is not finite"},
        {"1,1e999,2\n", plain, KM_EFORMAT, 1, "value '1e999' in field 2 is out of range"},
        {"1,\"2,3\n", plain, KM_EFORMAT, 1, "unterminated quote in field 2"},
        {"1,\"2\"x,3\n", plain, KM_EFORMAT, 1, "unexpected 'x' after the closing quote of field 2"},
        {"1,2,3\n4,5\x02,6\n", plain, KM_EFORMAT, 2, "unexpected byte 0x02 at column 4"},
        {"\x1f\x8b\x08\x08", plain, KM_EFORMAT, 1, "gzip-compressed input"},
        {"1,2,3\n", with(5, -1, ','), KM_EINVAL, 1, "label column 5 does not exist (3 fields)"},
        {"1,2,3\n", with(-4, -1, ','), KM_EINVAL, 1, "label column -4 does not exist"},
        {"1\n2\n", plain, KM_EFORMAT, 1, "no feature columns besides the label"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        write_text(cases[k].text);
        km_dataset *data = (km_dataset *)1;
        km_status st = km_dataset_read_csv(TMP, &cases[k].options, &data);
        char where[64];
        snprintf(where, sizeof where, TMP ":%d: ", cases[k].line);
        const char *message = km_last_error();
        if (st != cases[k].status || data != NULL || strncmp(message, where, strlen(where)) != 0 ||
            !strstr(message, cases[k].problem)) {
            fprintf(stderr, "bad case %zu: status %d (expected %d), message \"%s\", expected \"%s...%s\"\n", k,
                    (int)st, (int)cases[k].status, message, where, cases[k].problem);
            check_failures++;
        }
    }
    km_dataset *data = (km_dataset *)1;
    km_csv_options options = with(-1, 2, ',');
    CHECK_STATUS(km_dataset_read_csv(TMP, &options, &data), KM_EINVAL);
    options = with(-1, -1, '"');
    CHECK_STATUS(km_dataset_read_csv(TMP, &options, &data), KM_EINVAL);
    CHECK(strcmp(km_last_error(), TMP ": byte 0x22 cannot be a CSV delimiter") == 0);
    options = with(-1, -1, '\n');
    CHECK_STATUS(km_dataset_read_csv(TMP, &options, &data), KM_EINVAL);
    CHECK(strchr(km_last_error(), '\n') == NULL);
    remove(TMP);
    CHECK_STATUS(km_dataset_read_csv("no-such-dir/x.csv", NULL, &data), KM_EIO);
    CHECK(data == NULL);
    CHECK(strstr(km_last_error(), "no-such-dir/x.csv: cannot open: ") == km_last_error());
}

KM_TEST_CASE(defaults) { test_defaults(); }
KM_TEST_CASE(label_columns) { test_label_columns(); }
KM_TEST_CASE(headers) { test_headers(); }
KM_TEST_CASE(delimiters) { test_delimiters(); }
KM_TEST_CASE(sklearn_files) { test_sklearn_files(); }
KM_TEST_CASE(bad_inputs) { test_bad_inputs(); }
