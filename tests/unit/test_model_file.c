/* Model files: save/load round trips reproduce every field bit for bit and the file byte for byte;
 * truncated, corrupted, newer or inconsistent files fail with KM_EFORMAT; writes are atomic. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "data/dataset.h"
#include "kernelmix.h"
#include "model/model_io.h"

/* ---------------------------------------------------------------- building models in memory */

static void *copy_of(const void *src, size_t bytes)
{
    void *dst = malloc(bytes ? bytes : 1);
    if (!dst) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memcpy(dst, src, bytes);
    return dst;
}

static void add_kernel(km_kernel_set *set, const km_kernel *k)
{
    if (km_kernel_set_append(set, k) != KM_OK) {
        fprintf(stderr, "km_kernel_set_append: %s\n", km_last_error());
        exit(2);
    }
}

static void set_machine(km_machine *machine, const double *theta, size_t n_kernels, const size_t *sv,
                        const double *coef, size_t n_sv, double bias, double objective, long iterations,
                        int class_pos, int class_neg)
{
    machine->theta = copy_of(theta, n_kernels * sizeof *theta);
    machine->sv = copy_of(sv, n_sv * sizeof *sv);
    machine->coef = copy_of(coef, n_sv * sizeof *coef);
    machine->n_sv = n_sv;
    machine->bias = bias;
    machine->objective = objective;
    machine->iterations = iterations;
    machine->converged = iterations < 1000;
    machine->class_pos = class_pos;
    machine->class_neg = class_neg;
}

/* 3 classes, one-vs-one, an RBF kernel on features 1,3,4 centred in feature space (col_mean) and a
 * polynomial kernel with multiplicative normalization; sparse basis of 5 rows with labels. */
static km_model *classification_model(void)
{
    km_model *model;
    if (km_model_alloc(&model) != KM_OK)
        exit(2);
    model->task = KM_TASK_SVC;
    model->multiclass = KM_MULTICLASS_OVO;
    model->C = 10.0;
    model->epsilon = 0.1;
    model->nu = 0.5;
    model->tolerance = 1e-3;
    model->n_train = 7;
    model->n_classes = 3;
    static const double labels[] = {2.5, -1.0, 7.0};
    model->labels = copy_of(labels, sizeof labels);

    km_kernel_set_new(&model->kernels);
    model->kernels->dimension = 6;
    static const uint32_t features[] = {0, 2, 3};
    static const double col_mean[] = {0.5, 1.0 / 3.0, -0.0, 4.9406564584124654e-324, 1e300, 0.125, 3.141592653589793};
    km_kernel rbf = {.type = KM_KERNEL_RBF, .gamma = 0.1 / 3.0, .gamma_mode = KM_GAMMA_RELATIVE, .coef0 = 0,
                     .degree = 3, .n_features = 3, .norm = KM_NORM_SPHERICAL, .center = 1, .fitted = 1,
                     .scale = 1, .mean_all = 0.2718281828459045, .n_train = 7};
    rbf.features = copy_of(features, sizeof features);
    rbf.col_mean = copy_of(col_mean, sizeof col_mean);
    add_kernel(model->kernels, &rbf);
    km_kernel poly = {.type = KM_KERNEL_POLY, .gamma = 0.5, .coef0 = 1.0 / 7.0, .degree = 2,
                      .norm = KM_NORM_MULTIPLICATIVE, .fitted = 1, .scale = 2.0 / 3.0};
    add_kernel(model->kernels, &poly);

    model->n_machines = 3;
    model->machines = calloc(3, sizeof *model->machines);
    static const double theta_a[] = {0.6, 0.4}, theta_b[] = {1.0, 0.0}, theta_c[] = {1.0 / 3.0, 2.0 / 3.0};
    static const size_t sv_a[] = {0, 1, 3}, sv_b[] = {0, 2}, sv_c[] = {1, 2, 3, 4};
    static const double coef_a[] = {1.0, -0.25, -0.75}, coef_b[] = {10.0, -10.0},
                        coef_c[] = {0.1, 0.2, -0.30000000000000004, 1e-17};
    set_machine(&model->machines[0], theta_a, 2, sv_a, coef_a, 3, -0.125, -1.5, 17, 0, 1);
    set_machine(&model->machines[1], theta_b, 2, sv_b, coef_b, 2, 0.0, -20.25, 1000, 0, 2);
    set_machine(&model->machines[2], theta_c, 2, sv_c, coef_c, 4, 1.0 / 9.0, -0.001, 3, 1, 2);

    km_dataset *basis;
    km_dataset_alloc(&basis);
    basis->n = 5;
    basis->d = 6;
    basis->sparse = 1;
    static const size_t row_start[] = {0, 2, 2, 5, 6, 8};
    static const uint32_t col[] = {0, 5, 1, 2, 3, 4, 0, 5};
    static const double val[] = {0.5, -1.0, 1.0 / 3.0, 2e-8, 100.0, -0.0, 1e-300, 6.0};
    static const double basis_labels[] = {2.5, 2.5, -1.0, 7.0, -1.0};
    basis->row_start = copy_of(row_start, sizeof row_start);
    basis->col = copy_of(col, sizeof col);
    basis->val = copy_of(val, sizeof val);
    basis->labels = copy_of(basis_labels, sizeof basis_labels);
    model->basis = basis;
    static const size_t kcol[] = {0, 2, 3, 5, 6};
    model->basis_kcol = copy_of(kcol, sizeof kcol);
    return model;
}

