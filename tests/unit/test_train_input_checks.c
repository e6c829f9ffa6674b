/* Input that has no right answer, or the right answer to another question, is refused or handled:
 *  - test rows must describe the model's features (dense: the count; sparse: features the model never
 *    saw are ignored after sparse training), and CSV test rows keep the training rows' label field;
 *  - overflow stops training where it arises (features, the kernel diagonal, regression targets) with
 *    KM_EINVAL, never a model;
 *  - a cross-validation fold whose training rows are one class predicts that class;
 *  - class labels are in doubt from 10 classes of at most 2 rows each on, or more than 100 classes of
 *    fewer than 5 rows each, and noticed when some are not integers;
 *  - the default normalization of a kernel set reaches every spec that names none;
 *  - a training kernel in precomputed-kernel text lists the training rows in order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "data/dataset.h"
#include "data/matrix.h"
#include "data/readers.h"
#include "kernelmix.h"
#include "train/input_checks.h"

#define TMP "test_train_input_checks.tmp"

/* n rows of d features, label +1/-1 by the sign of the first two features' sum. */
static km_dataset *dense(size_t n, size_t d, double scale)
{
    double X[400], y[100];
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < d; j++)
            X[i * d + j] = scale * sin(1.7 * (double)(i * d + j) + 0.3);
        y[i] = X[i * d] + X[i * d + 1] > 0 ? 1.0 : -1.0;
    }
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(n, d, X, y, &data));
    return data;
}

static km_dataset *read_text(const char *text, int csv, int label_column)
{
    FILE *stream = fmemopen((void *)text, strlen(text), "r");
    km_dataset *data = NULL;
    km_csv_options options = KM_CSV_OPTIONS_INIT;
    options.label_column = label_column;
    options.delimiter = 0;
    CHECK_OK(csv ? km_read_csv_stream(stream, "rows", &options, &data) : km_read_libsvm_stream(stream, "rows", 0, &data));
    fclose(stream);
    return data;
}

static km_model *train(const km_dataset *data, const char *spec, km_task task)
{
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, spec));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, task));
    CHECK_OK(km_train(data, set, params, &model));
    km_params_free(params);
    km_kernel_set_free(set);
    return model;
}

static km_status train_status(const km_dataset *data, const char *spec, km_task task, const char *message)
{
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    km_model *model = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, spec));
    CHECK_OK(km_params_new(&params));
    CHECK_OK(km_params_set_int(params, KM_PARAM_TASK, task));
    km_status st = km_train(data, set, params, &model);
    CHECK(model == NULL);
    if (message && !strstr(km_last_error(), message)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", km_last_error(), message);
        CHECK(0);
    }
    km_model_free(model);
    km_params_free(params);
    km_kernel_set_free(set);
    return st;
}

KM_TEST_CASE(first_features)
{
    km_dataset *sparse = read_text("1 1:1 3:2 7:3\n-1 2:4 9:5\n", 0, 0), *cut = NULL;
    CHECK_OK(km_dataset_first_features(sparse, 3, &cut));
    CHECK(km_dataset_dim(cut) == 3 && km_dataset_rows(cut) == 2);
    CHECK(km_dataset_value(cut, 0, 0) == 1 && km_dataset_value(cut, 0, 2) == 2 && km_dataset_value(cut, 1, 1) == 4);
    CHECK(cut->row_start[2] == 3);
    CHECK(km_dataset_labels(cut)[1] == -1);
    km_dataset_free(cut);
    km_dataset *wide = dense(3, 4, 1.0);
    CHECK_OK(km_dataset_first_features(wide, 2, &cut));
    CHECK(km_dataset_dim(cut) == 2 && km_dataset_value(cut, 2, 1) == km_dataset_value(wide, 2, 1));
    km_dataset_free(cut);
    CHECK_STATUS(km_dataset_first_features(wide, 5, &cut), KM_EINVAL);
    CHECK(cut == NULL);
    km_dataset_free(wide);
    km_dataset_free(sparse);
}

