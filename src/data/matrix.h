/* Matrix storage shared by the library's readers (the public lifecycle is in kernelmix.h). */
#ifndef KM_DATA_MATRIX_H
#define KM_DATA_MATRIX_H

#include <stdint.h>
#include <stdio.h>

#include "core/atomic_file.h"
#include "kernelmix.h"

/* Values row-major, in exactly one of two storages: data (double) or data32 (float, what a float32
 * matrix file reads into: half the memory of doubles and no rounding). */
struct km_matrix {
    size_t rows, cols;
    double *data;       /* rows×cols doubles, or NULL */
    float *data32;      /* rows×cols floats, or NULL */
    struct km_matrix_mapping *mapping;  /* the file mapping the values live in, or NULL */
    int borrowed;       /* the values are the caller's (km_matrix_wrap): read only, not freed */
    char *source;       /* the file the values were read from (for messages), or NULL */
    int finiteness_deferred;   /* a training kernel file's values, not yet checked finite: the kernel
                                * provider checks them in its symmetry pass (km_matrix_read_training) */
};

/* km_matrix_read for the training kernel of a precomputed:file= spec: precomputed-kernel text must
 * list the training rows in order, row i starting with 0:i (KM_EFORMAT naming the first row that does
 * not); binary files carry no ids. The values of a binary file are left finiteness_deferred: the
 * kernel provider, which reads every value of a training kernel in its symmetry pass, tests them
 * there, so that a thousand kernel files are read once before training instead of twice. */
km_status km_matrix_read_training(const char *path, km_matrix **out);

/* Whether values are stored little-endian in memory (as the binary file format stores them). */
int km_host_is_little_endian(void);

/* A rows×cols matrix in the storage of dtype (float32: data32, float64: data); values zero-filled
 * only when zero is set. */
km_status km_matrix_alloc(size_t rows, size_t cols, km_dtype dtype, int zero, km_matrix **out);

/* A rows×cols matrix whose values are the payload of a binary matrix file, mapped copy-on-write from
 * the open descriptor fd (offset: the payload's byte offset, a multiple of the value width). Returns
 * KM_OK with *out NULL when mapping is not possible here (no mmap, a big-endian host, a stream
 * without a file): the caller reads the values instead. */
km_status km_matrix_map(int fd, size_t rows, size_t cols, km_dtype dtype, size_t offset, km_matrix **out);

/* The rows×cols values of dtype, little-endian and row-major, that fill a binary file from byte offset
 * to its end (KMMATRIX and .npy files): refuses an empty or oversized shape and a file size other than
 * offset plus the payload (KM_EFORMAT naming the file, "NAME: problem"), maps large payloads, reads the
 * others, and refuses non-finite values, unless defer_finiteness is set: then the matrix is marked
 * finiteness_deferred and its reader's caller takes over the check. The stream must be seekable. */
km_status km_matrix_read_payload(FILE *stream, const char *name, uint64_t rows, uint64_t cols, km_dtype dtype,
                                 uint64_t offset, int defer_finiteness, km_matrix **out);

/* Every value finite (core/finite.h), else KM_EFORMAT naming name and the first offending entry. */
km_status km_matrix_check_finite(const km_matrix *matrix, const char *name);

/* km_matrix_write in two steps, for callers that publish several files together: whether matrix can
 * be stored as dtype (KM_EINVAL naming path and the first value that cannot), then the binary format
 * of a writable matrix into an open atomic file, which the caller commits or finishes. */
km_status km_matrix_writable(const km_matrix *matrix, const char *path, km_dtype dtype);
void km_matrix_write_to(const km_matrix *matrix, km_atomic_file *file, km_dtype dtype);

#endif