/* epsilon-SVR with a precomputed kernel read from a file (whose name needs escapes) and a linear
 * kernel; dense basis of 3 rows with precomputed-kernel ids. */
static km_model *regression_model(void)
{
    km_model *model;
    if (km_model_alloc(&model) != KM_OK)
        exit(2);
    model->task = KM_TASK_SVR;
    model->multiclass = KM_MULTICLASS_OVR;
    model->C = 0.5;
    model->epsilon = 0.01;
    model->nu = 0.25;
    model->tolerance = 1e-4;
    model->n_train = 4;

    km_kernel_set_new(&model->kernels);
    km_kernel pre = {.type = KM_KERNEL_PRECOMPUTED, .norm = KM_NORM_TRACE, .fitted = 1, .scale = 4.25};
    pre.file = copy_of("train kernel \"v2\"\\\t.km", sizeof "train kernel \"v2\"\\\t.km");
    add_kernel(model->kernels, &pre);
    km_kernel linear = {.type = KM_KERNEL_LINEAR, .fitted = 1, .scale = 1};
    add_kernel(model->kernels, &linear);

    model->n_machines = 1;
    model->machines = calloc(1, sizeof *model->machines);
    static const double theta[] = {0.75, 0.25};
    static const size_t sv[] = {0, 1, 2};
    static const double coef[] = {0.5, -0.5, 1e-3};
    set_machine(&model->machines[0], theta, 2, sv, coef, 3, 2.0 / 3.0, -0.0625, 42, -1, -1);

    static const double X[] = {1.0, 2.0, 0.0, -0.0, 1.0 / 3.0, 5e-324, 1e10, -2.5, 0.1};
    km_dataset *basis;
    km_dataset_from_dense(3, 3, X, NULL, &basis);
    static const double ids[] = {1, 3, 4};
    basis->ids = copy_of(ids, sizeof ids);
    model->basis = basis;
    static const size_t kcol[] = {0, 2, 3};
    model->basis_kcol = copy_of(kcol, sizeof kcol);
    return model;
}

/* ---------------------------------------------------------------- comparing models */

static int same_doubles(const double *a, const double *b, size_t n)
{
    if (!a || !b)
        return a == b;
    return memcmp(a, b, n * sizeof *a) == 0;
}

