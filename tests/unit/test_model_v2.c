/* Model format version 2: memory buffers (the bytes of a file), method-specific data sections,
 * keys and sections in any order with unknown optional ones skipped and '!' ones refused, and every
 * edited value refused where training would refuse it (negative degree or gamma, a subnormal scale,
 * a dimension or count the file cannot justify). The models are the golden version-1 files of
 * tests/data/model-v1, rewritten in the current format. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernelmix.h"
#include "model/model_io.h"

#define DIR KM_TEST_DATA_DIR "/model-v1/"

/* The current-format text of a golden model, NUL-terminated (the caller frees it). */
static char *current_text(const char *name, size_t *size)
{
    km_model *model = NULL;
    void *buffer = NULL;
    char path[256];
    snprintf(path, sizeof path, DIR "%s.model", name);
    CHECK_OK(km_model_load(path, &model));
    CHECK_OK(km_model_save_buffer(model, &buffer, size));
    km_model_free(model);
    char *text = malloc(*size + 1);
    memcpy(text, buffer, *size);
    text[*size] = '\0';
    km_free(buffer);
    return text;
}

/* text with its checksum line replaced by the checksum of its body, as a hand edit would leave it. */
static km_status load_edited(const char *text, km_model **out)
{
    const char *checksum = strstr(text, "checksum crc32 ");
    size_t body = checksum ? (size_t)(checksum - text) : strlen(text);
    char *file = malloc(body + 32);
    memcpy(file, text, body);
    size_t size = body + (size_t)snprintf(file + body, 32, "checksum crc32 %08lx\n",
                                          (unsigned long)km_crc32(0, text, body));
    km_status st = km_model_load_buffer(file, size, out);
    free(file);
    return st;
}

/* text with the first `from` replaced by `to` (the caller frees it). */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    if (!at) {
        fprintf(stderr, "replaced: \"%s\" not found\n", from);
        exit(2);
    }
    size_t head = (size_t)(at - text), from_len = strlen(from), to_len = strlen(to);
    char *out = malloc(strlen(text) - from_len + to_len + 1);
    memcpy(out, text, head);
    memcpy(out + head, to, to_len);
    strcpy(out + head + to_len, at + from_len);
    return out;
}

/* The edits (pairs from, to; NULL after the last) of a golden model's text fail with KM_EFORMAT and a
 * message containing expected. */
static void check_refused_edits(const char *name, const char *const *edits, const char *expected)
{
    size_t size;
    char *text = current_text(name, &size);
    for (size_t e = 0; edits[e]; e += 2) {
        char *edited = replaced(text, edits[e], edits[e + 1]);
        free(text);
        text = edited;
    }
    km_model *model = (km_model *)&model;
    CHECK_STATUS(load_edited(text, &model), KM_EFORMAT);
    CHECK(model == NULL);
    if (!strstr(km_last_error(), expected)) {
        fprintf(stderr, "%s, %s -> %s: message \"%s\" does not contain \"%s\"\n", name, edits[0], edits[1],
                km_last_error(), expected);
        check_failures++;
    }
    free(text);
}

static void check_refused(const char *name, const char *from, const char *to, const char *expected)
{
    const char *const edits[] = {from, to, NULL};
    check_refused_edits(name, edits, expected);
}

/* The edits (pairs from, to; NULL after the last) load, and the model predicts the svc test rows as
 * the unedited one. */
static void check_accepted(const char *const *edits)
{
    size_t size;
    char *text = current_text("svc", &size), *edited = replaced(text, edits[0], edits[1]);
    for (size_t e = 2; edits[e]; e += 2) {
        char *next = replaced(edited, edits[e], edits[e + 1]);
        free(edited);
        edited = next;
    }
    km_model *original = NULL, *model = NULL;
    km_dataset *test = NULL;
    CHECK_OK(km_model_load_buffer(text, size, &original));
    CHECK_OK(load_edited(edited, &model));
    CHECK_OK(km_dataset_read_libsvm(DIR "heart_test", 0, &test));
    if (original && model && test) {
        size_t n = km_dataset_rows(test);
        double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
        CHECK_OK(km_predict(original, test, NULL, NULL, a) || km_predict(model, test, NULL, NULL, b));
        CHECK(!memcmp(a, b, n * sizeof *a));
        free(a);
        free(b);
    }
    km_dataset_free(test);
    km_model_free(original);
    km_model_free(model);
    free(text);
    free(edited);
}

