#include "kernel/landmarks.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/rng.h"
#include "kernel/kernel_eval.h"

/* The seed of every landmark draw: the same training rows give the same landmarks for every kernel on them. */
#define KM_LANDMARK_SEED 0x6b6d6e79u
/* A squared distance below this fraction of the two squared norms is a duplicate row's rounding. */
#define KM_LANDMARK_DUPLICATE 1e-12

static int row_ascending(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static void sort_rows(size_t *rows, size_t count)
{
    qsort(rows, count, sizeof *rows, row_ascending);
}

km_status km_landmarks_uniform(size_t n, size_t L, size_t **chosen)
{
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return km_error_nomem("the landmark draw");
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    km_rng rng;
    km_rng_seed(&rng, KM_LANDMARK_SEED);
    for (size_t i = 0; i < L; i++) {
        size_t j = i + (size_t)km_rng_below(&rng, n - i), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    sort_rows(order, L);
    *chosen = order;
    return KM_OK;
}

/* nearest[i] = min(nearest[i], ||x_i - x_p||^2) over the view's rows (0 for duplicates of x_p); returns
 * their sum. column, work: the dot products' buffers. */
static double closer_to(const km_view *view, size_t p, double *work, double *column, double *nearest)
{
    km_view_dot_column(view, p, work, column);
    double total = 0;
    for (size_t i = 0; i < view->n; i++) {
        double d = view->sqnorm[i] + view->sqnorm[p] - 2.0 * column[i];
        if (!(d > KM_LANDMARK_DUPLICATE * (view->sqnorm[i] + view->sqnorm[p])))
            d = 0.0;
        nearest[i] = d < nearest[i] ? d : nearest[i];
        total += nearest[i];
    }
    return total;
}

km_status km_landmarks_kmeanspp(const km_view *view, size_t L, size_t **chosen, size_t *count)
{
    size_t n = view->n;
    L = L < n ? L : n;
    double *nearest = malloc((n ? n : 1) * sizeof *nearest), *column = malloc((n ? n : 1) * sizeof *column);
    double *work = calloc(km_view_width(view) + 1, sizeof *work);
    size_t *rows = malloc((L ? L : 1) * sizeof *rows);
    if (!nearest || !column || !work || !rows) {
        free(nearest);
        free(column);
        free(work);
        free(rows);
        return km_error_nomem("the k-means++ landmarks");
    }
    for (size_t i = 0; i < n; i++)
        nearest[i] = INFINITY;
    km_rng rng;
    km_rng_seed(&rng, KM_LANDMARK_SEED);
    size_t j = 0, next = n ? (size_t)km_rng_below(&rng, n) : 0;
    while (j < L) {
        rows[j++] = next;
        double total = closer_to(view, next, work, column, nearest);
        if (j == L || !(total > 0))
            break;
        /* the next row with probability nearest[i] / total */
        double u = km_rng_uniform(&rng) * total, sum = 0;
        for (size_t i = 0; i < n; i++) {
            if (nearest[i] == 0.0)
                continue;
            next = i;
            if ((sum += nearest[i]) > u)
                break;
        }
    }
    free(nearest);
    free(column);
    free(work);
    sort_rows(rows, j);
    *chosen = rows;
    *count = j;
    return KM_OK;
}

typedef struct keyed_row {
    double key;
    size_t row;
} keyed_row;

static int key_ascending(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

km_status km_landmarks_weighted(const double *w, size_t n, size_t L, size_t **chosen, size_t *count)
{
    keyed_row *keyed = malloc((n ? n : 1) * sizeof *keyed);
    size_t *rows = malloc((L ? L : 1) * sizeof *rows);
    if (!keyed || !rows) {
        free(keyed);
        free(rows);
        return km_error_nomem("the weighted landmark draw");
    }
    km_rng rng;
    km_rng_seed(&rng, KM_LANDMARK_SEED);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double u = 1.0 - km_rng_uniform(&rng);   /* in (0, 1] */
        if (w[i] > 0)
            keyed[m++] = (keyed_row){-log(u) / w[i], i};
    }
    qsort(keyed, m, sizeof *keyed, key_ascending);
    size_t j = L < m ? L : m;
    for (size_t t = 0; t < j; t++)
        rows[t] = keyed[t].row;
    free(keyed);
    sort_rows(rows, j);
    *chosen = rows;
    *count = j;
    return KM_OK;
}

void km_landmarks_leverage_scores(const double *phi, size_t n, size_t r, const double *eigenvalues,
                                  const double *diagonal, size_t L, double *lambda, double *scores)
{
    double residual = 0;
    for (size_t i = 0; i < n; i++)
        residual += fmax(diagonal[i] - cblas_ddot((int)r, phi + i * r, 1, phi + i * r, 1), 0.0);
    *lambda = L ? residual / (double)L : 0.0;
    double mu = *lambda * (double)L / (double)(n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        double middle = 0;
        for (size_t c = 0; c < r; c++)
            middle += eigenvalues[c] * phi[i * r + c] * phi[i * r + c] / (eigenvalues[c] + mu);
        scores[i] = *lambda > 0 ? fmax(diagonal[i] - middle, 0.0) / *lambda : 0.0;
    }
}

km_status km_landmarks_icd(const km_kernel *k, const km_view *view, size_t **chosen, size_t *count)
{
    size_t n = view->n, R = k->rank < n ? k->rank : n;
    double *d = malloc((n ? n : 1) * sizeof *d), *G = malloc((n ? n : 1) * (R ? R : 1) * sizeof *G);
    double *column = malloc((n ? n : 1) * sizeof *column), *work = calloc(km_view_width(view) + 1, sizeof *work);
    size_t *pivots = malloc((R ? R : 1) * sizeof *pivots);
    if (!d || !G || !column || !work || !pivots) {
        free(d);
        free(G);
        free(column);
        free(work);
        free(pivots);
        return km_error_nomem("the incomplete Cholesky factor");
    }
    double trace = 0, residual;
    for (size_t i = 0; i < n; i++)
        trace += d[i] = km_kernel_from_dot(k, view->sqnorm[i], view->sqnorm[i], view->sqnorm[i]);
    residual = trace;
    size_t j = 0;
    while (j < R && residual > k->icd_tolerance * trace) {
        size_t p = 0;
        for (size_t i = 1; i < n; i++)
            p = d[i] > d[p] ? i : p;
        if (!(d[p] > 0))
            break;
        km_view_dot_column(view, p, work, column);   /* <x_i, x_p>, then k(x_i, x_p) */
        km_kernel_from_dots(k, column, view->sqnorm, NULL, view->sqnorm[p], n, column);
        /* g = (k(., x_p) - G G_p') / sqrt(d_p), G row-major n x R, its first j columns filled */
        if (j)
            cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)n, (int)j, -1.0, G, (int)R, G + p * R, 1, 1.0, column, 1);
        double root = sqrt(d[p]);
        for (size_t i = 0; i < n; i++)
            G[i * R + j] = column[i] / root;
        for (size_t i = 0; i < n; i++)
            d[i] = fmax(d[i] - G[i * R + j] * G[i * R + j], 0.0);
        d[p] = 0.0;
        residual = 0;
        for (size_t i = 0; i < n; i++)
            residual += d[i];
        pivots[j++] = p;
    }
    free(d);
    free(G);
    free(column);
    free(work);
    sort_rows(pivots, j);
    *chosen = pivots;
    *count = j;
    return KM_OK;
}
