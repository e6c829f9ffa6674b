/* The weighted-degree string kernels (kernel_family.h KM_INPUT_ROWS, on string rows), after Rätsch &
 * Sonnenburg ("Accurate splice site prediction for Caenorhabditis elegans", 2004) and, with shifts,
 * Rätsch, Sonnenburg & Schölkopf ("RASE: recognition of alternatively spliced exons in C. elegans",
 * 2005, eq. 1); Lei, Binder, Dogan & Kloft ("Localized multiple kernel learning—a convex approach",
 * 2016, §5.2) use the single degrees 1..20 as base kernels. With u_{l,d}(x) the d letters of x from
 * position l:
 *   positional (degree d):  k_d(x, x') = sum_l 1[u_{l,d}(x) = u_{l,d}(x')]
 *   wd (degree D):          sum_{d=1..D} w_d k_d(x, x'),  w_d = 2 (D - d + 1) / (D (D + 1))
 * and with shift S each d-mer also meets the d-mers s = 1..S places further on either side, weighted
 * 1/(2 (s + 1)) per side. Strings of different lengths are compared over the positions both have.
 *
 * Evaluation by runs: if x[l + s] = x'[l] on maximal runs of r_1, r_2, ... consecutive positions l,
 * the d-mers that match with shift s number sum_t max(0, r_t - d + 1), so every degree comes from one
 * pass over the positions per shift, O(L (2S + 1)) per pair. The positional kernels of several degrees
 * (Lei et al.'s 20 base kernels) come from the same pass: with N_d and S_d the number and the total
 * length of the runs of at least d positions, the matching d-mers number S_d - (d - 1) N_d. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kernel/kernel_family.h"
#include "kernel/string_rows.h"

/* The weight of one run of r agreeing positions: its matching d-mers, summed over the kernel's degrees. */
static double run_weight(const km_kernel *k, size_t r)
{
    double d = k->degree;
    if (k->type == KM_KERNEL_POSITIONAL)
        return (double)r >= d ? (double)r - d + 1.0 : 0.0;
    /* sum_{d=1..m} (a - d)(b - d) with a = D + 1, b = r + 1, m = min(r, D), times 2 / (D (D + 1)) */
    double m = (double)r < d ? (double)r : d, a = d + 1.0, b = (double)r + 1.0;
    double sum = m * a * b - (a + b) * m * (m + 1.0) / 2.0 + m * (m + 1.0) * (2.0 * m + 1.0) / 6.0;
    return 2.0 * sum / (d * (d + 1.0));
}

/* sum over the maximal runs of l with x[l + s] = y[l] of run_weight */
static double shifted_runs(const km_kernel *k, const char *x, size_t lx, const char *y, size_t ly, size_t s)
{
    if (s >= lx)
        return 0.0;
    size_t positions = lx - s < ly ? lx - s : ly, run = 0;
    const char *xs = x + s;
    double total = 0.0;
    for (size_t l = 0; l < positions; l++) {
        if (xs[l] == y[l]) {
            run++;
        } else if (run) {
            total += run_weight(k, run);
            run = 0;
        }
    }
    return run ? total + run_weight(k, run) : total;
}

static double wd_value(const km_kernel *k, const void *a, size_t i, const void *b, size_t j)
{
    const km_string_rows *sa = a, *sb = b;
    const char *x = sa->text[i], *y = sb->text[j];
    size_t lx = sa->length[i], ly = sb->length[j];
    double total = shifted_runs(k, x, lx, y, ly, 0);
    for (size_t s = 1; s <= k->shift; s++)
        total += (shifted_runs(k, x, lx, y, ly, s) + shifted_runs(k, y, ly, x, lx, s)) / (2.0 * (double)(s + 1));
    return total;
}

/* matches[d - 1] = sum over the maximal runs of l with x[l + s] = y[l] of max(0, r - d + 1), d = 1..D, from
 * the runs counted by length (runs[e - 1] of e positions, runs[D] of more than D, of total length longer),
 * summed from the longest; the same integers as shifted_runs of the positional kernel of each degree. */