static int same_string(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

static void check_same_kernel(const km_kernel *a, const km_kernel *b)
{
    CHECK(a->type == b->type);
    CHECK(same_doubles(&a->gamma, &b->gamma, 1));
    CHECK(a->gamma_mode == b->gamma_mode);
    CHECK(same_doubles(&a->coef0, &b->coef0, 1));
    CHECK(same_doubles(&a->degree, &b->degree, 1));
    CHECK(a->n_features == b->n_features);
    CHECK((!a->features && !b->features) ||
          (a->features && b->features && !memcmp(a->features, b->features, a->n_features * sizeof *a->features)));
    CHECK(a->norm == b->norm);
    CHECK(a->center == b->center);
    CHECK(same_string(a->file, b->file));
    CHECK(a->fitted == b->fitted);
    CHECK(same_doubles(&a->scale, &b->scale, 1));
    CHECK(same_doubles(&a->mean_all, &b->mean_all, 1));
    CHECK(a->n_train == b->n_train);
    CHECK(same_doubles(a->col_mean, b->col_mean, a->n_train));
    CHECK(!b->matrix && !b->owned_matrix);
}

static void check_same_machine(const km_machine *a, const km_machine *b, size_t n_kernels)
{
    CHECK(same_doubles(a->theta, b->theta, n_kernels));
    CHECK(same_doubles(&a->bias, &b->bias, 1));
    CHECK(same_doubles(&a->objective, &b->objective, 1));
    CHECK(a->iterations == b->iterations);
    CHECK(a->converged == b->converged);
    CHECK(a->class_pos == b->class_pos);
    CHECK(a->class_neg == b->class_neg);
    CHECK(a->n_sv == b->n_sv);
    CHECK(!memcmp(a->sv, b->sv, a->n_sv * sizeof *a->sv));
    CHECK(same_doubles(a->coef, b->coef, a->n_sv));
}

static void check_same_basis(const km_dataset *a, const km_dataset *b)
{
    CHECK(a->n == b->n && a->d == b->d && a->sparse == b->sparse);
    CHECK(same_doubles(a->labels, b->labels, a->n));
    CHECK(same_doubles(a->ids, b->ids, a->n));
    if (a->sparse) {
        CHECK(!memcmp(a->row_start, b->row_start, (a->n + 1) * sizeof *a->row_start));
        size_t nnz = a->row_start[a->n];
        CHECK(!memcmp(a->col, b->col, nnz * sizeof *a->col));
        CHECK(same_doubles(a->val, b->val, nnz));
    } else {
        CHECK(same_doubles(a->X, b->X, a->n * a->d));
    }
}

static void check_same_model(const km_model *a, const km_model *b)
{
    CHECK(a->task == b->task && a->multiclass == b->multiclass);
    CHECK(same_doubles(&a->C, &b->C, 1) && same_doubles(&a->epsilon, &b->epsilon, 1));
    CHECK(same_doubles(&a->nu, &b->nu, 1) && same_doubles(&a->tolerance, &b->tolerance, 1));
    CHECK(a->n_train == b->n_train);
    CHECK(a->n_classes == b->n_classes);
    CHECK(same_doubles(a->labels, b->labels, a->n_classes));
    CHECK(a->kernels->dimension == b->kernels->dimension);
    CHECK(a->kernels->size == b->kernels->size);
    for (size_t m = 0; m < a->kernels->size && m < b->kernels->size; m++)
        check_same_kernel(&a->kernels->kernels[m], &b->kernels->kernels[m]);
    CHECK(a->n_machines == b->n_machines);
    for (size_t p = 0; p < a->n_machines && p < b->n_machines; p++)
        check_same_machine(&a->machines[p], &b->machines[p], a->kernels->size);
    check_same_basis(a->basis, b->basis);
    CHECK(!memcmp(a->basis_kcol, b->basis_kcol, a->basis->n * sizeof *a->basis_kcol));
}

/* ---------------------------------------------------------------- files */

static char *read_bytes(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)len + 1);
    *size = fread(buf, 1, (size_t)len, f);
    buf[*size] = '\0';
    fclose(f);
    return buf;
}

static void write_bytes(const char *path, const char *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, size, f);
    fclose(f);
}

/* Writes text (without a checksum line) followed by its correct checksum line. */
static void write_with_checksum(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    fprintf(f, "%s", text);
    fprintf(f, "checksum crc32 %08lx\n", (unsigned long)km_crc32(0, text, strlen(text)));
    fclose(f);
}

/* The text of a saved model without its checksum line, with the first `from` replaced by `to`. */
static char *edited_body(const char *saved, const char *from, const char *to)
{
    const char *checksum = strstr(saved, "checksum crc32 ");
    const char *at = strstr(saved, from);
    if (!checksum || !at || at > checksum) {
        fprintf(stderr, "edited_body: \"%s\" not found\n", from);
        exit(2);
    }
    size_t head = (size_t)(at - saved), tail = (size_t)(checksum - at) - strlen(from);
    char *text = malloc(head + strlen(to) + tail + 1);
    memcpy(text, saved, head);
    memcpy(text + head, to, strlen(to));
    memcpy(text + head + strlen(to), at + strlen(from), tail);
    text[head + strlen(to) + tail] = '\0';
    return text;
}

