/* The dataset behind the opaque km_dataset handle: labels plus features stored either dense
 * (row-major n×d) or sparse (CSR, 0-based ascending column indices), or rows that are strings. */
#ifndef KM_DATA_DATASET_H
#define KM_DATA_DATASET_H

#include <stddef.h>
#include <stdint.h>

#include "kernelmix.h"

struct km_dataset {
    size_t n;               /* rows */
    size_t d;               /* feature columns (largest index for sparse input) */
    double *labels;         /* n labels, or NULL */
    int sparse;             /* 0: dense X, 1: CSR */
    double *X;              /* dense: n*d values, row-major */
    size_t *row_start;      /* CSR: n+1 offsets into col/val */
    uint32_t *col;          /* CSR: 0-based column of each stored value, ascending within a row */
    double *val;            /* CSR: stored values */
    double *ids;            /* precomputed-kernel rows (LIBSVM 0:id): n ids, else NULL */
    char *source;           /* file name the rows came from (for messages), or NULL */
    int borrowed;           /* CSR: row_start, col and val are the caller's (km_dataset_from_csr), not freed */
    char *text;             /* string rows: their bytes, each followed by a NUL; d = 0, no features */
    size_t *text_start;     /* string rows: n+1 offsets into text (row i is text_start[i+1]-text_start[i]-1
                               bytes) */
    size_t csv_fields;      /* CSV rows: fields per line, the label's included; 0 for other sources */
    long csv_label_field;   /* CSV rows: 0-based field of the label, -1 for unlabelled rows */
};

/* Allocates an empty dataset shell (all pointers NULL). */
km_status km_dataset_alloc(km_dataset **out);
/* The string rows `rows` of src into dst (text, text_start). */
km_status km_dataset_copy_strings(const km_dataset *src, const size_t *rows, size_t n_rows, km_dataset *dst);

/* KM_EINVAL naming the first of rows[0..n) (rows NULL: every row) whose squared norm overflows double
 * precision: kernel values on such features (|x|^2, distances, powers of dot products) would be inf,
 * NaN or a meaningless 0. Rows of precomputed kernel values (ids) are not features and pass. */
km_status km_dataset_check_magnitude(const km_dataset *data, const size_t *rows, size_t n);

/* A copy of src keeping only its first d features (columns 0..d-1; d <= src->d): what prediction
 * reads from rows that carry features the model never saw. Labels, ids and CSV layout are copied. */
km_status km_dataset_first_features(const km_dataset *src, size_t d, km_dataset **out);

/* The rows of data with a non-zero feature beyond the first d (columns d and on); *largest receives the
 * largest such feature, 1-based (0: none). */
size_t km_dataset_rows_beyond(const km_dataset *data, size_t d, size_t *largest);

/* Stores a dense dataset's features as CSR in place (zeros left out), for code that walks the stored
 * values (svm-scale's ranges); sparse and string datasets are left as they are. */
km_status km_dataset_make_sparse(km_dataset *data);

#endif