static void shifted_matches(const char *x, size_t lx, const char *y, size_t ly, size_t s, size_t D, double *runs,
                            double *matches)
{
    memset(runs, 0, (D + 1) * sizeof *runs);
    double longer = 0.0;
    size_t positions = s >= lx ? 0 : lx - s < ly ? lx - s : ly, run = 0;
    const char *xs = x + s;
    for (size_t l = 0; l <= positions; l++) {
        if (l < positions && xs[l] == y[l]) {
            run++;
            continue;
        }
        if (run > D)
            longer += (double)run;
        if (run)
            runs[run > D ? D : run - 1] += 1.0;
        run = 0;
    }
    double count = runs[D], length = longer;
    for (size_t d = D; d >= 1; d--) {
        count += runs[d - 1];
        length += runs[d - 1] * (double)d;
        matches[d - 1] = length - (double)(d - 1) * count;
    }
}

/* out[g * stride] = k_g(a_i, b_j) for positional kernels of one shift (kernel_family.h columns), combined
 * over the shifts as wd_value combines them */
static void positional_values(const km_kernel *const *kernels, size_t G, const void *a, size_t i, const void *b,
                              size_t j, double *out, size_t stride)
{
    const km_string_rows *sa = a, *sb = b;
    const char *x = sa->text[i], *y = sb->text[j];
    size_t lx = sa->length[i], ly = sb->length[j], D = 0, S = kernels[0]->shift;
    for (size_t g = 0; g < G; g++)
        D = (size_t)kernels[g]->degree > D ? (size_t)kernels[g]->degree : D;
    double runs[KM_KERNEL_DEGREE_MAX + 1], total[KM_KERNEL_DEGREE_MAX], forward[KM_KERNEL_DEGREE_MAX],
        backward[KM_KERNEL_DEGREE_MAX];
    shifted_matches(x, lx, y, ly, 0, D, runs, total);
    for (size_t s = 1; s <= S; s++) {
        shifted_matches(x, lx, y, ly, s, D, runs, forward);
        shifted_matches(y, ly, x, lx, s, D, runs, backward);
        for (size_t d = 0; d < D; d++)
            total[d] += (forward[d] + backward[d]) / (2.0 * (double)(s + 1));
    }
    for (size_t g = 0; g < G; g++)
        out[g * stride] = total[(size_t)kernels[g]->degree - 1];
}

static void positional_columns(const km_kernel *const *kernels, size_t G, const void *source, size_t i,
                               const size_t *rows, size_t count, double *out)
{
    const km_string_rows *s = source;
    km_string_columns(kernels, G, source, i, rows, count, positional_values, s->length[i] * (2 * kernels[0]->shift + 1),
                      out);
}

static int positional_together(const km_kernel *a, const km_kernel *b) { return a->shift == b->shift; }

static void wd_column(const km_kernel *k, const void *source, size_t i, const size_t *rows, size_t count, double *out)
{
    const km_string_rows *s = source;
    km_string_column(k, source, i, rows, count, wd_value, s->length[i] * (2 * k->shift + 1), out);
}

/* Matching d-mers need d letters: the positional kernel of a degree above every length, and every
 * string kernel on empty strings, are 0 on every pair. */
static int wd_zero_on(const km_kernel *k, const void *source, char *why, size_t size)
{
    size_t longest = km_string_rows_longest(source);
    double degree = k->type == KM_KERNEL_POSITIONAL ? k->degree : 1.0;
    if (degree <= (double)longest)
        return 0;
    if (longest == 0)
        snprintf(why, size, "every sequence is empty");
    else
        snprintf(why, size, "degree %g exceeds every sequence length (the longest is %zu)", k->degree, longest);
    return 1;
}

const km_kernel_family km_family_wd = {
    .type = KM_KERNEL_WD,
    .input = KM_INPUT_ROWS,
    .params = KM_SPEC_DEGREE | KM_SPEC_SHIFT,
    .source_new = km_string_source_new,
    .source_free = km_string_source_free,
    .value = wd_value,
    .column = wd_column,
    .reads_strings = 1,
    .zero_on = wd_zero_on,
};

const km_kernel_family km_family_positional = {
    .type = KM_KERNEL_POSITIONAL,
    .input = KM_INPUT_ROWS,
    .params = KM_SPEC_DEGREE | KM_SPEC_SHIFT,
    .source_new = km_string_source_new,
    .source_free = km_string_source_free,
    .value = wd_value,
    .column = wd_column,
    .columns = positional_columns,
    .together = positional_together,
    .reads_strings = 1,
    .zero_on = wd_zero_on,
};
