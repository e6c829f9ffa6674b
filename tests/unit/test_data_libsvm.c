/* LIBSVM reader and writer: valid sparse and precomputed rows, tolerated layout variations, every
 * kind of malformed input (status, file and line in the message), write -> read round trips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data/dataset.h"
#include "data/readers.h"
#include "kernelmix.h"

#define TMP "test_data_libsvm.tmp"

static void write_bytes(const char *path, const char *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fwrite(bytes, 1, len, f) == len);
    fclose(f);
}

static km_dataset *read_text(const char *text, unsigned flags)
{
    write_bytes(TMP, text, strlen(text));
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_read_libsvm(TMP, flags, &data));
    remove(TMP);
    return data;
}

static void test_sparse_rows(void)
{
    km_dataset *data = read_text("+1 1:0.5 3:-2\n-1 2:1e-3\n", 0);
    if (!data)
        return;
    CHECK(km_dataset_rows(data) == 2);
    CHECK(km_dataset_dim(data) == 3);
    CHECK(data->sparse == 1 && data->ids == NULL);
    CHECK(km_dataset_labels(data)[0] == 1.0 && km_dataset_labels(data)[1] == -1.0);
    CHECK(km_dataset_value(data, 0, 0) == 0.5);
    CHECK(km_dataset_value(data, 0, 1) == 0.0);
    CHECK(km_dataset_value(data, 0, 2) == -2.0);
    CHECK(km_dataset_value(data, 1, 1) == 1e-3);
    CHECK(data->row_start[0] == 0 && data->row_start[1] == 2 && data->row_start[2] == 3);
    CHECK(data->col[0] == 0 && data->col[1] == 2 && data->col[2] == 1);
    CHECK(strcmp(data->source, TMP) == 0);
    km_dataset_free(data);
}

/* CRLF, blank and white-space-only lines, tabs, trailing white space, a label-only row, no final
 * newline, the largest allowed index. */
static void test_layout_variations(void)
{
    km_dataset *data = read_text("1 1:1 \r\n\r\n  \t\n-1\t2:2\t\r\n7\n0 3:3 2147483647:4", 0);
    if (!data)
        return;
    CHECK(km_dataset_rows(data) == 4);
    CHECK(km_dataset_dim(data) == 2147483647u);
    const double *y = km_dataset_labels(data);
    CHECK(y[0] == 1 && y[1] == -1 && y[2] == 7 && y[3] == 0);
    CHECK(km_dataset_value(data, 1, 1) == 2.0);
    CHECK(data->row_start[2] == data->row_start[3]); /* the label-only row stores nothing */
    CHECK(km_dataset_value(data, 3, 2) == 3.0);
    CHECK(km_dataset_value(data, 3, 2147483646u) == 4.0);
    km_dataset_free(data);
}

/* No fixed line length: one row of 200000 features (about 2.4 MB). */
static void test_long_line(void)
{
    size_t features = 200000;
    char *text = malloc(features * 16 + 16);
    CHECK(text != NULL);
    if (!text)
        return;
    size_t len = (size_t)sprintf(text, "3");
    for (size_t j = 1; j <= features; j++)
        len += (size_t)sprintf(text + len, " %zu:%zu", j, j % 7);
    km_dataset *data = read_text(text, 0);
    free(text);
    if (!data)
        return;
    CHECK(km_dataset_rows(data) == 1 && km_dataset_dim(data) == features);
    CHECK(km_dataset_value(data, 0, features - 1) == (double)(features % 7));
    CHECK(km_dataset_value(data, 0, 12344) == (double)(12345 % 7));
    km_dataset_free(data);
}

