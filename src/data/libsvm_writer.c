/* LIBSVM text writer: "label idx:val ..." with 1-based indices, zeros omitted, values with 17
 * significant digits (exact round trip); precomputed-kernel datasets keep "0:id" and every kernel
 * value, zeros included, as LIBSVM requires. Written atomically. */
#include <math.h>

#include "core/error.h"
#include "data/atomic_file.h"
#include "data/dataset.h"

/* Integral values (labels, ids) print as integers, everything else with 17 significant digits. */
static void print_number(FILE *stream, double value)
{
    if (value == 0.0)
        fputs("0", stream);
    else if (value == floor(value) && fabs(value) < 9007199254740992.0) /* 2^53: every integer exact */
        fprintf(stream, "%.0f", value);
    else
        fprintf(stream, "%.17g", value);
}

static void write_row(FILE *stream, const km_dataset *data, size_t i)
{
    /* LIBSVM rows need a label; unlabelled rows get 0, the usual placeholder for unknown labels */
    print_number(stream, data->labels ? data->labels[i] : 0.0);
    if (data->ids) {
        fputs(" 0:", stream);
        print_number(stream, data->ids[i]);
        for (size_t j = 0; j < data->d; j++)
            fprintf(stream, " %zu:%.17g", j + 1, data->X[i * data->d + j]);
    } else if (data->sparse) {
        for (size_t p = data->row_start[i]; p < data->row_start[i + 1]; p++)
            if (data->val[p] != 0.0)
                fprintf(stream, " %lu:%.17g", (unsigned long)data->col[p] + 1, data->val[p]);
    } else {
        for (size_t j = 0; j < data->d; j++)
            if (data->X[i * data->d + j] != 0.0)
                fprintf(stream, " %zu:%.17g", j + 1, data->X[i * data->d + j]);
    }
    fputc('\n', stream);
}

km_status km_dataset_write_libsvm(const km_dataset *data, const char *path)
{
    if (!data || !path)
        return km_error(KM_EINVAL, "km_dataset_write_libsvm: NULL %s", data ? "path" : "dataset");
    km_atomic_file file;
    km_status st = km_atomic_open(&file, path);
    if (st)
        return st;
    for (size_t i = 0; i < data->n && !ferror(file.stream); i++)
        write_row(file.stream, data, i);
    return km_atomic_commit(&file);
}
