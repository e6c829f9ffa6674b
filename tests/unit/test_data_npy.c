/* numpy .npy files: float64 and float32 arrays in C and Fortran order, format versions 1.0 to 3.0,
 * through the matrix reader (magic detection) and as dense rows with or without a label column; files
 * written by numpy itself; and a refusal, one line naming the file, for every other dtype and shape, a
 * malformed, overrunning or truncated header, a payload of the wrong size and an oversized shape. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "data/dataset.h"
#include "data/matrix.h"
#include "data/readers.h"
#include "kernelmix.h"

#define NAME "x.npy"
#define TMP "test_data_npy.tmp.npy"

static const double values6[6] = {1.5, -2.0, 3.25, 0.0, 1e-300, 6.0};

/* A .npy file in buf: the magic, version major.0, the header dict padded with spaces and a newline to
 * `total` bytes from the start of the file, then the payload. Returns its length. */
static size_t make_npy_padded(unsigned char *buf, size_t cap, int major, const char *dict, size_t total,
                              const void *payload, size_t payload_bytes)
{
    size_t prefix = major == 1 ? 10 : 12, len = strlen(dict);
    size_t header = total - prefix;
    if (total < prefix + len + 1 || total + payload_bytes > cap)
        return 0;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    for (size_t k = 0; k < prefix - 8; k++)
        buf[8 + k] = (unsigned char)(header >> (8 * k));
    memcpy(buf + prefix, dict, len);
    memset(buf + prefix + len, ' ', header - len - 1);
    buf[prefix + header - 1] = '\n';
    if (payload_bytes)
        memcpy(buf + prefix + header, payload, payload_bytes);
    return prefix + header + payload_bytes;
}

/* The same with the header padded to a multiple of 64 bytes, as numpy aligns it. */
static size_t make_npy(unsigned char *buf, size_t cap, int major, const char *dict, const void *payload,
                       size_t payload_bytes)
{
    size_t total = ((major == 1 ? 10 : 12) + strlen(dict) + 1 + 63) / 64 * 64;
    return make_npy_padded(buf, cap, major, dict, total, payload, payload_bytes);
}

#define COMPACT_2X3 "{'descr':'<f8','fortran_order':False,'shape':(2,3)}"

static km_status read_bytes(const unsigned char *bytes, size_t len, km_matrix **out)
{
    *out = NULL;
    FILE *f = fmemopen((void *)bytes, len, "rb");
    if (!f)
        return KM_EIO;
    km_status st = km_matrix_read_stream(f, NAME, out);
    fclose(f);
    return st;
}

/* The matrix read from the bytes has the given shape, dtype and row-major values. */
static void expect_matrix(const unsigned char *bytes, size_t len, size_t rows, size_t cols, km_dtype dtype,
                          const double *expected)
{
    km_matrix *m;
    CHECK_OK(read_bytes(bytes, len, &m));
    if (!m)
        return;
    CHECK(m->rows == rows && m->cols == cols && km_matrix_dtype(m) == dtype);
    for (size_t k = 0; k < rows * cols && m->rows == rows && m->cols == cols; k++)
        CHECK_NEAR(km_matrix_value(m, k / cols, k % cols), expected[k], 0.0);
    km_matrix_free(m);
}

/* The bytes are refused with KM_EFORMAT and one line "x.npy: ..." containing problem. */
static void expect_refusal(const unsigned char *bytes, size_t len, const char *problem)
{
    km_matrix *m;
    km_status st = read_bytes(bytes, len, &m);
    const char *message = km_last_error();
    if (st != KM_EFORMAT || m || strncmp(message, NAME ": ", strlen(NAME) + 2) != 0 || !strstr(message, problem) ||
        strchr(message, '\n')) {
        fprintf(stderr, "[%s] status %d, message \"%s\", expected KM_EFORMAT and \"%s\"\n", check_case, (int)st,
                message, problem);
        check_failures++;
    }
    km_matrix_free(m);
}