/* A buffer holds the bytes of the file km_model_save writes; loading it gives the same model. */
/* The p a model was trained with (km_model_params). */
static double model_p(const km_model *model)
{
    km_params *params = NULL;
    double p = NAN;
    CHECK_OK(km_model_params(model, &params));
    if (params)
        CHECK_OK(km_params_get_double(params, KM_PARAM_P, &p));
    km_params_free(params);
    return p;
}

static void test_buffers(void)
{
    km_model *model = NULL, *again = NULL;
    CHECK_OK(km_model_load(DIR "ovo_mkl.model", &model));
    if (!model)
        return;
    void *buffer = NULL, *buffer2 = NULL;
    size_t size = 0, size2 = 0;
    CHECK_OK(km_model_save_buffer(model, &buffer, &size));
    CHECK_OK(km_model_save(model, "test_model_v2.model"));
    FILE *f = fopen("test_model_v2.model", "rb");
    char *file = malloc(size + 1);
    size_t got = f ? fread(file, 1, size + 1, f) : 0;
    if (f)
        fclose(f);
    CHECK(got == size && !memcmp(file, buffer, size));
    CHECK(!strncmp(buffer, "kernelmix-model 3\n[model]\n", 26));
    CHECK_OK(km_model_load_buffer(buffer, size, &again));
    if (again) {
        CHECK_OK(km_model_save_buffer(again, &buffer2, &size2));
        CHECK(size2 == size && !memcmp(buffer, buffer2, size));
        CHECK(km_model_n_machines(again) == 3 && km_model_n_kernels(again) == 5);
        CHECK(!memcmp(km_model_kernel_weights(again, 2), km_model_kernel_weights(model, 2), 5 * sizeof(double)));
        CHECK(model_p(again) == model_p(model));
    }
    km_model *none = (km_model *)&none;
    CHECK_STATUS(km_model_load_buffer(buffer, size - 1, &none), KM_EFORMAT);
    CHECK(none == NULL && strstr(km_last_error(), "model buffer: truncated"));
    CHECK_STATUS(km_model_load_buffer("svm_type c_svc\n", 15, &none), KM_EFORMAT);
    CHECK_STATUS(km_model_load_buffer(NULL, 0, &none), KM_EFORMAT);
    remove("test_model_v2.model");
    free(file);
    km_free(buffer);
    km_free(buffer2);
    km_free(NULL);
    km_model_free(model);
    km_model_free(again);
}

