/* Fuzz target: precomputed kernel matrices, binary (KMMATRIX) and LIBSVM precomputed-kernel text,
 * through km_matrix_read's stream entry point and the LIBSVM reader's precomputed mode. */
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
    km_status st = km_matrix_read_stream(stream, "fuzz.kernel", &m);
    if (st == KM_OK) {
        if (m->rows == 0 || m->cols == 0)
            fuzz_fail("an empty matrix was read");
        if (!m->data == !m->data32)
            fuzz_fail("a matrix without exactly one storage");
        for (size_t k = 0; k < m->rows * m->cols; k++) {
            double v = km_matrix_value(m, k / m->cols, k % m->cols);
            if (!(v - v == 0))
                fuzz_fail("non-finite matrix value");
        }
    } else if (m || km_last_error()[0] == '\0') {
        fuzz_fail("a failed matrix read returned a matrix or no message");
    }
    km_matrix_free(m);
    fclose(stream);
    free(copy);
}

static void read_precomputed_rows(const uint8_t *data, size_t size)
{
    char *copy;
    FILE *stream = fuzz_open_bytes(data, size, &copy);
    if (!stream)
        return;
    km_dataset *ds = NULL;
    km_status st = km_read_libsvm_stream(stream, "fuzz.kernel", KM_READ_PRECOMPUTED, &ds);
    if (st == KM_OK) {
        if (ds->sparse || !ds->ids)
            fuzz_fail("precomputed rows without dense values and ids");
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
    read_precomputed_rows(data, size);
    return 0;
}