static void expect_message(const char *expected)
{
    if (strcmp(km_last_error(), expected) != 0) {
        fprintf(stderr, "[%s] message \"%s\", expected \"%s\"\n", check_case, km_last_error(), expected);
        check_failures++;
    }
}

static void expect_header_refusal(const char *dict, const char *problem)
{
    unsigned char buf[512];
    expect_refusal(buf, make_npy(buf, sizeof buf, 1, dict, values6, sizeof values6), problem);
}

KM_TEST_CASE(float64_c_order)
{
    unsigned char buf[256];
    size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
                          values6, sizeof values6);
    CHECK(len == 128 + 48 && buf[8] == 118 && buf[9] == 0);
    expect_matrix(buf, len, 2, 3, KM_FLOAT64, values6);
    /* keys in another order, double quotes, no trailing comma, Python 2 longs */
    len = make_npy(buf, sizeof buf, 1, "{\"shape\": (3L, 2L), \"fortran_order\": False, \"descr\": \"<f8\"}", values6,
                   sizeof values6);
    expect_matrix(buf, len, 3, 2, KM_FLOAT64, values6);
}

KM_TEST_CASE(float32_stays_float32)
{
    const float single[6] = {0.1f, -2.5f, 3.0f, 16777217.0f, 1e-38f, 7.0f};
    double expected[6];
    for (int k = 0; k < 6; k++)
        expected[k] = single[k];
    unsigned char buf[256];
    size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }",
                          single, sizeof single);
    expect_matrix(buf, len, 3, 2, KM_FLOAT32, expected);
    km_matrix *m;
    if (!read_bytes(buf, len, &m)) {
        CHECK(m->data == NULL && m->data32 != NULL && m->data32[0] == 0.1f);
        km_matrix_free(m);
    }
}

KM_TEST_CASE(fortran_order_transposed)
{
    /* column-major payload of [[1.5, -2, 3.25], [0, 1e-300, 6]]: the columns one after another */
    const double columns[6] = {1.5, 0.0, -2.0, 1e-300, 3.25, 6.0};
    unsigned char buf[256];
    size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
                          columns, sizeof columns);
    expect_matrix(buf, len, 2, 3, KM_FLOAT64, values6);
    const float columns32[6] = {1.5f, 0.0f, -2.0f, 0.0f, 3.25f, 6.0f};
    const double expected32[6] = {1.5, -2.0, 3.25, 0.0, 0.0, 6.0};
    len = make_npy(buf, sizeof buf, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", columns32,
                   sizeof columns32);
    expect_matrix(buf, len, 2, 3, KM_FLOAT32, expected32);
}

KM_TEST_CASE(versions_2_and_3)
{
    unsigned char buf[256];
    for (int major = 2; major <= 3; major++) {
        size_t len = make_npy(buf, sizeof buf, major, "{'descr': '<f8', 'fortran_order': False, 'shape': (6, 1), }",
                              values6, sizeof values6);
        CHECK(len == 128 + 48 && buf[8] == 116 && buf[9] == 0 && buf[10] == 0 && buf[11] == 0);
        expect_matrix(buf, len, 6, 1, KM_FLOAT64, values6);
    }
    size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", values6,
                          sizeof values6);
    buf[6] = 4;
    expect_refusal(buf, len, "unsupported .npy format version 4.0 (1.0, 2.0 and 3.0 are read)");
    buf[6] = 1;
    buf[7] = 1;
    expect_refusal(buf, len, "unsupported .npy format version 1.1");
}

