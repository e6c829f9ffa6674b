/* Fuzz target: the CSV reader. The first input byte chooses the options (label column, header mode,
 * delimiter); the rest is the file. Any input either fails with a message or yields a dense dataset
 * satisfying the invariants of data/dataset.h. */
#include "data/readers.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    static const int label_columns[] = {-1, 0, 1, KM_CSV_NO_LABEL};
    static const char delimiters[] = {',', 0, ';', '\t'};
    km_csv_options options = KM_CSV_OPTIONS_INIT;
    options.label_column = label_columns[data[0] & 3];
    options.header = (int)((data[0] >> 2) % 3) - 1;
    options.delimiter = delimiters[(data[0] >> 4) & 3];
    char *copy;
    FILE *stream = fuzz_open_bytes(data + 1, size - 1, &copy);
    if (!stream)
        return 0;
    km_dataset *ds = NULL;
    km_status st = km_read_csv_stream(stream, "fuzz.csv", &options, &ds);
    if (st == KM_OK) {
        if (ds->sparse)
            fuzz_fail("the CSV reader returned sparse rows");
        if ((options.label_column == KM_CSV_NO_LABEL) != (ds->labels == NULL))
            fuzz_fail("labels present or absent against the options");
        fuzz_check_dataset(ds);
    } else if (ds || km_last_error()[0] == '\0') {
        fuzz_fail("a failed read returned a dataset or no message");
    }
    km_dataset_free(ds);
    fclose(stream);
    free(copy);
    return 0;
}
