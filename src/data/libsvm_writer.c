/* LIBSVM text writer: "label idx:val ..." with 1-based indices, zeros omitted, values with 17
 * significant digits (exact round trip); precomputed-kernel datasets keep "0:id" and every kernel
 * value, zeros included, as LIBSVM requires. Written atomically. */
#include <math.h>

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/locale.h"
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

/* Row of the k-th stored value of a CSR dataset. */
static size_t row_of_value(const km_dataset *data, size_t k)
{
    size_t row = 0;
    while (data->row_start[row + 1] <= k)
        row++;
    return row;
}

/* The readers reject NaN and infinities, so they are refused here rather than written. */
static km_status check_finite(const km_dataset *data, const char *path)
{
    size_t stored = data->sparse ? data->row_start[data->n] : data->n * data->d;
    const double *values = data->sparse ? data->val : data->X;
    for (size_t i = 0; i < data->n; i++)
        if ((data->labels && !isfinite(data->labels[i])) || (data->ids && !isfinite(data->ids[i])))
            return km_error(KM_EINVAL, "%s: row %zu has a non-finite label or id", path, i + 1);
    for (size_t k = 0; k < stored; k++)
        if (!isfinite(values[k]))
            return km_error(KM_EINVAL, "%s: row %zu has a non-finite value", path,
                            (data->sparse ? row_of_value(data, k) : k / data->d) + 1);
    return KM_OK;
}

km_status km_dataset_write_libsvm(const km_dataset *data, const char *path)
{
    if (!data || !path)
        return km_error(KM_EINVAL, "km_dataset_write_libsvm: NULL %s", data ? "path" : "dataset");
    km_status st = check_finite(data, path);
    if (st)
        return st;
    km_atomic_file file;
    st = km_atomic_open(&file, path, "data");
    if (st)
        return st;
    km_numeric_locale locale;
    if ((st = km_numeric_locale_enter(&locale))) {
        km_atomic_abort(&file);
        return st;
    }
    for (size_t i = 0; i < data->n && !ferror(file.stream); i++)
        write_row(file.stream, data, i);
    km_numeric_locale_leave(&locale);
    return km_atomic_commit(&file);
}
