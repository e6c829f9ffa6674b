/* Matrix files: binary round trips in float64 and float32 (byte layout checked), the LIBSVM
 * precomputed text fallback, and truncated, mismatched or invalid files. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "data/matrix.h"
#include "data/readers.h"
#include "kernelmix.h"

#define TMP "test_data_matrix.tmp"

static const double values[12] = {0.1, -1e-300, 1e300, 3.141592653589793, 0.0, -0.0,
                                  1.0 / 3.0, 2.5, -7.0, 65504.0, 1e-8, 123456789.0};

static km_matrix *sample(void)
{
    km_matrix *m = NULL;
    CHECK_OK(km_matrix_new(3, 4, &m));
    if (m)
        memcpy(m->data, values, sizeof values);
    return m;
}

static size_t file_bytes(const char *path, unsigned char *buffer, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t len = fread(buffer, 1, size, f);
    fclose(f);
    return len;
}

static void write_bytes(const char *path, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(fwrite(bytes, 1, len, f) == len);
    fclose(f);
}

static uint64_t le(const unsigned char *b, int width)
{
    uint64_t v = 0;
    for (int i = width - 1; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

/* No temporary file of an atomic write is left in the working directory. */
static int temp_files_left(void)
{
    DIR *dir = opendir(".");
    int found = 0;
    struct dirent *entry;
    while (dir && (entry = readdir(dir)))
        found += strncmp(entry->d_name, ".kernelmix-", strlen(".kernelmix-")) == 0;
    if (dir)
        closedir(dir);
    return found;
}

static void test_round_trip(km_dtype dtype)
{
    km_matrix *m = sample(), *back = NULL;
    if (!m)
        return;
    if (dtype == KM_FLOAT32)
        m->data[2] = 3e38; /* 1e300 has no float32; -1e-300 underflows to -0 */
    CHECK_OK(km_matrix_write(m, TMP, dtype));
    unsigned char bytes[256];
    size_t width = dtype == KM_FLOAT64 ? 8 : 4;
    CHECK(file_bytes(TMP, bytes, sizeof bytes) == 32 + 12 * width);
    CHECK(memcmp(bytes, "KMMATRIX", 8) == 0);
    CHECK(le(bytes + 8, 4) == 1 && le(bytes + 12, 4) == (uint64_t)dtype);
    CHECK(le(bytes + 16, 8) == 3 && le(bytes + 24, 8) == 4);
    if (dtype == KM_FLOAT32) {
        float first;
        uint32_t bits = (uint32_t)le(bytes + 32, 4);
        memcpy(&first, &bits, sizeof first);
        CHECK(first == 0.1f);
    }
    CHECK_OK(km_matrix_read(TMP, &back));
    CHECK(back && back->rows == 3 && back->cols == 4);
    /* float32 files keep their storage: float values, no double copy */
    CHECK(back && (dtype == KM_FLOAT64 ? back->data && !back->data32 : !back->data && back->data32));
    for (size_t k = 0; back && k < 12; k++) {
        double expected = dtype == KM_FLOAT64 ? m->data[k] : (double)(float)m->data[k];
        double got = km_matrix_value(back, k / 4, k % 4);
        if (memcmp(&got, &expected, sizeof expected) != 0) {
            fprintf(stderr, "entry %zu: %.17g, expected %.17g\n", k, got, expected);
            check_failures++;
        }
    }
    CHECK(temp_files_left() == 0);
    km_matrix_free(back);
    km_matrix_free(m);
    remove(TMP);
}

/* Overwriting an existing file replaces it whole. */
static void test_overwrite(void)
{
    km_matrix *big = NULL, *small = NULL, *back = NULL;
    CHECK_OK(km_matrix_new(50, 50, &big));
    CHECK_OK(km_matrix_new(1, 1, &small));
    if (!big || !small)
        return;
    small->data[0] = 42.0;
    CHECK_OK(km_matrix_write(big, TMP, KM_FLOAT64));
    CHECK_OK(km_matrix_write(small, TMP, KM_FLOAT64));
    CHECK_OK(km_matrix_read(TMP, &back));
    CHECK(back && back->rows == 1 && back->cols == 1 && back->data[0] == 42.0);
    km_matrix_free(back);
    km_matrix_free(big);
    km_matrix_free(small);
    remove(TMP);
}