/* A dense model's feature count is exact; a sparse model ignores features it never saw. */
KM_TEST_CASE(test_features_against_the_model)
{
    km_dataset *train4 = dense(40, 4, 1.0), *test3 = dense(10, 3, 1.0), *test5 = dense(10, 5, 1.0);
    km_model *model = train(train4, "rbf:gamma=0.5", KM_TASK_SVC);
    double labels[40];
    CHECK_STATUS(km_predict(model, test3, NULL, labels, NULL), KM_EFORMAT);
    CHECK(strstr(km_last_error(), "3 features per row, but the model was trained on 4") != NULL);
    CHECK_STATUS(km_predict(model, test5, NULL, labels, NULL), KM_EFORMAT);
    km_dataset *beyond = read_text("1 1:0.5 5:1\n", 0, 0);
    CHECK_STATUS(km_predict(model, beyond, NULL, labels, NULL), KM_EFORMAT);
    CHECK(strstr(km_last_error(), "feature index 5 is beyond the 4 features") != NULL);
    km_model_free(model);

    const char *rows = "1 1:1 2:0.5\n-1 1:-1 2:-0.2\n1 1:0.8 2:0.1\n-1 1:-0.6 2:-0.9\n";
    km_dataset *sparse_train = read_text(rows, 0, 0);
    model = train(sparse_train, "rbf:gamma=0.5", KM_TASK_SVC);
    km_dataset *seen = read_text("1 1:0.3 2:0.2\n-1 2:-0.4\n", 0, 0);
    km_dataset *unseen = read_text("1 1:0.3 2:0.2 100000000:7\n-1 2:-0.4 3:9\n", 0, 0);
    double d_seen[2], d_unseen[2];
    CHECK_OK(km_predict(model, seen, NULL, labels, d_seen));
    CHECK_OK(km_predict(model, unseen, NULL, labels, d_unseen));
    CHECK(d_seen[0] == d_unseen[0] && d_seen[1] == d_unseen[1]);
    /* dense rows need every feature the sparse model saw, and may carry more */
    km_dataset *narrower = dense(2, 1, 1.0), *wider = dense(2, 3, 1.0);
    CHECK_STATUS(km_predict(model, narrower, NULL, labels, NULL), KM_EFORMAT);
    CHECK_OK(km_predict(model, wider, NULL, labels, NULL));
    km_dataset_free(narrower);
    km_dataset_free(wider);
    km_model_free(model);
    km_dataset_free(seen);
    km_dataset_free(unseen);
    km_dataset_free(sparse_train);
    km_dataset_free(beyond);
    km_dataset_free(train4);
    km_dataset_free(test3);
    km_dataset_free(test5);
}

/* The CSV layout survives a save and load; test rows read with the label elsewhere are refused. */
KM_TEST_CASE(csv_layout)
{
    const char *first = "1;0.5;0.2\n2;-0.5;0.1\n1;0.7;-0.3\n2;-0.9;0.4\n1;0.4;0.4\n2;-0.3;-0.6\n";
    km_dataset *data = read_text(first, 1, 0);
    CHECK(data->csv_fields == 3 && data->csv_label_field == 0 && km_dataset_dim(data) == 2);
    km_model *model = train(data, "linear", KM_TASK_SVC), *loaded = NULL;
    void *bytes = NULL;
    size_t size = 0;
    CHECK_OK(km_model_save_buffer(model, &bytes, &size));
    CHECK_OK(km_model_load_buffer(bytes, size, &loaded));
    size_t fields = 0;
    int label = -5;
    CHECK_OK(km_model_csv_layout(loaded, &fields, &label));
    CHECK(fields == 3 && label == 0);
    km_dataset *label_last = read_text(first, 1, -1);
    double predicted[6];
    CHECK_STATUS(km_predict(loaded, label_last, NULL, predicted, NULL), KM_EFORMAT);
    CHECK(strstr(km_last_error(), "label is read from field 3 of 3, but the model was trained with the label in field 1"));
    CHECK_OK(km_predict(loaded, data, NULL, predicted, NULL));
    km_dataset *not_csv_rows = dense(10, 2, 1.0);
    km_model *not_csv = train(not_csv_rows, "linear", KM_TASK_SVC);
    CHECK_STATUS(km_model_csv_layout(not_csv, &fields, &label), KM_EINVAL);
    km_model_free(not_csv);
    km_dataset_free(not_csv_rows);
    km_free(bytes);
    km_model_free(loaded);
    km_model_free(model);
    km_dataset_free(label_last);
    km_dataset_free(data);
}

KM_TEST_CASE(overflow)
{
    km_dataset *data = dense(30, 4, 3.0);
    CHECK_STATUS(train_status(data, "poly:degree=1000", KM_TASK_SVC, "k(x, x) of training row"), KM_EINVAL);
    km_dataset *huge = dense(30, 4, 1e300);
    CHECK_STATUS(train_status(huge, "rbf:gamma=1", KM_TASK_SVC, "squared norm of the features overflows"), KM_EINVAL);
    CHECK_STATUS(train_status(huge, "linear:features=1", KM_TASK_SVC, "squared norm"), KM_EINVAL);
    double X[60], y[30];
    for (size_t i = 0; i < 30; i++) {
        X[2 * i] = km_dataset_value(data, i, 0);
        X[2 * i + 1] = km_dataset_value(data, i, 1);
        y[i] = (i % 2 ? 1.0 : -1.0) * 1e300;
    }
    km_dataset *targets = NULL;
    CHECK_OK(km_dataset_from_dense(30, 2, X, y, &targets));
    CHECK_STATUS(train_status(targets, "linear", KM_TASK_SVR, "target -1e+300 is beyond"), KM_EINVAL);
    /* the same labels are fine class labels */
    km_model_free(train(targets, "linear", KM_TASK_SVC));
    km_dataset_free(targets);
    km_dataset_free(huge);
    km_dataset_free(data);
}

