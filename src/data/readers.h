/* Stream entry points of the file readers. The public km_dataset_read_* and km_matrix_read open a
 * path and call these; tests and fuzz targets drive them directly, e.g. over fmemopen buffers.
 * `name` is the file name used in messages ("NAME:LINE: problem"). */
#ifndef KM_DATA_READERS_H
#define KM_DATA_READERS_H

#include <stdio.h>

#include "kernelmix.h"

/* LIBSVM sparse rows (CSR) or, with KM_READ_PRECOMPUTED, precomputed-kernel rows (dense n×k + ids). */
km_status km_read_libsvm_stream(FILE *stream, const char *name, unsigned flags, km_dataset **out);
/* Dense delimited rows as described for km_dataset_read_csv. */
km_status km_read_csv_stream(FILE *stream, const char *name, const km_csv_options *options, km_dataset **out);
/* Binary KMMATRIX file (detected by its magic) or LIBSVM precomputed-kernel text. The stream must
 * be seekable (a file or an fmemopen buffer). */
km_status km_matrix_read_stream(FILE *stream, const char *name, km_matrix **out);

#endif
