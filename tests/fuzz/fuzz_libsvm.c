/* Fuzz target: the LIBSVM sparse reader ("label idx:val ..."). Any input either fails with a status
 * and a message or yields a dataset satisfying the invariants of data/dataset.h. */
#include "data/readers.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy;
    FILE *stream = fuzz_open_bytes(data, size, &copy);
    if (!stream)
        return 0;
    km_dataset *ds = NULL;
    km_status st = km_read_libsvm_stream(stream, "fuzz.svm", 0, &ds);
    if (st == KM_OK) {
        if (!ds->sparse)
            fuzz_fail("the sparse reader returned dense rows");
        fuzz_check_dataset(ds);
    } else if (ds || km_last_error()[0] == '\0') {
        fuzz_fail("a failed read returned a dataset or no message");
    }
    km_dataset_free(ds);
    fclose(stream);
    free(copy);
    return 0;
}