/* Method-specific data: values (matrices, scalars) and text, written and read back generically. */
static void test_data_sections(void)
{
    km_model *model = NULL, *again = NULL;
    CHECK_OK(km_model_load(DIR "svr.model", &model));
    if (!model)
        return;
    const double centres[6] = {0.1, -2.5, 1e-300, 3, 1.0 / 3.0, -0.0};
    CHECK_OK(km_record_set_values(&model->data, "clmkl", "centres", 2, 3, centres));
    CHECK_OK(km_record_set_scalar(&model->data, "krr", "lambda", 0.25));
    CHECK_OK(km_record_set_text(&model->data, "clmkl", "note", "tab\tquote\" back\\slash"));
    CHECK_OK(km_record_set_scalar(&model->data, "krr", "lambda", 0.5));   /* replaces */
    const double inf = INFINITY;
    CHECK_STATUS(km_record_set_values(&model->data, "clmkl", "bad", 1, 1, &inf), KM_EINVAL);
    CHECK_STATUS(km_record_set_scalar(&model->data, "CLMKL", "x", 1), KM_EINVAL);
    CHECK_STATUS(km_record_set_scalar(&model->data, "clmkl", "a-b", 1), KM_EINVAL);
    CHECK_STATUS(km_record_set_scalar(&model->data, "", "x", 1), KM_EINVAL);
    CHECK_STATUS(km_record_set_values(&model->data, "clmkl", "empty", 0, 3, centres), KM_EINVAL);
    void *buffer = NULL, *buffer2 = NULL;
    size_t size = 0, size2 = 0;
    CHECK_OK(km_model_save_buffer(model, &buffer, &size));
    char *text = malloc(size + 1);
    memcpy(text, buffer, size);
    text[size] = '\0';
    CHECK(strstr(text, "\n[data clmkl]\ncentres rows 2 3\n0.10000000000000001 -2.5 1e-300\n"
                       "3 0.33333333333333331 -0\nnote text \"tab\\x09quote\\\" back\\\\slash\"\n[data krr]\n"
                       "lambda rows 1 1\n0.5\n[basis]\n"));
    free(text);
    CHECK_OK(km_model_load_buffer(buffer, size, &again));
    if (again) {
        size_t rows = 0, cols = 0;
        const double *values = km_record_values(&again->data, "clmkl", "centres", &rows, &cols);
        CHECK(values && rows == 2 && cols == 3 && !memcmp(values, centres, sizeof centres));
        CHECK(values && signbit(values[5]));
        double lambda = 0;
        CHECK_OK(km_record_scalar(&again->data, "krr", "lambda", &lambda));
        CHECK(lambda == 0.5);
        CHECK(!strcmp(km_record_text(&again->data, "clmkl", "note"), "tab\tquote\" back\\slash"));
        CHECK(km_record_values(&again->data, "clmkl", "note", NULL, NULL) == NULL);
        CHECK(km_record_text(&again->data, "clmkl", "centres") == NULL);
        CHECK(km_record_values(&again->data, "obscure", "w", NULL, NULL) == NULL);
        CHECK_STATUS(km_record_scalar(&again->data, "clmkl", "centres", &lambda), KM_EINVAL);
        CHECK_OK(km_model_save_buffer(again, &buffer2, &size2));
        CHECK(size2 == size && !memcmp(buffer, buffer2, size));
    }
    km_free(buffer);
    km_free(buffer2);
    km_model_free(model);
    km_model_free(again);
}

/* What a later version may add: optional keys, blocks and sections are skipped, '!' ones refused;
 * the sections and keys may stand in any order. */
static void test_extensions(void)
{
    const char *const optional_key[] = {"[model]\n", "[model]\nfuture_key 1 two \"3\"\n", NULL};
    const char *const optional_block[] = {"[machine 0]\n",
                                          "[machine 0]\nfuture_block rows 2 extra\n1 2 3\nanything [at] all\n", NULL};
    const char *const optional_section[] = {"[basis]\n", "[future]\nsupport_vectors rows 1\n[x]\n[basis]\n", NULL};
    const char *const empty_block[] = {"[kernel 0]\ntype rbf\n", "[kernel 0]\nfuture rows 0\ntype rbf\n", NULL};
    /* keys in another order */
    const char *const reordered[] = {"\nconverged 1\n", "\n", "objective ", "converged 1\nobjective ",
                                     "\ntask svc\n", "\n", "weight_groups 1\n", "weight_groups 1\ntask svc\n", NULL};
    check_accepted(optional_key);
    check_accepted(optional_block);
    check_accepted(optional_section);
    check_accepted(empty_block);
    check_accepted(reordered);
    check_refused("svc", "converged 1\n", "", "[machine 0] has no \"converged\"");
    check_refused("svc", "[model]\n", "[model]\n!future 1\n", "requires \"!future\"");
    check_refused("svc", "[basis]\n", "[!future]\n[basis]\n", "requires [!future]");
    check_refused("svc", "\nconverged 1\n", "\nconverged 1\nconverged 1\n", "has \"converged\" twice");
    check_refused("svc", "[kernel 1]\n", "[kernel 0]\n", "a second [kernel 0]");
    check_refused("svc", "[kernel 1]\n", "[kernel 7]\n", "[kernel 7] is not within 0..1");
    check_refused("svc", "[machine 0]\n", "[machine x]\n", "[machine x] is not within 0..0");
    check_refused("svc", "[basis]\n", "[basis 1]\n", "unexpected [basis 1]");
    check_refused("svc", "[model]\n", "[model\n", "bad section line");
    check_refused("svc", "[model]\n", "stray 1\n[model]\n", "expected a section line");
    check_refused("svc", "\ntype rbf\n", "\n type rbf\n", "expected \"KEY VALUE\"");
}

