/* The spectrum string kernel (kernel_family.h KM_INPUT_ROWS, on string rows; Leslie, Eskin & Noble,
 * "The spectrum kernel: a string kernel for SVM protein classification", 2002): with N_u(x) the number
 * of times the k-mer u occurs in x,
 *   k(x, x') = sum_u N_u(x) N_u(x').
 * The source sorts every string's suffixes once; the suffixes of length >= k then list the k-mers in
 * sorted order, equal k-mers next to each other, for every k at once (kernels of several k share the
 * source). A value merges the two sorted lists: O((L + L') k) byte comparisons. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernel/kernel_family.h"
#include "kernel/string_rows.h"

typedef struct spectrum_source {
    km_string_rows strings;
    size_t *suffixes;        /* row r's suffix starts in sorted order, from suffixes + first[r] */
    size_t *first;           /* n + 1 offsets */
} spectrum_source;

typedef struct suffix {
    const unsigned char *text;
    size_t length;
} suffix;

/* lexicographic order of byte strings, a proper prefix first */
static int compare_suffixes(const void *pa, const void *pb)
{
    const suffix *a = pa, *b = pb;
    int c = memcmp(a->text, b->text, a->length < b->length ? a->length : b->length);
    if (c)
        return c;
    return (a->length > b->length) - (a->length < b->length);
}

static void spectrum_source_free(void *source)
{
    spectrum_source *s = source;
    km_string_rows_clear(&s->strings);
    free(s->suffixes);
    free(s->first);
    free(s);
}

static km_status sort_suffixes(spectrum_source *s)
{
    size_t n = s->strings.n, total = 0, longest = 0;
    for (size_t r = 0; r < n; r++) {
        total += s->strings.length[r];
        if (s->strings.length[r] > longest)
            longest = s->strings.length[r];
    }
    s->suffixes = malloc((total ? total : 1) * sizeof *s->suffixes);
    s->first = malloc((n + 1) * sizeof *s->first);
    suffix *work = malloc((longest ? longest : 1) * sizeof *work);
    if (!s->suffixes || !s->first || !work) {
        free(work);
        return km_error_nomem("sorted suffixes");
    }
    size_t at = 0;
    for (size_t r = 0; r < n; r++) {
        const unsigned char *text = (const unsigned char *)s->strings.text[r];
        size_t len = s->strings.length[r];
        for (size_t p = 0; p < len; p++)
            work[p] = (suffix){text + p, len - p};
        qsort(work, len, sizeof *work, compare_suffixes);
        s->first[r] = at;
        for (size_t p = 0; p < len; p++)
            s->suffixes[at++] = (size_t)(work[p].text - text);
    }
    s->first[n] = at;
    free(work);
    return KM_OK;
}

static km_status spectrum_source_new(const km_kernel *k, const km_dataset *data, const size_t *rows, size_t n,
                                     size_t dim_all, void **source)
{
    (void)dim_all;
    spectrum_source *s = calloc(1, sizeof *s);
    if (!s)
        return km_error_nomem("a spectrum kernel source");
    km_status st = km_string_rows_init(k, data, rows, n, &s->strings);
    if (!st)
        st = sort_suffixes(s);
    if (st) {
        spectrum_source_free(s);
        return st;
    }
    *source = s;
    return KM_OK;
}

/* The k-mers of one row in sorted order: suffix starts with at least k letters after them. */
typedef struct kmer_cursor {
    const char *text;
    const size_t *start, *end;
    size_t length, k;
} kmer_cursor;

static kmer_cursor cursor_of(const spectrum_source *s, size_t r, size_t k)
{
    kmer_cursor c = {s->strings.text[r], s->suffixes + s->first[r], s->suffixes + s->first[r + 1],
                     s->strings.length[r], k};
    return c;
}

/* Moves to the next start of a full k-mer (or the end). */
static void skip_short(kmer_cursor *c)
{
    while (c->start < c->end && c->length - *c->start < c->k)
        c->start++;
}

/* The number of occurrences of the k-mer at the cursor; moves past them. */
static size_t take_run(kmer_cursor *c)
{
    const char *kmer = c->text + *c->start;
    size_t count = 0;
    do {
        count++;
        c->start++;
        skip_short(c);
    } while (c->start < c->end && memcmp(c->text + *c->start, kmer, c->k) == 0);
    return count;
}

static double spectrum_value(const km_kernel *k, const void *a, size_t i, const void *b, size_t j)
{
    kmer_cursor x = cursor_of(a, i, k->kmer), y = cursor_of(b, j, k->kmer);
    skip_short(&x);
    skip_short(&y);
    double total = 0.0;
    while (x.start < x.end && y.start < y.end) {
        int c = memcmp(x.text + *x.start, y.text + *y.start, k->kmer);
        if (c < 0) {
            take_run(&x);
        } else if (c > 0) {
            take_run(&y);
        } else {
            size_t nx = take_run(&x);
            total += (double)nx * (double)take_run(&y);
        }
    }
    return total;
}

static void spectrum_column(const km_kernel *k, const void *source, size_t i, const size_t *rows, size_t count,
                            double *out)
{
    const spectrum_source *s = source;
    km_string_column(k, source, i, rows, count, spectrum_value, 2 * s->strings.length[i] * k->kmer, out);
}

/* No string of the source has a k-mer: every value is 0. */
static int spectrum_zero_on(const km_kernel *k, const void *source, char *why, size_t size)
{
    size_t longest = km_string_rows_longest(&((const spectrum_source *)source)->strings);
    if (k->kmer <= longest)
        return 0;
    snprintf(why, size, "k-mer length %zu exceeds every sequence length (the longest is %zu)", (size_t)k->kmer,
             longest);
    return 1;
}

const km_kernel_family km_family_spectrum = {
    .type = KM_KERNEL_SPECTRUM,
    .input = KM_INPUT_ROWS,
    .params = KM_SPEC_KMER,
    .source_new = spectrum_source_new,
    .source_free = spectrum_source_free,
    .value = spectrum_value,
    .column = spectrum_column,
    .reads_strings = 1,
    .zero_on = spectrum_zero_on,
};