static void test_text_fallback(void)
{
    write_bytes(TMP, "1 0:1 1:0.5 2:0\r\n\n-1 0:2 1:0 2:1.5", 34);
    km_matrix *m = NULL;
    CHECK_OK(km_matrix_read(TMP, &m));
    CHECK(m && m->rows == 2 && m->cols == 2);
    CHECK(m && m->data[0] == 0.5 && m->data[1] == 0.0 && m->data[2] == 0.0 && m->data[3] == 1.5);
    km_matrix_free(m);
    write_bytes(TMP, "1 0:1 1:0.5 2:0\n-1 0:2 1:0\n", 27);
    CHECK_STATUS(km_matrix_read(TMP, &m), KM_EFORMAT);
    CHECK(m == NULL);
    CHECK(strstr(km_last_error(), TMP ":2: 1 kernel values, expected 2") == km_last_error());
    remove(TMP);
}

static void header(unsigned char *h, uint32_t version, uint32_t dtype, uint64_t rows, uint64_t cols)
{
    memcpy(h, "KMMATRIX", 8);
    for (int i = 0; i < 4; i++) {
        h[8 + i] = (unsigned char)(version >> (8 * i));
        h[12 + i] = (unsigned char)(dtype >> (8 * i));
    }
    for (int i = 0; i < 8; i++) {
        h[16 + i] = (unsigned char)(rows >> (8 * i));
        h[24 + i] = (unsigned char)(cols >> (8 * i));
    }
}

static void expect_failure(const void *bytes, size_t len, km_status status, const char *message)
{
    write_bytes(TMP, bytes, len);
    km_matrix *m = (km_matrix *)1;
    km_status st = km_matrix_read(TMP, &m);
    if (st != status || m != NULL || strcmp(km_last_error(), message) != 0) {
        fprintf(stderr, "status %d (expected %d), message \"%s\", expected \"%s\"\n", (int)st, (int)status,
                km_last_error(), message);
        check_failures++;
    }
    /* the stream entry point reports the same from memory */
    FILE *f = fmemopen((void *)bytes, len, "rb");
    if (len > 0 && f) {
        CHECK_STATUS(km_matrix_read_stream(f, TMP, &m), status);
        CHECK(strcmp(km_last_error(), message) == 0);
        fclose(f);
    }
}

static void test_bad_files(void)
{
    unsigned char file[32 + 6 * 8];
    header(file, 1, 1, 2, 3);
    double v[6] = {1, 2, 3, 4, 5, 6};
    memcpy(file + 32, v, sizeof v); /* little-endian host (x86-64, arm64) */

    expect_failure(file, 20, KM_EFORMAT, TMP ": truncated matrix header (20 of 32 bytes)");
    expect_failure(file, 5, KM_EFORMAT, TMP ": truncated matrix header (5 of 32 bytes)");
    expect_failure(file, sizeof file - 8, KM_EFORMAT,
                   TMP ": file has 72 bytes, expected 80 (32-byte header + 2 x 3 float64)");
    expect_failure(file, 32, KM_EFORMAT, TMP ": file has 32 bytes, expected 80 (32-byte header + 2 x 3 float64)");
    header(file, 1, 2, 2, 3); /* float32 needs 32 + 24 bytes */
    expect_failure(file, sizeof file, KM_EFORMAT,
                   TMP ": file has 80 bytes, expected 56 (32-byte header + 2 x 3 float32)");
    header(file, 2, 1, 2, 3);
    expect_failure(file, sizeof file, KM_EFORMAT,
                   TMP ": unsupported matrix format version 2 (this library reads version 1)");
    header(file, 1, 3, 2, 3);
    expect_failure(file, sizeof file, KM_EFORMAT, TMP ": unknown matrix dtype 3 (1 = float64, 2 = float32)");
    header(file, 1, 1, 0, 3);
    expect_failure(file, sizeof file, KM_EFORMAT, TMP ": empty matrix (0 x 3)");
    header(file, 1, 1, 2, 0);
    expect_failure(file, sizeof file, KM_EFORMAT, TMP ": empty matrix (2 x 0)");
    header(file, 1, 1, (uint64_t)1 << 40, (uint64_t)1 << 40);
    expect_failure(file, sizeof file, KM_EFORMAT, TMP ": 1099511627776 x 1099511627776 matrix is too large");
    header(file, 1, 1, UINT64_MAX, 2);
    expect_failure(file, sizeof file, KM_EFORMAT, TMP ": 18446744073709551615 x 2 matrix is too large");
    header(file, 1, 1, 2, 3);
    double bad[6] = {1, 2, 3, 4, 5, NAN};
    memcpy(file + 32, bad, sizeof bad);
    expect_failure(file, sizeof file, KM_EFORMAT, TMP ": entry (1, 2) is not finite");
    bad[5] = 6;
    bad[1] = -INFINITY;
    memcpy(file + 32, bad, sizeof bad);
    expect_failure(file, sizeof file, KM_EFORMAT, TMP ": entry (0, 1) is not finite");
    expect_failure("", 0, KM_EFORMAT, TMP ":1: no data rows");
    remove(TMP);

    km_matrix *m = (km_matrix *)1;
    CHECK_STATUS(km_matrix_read("no-such-dir/k.bin", &m), KM_EIO);
    CHECK(m == NULL && strstr(km_last_error(), "no-such-dir/k.bin: cannot open: ") == km_last_error());
}