static void test_precomputed_rows(void)
{
    km_dataset *data = read_text("1 0:1 1:2.5 2:0\n-1 0:2 1:0 2:3\r\n\n", KM_READ_PRECOMPUTED);
    if (!data)
        return;
    CHECK(km_dataset_rows(data) == 2 && km_dataset_dim(data) == 2);
    CHECK(data->sparse == 0 && data->ids != NULL);
    CHECK(data->ids[0] == 1.0 && data->ids[1] == 2.0);
    CHECK(data->X[0] == 2.5 && data->X[1] == 0.0 && data->X[2] == 0.0 && data->X[3] == 3.0);
    km_dataset_free(data);
}

/* The stream entry point reads an in-memory buffer without any file. */
static void test_stream_entry(void)
{
    static const char text[] = "2 4:8\n";
    FILE *f = fmemopen((void *)text, sizeof text - 1, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    km_dataset *data = NULL;
    CHECK_OK(km_read_libsvm_stream(f, "memory", 0, &data));
    fclose(f);
    CHECK(data && km_dataset_dim(data) == 4 && km_dataset_value(data, 0, 3) == 8.0);
    km_dataset_free(data);
    static const char bad[] = "2 4:8\n2 x\n";
    f = fmemopen((void *)bad, sizeof bad - 1, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_STATUS(km_read_libsvm_stream(f, "memory", 0, &data), KM_EFORMAT);
    CHECK(data == NULL);
    CHECK(strstr(km_last_error(), "memory:2:") != NULL);
    fclose(f);
}

typedef struct bad_case {
    const char *text;
    size_t len;          /* 0: strlen(text) */
    unsigned flags;
    km_status status;
    int line;
    const char *problem; /* substring of the message */
} bad_case;

static const bad_case bad_cases[] = {
    {"", 0, 0, KM_EFORMAT, 1, "no data rows"},
    {"\n  \n\r\n", 0, 0, KM_EFORMAT, 3, "no data rows"},
    {"1 1:1\n1:2 3:4\n", 0, 0, KM_EFORMAT, 2, "label missing"},
    {"abc 1:1\n", 0, 0, KM_EFORMAT, 1, "non-numeric label 'abc'"},
    {"1 1:1\n1 1:abc\n", 0, 0, KM_EFORMAT, 2, "non-numeric value of feature 1 'abc'"},
    {"1 1:0x\n", 0, 0, KM_EFORMAT, 1, "non-numeric value of feature 1"},
    {"1 2:\xff\n", 0, 0, KM_EFORMAT, 1, "non-numeric value of feature 2"},
    {"nan 1:1\n", 0, 0, KM_EFORMAT, 1, "label 'nan' is not finite"},
    {"1 1:1\n\n-1 2:inf\n", 0, 0, KM_EFORMAT, 3, "value of feature 2 'inf' is not finite"},
    {"1 1:-NaN\n", 0, 0, KM_EFORMAT, 1, "is not finite"},
    {"1e999 1:1\n", 0, 0, KM_EFORMAT, 1, "label '1e999' is out of range"},
    {"1 1:-1e400\n", 0, 0, KM_EFORMAT, 1, "out of range"},
    {"1 0:1\n", 0, 0, KM_EFORMAT, 1, "feature index 0 is invalid"},
    {"1 -3:1\n", 0, 0, KM_EFORMAT, 1, "feature index -3 is negative"},
    {"1 2147483648:1\n", 0, 0, KM_EFORMAT, 1, "feature index 2147483648 is above 2147483647"},
    {"1 99999999999999999999999:1\n", 0, 0, KM_EFORMAT, 1, "is above 2147483647"},
    {"1 3:1 2:1\n", 0, 0, KM_EFORMAT, 1, "feature index 2 is not greater than the previous index 3"},
    {"1 1:1\n\n\n1 3:1 3:1\n", 0, 0, KM_EFORMAT, 4, "feature index 3 is not greater than the previous index 3"},
    {"1 3\n", 0, 0, KM_EFORMAT, 1, "'3' is not idx:val (missing ':')"},
    {"1 3:\n", 0, 0, KM_EFORMAT, 1, "missing value of feature 3"},
    {"1 :3\n", 0, 0, KM_EFORMAT, 1, "missing feature index"},
    {"1 x:3\n", 0, 0, KM_EFORMAT, 1, "non-numeric feature index 'x'"},
    {"1 1:1 2:2 3:3\r\n1 1:1\x01 2:2\n", 0, 0, KM_EFORMAT, 2, "unexpected byte 0x01 at column 6"},
    {"1 1:1\0 2:2\n", 11, 0, KM_EFORMAT, 1, "unexpected byte 0x00 at column 6"},
    {"\x1f\x8b\x08\0\0\0", 6, 0, KM_EFORMAT, 1, "gzip-compressed input (decompress it first)"},
    {"1 1:1 2:2\n", 0, KM_READ_PRECOMPUTED, KM_EFORMAT, 1, "lacks the 0:id entry"},
    {"1 0:1 1:1\n-1\n", 0, KM_READ_PRECOMPUTED, KM_EFORMAT, 2, "lacks the 0:id entry"},
    {"1 0:1 1:1 2:2\n1 0:2 1:1\n", 0, KM_READ_PRECOMPUTED, KM_EFORMAT, 2, "1 kernel values, expected 2 (as on line 1)"},
    {"1 0:1 1:1\n1 0:2 1:1 2:2\n", 0, KM_READ_PRECOMPUTED, KM_EFORMAT, 2, "2 kernel values, expected 1"},
    {"1 0:1 1:1 3:2\n", 0, KM_READ_PRECOMPUTED, KM_EFORMAT, 1, "kernel value 2 is missing"},
    {"1 0:1\n", 0, KM_READ_PRECOMPUTED, KM_EFORMAT, 1, "no kernel values"},
    {"1 0:1 1:2 0:3\n", 0, KM_READ_PRECOMPUTED, KM_EFORMAT, 1, "feature index 0 is not greater than the previous index 1"},
    {"1 0:nan 1:2\n", 0, KM_READ_PRECOMPUTED, KM_EFORMAT, 1, "value of feature 0 'nan' is not finite"},
};

static void test_bad_inputs(void)
{
    for (size_t k = 0; k < sizeof bad_cases / sizeof bad_cases[0]; k++) {
        const bad_case *c = &bad_cases[k];
        write_bytes(TMP, c->text, c->len ? c->len : strlen(c->text));
        km_dataset *data = (km_dataset *)1;
        km_status st = km_dataset_read_libsvm(TMP, c->flags, &data);
        char where[64];
        snprintf(where, sizeof where, TMP ":%d: ", c->line);
        const char *message = km_last_error();
        if (st != c->status || data != NULL || strncmp(message, where, strlen(where)) != 0 ||
            !strstr(message, c->problem)) {
            fprintf(stderr, "bad case %zu: status %d (expected %d), message \"%s\", expected \"%s...%s\"\n", k,
                    (int)st, (int)c->status, message, where, c->problem);
            check_failures++;
        }
    }
    remove(TMP);
    km_dataset *data = (km_dataset *)1;
    CHECK_STATUS(km_dataset_read_libsvm("no-such-dir/none.txt", 0, &data), KM_EIO);
    CHECK(data == NULL);
    CHECK(strstr(km_last_error(), "no-such-dir/none.txt: cannot open: ") == km_last_error());
    write_bytes(TMP, "1 1:1\n", 6);
    CHECK_STATUS(km_dataset_read_libsvm(TMP, 4u, &data), KM_EINVAL);
    remove(TMP);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buffer[4096];
    size_t len = fread(buffer, 1, sizeof buffer - 1, f);
    buffer[len] = '\0';
    fclose(f);
    return buffer;
}

/* Exact text: integral labels as integers, zeros omitted, 17 significant digits. */
static void test_written_text(void)
{
    const double X[] = {0.0, 0.1, 2.0, 0.0, -0.0, 1e-300};
    const double y[] = {1.0, -0.5, -0.0};
    km_dataset *data;
    CHECK_OK(km_dataset_from_dense(3, 2, X, y, &data));
    CHECK_OK(km_dataset_write_libsvm(data, TMP));
    const char *text = slurp(TMP);
    CHECK(text && strcmp(text, "1 2:0.10000000000000001\n-0.5 1:2\n0 2:1e-300\n") == 0);
    km_dataset_free(data);
    remove(TMP);
}

static int same_dataset(const km_dataset *a, const km_dataset *b)
{
    if (a->n != b->n || a->d != b->d || !a->labels != !b->labels || !a->ids != !b->ids)
        return 0;
    for (size_t i = 0; i < a->n; i++) {
        if ((a->labels && a->labels[i] != b->labels[i]) || (a->ids && a->ids[i] != b->ids[i]))
            return 0;
        for (size_t j = 0; j < a->d; j++)
            if (km_dataset_value(a, i, j) != km_dataset_value(b, i, j))
                return 0;
    }
    return 1;
}

static void test_round_trips(void)
{
    /* sparse -> write -> read: every value bit for bit */
    km_dataset *sparse = read_text("1 1:0.1 5:0.3333333333333333 9:-2.5e300\n-2.5 2:1e-310 3:7\n3\n", 0);
    km_dataset *again = NULL;
    if (sparse) {
        CHECK_OK(km_dataset_write_libsvm(sparse, TMP));
        CHECK_OK(km_dataset_read_libsvm(TMP, 0, &again));
        CHECK(again && same_dataset(sparse, again));
        km_dataset_free(again);
    }
    km_dataset_free(sparse);

    /* dense -> write -> read gives the same values, now sparse */
    const double X[] = {0.5, 0.0, 1.0 / 3.0, 0.0, 0.0, 0.0, -4.0, 1e-17, 3.0};
    const double y[] = {1.0, 2.0, 3.0};
    km_dataset *dense;
    CHECK_OK(km_dataset_from_dense(3, 3, X, y, &dense));
    CHECK_OK(km_dataset_write_libsvm(dense, TMP));
    CHECK_OK(km_dataset_read_libsvm(TMP, 0, &again));
    CHECK(again && again->sparse && same_dataset(dense, again));
    km_dataset_free(again);
    km_dataset_free(dense);

    /* precomputed -> write -> read keeps ids and explicit zeros; LIBSVM accepts the file (-t 4) */
    km_dataset *pre = read_text("1 0:1 1:4 2:0 3:1\n-1 0:2 1:0 2:4 3:0.5\n1 0:3 1:1 2:0.5 3:4\n",
                                KM_READ_PRECOMPUTED);
    if (pre) {
        CHECK_OK(km_dataset_write_libsvm(pre, TMP));
        const char *text = slurp(TMP);
        CHECK(text && strncmp(text, "1 0:1 1:4 2:0 3:1\n", 18) == 0);
        CHECK_OK(km_dataset_read_libsvm(TMP, KM_READ_PRECOMPUTED, &again));
        CHECK(again && same_dataset(pre, again));
        km_dataset_free(again);
        int rc = system(KM_SVM_TRAIN " -q -t 4 " TMP " " TMP ".model");
        CHECK(rc == 0);
        remove(TMP ".model");
    }
    km_dataset_free(pre);
    remove(TMP);

    CHECK_STATUS(km_dataset_write_libsvm(NULL, TMP), KM_EINVAL);
}

/* LIBSVM's heart_scale sample: shape and counts, and a rewritten copy on which LIBSVM trains the
 * same model as on the original. */
static void test_heart_scale(void)
{
    static const char path[] = KM_EXAMPLES_DATA_DIR "/heart_scale";
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_read_libsvm(path, 0, &data));
    if (!data)
        return;
    CHECK(km_dataset_rows(data) == 270 && km_dataset_dim(data) == 13);
    CHECK(data->row_start[270] == 3378);
    size_t positives = 0;
    for (size_t i = 0; i < 270; i++)
        positives += km_dataset_labels(data)[i] == 1.0;
    CHECK(positives == 120);
    CHECK(km_dataset_value(data, 0, 0) == 0.708333 && km_dataset_value(data, 0, 10) == 0.0);
    CHECK(km_dataset_value(data, 1, 12) == 1.0);
    CHECK_OK(km_dataset_write_libsvm(data, TMP));
    char command[2048];
    snprintf(command, sizeof command,
             KM_SVM_TRAIN " -q '%s' " TMP ".original && " KM_SVM_TRAIN " -q " TMP " " TMP ".rewritten && "
             "cmp -s " TMP ".original " TMP ".rewritten",
             path);
    CHECK(system(command) == 0);
    remove(TMP ".original");
    remove(TMP ".rewritten");
    remove(TMP);
    km_dataset_free(data);
}

/* Writing into a missing directory fails with KM_EIO and leaves nothing behind. */
static void test_write_failure(void)
{
    const double X[] = {1.0};
    km_dataset *data;
    CHECK_OK(km_dataset_from_dense(1, 1, X, NULL, &data));
    CHECK_STATUS(km_dataset_write_libsvm(data, "no-such-dir/out.txt"), KM_EIO);
    CHECK(strstr(km_last_error(), "no-such-dir/out.txt") != NULL);
    /* unlabelled rows are written with the placeholder label 0 */
    CHECK_OK(km_dataset_write_libsvm(data, TMP));
    const char *text = slurp(TMP);
    CHECK(text && strcmp(text, "0 1:1\n") == 0);
    remove(TMP);
    km_dataset_free(data);
    /* values the reader would reject are refused, naming the 1-based row */
    const double Y[] = {1.0, 2.0, 0.0, NAN};
    CHECK_STATUS(km_dataset_from_dense(2, 2, Y, NULL, &data), KM_EINVAL); /* refused at construction */
    const double finite[] = {1.0, 2.0, 0.0, 4.0}, y[] = {1.0, 2.0};
    CHECK_OK(km_dataset_from_dense(2, 2, finite, y, &data));
    data->X[3] = NAN; /* a dataset changed after construction */
    CHECK_STATUS(km_dataset_write_libsvm(data, TMP), KM_EINVAL);
    CHECK(strcmp(km_last_error(), TMP ": row 2 has a non-finite value") == 0);
    data->X[3] = 4.0;
    data->labels[1] = INFINITY;
    CHECK_STATUS(km_dataset_write_libsvm(data, TMP), KM_EINVAL);
    CHECK(strcmp(km_last_error(), TMP ": row 2 has a non-finite label or id") == 0);
    km_dataset_free(data);
    km_dataset *sparse = read_text("1 1:1\n2 3:1\n3 2:1\n", 0);
    if (sparse) {
        sparse->val[2] = NAN;
        CHECK_STATUS(km_dataset_write_libsvm(sparse, TMP), KM_EINVAL);
        CHECK(strcmp(km_last_error(), TMP ": row 3 has a non-finite value") == 0);
    }
    km_dataset_free(sparse);
    FILE *f = fopen(TMP, "rb");
    CHECK(f == NULL);
    if (f)
        fclose(f);
}

KM_TEST_CASE(sparse_rows) { test_sparse_rows(); }
KM_TEST_CASE(layout_variations) { test_layout_variations(); }
KM_TEST_CASE(long_line) { test_long_line(); }
KM_TEST_CASE(precomputed_rows) { test_precomputed_rows(); }
KM_TEST_CASE(stream_entry) { test_stream_entry(); }
KM_TEST_CASE(bad_inputs) { test_bad_inputs(); }
KM_TEST_CASE(written_text) { test_written_text(); }
KM_TEST_CASE(round_trips) { test_round_trips(); }
KM_TEST_CASE(heart_scale) { test_heart_scale(); }
KM_TEST_CASE(write_failure) { test_write_failure(); }