/* Values edited beyond what training accepts (issue: they loaded and predicted NaN, or allocated
 * gigabytes). */
static void test_edited_values(void)
{
    check_refused("svr", "\ndegree 3\n", "\ndegree -3\n", "degree -3 is not an integer in 1..1024");
    check_refused("svr", "\ndegree 3\n", "\ndegree 2.5\n", "degree 2.5 is not an integer");
    check_refused("svc", "\ngamma 0.050000000000000003\n", "\ngamma -1000\n", "gamma -1000 is not positive");
    check_refused("svr", "\ngamma 0.25\n", "\ngamma 0\n", "gamma 0 is not positive");
    check_refused("ovo_mkl", "\nscale 0.19162719355950564\n", "\nscale 1e-320\n", "is not a positive normal number");
    check_refused("svc", "\nscale 1\n", "\nscale -1\n", "scale -1 is not a positive normal number");
    check_refused("svc", "\ndim 13\n", "\ndim 4294967295\n", "basis dimension 4294967295 is beyond every feature");
    check_refused("svc", "\nkernel_dimension 0\n", "\nkernel_dimension 99999999999\n", "kernel dimension");
    check_refused("svc", "\nn_kernels 2\n", "\nn_kernels 99999999999\n", "in a model of");
    check_refused("svc", "\nn_machines 1\n", "\nn_machines 4000000000\n", "in a model of");
    check_refused("svc", "support_vectors rows ", "support_vectors rows 99999999999", "rows announced");
    check_refused("svc", "\nvectors rows ", "\nvectors rows 1", "rows announced");
    check_refused("svc", "\nnu 0.5\n", "\nnu 1.5\n", "nu 1.5 is not within (0, 1]");
    check_refused("svc", "\nC 1\n", "\nC -1\n", "C -1 is not positive");
    check_refused("svc", "\ntolerance 0.001\n", "\ntolerance 0\n", "tolerance 0 is not positive");
    check_refused("svc", "\ntheta 0.69999999999999996 ", "\ntheta -0.69999999999999996 ", "weight -0.7 is negative");
    check_refused("ovo_mkl", "\nmkl_gap 0.001\n", "\nmkl_gap 2e-400\n", "[mkl] mkl_gap: '2e-400' is below the smallest");
    check_refused("ovo_mkl", "\np_block 1.142857142857143\n", "\np_block 0.5\n", "[mkl] p_block: 0.5 is out of range [1, inf]");
    check_refused("ovo_mkl", "\nmkl_solver interleaved\n", "\nmkl_solver fast\n", "[mkl] mkl_solver: 'fast' is not interleaved");
    check_refused("oneclass", "\ncol_mean ", "\ncol_mean none\nold_col_mean ", "centred without column means");
    check_refused("svc", "[basis]\n", "[data big]\nm rows 99999999 99999999\n[basis]\n", "rows announced");
    check_refused("svc", "[basis]\n", "[data big]\nm rows 2 99999999999\n1\n2\n[basis]\n", "remaining bytes");
    check_refused("svc", "[basis]\n", "[data Big]\nm text \"x\"\n[basis]\n", "bad data section name");
    check_refused("svc", "\nweight_groups 1\n", "\nweight_groups 2\n", "missing theta");
    const char *const two_groups[] = {"\nweight_groups 1\n", "\nweight_groups 2\n",
                                      "\ntheta 0.69999999999999996 0.29999999999999999\n",
                                      "\ntheta 0.69999999999999996 0.29999999999999999 1 1\n", NULL};
    check_refused_edits("svc", two_groups, "2 kernel-weight groups per machine; the fixed method has one");
    check_refused("svc", "\noutputs 1\n", "\noutputs 99999999999999\n", "bias 99999999999999 exceeds what the file");
}

KM_TEST_CASE(buffers) { test_buffers(); }
KM_TEST_CASE(data_sections) { test_data_sections(); }
KM_TEST_CASE(extensions) { test_extensions(); }
KM_TEST_CASE(edited_values) { test_edited_values(); }