KM_TEST_CASE(dtypes_refused)
{
    expect_header_refusal("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }",
                          ".npy dtype '<i8': this dtype is not supported (float64 '<f8' or float32 '<f4' are read)");
    expect_header_refusal("{'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), }",
                          "'>f8': big-endian values are not supported");
    expect_header_refusal("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", "big-endian");
    expect_header_refusal("{'descr': '|O', 'fortran_order': False, 'shape': (2, 3), }",
                          "'|O': object arrays are not supported");
    expect_header_refusal("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }", "'<f2': this dtype");
    expect_header_refusal("{'descr': '=f8', 'fortran_order': False, 'shape': (2, 3), }", "'=f8': this dtype");
    expect_header_refusal("{'descr': '<c16', 'fortran_order': False, 'shape': (2, 3), }", "'<c16'");
    /* control bytes in the dtype are shown as '?': the message stays one line */
    expect_header_refusal("{'descr': '<f\n8', 'fortran_order': False, 'shape': (2, 3), }", "dtype '<f?8': this dtype");
    expect_header_refusal("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2, 3), }",
                          "structured .npy arrays are not supported");
}

KM_TEST_CASE(shapes_refused)
{
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }",
                          ".npy array of shape (6,): a matrix needs 2 dimensions");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 3), }",
                          "shape (1, 2, 3): a matrix needs 2 dimensions");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
                          "shape (): a matrix needs 2 dimensions");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (0, 3), }", "shape (0, 3): empty");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': True, 'shape': (3, 0), }", "shape (3, 0): empty");
    /* sizes whose byte count overflows, and a dimension beyond 64 bits */
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }",
                          "1099511627776 x 1099511627776 matrix is too large");
    expect_header_refusal("{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551615, 2), }",
                          "18446744073709551615 x 2 matrix is too large");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999, 2), }",
                          "dimension too large");
}

KM_TEST_CASE(malformed_headers_refused)
{
    expect_header_refusal("{'descr': '<f8', 'shape': (2, 3), }", ".npy header lacks the key 'fortran_order'");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False}", "lacks the key 'shape'");
    expect_header_refusal("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}",
                          "malformed .npy header at byte 34: repeated key");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}",
                          "unknown key");
    expect_header_refusal("{'descr' '<f8', 'fortran_order': False, 'shape': (2, 3)}",
                          "malformed .npy header at byte 19: expected ':'");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': Maybe, 'shape': (2, 3)}", "expected True or False");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (2; 3)}", "expected ',' or ')'");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (2, -3)}", "expected a dimension");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': [2, 3]}", "expected the shape tuple");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)} x", "unexpected text after");
    expect_header_refusal("('descr', '<f8')", "expected '{'");
    expect_header_refusal("{'descr': '<f\\x38', 'fortran_order': False, 'shape': (2, 3)}", "escaped string");
    expect_header_refusal("{'descr': '<f8' 'fortran_order': False, 'shape': (2, 3)}", "expected ',' or '}'");
    expect_header_refusal("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)", "expected ',' or '}'");
}

KM_TEST_CASE(truncation_and_overruns_refused)
{
    unsigned char buf[256];
    size_t len = make_npy(buf, sizeof buf, 1, COMPACT_2X3, values6, sizeof values6);
    CHECK(len == 64 + 48);
    expect_refusal(buf, 3, "truncated .npy header (3 of 10 bytes)");
    expect_refusal(buf, 7, "truncated .npy header (7 of 10 bytes)");
    expect_refusal(buf, 40, ".npy header of 54 bytes overruns the file (40 bytes)");
    expect_refusal(buf, len - 8, "file has 104 bytes, expected 112 (64-byte header + 2 x 3 float64)");
    expect_refusal(buf, 64, "file has 64 bytes, expected 112");
    unsigned char longer[256];
    memcpy(longer, buf, len);
    longer[len] = 0;
    expect_refusal(longer, len + 1, "file has 113 bytes, expected 112");
    /* a forged header length: the largest a version 1.0 and a 2.0 file can state */
    buf[8] = buf[9] = 0xFF;
    expect_refusal(buf, len, ".npy header of 65535 bytes overruns the file (112 bytes)");
    len = make_npy(buf, sizeof buf, 2, COMPACT_2X3, values6, sizeof values6);
    expect_refusal(buf, 11, "truncated .npy header (11 bytes)");
    buf[8] = buf[9] = buf[10] = buf[11] = 0xFF;
    expect_refusal(buf, len, ".npy header of 4294967295 bytes overruns the file (112 bytes)");
    /* a payload at an offset that is no multiple of 8, as a hand-written header may leave it */
    len = make_npy_padded(buf, sizeof buf, 1, COMPACT_2X3, 68, values6, sizeof values6);
    CHECK(len == 68 + 48);
    expect_matrix(buf, len, 2, 3, KM_FLOAT64, values6);
}