static void test_bad_writes(void)
{
    km_matrix *m = sample();
    if (!m)
        return;
    CHECK_STATUS(km_matrix_write(m, TMP, (km_dtype)3), KM_EINVAL);
    /* 1e300 does not fit float32 */
    CHECK_STATUS(km_matrix_write(m, TMP, KM_FLOAT32), KM_EINVAL);
    CHECK(strcmp(km_last_error(), TMP ": entry (0, 2) = 1e+300 cannot be stored as float32") == 0);
    m->data[5] = NAN;
    CHECK_STATUS(km_matrix_write(m, TMP, KM_FLOAT64), KM_EINVAL);
    m->data[5] = 0.0;
    CHECK_STATUS(km_matrix_write(m, "no-such-dir/k.bin", KM_FLOAT64), KM_EIO);
    CHECK(strstr(km_last_error(), "no-such-dir/k.bin") == km_last_error());
    CHECK_STATUS(km_matrix_write(NULL, TMP, KM_FLOAT64), KM_EINVAL);
    FILE *f = fopen(TMP, "rb");
    CHECK(f == NULL); /* no failed write left a file */
    if (f)
        fclose(f);
    CHECK(temp_files_left() == 0);
    km_matrix_free(m);
}

/* Files of a megabyte or more are mapped, not read: the values are the same, changing one changes
 * the copy in memory and not the file, and a non-finite value is still refused. */
static void test_large_files(void)
{
    enum { R = 600, C = 700 };   /* float32: 1.68 MB, float64: 3.36 MB */
    km_matrix *m = NULL;
    CHECK_OK(km_matrix_new(R, C, &m));
    if (!m)
        return;
    for (size_t k = 0; k < (size_t)R * C; k++)
        m->data[k] = sin((double)k) * 1e3;
    for (int d = 0; d < 2; d++) {
        km_dtype dtype = d ? KM_FLOAT64 : KM_FLOAT32;
        km_matrix *back = NULL, *again = NULL;
        CHECK_OK(km_matrix_write(m, TMP, dtype));
        CHECK_OK(km_matrix_read(TMP, &back));
        CHECK(back && back->mapping != NULL && (dtype == KM_FLOAT32 ? back->data32 != NULL : back->data != NULL));
        size_t wrong = 0;
        for (size_t k = 0; back && k < (size_t)R * C; k++) {
            double expected = dtype == KM_FLOAT64 ? m->data[k] : (double)(float)m->data[k];
            wrong += km_matrix_value(back, k / C, k % C) != expected;
        }
        CHECK(wrong == 0);
        if (back) {
            if (back->data32)
                back->data32[5] = 42.0f;
            else
                back->data[5] = 42.0;
            CHECK(km_matrix_value(back, 0, 5) == 42.0);
        }
        CHECK_OK(km_matrix_read(TMP, &again));
        CHECK(again && km_matrix_value(again, 0, 5) != 42.0);
        km_matrix_free(again);
        km_matrix_free(back);
    }
    /* the last value of the float64 file turned into a NaN */
    FILE *f = fopen(TMP, "r+b");
    const unsigned char nan_le[8] = {0, 0, 0, 0, 0, 0, 0xf8, 0x7f};   /* quiet NaN, little-endian */
    CHECK(f && fseek(f, -8L, SEEK_END) == 0 && fwrite(nan_le, 1, 8, f) == 8);
    if (f)
        fclose(f);
    km_matrix *bad = NULL;
    CHECK_STATUS(km_matrix_read(TMP, &bad), KM_EFORMAT);
    CHECK(bad == NULL && strstr(km_last_error(), "entry (599, 699) is not finite") != NULL);
    km_matrix_free(m);
    remove(TMP);
}

KM_TEST_CASE(round_trip_float64) { test_round_trip(KM_FLOAT64); }
KM_TEST_CASE(round_trip_float32) { test_round_trip(KM_FLOAT32); }
KM_TEST_CASE(overwrite) { test_overwrite(); }
KM_TEST_CASE(large_files) { test_large_files(); }
KM_TEST_CASE(text_fallback) { test_text_fallback(); }
KM_TEST_CASE(bad_files) { test_bad_files(); }
KM_TEST_CASE(bad_writes) { test_bad_writes(); }
