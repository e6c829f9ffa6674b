/* Helpers shared by the fuzz targets in tests/fuzz/fuzz_*.c. Each target defines
 * LLVMFuzzerTestOneInput (and optionally LLVMFuzzerInitialize); it is linked either with libFuzzer
 * (cmake -DKM_FUZZ=ON, clang) or with replay.c, which runs it over the files of a seed corpus.
 * A violated invariant calls fuzz_fail, which aborts so that both drivers report it. */
#ifndef KM_FUZZ_SUPPORT_H
#define KM_FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/dataset.h"
#include "kernelmix.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_fail(const char *what)
{
    fprintf(stderr, "fuzz invariant violated: %s\n", what);
    abort();
}

/* A read-only stream over a copy of the input (fmemopen needs a writable buffer in older libcs).
 * Returns NULL when the stream cannot be made; *copy is freed by the caller after fclose. */
static inline FILE *fuzz_open_bytes(const uint8_t *data, size_t size, char **copy)
{
    *copy = malloc(size + 1);
    if (!*copy)
        return NULL;
    if (size)
        memcpy(*copy, data, size);
    FILE *stream = fmemopen(*copy, size, "rb");
    if (!stream) {
        free(*copy);
        *copy = NULL;
    }
    return stream;
}

/* NUL-terminated copy of the input, or NULL when it contains a NUL byte (C strings cannot). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    if (memchr(data, '\0', size))
        return NULL;
    char *text = malloc(size + 1);
    if (!text)
        return NULL;
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* Changes into a new empty directory, so that names an input gives (precomputed matrix files,
 * CLI paths) resolve inside it; targets skip inputs containing '/', which keeps every name there. */
static char fuzz_directory[4096];

static inline void fuzz_remove_directory(void)
{
    rmdir(fuzz_directory);
}

static inline void fuzz_enter_empty_directory(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_directory, sizeof fuzz_directory, "%s/kmfuzz.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(fuzz_directory) || chdir(fuzz_directory) != 0)
        fuzz_fail("cannot create and enter an empty directory");
    atexit(fuzz_remove_directory);
}

/* The invariants dataset.h documents, which every reader must establish. */
static inline void fuzz_check_dataset(const km_dataset *ds)
{
    if (ds->n == 0)
        fuzz_fail("a reader returned an empty dataset");
    if (ds->labels)
        for (size_t i = 0; i < ds->n; i++)
            if (!(ds->labels[i] - ds->labels[i] == 0))
                fuzz_fail("non-finite label");
    if (!ds->sparse) {
        for (size_t k = 0; k < ds->n * ds->d; k++)
            if (!(ds->X[k] - ds->X[k] == 0))
                fuzz_fail("non-finite dense value");
        return;
    }
    if (ds->row_start[0] != 0)
        fuzz_fail("CSR offsets do not start at 0");
    for (size_t i = 0; i < ds->n; i++) {
        if (ds->row_start[i + 1] < ds->row_start[i])
            fuzz_fail("CSR offsets decrease");
        for (size_t k = ds->row_start[i]; k < ds->row_start[i + 1]; k++) {
            if (ds->col[k] >= ds->d)
                fuzz_fail("CSR column beyond the dimension");
            if (k > ds->row_start[i] && ds->col[k] <= ds->col[k - 1])
                fuzz_fail("CSR columns not strictly ascending");
            if (!(ds->val[k] - ds->val[k] == 0))
                fuzz_fail("non-finite sparse value");
        }
    }
}

#endif