/* A payload of 1 MiB or more is mapped from the file when its offset is aligned to the values, and
 * read when it is not; the values are the same. */
KM_TEST_CASE(large_payloads_mapped_when_aligned)
{
    enum { ROWS = 512, COLS = 256 };
    size_t payload = (size_t)ROWS * COLS * sizeof(double), cap = payload + 256;
    double *values = malloc(payload);
    unsigned char *buf = malloc(cap);
    if (!values || !buf) {
        free(values);
        free(buf);
        KM_TEST_SKIP("no memory for a 1 MiB matrix");
    }
    for (size_t k = 0; k < (size_t)ROWS * COLS; k++)
        values[k] = (double)k * 0.25 - 100.0;
    const char *dict = "{'descr':'<f8','fortran_order':False,'shape':(512,256)}";
    for (size_t total = 128; total <= 132; total += 4) {
        size_t len = make_npy_padded(buf, cap, 1, dict, total, values, payload);
        FILE *f = fopen(TMP, "wb");
        CHECK(f && fwrite(buf, 1, len, f) == len);
        if (f)
            fclose(f);
        km_matrix *m;
        CHECK_OK(km_matrix_read(TMP, &m));
        if (!m)
            continue;
        CHECK((m->mapping != NULL) == (total == 128));
        CHECK(m->rows == ROWS && m->cols == COLS && memcmp(m->data, values, payload) == 0);
        km_matrix_free(m);
    }
    remove(TMP);
    free(values);
    free(buf);
}

KM_TEST_CASE(non_finite_values_refused)
{
    double bad[6] = {1, 2, 3, 4, 5, 6};
    bad[4] = 0.0 / 0.0;
    unsigned char buf[256];
    size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", bad,
                          sizeof bad);
    expect_refusal(buf, len, "entry (1, 1) is not finite");
}

/* Dense rows from a file on disk, with the label in the last, the first or no column. */
KM_TEST_CASE(dataset_label_columns)
{
    unsigned char buf[256];
    size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", values6,
                          sizeof values6);
    FILE *f = fopen(TMP, "wb");
    CHECK(f && fwrite(buf, 1, len, f) == len);
    if (f)
        fclose(f);
    km_dataset *data;
    CHECK_OK(km_dataset_read_npy(TMP, -1, &data));
    if (data) {
        CHECK(data->n == 2 && data->d == 2 && !data->sparse && strcmp(data->source, TMP) == 0);
        CHECK(data->labels[0] == 3.25 && data->labels[1] == 6.0);
        CHECK(data->X[0] == 1.5 && data->X[1] == -2.0 && data->X[2] == 0.0 && data->X[3] == 1e-300);
        km_dataset_free(data);
    }
    CHECK_OK(km_dataset_read_npy(TMP, 0, &data));
    if (data) {
        CHECK(data->d == 2 && data->labels[0] == 1.5 && data->labels[1] == 0.0);
        CHECK(data->X[0] == -2.0 && data->X[1] == 3.25 && data->X[2] == 1e-300 && data->X[3] == 6.0);
        km_dataset_free(data);
    }
    CHECK_OK(km_dataset_read_npy(TMP, KM_CSV_NO_LABEL, &data));
    if (data) {
        CHECK(data->d == 3 && data->labels == NULL && km_dataset_value(data, 1, 2) == 6.0);
        km_dataset_free(data);
    }
    CHECK_STATUS(km_dataset_read_npy(TMP, 3, &data), KM_EINVAL);
    CHECK(data == NULL);
    expect_message(TMP ": label column 4 does not exist (3 columns)");
    CHECK_STATUS(km_dataset_read_npy(TMP, -4, &data), KM_EINVAL);
    /* the same file through the matrix reader, found by its magic */
    km_matrix *m;
    CHECK_OK(km_matrix_read(TMP, &m));
    CHECK(m && m->rows == 2 && m->cols == 3 && km_matrix_value(m, 1, 2) == 6.0);
    km_matrix_free(m);
    remove(TMP);
    CHECK_STATUS(km_dataset_read_npy("no-such-dir/x.npy", -1, &data), KM_EIO);
}