/* Loading path fails with KM_EFORMAT, without a model, and the message contains expected. */
static void check_format_error(const char *path, const char *expected)
{
    km_model *model = (km_model *)&model;
    km_status st = km_model_load(path, &model);
    CHECK(st == KM_EFORMAT);
    CHECK(model == NULL);
    if (!strstr(km_last_error(), expected)) {
        fprintf(stderr, "message \"%s\" does not contain \"%s\"\n", km_last_error(), expected);
        check_failures++;
    }
}

/* the temporary files of atomic writes (core/atomic_file.h) in the working directory, or files whose
 * name extends base */
static int leftover_temporaries(const char *base)
{
    int found = 0;
    DIR *dir = opendir(".");
    struct dirent *entry;
    size_t len = strlen(base);
    while (dir && (entry = readdir(dir)))
        if ((!strncmp(entry->d_name, base, len) && entry->d_name[len] == '.') ||
            !strncmp(entry->d_name, ".kernelmix-", strlen(".kernelmix-")))
            found++;
    if (dir)
        closedir(dir);
    return found;
}

/* ---------------------------------------------------------------- tests */

static void test_crc32(void)
{
    CHECK(km_crc32(0, "123456789", 9) == 0xcbf43926u);   /* the standard check value */
    CHECK(km_crc32(0, "", 0) == 0);
    CHECK(km_crc32(km_crc32(0, "12345", 5), "6789", 4) == 0xcbf43926u);
}

static void test_round_trip(km_model *(*build)(void), const char *path, const char *path2)
{
    km_model *original = build(), *loaded = NULL, *again = NULL;
    CHECK_OK(km_model_save(original, path));
    CHECK_OK(km_model_load(path, &loaded));
    if (loaded)
        check_same_model(original, loaded);
    /* saving the loaded model reproduces the file byte for byte */
    if (loaded)
        CHECK_OK(km_model_save(loaded, path2));
    size_t n1 = 0, n2 = 0;
    char *a = read_bytes(path, &n1), *b = read_bytes(path2, &n2);
    CHECK(a && b && n1 == n2 && !memcmp(a, b, n1));
    /* the last line is the CRC-32 of everything before it */
    const char *line = a ? strstr(a, "checksum crc32 ") : NULL;
    CHECK(line && (size_t)(line - a) + 24 == n1);
    if (line) {
        char expected[32];
        snprintf(expected, sizeof expected, "checksum crc32 %08lx\n",
                 (unsigned long)km_crc32(0, a, (size_t)(line - a)));
        CHECK(!strcmp(line, expected));
    }
    CHECK(a && !strncmp(a, "kernelmix-model 3\n", 18));
    CHECK_OK(km_model_load(path2, &again));
    if (again)
        check_same_model(original, again);
    free(a);
    free(b);
    km_model_free(original);
    km_model_free(loaded);
    km_model_free(again);
    remove(path2);
}

static void test_escaped_file_name(const char *path)
{
    size_t n = 0;
    char *text = read_bytes(path, &n);
    CHECK(text && strstr(text, "\nfile \"train kernel \\\"v2\\\"\\\\\\x09.km\"\n"));
    CHECK(text && strstr(text, "\nfeatures all\n") && strstr(text, "\ncol_mean none\n"));
    free(text);
}

/* Every proper prefix of a saved model is rejected. */
static void test_truncation(const char *path)
{
    size_t n = 0;
    char *text = read_bytes(path, &n);
    const char *cut = "test_model_file_cut.km";
    int accepted = 0;
    write_bytes(cut, text, n);
    int fd = open(cut, O_WRONLY);
    for (size_t k = n; text && k-- > 0;) {
        CHECK(ftruncate(fd, (off_t)k) == 0);
        km_model *model = NULL;
        km_status st = km_model_load(cut, &model);
        if (st != KM_EFORMAT || model) {
            fprintf(stderr, "prefix of %zu/%zu bytes: status %d (%s)\n", k, n, (int)st, km_last_error());
            accepted++;
        }
        km_model_free(model);
    }
    close(fd);
    CHECK(accepted == 0);
    write_bytes(cut, text, n / 2);
    check_format_error(cut, "truncated");
    remove(cut);
    free(text);
}

