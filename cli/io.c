/* Input datasets by format. */
#include <string.h>

#include "cli.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

km_status cli_read_data(const char *path, const cli_input *input, int precomputed, km_dataset **out)
{
    cli_format format = input->format;
    if (format == CLI_FORMAT_CSV || (format == CLI_FORMAT_AUTO && (ends_with(path, ".csv") || ends_with(path, ".CSV")))) {
        km_csv_options options = KM_CSV_OPTIONS_INIT;
        options.label_column = input->label_column;
        options.delimiter = input->delimiter;
        return km_dataset_read_csv(path, &options, out);
    }
    int sequence_name = ends_with(path, ".seq") || ends_with(path, ".fa") || ends_with(path, ".fasta") ||
                        ends_with(path, ".fna");
    if (format == CLI_FORMAT_SEQUENCES || (format == CLI_FORMAT_AUTO && !precomputed && sequence_name))
        return km_dataset_read_sequences(path, input->alphabet, out);
    if (format == CLI_FORMAT_AUTO && !precomputed && (ends_with(path, ".npy") || ends_with(path, ".NPY")))
        return km_dataset_read_npy(path, input->label_column, out);
    return km_dataset_read_libsvm(path, precomputed ? KM_READ_PRECOMPUTED : 0, out);
}
