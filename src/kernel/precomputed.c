/* Precomputed kernels in the provider (provider_internal.h): the training block of a kernel matrix
 * or of the dataset's own kernel rows, checked for symmetry (an error) and for the 2 x 2
 * positive-semidefiniteness test (a warning). */
#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/vector_clones.h"
#include "data/dataset.h"
#include "kernel/provider_internal.h"

/* Relative tolerance of the symmetry check of precomputed matrices. */
#define KM_SYMMETRY_TOLERANCE 1e-8
/* Relative slack of the positive-semidefiniteness test (float32 matrix files round at 6e-8). */
#define KM_PSD_TOLERANCE 1e-6

/* Rows of the tiles in which the checks compare K[i][j] with K[j][i] (both tiles stay in the
 * processor cache), and the columns of one transposed chunk of the float pass (64 KB). */
#define KM_CHECK_TILE 64
#define KM_CHECK_CHUNK 256

static void warn_not_psd(const km_provider *p, const km_kernel *k, const km_provider_kernel *pk, size_t i, size_t j,
                         const char *source)
{
    char name[256];
    size_t ri = pk->map ? pk->map[i] : i, rj = pk->map ? pk->map[j] : j;
    km_kernel_describe(k, name, sizeof name);
    km_log(&p->logger, KM_LOG_WARNING,
           "kernel %s: %s is not positive semidefinite (K[%zu][%zu] = %.6g, K[%zu][%zu] = %.6g, K[%zu][%zu] = %.6g); "
           "the solver may not reach the optimum",
           name, source, ri + 1, rj + 1, km_provider_stored_value(pk, i, j), ri + 1, ri + 1, km_provider_stored_value(pk, i, i), rj + 1,
           rj + 1, km_provider_stored_value(pk, j, j));
}

/* The two tests of check_precomputed on a pair a = K[i][j], b = K[j][i], as margins (> 0: the test
 * fails), written without branches so that the float pass below vectorises: a and b differ by more
 * than KM_SYMMETRY_TOLERANCE relative and more than floor_slack (1e-14 of the largest diagonal entry);
 * a^2 exceeds K[i][i] K[j][j]. */
static inline double asymmetry_margin(double a, double b, double floor_slack)
{
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    double allowed = KM_SYMMETRY_TOLERANCE * scale > floor_slack ? KM_SYMMETRY_TOLERANCE * scale : floor_slack;
    return fabs(a - b) - allowed;
}

static inline double minor_margin(double a, double dii, double djj)
{
    return a * a - (dii * djj * (1 + KM_PSD_TOLERANCE) + 1e-300);
}

/* A value that is not a number fails the symmetry test. */
static inline int asymmetric(double a, double b, double floor_slack) { return !(asymmetry_margin(a, b, floor_slack) <= 0); }
static inline int beyond_cauchy_schwarz(double a, double dii, double djj) { return minor_margin(a, dii, djj) > 0; }

/* The larger of the two margins: > 0 when the pair fails a test; +infinity when a or b is infinite or
 * not a number (their margins would be NaN, which no comparison sees), so that the pass also tests
 * the values' finiteness. */
static inline double pair_excess(double a, double b, double dii, double djj, double floor_slack)
{
    double asymmetry = asymmetry_margin(a, b, floor_slack), minor = minor_margin(a, dii, djj);
    double larger = asymmetry > minor ? asymmetry : minor;
    double guard = fabs(a) <= DBL_MAX && fabs(b) <= DBL_MAX ? -INFINITY : INFINITY;
    return larger > guard ? larger : guard;
}

/* The largest pair_excess of row i's pairs (K[i][j], K[j][i]) for j in [j0, j1): row holds K[i][.],
 * mirrored K[.][i]. Vectorised with the widest instructions the processor has (the test is a dozen
 * operations a pair: at the baseline's two doubles a step the pass is bound by them, not by memory). */
