/* Input datasets by format. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* How path is read: CSV, sequences, a numpy array or LIBSVM rows. */
typedef enum input_kind { INPUT_CSV, INPUT_SEQUENCES, INPUT_NPY, INPUT_LIBSVM } input_kind;

static input_kind input_kind_of(const char *path, const cli_input *input, int precomputed)
{
    cli_format format = input->format;
    if (format == CLI_FORMAT_CSV || (format == CLI_FORMAT_AUTO && (ends_with(path, ".csv") || ends_with(path, ".CSV"))))
        return INPUT_CSV;
    int sequence_name = ends_with(path, ".seq") || ends_with(path, ".fa") || ends_with(path, ".fasta") ||
                        ends_with(path, ".fna");
    if (format == CLI_FORMAT_SEQUENCES || (format == CLI_FORMAT_AUTO && !precomputed && sequence_name))
        return INPUT_SEQUENCES;
    if (format == CLI_FORMAT_AUTO && !precomputed && (ends_with(path, ".npy") || ends_with(path, ".NPY")))
        return INPUT_NPY;
    return INPUT_LIBSVM;
}

int cli_label_from_column(const char *path, const cli_input *input, int precomputed)
{
    input_kind kind = input_kind_of(path, input, precomputed);
    return kind == INPUT_CSV || kind == INPUT_NPY;
}

km_status cli_read_file(const char *path, void **bytes, size_t *n)
{
    FILE *stream = NULL;
    char *buffer = NULL;
    size_t capacity = 0, used = 0;
    km_status st = km_open_input(path, &stream);
    while (!st) {
        if (used == capacity) {
            char *grown = km_grow(buffer, &capacity, used + 65536, 1);
            if (!grown) {
                st = km_error_nomem(km_input_name(path));
                break;
            }
            buffer = grown;
        }
        size_t got = fread(buffer + used, 1, capacity - used, stream);
        used += got;
        if (got == 0 && ferror(stream))
            st = km_error(KM_EIO, "%s: read failed", km_input_name(path));
        else if (got == 0)
            break;
    }
    if (stream)
        fclose(stream);
    if (st) {
        free(buffer);
        return st;
    }
    *bytes = buffer;
    *n = used;
    return KM_OK;
}

km_status cli_read_data(const char *path, const cli_input *input, int precomputed, km_dataset **out)
{
    switch (input_kind_of(path, input, precomputed)) {
    case INPUT_CSV: {
        km_csv_options options = KM_CSV_OPTIONS_INIT;
        options.label_column = input->label_column;
        options.delimiter = input->delimiter;
        return km_dataset_read_csv(path, &options, out);
    }
    case INPUT_SEQUENCES: return km_dataset_read_sequences(path, input->alphabet, out);
    case INPUT_NPY: return km_dataset_read_npy(path, input->label_column, out);
    case INPUT_LIBSVM: break;
    }
    return km_dataset_read_libsvm(path, precomputed ? KM_READ_PRECOMPUTED : 0, out);
}