/* Changing any single byte (two different bit flips each) is detected. */
static void test_corruption(const char *path)
{
    size_t n = 0;
    char *text = read_bytes(path, &n);
    const char *bad = "test_model_file_flip.km";
    int accepted = 0;
    static const unsigned char flips[] = {0x01, 0x80, 0x20};
    write_bytes(bad, text, n);
    int fd = open(bad, O_WRONLY);
    for (size_t k = 0; text && k < n; k++) {
        for (size_t f = 0; f < sizeof flips; f++) {
            char flipped = (char)(text[k] ^ (char)flips[f]);
            CHECK(pwrite(fd, &flipped, 1, (off_t)k) == 1);
            km_model *model = NULL;
            km_status st = km_model_load(bad, &model);
            if (st != KM_EFORMAT || model) {
                fprintf(stderr, "byte %zu ^ 0x%02x: status %d (%s)\n", k, flips[f], (int)st, km_last_error());
                accepted++;
            }
            km_model_free(model);
        }
        CHECK(pwrite(fd, &text[k], 1, (off_t)k) == 1);
    }
    close(fd);
    CHECK(accepted == 0);
    /* a digit changed in the body: syntactically fine, caught by the checksum */
    char *body = strstr(text, "\nbias ");
    if (body) {
        body[6] = body[6] == '1' ? '2' : '1';
        write_bytes(bad, text, n);
        check_format_error(bad, "checksum mismatch (file corrupt)");
    }
    remove(bad);
    free(text);
}

static void test_headers(const char *path)
{
    size_t n = 0;
    char *text = read_bytes(path, &n);
    const char *bad = "test_model_file_header.km";
    text[16] = '4';
    write_bytes(bad, text, n);
    check_format_error(bad, "model format version 4 is newer than this kernelmix supports (3)");
    write_bytes(bad, "kernelmix-model 12345678901234567890123\nx\n", 42);
    check_format_error(bad, "is newer than this kernelmix supports (3)");
    write_bytes(bad, "svm_type c_svc\nkernel_type rbf\n", 31);
    check_format_error(bad, "test_model_file_header.km: not a kernelmix model");
    write_bytes(bad, "", 0);
    check_format_error(bad, "not a kernelmix model");
    text[16] = '2';
    text[40] = '\0';
    write_bytes(bad, text, n);
    check_format_error(bad, "NUL");
    remove(bad);
    free(text);

    km_model *model = (km_model *)&model;
    CHECK_STATUS(km_model_load("test_model_file_missing.km", &model), KM_EIO);
    CHECK(model == NULL);
}

