/* Input datasets by format, and output files that appear only when complete. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

km_status cli_read_data(const char *path, cli_format format, int label_column, int precomputed, km_dataset **out)
{
    if (format == CLI_FORMAT_CSV || (format == CLI_FORMAT_AUTO && (ends_with(path, ".csv") || ends_with(path, ".CSV")))) {
        km_csv_options options = km_csv_options_default();
        options.label_column = label_column;
        return km_dataset_read_csv(path, &options, out);
    }
    return km_dataset_read_libsvm(path, precomputed ? KM_READ_PRECOMPUTED : 0, out);
}

km_status cli_output_open(cli_output *out, const char *cmd, const char *path)
{
    memset(out, 0, sizeof *out);
    out->cmd = cmd;
    size_t len = strlen(path);
    out->path = strdup(path);
    out->temp_path = malloc(len + 16);
    if (!out->path || !out->temp_path) {
        cli_output_abort(out);
        return KM_ENOMEM;
    }
    snprintf(out->temp_path, len + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(out->temp_path);
    if (fd < 0 || !(out->file = fdopen(fd, "w"))) {
        int err = errno;
        if (fd >= 0) {
            close(fd);
            unlink(out->temp_path);
        }
        free(out->temp_path);
        out->temp_path = NULL;
        cli_output_abort(out);
        cli_error(cmd, "%s: cannot write: %s", path, strerror(err));
        return KM_EIO;
    }
    return KM_OK;
}

km_status cli_output_commit(cli_output *out)
{
    int failed = fflush(out->file) != 0 || ferror(out->file) || fsync(fileno(out->file)) != 0;
    int err = errno;
    failed |= fclose(out->file) != 0;
    out->file = NULL;
    if (!failed && rename(out->temp_path, out->path) != 0) {
        failed = 1;
        err = errno;
    }
    if (failed) {
        cli_error(out->cmd, "%s: cannot write: %s", out->path, strerror(err));
        cli_output_abort(out);
        return KM_EIO;
    }
    free(out->path);
    free(out->temp_path);
    memset(out, 0, sizeof *out);
    return KM_OK;
}

void cli_output_abort(cli_output *out)
{
    if (out->file)
        fclose(out->file);
    if (out->temp_path)
        unlink(out->temp_path);
    free(out->path);
    free(out->temp_path);
    memset(out, 0, sizeof *out);
}
