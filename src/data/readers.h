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
/* Labelled sequences as described for km_dataset_read_sequences (alphabet NULL: "ACGT"). */
km_status km_read_sequences_stream(FILE *stream, const char *name, const char *alphabet, km_dataset **out);
/* Binary KMMATRIX file or numpy .npy file (each detected by its magic) or LIBSVM precomputed-kernel
 * text. The stream must be seekable (a file or an fmemopen buffer). */
km_status km_matrix_read_stream(FILE *stream, const char *name, km_matrix **out);

/* The first bytes of every numpy .npy file. */
#define KM_NPY_MAGIC "\x93NUMPY"
#define KM_NPY_MAGIC_BYTES 6
/* A 2-D numpy .npy array of float64 ('<f8') or float32 ('<f4') as a matrix of the same dtype (a
 * Fortran-order array is transposed on read); the stream is read from its start and must be seekable.
 * defer_finiteness as in km_matrix_read_payload. */
km_status km_read_npy_stream(FILE *stream, const char *name, int defer_finiteness, km_matrix **out);
/* A 2-D .npy array as dense rows: label_column as in km_csv_options (one column holds the labels;
 * KM_CSV_NO_LABEL: none), the other columns are the features. */
km_status km_read_npy_dataset_stream(FILE *stream, const char *name, int label_column, km_dataset **out);

#endif