static KM_VECTOR_CLONES double row_excess(const float *row, const float *mirrored, double dii, const double *diag,
                                          size_t j0, size_t j1, double floor_slack)
{
    double worst = -INFINITY;
#ifdef _OPENMP
#pragma omp simd reduction(max : worst)
#endif
    for (size_t j = j0; j < j1; j++) {
        double excess = pair_excess(row[j], mirrored[j], dii, diag[j], floor_slack);
        worst = excess > worst ? excess : worst;
    }
    return worst;
}

/* Whether every pair of a float matrix without row map passes both tests and every value is finite: a
 * branch-free pass (the common case, and most of a thousand kernels' set-up time); check_precomputed
 * then only runs its reporting pass when something is to be reported. The rows are taken in blocks of
 * KM_CHECK_TILE, shared among the threads; the block's columns, transposed chunk by chunk into a
 * buffer, are then compared with its rows, both read in order. */
static int float_block_passes(const km_provider_kernel *pk, size_t n, const double *diag, double floor_slack)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= !(diag[i] >= 0 && diag[i] <= DBL_MAX);
    size_t blocks = (n + KM_CHECK_TILE - 1) / KM_CHECK_TILE;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic) reduction(| : bad) if (n >= 4 * KM_CHECK_TILE)
#endif
    for (size_t block = 0; block < blocks; block++) {
        size_t i0 = block * KM_CHECK_TILE, i1 = i0 + KM_CHECK_TILE < n ? i0 + KM_CHECK_TILE : n;
        float mirror[KM_CHECK_TILE * KM_CHECK_CHUNK];   /* mirror[(i - i0) * CHUNK + (j - j0)] = K[j][i] */
        double worst = -INFINITY;
        for (size_t j0 = 0; j0 < i1; j0 += KM_CHECK_CHUNK) {
            size_t jend = j0 + KM_CHECK_CHUNK < i1 ? j0 + KM_CHECK_CHUNK : i1;
            cblas_somatcopy(CblasRowMajor, CblasTrans, (int)(jend - j0), (int)(i1 - i0), 1.0f,
                            pk->K32 + j0 * pk->ld + i0, (int)pk->ld, mirror, KM_CHECK_CHUNK);
            for (size_t i = i0; i < i1; i++) {
                size_t j1 = jend < i ? jend : i;   /* pairs j < i */
                const float *row = pk->K32 + i * pk->ld, *mirrored = mirror + (i - i0) * KM_CHECK_CHUNK - j0;
                double excess = j0 < j1 ? row_excess(row, mirrored, diag[i], diag, j0, j1, floor_slack) : -INFINITY;
                worst = excess > worst ? excess : worst;
            }
        }
        bad |= worst > 0;
    }
    return !bad;
}

/* One pass over the training block of a precomputed kernel: it must be symmetric (to
 * KM_SYMMETRY_TOLERANCE relative), else an error; and a positive semidefinite matrix has K[i][i] >= 0
 * and K[i][j]^2 <= K[i][i] K[j][j] (Cauchy-Schwarz on every 2 x 2 principal minor). A matrix failing
 * this necessary test gives the solver negative curvature, so it may stop away from the optimum:
 * warn once, naming an offending entry. diag: n values of workspace. unchecked: the matrix whose
 * finiteness its reader left to this pass (km_matrix_read_training), or NULL. */