/* Files with a correct checksum but inconsistent content (hand-edited) are still rejected. */
static void test_validation(const char *path)
{
    size_t n = 0;
    char *saved = read_bytes(path, &n);
    const char *bad = "test_model_file_edit.km";
    static const struct {
        const char *from, *to, *message;
    } edits[] = {
        {"\nn_sv 3\n0 1\n", "\nn_sv 3\n9 1\n", "support vector index 9 is beyond the 5 basis rows"},
        {"\nn_sv 2\n0 10\n2 -10\n", "\nn_sv 2\n2 10\n0 -10\n", "not ascending"},
        {"\nclass_neg 2\n", "\nclass_neg 3\n", "class index 3 is not a second class"},
        {"\nclass_pos 1\n", "\nclass_pos 5\n", "class index 5 is not within"},
        {"\nbias -0.125\n", "\nbias nan\n", ": bad bias \"nan\""},
        {"\nbias -0.125\n", "\nbias inf\n", "bad bias \"inf\""},
        {"\nbias -0.125\n", "\nbias -0.125 7\n", "unexpected \"7\" after bias"},
        {"\nn_sv 2\n", "\nn_sv 99999999999999\n", "n_sv 99999999999999 exceeds what the file holds"},
        {"\nn_sv 2\n", "\nn_sv -2\n", "bad n_sv \"-2\""},
        {"\nn_sv 2\n", "\nn_sv 3\n", "bad support vector index \"machine\""},
        {"\nn_machines 3\n", "\nn_machines 2\n", "expected \"basis_rows\", found \"machine\""},
        {"\nn_classes 3\nlabels 2.5 -1 7\n", "\nn_classes 3\nlabels 2.5 -1\n", "missing labels"},
        {"\nlabels 2.5 -1 7\n", "\nlabels 2.5 -1 2.5\n", "class label 2.5 appears twice"},
        {"\ntask svc\n", "\ntask nusvc\n", "bad task \"nusvc\""},
        {"\ntype poly\n", "\ntype spline\n", "bad type \"spline\""},
        {"\nfeatures 3 1 3 4\n", "\nfeatures 3 1 4 3\n", "feature index 3 is not ascending"},
        {"\nfeatures 3 1 3 4\n", "\nfeatures 3 1 3 7\n", "feature index 7 is not ascending within 1..6"},
        {"\ncol_mean 0.5 ", "\ncol_mean none ", "bad col_mean"},
        {"\nkernel 1\n", "\nkernel 2\n", "kernel 2 where kernel 1 was expected"},
        {"\nbasis_rows 5\n", "\nbasis_rows 6\n", "unexpected end of the model (expected a basis row)"},
        {"\nbasis_rows 5\n", "\nbasis_rows 4\n", "unexpected text after the basis rows"},
        {" 6:-1\n", " 7:-1\n", "feature index 7 is not ascending within 1..6"},
        {" 6:-1\n", " 6-1\n", "bad sparse feature \"6-1\""},
        {" 6:-1\n", " 1:-1\n", "feature index 1 is not ascending"},
        {"\nconverged 1\n", "\nconverged 2\n", "bad converged \"2\""},
        {"\ncenter 1\n", "\ncentre 1\n", "expected \"center\", found \"centre\""},
    };
    for (size_t e = 0; saved && e < sizeof edits / sizeof edits[0]; e++) {
        char *text = edited_body(saved, edits[e].from, edits[e].to);
        write_with_checksum(bad, text);
        check_format_error(bad, edits[e].message);
        free(text);
    }
    /* the unedited body with a recomputed checksum loads */
    char *same = edited_body(saved, "\n", "\n");
    write_with_checksum(bad, same);
    km_model *model = NULL;
    CHECK_OK(km_model_load(bad, &model));
    km_model_free(model);
    free(same);
    remove(bad);
    free(saved);
}

static void test_dense_validation(const char *path)
{
    size_t n = 0;
    char *saved = read_bytes(path, &n);
    const char *bad = "test_model_file_edit.km";
    static const struct {
        const char *from, *to, *message;
    } edits[] = {
        {"\nbasis_dim 3\n", "\nbasis_dim 4\n", "missing basis value"},
        {"\nbasis_dim 3\n", "\nbasis_dim 100000000000\n", "dense basis exceeds what the file holds"},
        {"\nfile \"train", "\nfile \"tr\\q", "bad file name"},
        {"\nfile \"train", "\nfile \"tr\\x00", "bad file name"},
        {"\nfile \"train", "\nfile train", "bad file name"},
        {"\nclass_pos -1\n", "\nclass_pos -2\n", "bad class_pos \"-2\""},
        {"\nn_classes 0\nlabels\n", "\nn_classes 2\nlabels 0 1\n", "a svr model has no classes (found 2)"},
    };
    for (size_t e = 0; saved && e < sizeof edits / sizeof edits[0]; e++) {
        char *text = edited_body(saved, edits[e].from, edits[e].to);
        write_with_checksum(bad, text);
        check_format_error(bad, edits[e].message);
        free(text);
    }
    remove(bad);
    free(saved);
}

