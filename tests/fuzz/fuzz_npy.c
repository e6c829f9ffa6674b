/* Fuzz target: numpy .npy files, as matrices (through km_matrix_read's stream entry point, which
 * detects the magic) and as dense rows with the label in the last column. The seed corpus is written
 * by tests/fuzz/corpus/make_npy_seeds.py. */
#include "data/matrix.h"
#include "data/readers.h"
#include "fuzz_support.h"

static void read_matrix(const uint8_t *data, size_t size)
{
    char *copy;
    FILE *stream = fuzz_open_bytes(data, size, &copy);
    if (!stream)
        return;
    km_matrix *m = NULL;
    km_status st = km_read_npy_stream(stream, "fuzz.npy", 0, &m);
    if (st == KM_OK) {
        if (m->rows == 0 || m->cols == 0)
            fuzz_fail("an empty matrix was read");
        if (!m->data == !m->data32)
            fuzz_fail("a matrix without exactly one storage");
        if ((size_t)size < m->rows * m->cols * (m->data ? 8 : 4))
            fuzz_fail("a matrix larger than its file");
        for (size_t k = 0; k < m->rows * m->cols; k++) {
            double v = km_matrix_value(m, k / m->cols, k % m->cols);
            if (!(v - v == 0))
                fuzz_fail("non-finite matrix value");
        }
    } else if (m || km_last_error()[0] == '\0' || strchr(km_last_error(), '\n')) {
        fuzz_fail("a failed .npy read returned a matrix or not one line");
    }
    km_matrix_free(m);
    fclose(stream);
    free(copy);
}

static void read_rows(const uint8_t *data, size_t size)
{
    char *copy;
    FILE *stream = fuzz_open_bytes(data, size, &copy);
    if (!stream)
        return;
    km_dataset *ds = NULL;
    km_status st = km_read_npy_dataset_stream(stream, "fuzz.npy", -1, &ds);
    if (st == KM_OK) {
        /* d == 0: a one-column file is its labels alone (the rows of precomputed kernels given by file=) */
        if (ds->sparse || !ds->labels)
            fuzz_fail("labelled .npy rows that are not dense rows with labels");
        fuzz_check_dataset(ds);
    } else if (ds || km_last_error()[0] == '\0') {
        fuzz_fail("a failed read returned a dataset or no message");
    }
    km_dataset_free(ds);
    fclose(stream);
    free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_matrix(data, size);
    read_rows(data, size);
    return 0;
}