KM_TEST_CASE(cross_validation_one_row_class)
{
    km_dataset *data = read_text("-1 1:1\n-1 1:1.2\n-1 1:0.9\n-1 1:1.1\n-1 1:0.8\n1 1:-1\n", 0, 0);
    km_kernel_set *set = NULL;
    km_params *params = NULL;
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    CHECK_OK(km_params_new(&params));
    double predicted[6];
    CHECK_OK(km_cross_validate(data, set, params, 3, predicted));
    CHECK(predicted[5] == -1.0);
    km_params_free(params);
    km_kernel_set_free(set);
    km_dataset_free(data);
}

/* The doubt about K classes of `each` rows (labels 0..K-1 plus offset). */
static km_label_doubt doubt_of(size_t K, size_t each, double offset, km_task task)
{
    size_t n = K * each;
    double *X = calloc(n, sizeof *X), *y = malloc(n * sizeof *y);
    CHECK(X && y);
    for (size_t i = 0; i < n; i++)
        y[i] = (double)(i / each) + offset;
    km_dataset *data = NULL;
    CHECK_OK(km_dataset_from_dense(n, 1, X, y, &data));
    char why[512];
    km_label_doubt doubt = km_label_doubt_of(data, task, why, sizeof why);
    CHECK((doubt == KM_LABELS_PLAUSIBLE) == (why[0] == '\0'));
    km_dataset_free(data);
    free(X);
    free(y);
    return doubt;
}

KM_TEST_CASE(label_doubt)
{
    CHECK(doubt_of(10, 2, 0, KM_TASK_SVC) == KM_LABELS_TOO_MANY);
    CHECK(doubt_of(9, 2, 0, KM_TASK_SVC) == KM_LABELS_PLAUSIBLE);
    CHECK(doubt_of(10, 3, 0, KM_TASK_NU_SVC) == KM_LABELS_PLAUSIBLE);
    CHECK(doubt_of(101, 4, 0, KM_TASK_SVC) == KM_LABELS_TOO_MANY);
    CHECK(doubt_of(101, 5, 0, KM_TASK_SVC) == KM_LABELS_PLAUSIBLE);
    CHECK(doubt_of(100, 4, 0, KM_TASK_SVC) == KM_LABELS_PLAUSIBLE);
    CHECK(doubt_of(3, 4, 0.5, KM_TASK_SVC) == KM_LABELS_NOT_INTEGER);
    CHECK(doubt_of(101, 4, 0.5, KM_TASK_SVC) == KM_LABELS_TOO_MANY);
    /* regression targets and one-class rows are not classes */
    CHECK(doubt_of(101, 1, 0.5, KM_TASK_SVR) == KM_LABELS_PLAUSIBLE);
    CHECK(doubt_of(101, 1, 0.5, KM_TASK_KRR) == KM_LABELS_PLAUSIBLE);
    CHECK(doubt_of(101, 1, 0.5, KM_TASK_ONECLASS) == KM_LABELS_PLAUSIBLE);
}

KM_TEST_CASE(default_norm)
{
    km_kernel_set *set = NULL;
    char spec[128];
    CHECK_OK(km_kernel_set_new(&set));
    CHECK_OK(km_kernel_set_add_spec(set, "linear"));
    CHECK_OK(km_kernel_set_set_default_norm(set, KM_NORM_SPHERICAL));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=1"));
    CHECK_OK(km_kernel_set_add_spec(set, "rbf:gamma=2:norm=none"));
    CHECK_STATUS(km_kernel_set_add_spec(set, "poly:scale=2"), KM_EINVAL); /* scale= needs mult or trace */
    CHECK_STATUS(km_kernel_set_set_default_norm(set, (km_normalization)9), KM_EINVAL);
    km_kernel_set_describe(set, 0, spec, sizeof spec);
    CHECK(!strcmp(spec, "linear"));
    km_kernel_set_describe(set, 1, spec, sizeof spec);
    CHECK(!strcmp(spec, "rbf:gamma=1:norm=spherical"));
    km_kernel_set_describe(set, 2, spec, sizeof spec);
    CHECK(!strcmp(spec, "rbf:gamma=2"));
    km_kernel_set_free(set);
}

KM_TEST_CASE(training_kernel_ids)
{
    FILE *f = fopen(TMP, "w");
    CHECK(f != NULL);
    fputs("1 0:1 1:2 2:1\n-1 0:1 1:1 2:2\n", f);
    fclose(f);
    km_matrix *K = NULL;
    CHECK_STATUS(km_matrix_read_training(TMP, &K), KM_EFORMAT);
    CHECK(strstr(km_last_error(), "row 2: id 0:1 is not the row's position 2") != NULL);
    CHECK_OK(km_matrix_read(TMP, &K)); /* a test kernel's ids are free */
    km_matrix_free(K);
    f = fopen(TMP, "w");
    fputs("1 0:1 1:2 2:1\n-1 0:2 1:1 2:2\n", f);
    fclose(f);
    CHECK_OK(km_matrix_read_training(TMP, &K));
    CHECK(km_matrix_rows(K) == 2);
    km_matrix_free(K);
    remove(TMP);
}