static void test_save_failures(void)
{
    km_model *model = classification_model();
    /* a directory that does not exist */
    const char *nowhere = "test_model_file_no_such_dir/model.km";
    CHECK_STATUS(km_model_save(model, nowhere), KM_EIO);
    CHECK(!strncmp(km_last_error(), "test_model_file_no_such_dir/model.km: cannot write model: ", 58));
    CHECK(access(nowhere, F_OK) != 0 && access("test_model_file_no_such_dir", F_OK) != 0);

    /* a model that could not be read back is refused before anything is written */
    const char *path = "test_model_file_invalid.km";
    model->machines[0].bias = NAN;
    CHECK_STATUS(km_model_save(model, path), KM_EINVAL);
    CHECK(strstr(km_last_error(), "non-finite bias") != NULL);
    model->machines[0].bias = 0.5;
    model->machines[2].sv[3] = 5;
    CHECK_STATUS(km_model_save(model, path), KM_EINVAL);
    model->machines[2].sv[3] = 4;
    model->n_machines = 2;
    CHECK_STATUS(km_model_save(model, path), KM_EINVAL);
    CHECK(strstr(km_last_error(), "2 machines where the task needs 3") != NULL);
    model->n_machines = 3;
    model->kernels->kernels[1].norm = (km_normalization)9;
    CHECK_STATUS(km_model_save(model, path), KM_EINVAL);
    CHECK(access(path, F_OK) != 0 && leftover_temporaries(path) == 0);
    km_model_free(model);
}

/* A failed save (the file size limit stops the write half-way) leaves the existing model as it was. */
static void test_atomic_replace(void)
{
    const char *path = "test_model_file_replace.km";
    km_model *small = regression_model(), *large = classification_model(), *loaded = NULL;
    mode_t old_mask = umask(022);
    CHECK_OK(km_model_save(small, path));
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
    size_t n_before = 0, n_after = 0;
    char *before = read_bytes(path, &n_before);

    struct rlimit saved_limit, limit;
    getrlimit(RLIMIT_FSIZE, &saved_limit);
    limit = saved_limit;
    limit.rlim_cur = 512;
    void (*saved_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &limit) == 0);
    CHECK_STATUS(km_model_save(large, path), KM_EIO);
    CHECK(strstr(km_last_error(), "test_model_file_replace.km: cannot write model: ") == km_last_error());
    setrlimit(RLIMIT_FSIZE, &saved_limit);
    signal(SIGXFSZ, saved_handler);

    char *after = read_bytes(path, &n_after);
    CHECK(before && after && n_before == n_after && !memcmp(before, after, n_before));
    CHECK(leftover_temporaries(path) == 0);

    /* a complete save replaces the file and keeps its permissions */
    chmod(path, 0600);
    CHECK_OK(km_model_save(large, path));
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
    CHECK_OK(km_model_load(path, &loaded));
    if (loaded)
        check_same_model(large, loaded);
    CHECK(leftover_temporaries(path) == 0);
    umask(old_mask);
    free(before);
    free(after);
    km_model_free(small);
    km_model_free(large);
    km_model_free(loaded);
    remove(path);
}

/* the saved models that several cases read */
static void save_models(void)
{
    km_model *svc = classification_model(), *svr = regression_model();
    CHECK_OK(km_model_save(svc, "test_model_file_svc.km"));
    CHECK_OK(km_model_save(svr, "test_model_file_svr.km"));
    km_model_free(svc);
    km_model_free(svr);
}

static void remove_models(void)
{
    remove("test_model_file_svc.km");
    remove("test_model_file_svr.km");
}

KM_TEST_FIXTURE(save_models, remove_models)

KM_TEST_CASE(crc32) { test_crc32(); }
KM_TEST_CASE(round_trip_svc) { test_round_trip(classification_model, "test_model_file_svc.km", "test_model_file_svc2.km"); }
KM_TEST_CASE(round_trip_svr) { test_round_trip(regression_model, "test_model_file_svr.km", "test_model_file_svr2.km"); }
KM_TEST_CASE(escaped_file_name) { test_escaped_file_name("test_model_file_svr.km"); }
KM_TEST_CASE(truncation) { test_truncation("test_model_file_svr.km"); }
KM_TEST_CASE(corruption) { test_corruption("test_model_file_svr.km"); }
KM_TEST_CASE(headers) { test_headers("test_model_file_svr.km"); }
/* the version-1 reader's checks, on the same models written by the first release */
KM_TEST_CASE(validation) { test_validation(KM_TEST_DATA_DIR "/model-v1/edit_svc.model"); }
KM_TEST_CASE(dense_validation) { test_dense_validation(KM_TEST_DATA_DIR "/model-v1/edit_svr.model"); }
KM_TEST_CASE(save_failures) { test_save_failures(); }
KM_TEST_CASE(atomic_replace) { test_atomic_replace(); }