static km_status check_precomputed(const km_provider *p, const km_kernel *k, const km_provider_kernel *pk, size_t n,
                                   const char *source, const km_matrix *unchecked, double *diag)
{
    double largest = 0.0;
    int warned = 0;
    for (size_t i = 0; i < n; i++) {
        diag[i] = km_provider_stored_value(pk, i, i);
        largest = fabs(diag[i]) > largest ? fabs(diag[i]) : largest;
    }
    double floor_slack = 1e-14 * largest;
    int passes = pk->K32 && !pk->map && float_block_passes(pk, n, diag, floor_slack);
    /* the float pass tests the finiteness of what it reads, which is the whole matrix only when the
     * training rows are all of its rows, in order */
    km_status st;
    if (unchecked && !(passes && n == unchecked->rows) && (st = km_matrix_check_finite(unchecked, source)))
        return st;
    if (passes)
        return KM_OK;
    for (size_t i = 0; i < n && !warned; i++) {
        if (diag[i] < 0) {
            warn_not_psd(p, k, pk, i, i, source);
            warned = 1;
        }
    }
    for (size_t i0 = 0; i0 < n; i0 += KM_CHECK_TILE) {
        size_t i1 = i0 + KM_CHECK_TILE < n ? i0 + KM_CHECK_TILE : n;
        for (size_t j0 = 0; j0 <= i0; j0 += KM_CHECK_TILE) {
            for (size_t i = i0; i < i1; i++) {
                size_t j1 = j0 + KM_CHECK_TILE < i ? j0 + KM_CHECK_TILE : i;
                for (size_t j = j0; j < j1; j++) {
                    double a, b;
                    if (pk->map) {
                        a = km_provider_stored_value(pk, i, j);
                        b = km_provider_stored_value(pk, j, i);
                    } else if (pk->K32) {   /* the common cases without indirection */
                        a = pk->K32[i * pk->ld + j];
                        b = pk->K32[j * pk->ld + i];
                    } else {
                        a = pk->K[i * pk->ld + j];
                        b = pk->K[j * pk->ld + i];
                    }
                    if (asymmetric(a, b, floor_slack)) {
                        size_t ri = pk->map ? pk->map[i] : i, rj = pk->map ? pk->map[j] : j;
                        return km_kernel_error(k, "%s is not symmetric: K[%zu][%zu] = %.17g but K[%zu][%zu] = %.17g",
                                               source, ri + 1, rj + 1, a, rj + 1, ri + 1, b);
                    }
                    if (!warned && beyond_cauchy_schwarz(a, diag[i], diag[j])) {
                        warn_not_psd(p, k, pk, i, j, source);
                        warned = 1;
                    }
                }
            }
        }
    }
    return KM_OK;
}

/* Precomputed kernels: a matrix over all dataset rows, or the training block of the dataset's own
 * kernel rows (K(i,j) = row i at column id_j - 1, LIBSVM's -t 4). */
km_status km_provider_setup_precomputed(km_provider *p, const km_kernel *k, km_provider_kernel *pk)
{
    const km_dataset *data = p->data;
    size_t n = p->n;
    if (k->matrix) {
        const char *name = k->file ? k->file : "the kernel matrix";
        if (k->matrix->rows != data->n || k->matrix->cols != data->n)
            return km_kernel_error(k, "%s is %zu x %zu but the data has %zu rows", name, k->matrix->rows,
                                k->matrix->cols, data->n);
        pk->K = k->matrix->data;
        pk->K32 = k->matrix->data32;
        pk->ld = data->n;
        pk->map = p->identity_rows ? NULL : p->rows;
        return check_precomputed(p, k, pk, n, name, k->matrix->finiteness_deferred ? k->matrix : NULL, p->scratch);
    }
    const char *name = data->source ? data->source : "the training data";
    if (!data->ids)
        return km_kernel_error(k, "%s has no precomputed-kernel rows (0:id); give file= or read the data as precomputed",
                            name);
    if (n > SIZE_MAX / n / sizeof(double) || !(pk->owned_K = malloc(n * n * sizeof *pk->owned_K)))
        return km_error_nomem("a precomputed training kernel");
    for (size_t j = 0; j < n; j++) {
        double id = data->ids[p->rows[j]];
        if (!(id >= 1 && id <= (double)data->d && id == floor(id)))
            return km_kernel_error(k, "%s: row %zu: id 0:%g is not one of the kernel columns 1..%zu", name,
                                p->rows[j] + 1, id, data->d);
        for (size_t i = 0; i < n; i++)
            pk->owned_K[i * n + j] = km_dataset_value(data, p->rows[i], (size_t)id - 1);
    }
    pk->K = pk->owned_K;
    pk->ld = n;
    pk->map = NULL;
    return check_precomputed(p, k, pk, n, name, NULL, p->scratch);
}