/* A one-column array read with a label column is labels only, as LIBSVM rows without features are (the
 * rows of precomputed kernels from files): the labels in order, no features. */
KM_TEST_CASE(dataset_labels_only)
{
    static const double labels[3] = {1.0, -1.0, 2.5};
    unsigned char buf[256];
    size_t len = make_npy(buf, sizeof buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 1), }", labels,
                          sizeof labels);
    FILE *f = fopen(TMP, "wb");
    CHECK(f && fwrite(buf, 1, len, f) == len);
    if (f)
        fclose(f);
    for (int column = -1; column <= 0; column++) {
        km_dataset *data;
        CHECK_OK(km_dataset_read_npy(TMP, column, &data));
        if (!data)
            continue;
        CHECK(km_dataset_rows(data) == 3 && km_dataset_dim(data) == 0);
        CHECK(data->labels[0] == 1.0 && data->labels[1] == -1.0 && data->labels[2] == 2.5);
        km_dataset_free(data);
    }
    km_dataset *data;
    CHECK_STATUS(km_dataset_read_npy(TMP, 1, &data), KM_EINVAL);
    expect_message(TMP ": label column 2 does not exist (1 columns)");
    remove(TMP);
}

/* Files numpy writes (np.save, numpy.lib.format versions 2.0 and 3.0, Fortran order, float32) read
 * as the arrays numpy holds. */
KM_TEST_CASE(numpy_written_files)
{
    const char *script =
        "/usr/bin/python3 -c \"\nimport numpy as np, numpy.lib.format as f\n"
        "a = np.arange(12, dtype='<f8').reshape(3, 4) / 7 - 0.5\n"
        "np.save('" TMP "', a)\n"
        "np.save('" TMP "32.npy', np.asfortranarray(a.astype('<f4')))\n"
        "with open('" TMP "3.npy', 'wb') as h: f.write_array(h, a, version=(3, 0))\n"
        "with open('" TMP "b.npy', 'wb') as h: f.write_array(h, a.astype('>f8'))\n\" 2>/dev/null";
    if (system(script) != 0)
        KM_TEST_SKIP("/usr/bin/python3 with numpy is not available");
    const char *paths[3] = {TMP, TMP "32.npy", TMP "3.npy"};
    for (int p = 0; p < 3; p++) {
        km_matrix *m;
        CHECK_OK(km_matrix_read(paths[p], &m));
        if (!m)
            continue;
        CHECK(m->rows == 3 && m->cols == 4 && km_matrix_dtype(m) == (p == 1 ? KM_FLOAT32 : KM_FLOAT64));
        for (size_t k = 0; k < 12 && m->rows == 3 && m->cols == 4; k++)
            CHECK_NEAR(km_matrix_value(m, k / 4, k % 4), (double)k / 7 - 0.5, p == 1 ? 1e-7 : 0.0);
        km_matrix_free(m);
        remove(paths[p]);
    }
    km_matrix *m;
    CHECK_STATUS(km_matrix_read(TMP "b.npy", &m), KM_EFORMAT);
    expect_message(TMP "b.npy: .npy dtype '>f8': big-endian values are not supported (float64 '<f8' "
                                  "or float32 '<f4' are read)");
    remove(TMP "b.npy");
}
