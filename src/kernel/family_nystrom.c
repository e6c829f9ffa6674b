/* Low-rank kernels by the Nystrom method (Williams & Seeger, "Using the Nystrom method to speed up kernel
 * machines", NIPS 2000; Kumar, Mohri & Talwalkar, "Sampling methods for the Nystrom method", JMLR 2012):
 * a kernel k with rank=R is replaced by
 *     k~(x, x') = k(x, Z) K_ZZ^+ k(Z, x') = <phi(x), phi(x')>,   phi(x) = P^T k(Z, x),
 * Z the L = min(R, n) landmark rows chosen from the training rows (landmarks.h: drawn uniformly, by
 * k-means++ or by approximate ridge leverage scores as sampling= says, or with icd=TOL the pivots of an
 * incomplete Cholesky factorization), and
 * P = U_r diag(lambda_r)^(-1/2) from the eigenvectors of K_ZZ = k(Z, Z) whose eigenvalues exceed
 * KM_NYSTROM_EIGEN_CUT times the largest (the others would only amplify rounding). On the landmark rows
 * k~ equals k; with L = n it is k itself, up to the cut eigenvalues.
 *
 * The family serves any dot-product kernel (linear, poly, rbf, sigmoid: their values from km_kernel_from_dots)
 * as KM_INPUT_ROWS: a source holds the rows' features phi (n x r), so a value is an r-term dot product
 * and a column one matrix-vector product. Uniform landmarks are the default: they cost nothing to draw,
 * need no pass over the data, and Kumar et al. find them as accurate as the adaptive schemes on most
 * sets at the ranks used in practice; k-means++ landmarks depend on the features only, so kernels on
 * the same features share them as they share a uniform draw. The landmarks and P are fitted values of
 * the kernel (model files keep them), so the features of new rows, and hence prediction, need only Z
 * and P. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "kernel/feature_view.h"
#include "kernel/kernel_eval.h"
#include "kernel/kernel_family.h"
#include "kernel/landmarks.h"
#include "kernel/nystrom.h"

/* Eigenvalues of K_ZZ below this fraction of the largest are cut (docs/kernels.md, "Low-rank kernels"). */
#define KM_NYSTROM_EIGEN_CUT 1e-10
/* Most values the landmark rows may hold (L x features, 512 MiB). */
#define KM_NYSTROM_MAX_LANDMARK_VALUES ((size_t)1 << 26)
/* Rows of k(rows, Z) computed at once when mapping rows to features. */
#define KM_NYSTROM_BLOCK_ROWS 256

/* The rows of the low-rank kernels on one feature subset (family_nystrom's shared source data): the
 * view, held until every kernel sharing it has computed its features, and the dot products of the rows
 * with the last landmark rows drawn, which every kernel drawing as many shares (the draw's seed is fixed)
 * where the provider has room for them (the kernel's share_dots). */
typedef struct nystrom_rows {
    km_view view;
    size_t users;            /* sources that still need the view */
    size_t *seeded;          /* the k-means++ landmark rows last chosen (for seeded_asked), or NULL */
    size_t seeded_asked, seeded_count;
    double *landmarks;       /* a copy of the landmark rows the dots are for, or NULL */
    size_t n_landmarks, landmark_dim;
    double *dots;            /* view.n x n_landmarks: <x_i, z_l> */
} nystrom_rows;

typedef struct nystrom_source {
    nystrom_rows *rows;      /* NULL once phi is computed */
    const km_kernel_family *base;   /* the kernel type's own family */
    size_t n;
    size_t r;
    double *phi;             /* n x r, NULL until the kernel is fitted, or held as float: */
    float *phi_float;        /* n x r (the kernel's features_float), or NULL */
} nystrom_source;

static void rows_release(nystrom_rows *rows)
{
    if (!rows || --rows->users > 0)
        return;
    km_view_free(&rows->view);
    free(rows->seeded);
    free(rows->landmarks);
    free(rows->dots);
    free(rows);
}

static void nystrom_source_free(void *source)
{
    nystrom_source *s = source;
    rows_release(s->rows);
    free(s->phi);
    free(s->phi_float);
    free(s);
}

/* The landmark rows as a dense view (borrowing the kernel's values) with their squared norms. */
static km_status landmark_view(const km_kernel *k, km_view *z)
{
    memset(z, 0, sizeof *z);
    z->n = k->n_landmarks;
    z->dim = k->landmark_dim;
    z->X = k->landmarks;
    if (!(z->sqnorm = malloc((z->n ? z->n : 1) * sizeof *z->sqnorm)))
        return km_error_nomem("the landmark rows");
    for (size_t l = 0; l < z->n; l++)
        z->sqnorm[l] = cblas_ddot((int)z->dim, z->X + l * z->dim, 1, z->X + l * z->dim, 1);
    return KM_OK;
}

/* values (count x L): the base kernel's k(x_t, z_l) from the dot products they hold, in place (sqnorm:
 * the count rows' squared norms), each checked finite; `between` names the pairs in the message. */
static km_status values_from_dots(const km_kernel *k, const km_view *z, const double *sqnorm, size_t count,
                                  const char *between, double *values)
{
    size_t L = z->n;
    for (size_t t = 0; t < count; t++)
        km_kernel_from_dots(k, values + t * L, z->sqnorm, NULL, sqnorm[t], L, values + t * L);
    for (size_t e = 0; e < count * L; e++)
        if (!isfinite(values[e]))
            return km_kernel_error(k, "a kernel value %s is %g: the kernel overflows double precision (scale the "
                                      "features or choose smaller kernel parameters)", between, values[e]);
    return KM_OK;
}

/* The rows' dot products with the kernel's landmarks, shared: computed when the rows hold those of
 * other landmarks (or none) and the provider has room for them; NULL when not (then computed block by
 * block). */
static km_status shared_dots(const km_kernel *k, nystrom_rows *rows, const km_view *z, const double **dots)
{
    size_t n = rows->view.n, L = k->n_landmarks, values = k->n_landmarks * k->landmark_dim;
    *dots = NULL;
    if (rows->dots && rows->n_landmarks == L && rows->landmark_dim == k->landmark_dim &&
        memcmp(rows->landmarks, k->landmarks, values * sizeof *k->landmarks) == 0) {
        *dots = rows->dots;
        return KM_OK;
    }
    if (!k->share_dots)
        return KM_OK;
    free(rows->dots);
    free(rows->landmarks);
    rows->dots = malloc((n && L ? n * L : 1) * sizeof *rows->dots);
    rows->landmarks = malloc((values ? values : 1) * sizeof *rows->landmarks);
    rows->n_landmarks = rows->landmark_dim = 0;
    if (!rows->dots || !rows->landmarks)
        return km_error_nomem("the rows' dot products with the landmarks");
    km_status st = km_view_dots(&rows->view, 0, n, z, rows->dots);
    if (st)
        return st;
    memcpy(rows->landmarks, k->landmarks, values * sizeof *k->landmarks);
    rows->n_landmarks = L;
    rows->landmark_dim = k->landmark_dim;
    *dots = rows->dots;
    return KM_OK;
}

/* phi = k(rows, Z) P for every row of the source's view, in blocks of rows; as float (each block computed
 * in double, then rounded) where as_float. */
static km_status compute_features(const km_kernel *k, nystrom_source *s, int as_float)
{
    km_view z;
    const km_view *view = &s->rows->view;
    km_status st = landmark_view(k, &z);
    size_t L = k->n_landmarks, r = k->rank_kept, block = KM_NYSTROM_BLOCK_ROWS;
    const double *dots = NULL;
    double *values = st ? NULL : malloc(block * L * sizeof *values);
    double *rounded = st || !as_float ? NULL : malloc(block * (r ? r : 1) * sizeof *rounded);
    free(s->phi);
    free(s->phi_float);
    s->phi = NULL;
    s->phi_float = NULL;
    if (!st && as_float)
        s->phi_float = malloc((s->n ? s->n : 1) * (r ? r : 1) * sizeof *s->phi_float);
    else if (!st)
        s->phi = malloc((s->n ? s->n : 1) * (r ? r : 1) * sizeof *s->phi);
    if (!st && (!values || (as_float ? !s->phi_float || !rounded : !s->phi)))
        st = km_error_nomem("Nystrom features");
    if (!st)
        st = shared_dots(k, s->rows, &z, &dots);
    for (size_t r0 = 0; !st && r0 < s->n; r0 += block) {
        size_t count = s->n - r0 < block ? s->n - r0 : block;
        if (dots)
            memcpy(values, dots + r0 * L, count * L * sizeof *values);
        else
            st = km_view_dots(view, r0, count, &z, values);
        if (!st)
            st = values_from_dots(k, &z, view->sqnorm + r0, count, "to a landmark row", values);
        if (!st && r)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)count, (int)r, (int)L, 1.0, values, (int)L,
                        k->projection, (int)r, 0.0, as_float ? rounded : s->phi + r0 * r, (int)r);
        for (size_t e = 0; !st && as_float && e < count * r; e++)
            s->phi_float[r0 * r + e] = (float)rounded[e];
    }
    free(values);
    free(rounded);
    free(z.sqnorm);
    s->r = r;
    return st;
}

/* The source's features are computed: it lets go of the shared rows. */
static void release_rows(nystrom_source *s)
{
    rows_release(s->rows);
    s->rows = NULL;
}

static km_status nystrom_source_new(const km_kernel *k, const km_dataset *data, const size_t *rows, size_t n,
                                    size_t dim_all, void **source)
{
    if (data->text)
        return km_kernel_error(k, "a low-rank kernel needs numeric feature rows, not strings");
    nystrom_source *s = calloc(1, sizeof *s);
    if (!s || !(s->rows = calloc(1, sizeof *s->rows))) {
        free(s);
        return km_error_nomem("a low-rank kernel's rows");
    }
    s->n = n;
    s->base = km_kernel_family_of(k->type);
    s->rows->users = 1;
    /* on all features, a fitted kernel reads the training rows' features: the landmarks have no others */
    size_t dim = k->projection && !k->features ? k->landmark_dim : dim_all;
    km_status st = km_view_build(data, rows, n, k->features, k->n_features, dim, &s->rows->view);
    if (!st && k->projection)   /* a fitted kernel: the rows' features at once (the rows kept for others
                                   sharing them until nystrom_fit) */
        st = compute_features(k, s, k->features_float);
    if (st) {
        nystrom_source_free(s);
        return st;
    }
    *source = s;
    return KM_OK;
}

/* A source for kernel k on the rows of lead's (the same feature subset), before either is fitted. */
static km_status nystrom_source_share(const km_kernel *k, void *lead, void **source)
{
    nystrom_source *from = lead, *s;
    if (!from->rows)
        return km_kernel_error(k, "the rows it would share are released");
    if (!(s = calloc(1, sizeof *s)))
        return km_error_nomem("a low-rank kernel's rows");
    s->n = from->n;
    s->base = km_kernel_family_of(k->type);
    s->rows = from->rows;
    s->rows->users++;
    km_status st = k->projection ? compute_features(k, s, k->features_float) : KM_OK;   /* a fitted kernel */
    if (st) {
        nystrom_source_free(s);
        return st;
    }
    *source = s;
    return KM_OK;
}

/* The base family's mean distance (relative widths), on the rows' features. */
static km_status nystrom_mean_distance(const void *source, double *mean)
{
    const nystrom_source *s = source;
    if (!s->base->mean_distance)
        return km_error(KM_EINVAL, "a low-rank %s kernel has no width relative to the mean distance",
                        km_kernel_type_name(s->base->type));
    return s->base->mean_distance(&s->rows->view, mean);
}

/* The landmark rows' values, dense, from the source's view. */
static km_status copy_landmarks(km_kernel *k, const km_view *view, const size_t *chosen, size_t L)
{
    size_t dim = view->dim;
    if (dim && L > KM_NYSTROM_MAX_LANDMARK_VALUES / dim)
        return km_kernel_error(k, "%zu landmark rows of %zu features exceed the %zu values they may hold: "
                                  "choose a smaller rank or fewer features", L, dim, KM_NYSTROM_MAX_LANDMARK_VALUES);
    double *Z = calloc(L && dim ? L * dim : 1, sizeof *Z);
    if (!Z)
        return km_error_nomem("the landmark rows");
    for (size_t l = 0; l < L; l++) {
        km_view_row row = km_view_get_row(view, chosen[l]);
        for (size_t e = 0; e < row.nnz; e++)
            Z[l * dim + (row.col ? row.col[e] : e)] = row.val[e];
    }
    free(k->landmarks);
    k->landmarks = Z;
    k->n_landmarks = L;
    k->landmark_dim = dim;
    return KM_OK;
}

/* P = U_r diag(lambda_r)^(-1/2) over the eigenvalues of K_ZZ above the cut, largest first. */
static km_status fit_projection(km_kernel *k)
{
    size_t L = k->n_landmarks;
    km_view z;
    km_status st = landmark_view(k, &z);
    double *K = st ? NULL : malloc(L * L * sizeof *K), *lambda = st ? NULL : malloc(L * sizeof *lambda);
    if (!st && (!K || !lambda))
        st = km_error_nomem("the landmark kernel matrix");
    if (!st)
        st = km_view_dots(&z, 0, L, &z, K);
    if (!st)
        st = values_from_dots(k, &z, z.sqnorm, L, "between landmark rows", K);
    if (!st && LAPACKE_dsyevd(LAPACK_ROW_MAJOR, 'V', 'U', (lapack_int)L, K, (lapack_int)L, lambda) != 0)
        st = km_kernel_error(k, "the eigendecomposition of the landmark kernel matrix failed");
    size_t r = 0;
    double top = !st && L ? lambda[L - 1] : 0.0;
    while (!st && r < L && lambda[L - 1 - r] > KM_NYSTROM_EIGEN_CUT * top)
        r++;
    double *P = st ? NULL : malloc((r ? L * r : 1) * sizeof *P);
    if (!st && !P)
        st = km_error_nomem("the Nystrom projection");
    for (size_t c = 0; !st && c < r; c++) {   /* column c: eigenvector L-1-c (dsyevd sorts ascending) */
        double scale = 1.0 / sqrt(lambda[L - 1 - c]);
        for (size_t l = 0; l < L; l++)
            P[l * r + c] = K[l * L + (L - 1 - c)] * scale;
    }
    if (!st) {
        free(k->projection);
        k->projection = P;
        k->rank_kept = r;
    } else {
        free(P);
    }
    free(K);
    free(lambda);
    free(z.sqnorm);
    return st;
}

/* The k-means++ landmarks of the source's rows, drawn once for every kernel on them that asks for as many. */
static km_status seeded_landmarks(nystrom_rows *rows, size_t L, size_t **chosen, size_t *count)
{
    if (!rows->seeded || rows->seeded_asked != L) {
        free(rows->seeded);
        rows->seeded = NULL;
        km_status st = km_landmarks_kmeanspp(&rows->view, L, &rows->seeded, &rows->seeded_count);
        if (st)
            return st;
        rows->seeded_asked = L;
    }
    *count = rows->seeded_count;
    if (!(*chosen = malloc((*count ? *count : 1) * sizeof **chosen)))
        return km_error_nomem("the landmark rows");
    memcpy(*chosen, rows->seeded, *count * sizeof **chosen);
    return KM_OK;
}

/* The Nystrom map on the rows chosen of view: the landmark rows and P. */
static km_status fit_map(km_kernel *k, const km_view *view, const size_t *chosen, size_t L)
{
    km_status st = copy_landmarks(k, view, chosen, L);
    if (!st)
        st = fit_projection(k);
    if (!st && k->rank_kept == 0)
        st = km_kernel_error(k, "it is 0 on every landmark row: nothing to approximate");
    return st;
}

/* The Nystrom map on the rows chosen and the features of the source's rows (as float where as_float). */
static km_status fit_on(km_kernel *k, nystrom_source *s, const size_t *chosen, size_t L, int as_float)
{
    km_status st = fit_map(k, &s->rows->view, chosen, L);
    return st ? st : compute_features(k, s, as_float);
}

/* L rows drawn by approximate ridge leverage scores (landmarks.h), from the Nystrom map on a uniform draw
 * of as many rows; the uniform draw itself where its approximation leaves no residual. */
static km_status leverage_landmarks(km_kernel *k, nystrom_source *s, size_t L, size_t **chosen, size_t *count)
{
    size_t *uniform;
    km_status st = km_landmarks_uniform(s->n, L, &uniform);
    if (st)
        return st;
    if ((st = fit_on(k, s, uniform, L, 0))) {   /* the scores read the features in double */
        free(uniform);
        return st;
    }
    size_t n = s->n, r = s->r;
    double *eigenvalues = malloc(r * sizeof *eigenvalues), *diagonal = malloc((n ? n : 1) * sizeof *diagonal);
    double *scores = malloc((n ? n : 1) * sizeof *scores), lambda;
    if (!eigenvalues || !diagonal || !scores)
        st = km_error_nomem("the leverage scores");
    for (size_t c = 0; !st && c < r; c++)   /* P = U Lambda^(-1/2), U's columns of unit length */
        eigenvalues[c] = 1.0 / cblas_ddot((int)k->n_landmarks, k->projection + c, (int)r, k->projection + c, (int)r);
    const double *sqnorm = s->rows->view.sqnorm;
    for (size_t i = 0; !st && i < n; i++)
        diagonal[i] = km_kernel_from_dot(k, sqnorm[i], sqnorm[i], sqnorm[i]);
    if (!st)
        km_landmarks_leverage_scores(s->phi, n, r, eigenvalues, diagonal, L, &lambda, scores);
    if (!st && lambda > 0) {
        st = km_landmarks_weighted(scores, n, L, chosen, count);
    } else if (!st) {
        *chosen = uniform;
        *count = L;
        uniform = NULL;
    }
    free(uniform);
    free(eigenvalues);
    free(diagonal);
    free(scores);
    return st;
}

/* The landmark rows of the rows' view as k's keys ask (L = min(rank, rows) of them, or the incomplete
 * Cholesky pivots); leverage scores need the source (the features of a uniform draw), NULL when there
 * is none. */
static km_status choose_landmarks(km_kernel *k, nystrom_rows *rows, nystrom_source *s, size_t **chosen, size_t *L)
{
    size_t n = rows->view.n;
    *L = k->rank < n ? k->rank : n;
    km_status st;
    if (k->icd_tolerance > 0)
        st = km_landmarks_icd(k, &rows->view, chosen, L);
    else if (k->landmark_sampling == KM_LANDMARKS_KMEANSPP)
        st = seeded_landmarks(rows, *L, chosen, L);
    else if (k->landmark_sampling == KM_LANDMARKS_LEVERAGE)
        st = s ? leverage_landmarks(k, s, *L, chosen, L)
               : km_kernel_error(k, "leverage-score landmarks need the features of every row in one process: on "
                                    "rows split over processes draw them uniformly, by k-means++ or by icd=");
    else
        st = km_landmarks_uniform(n, *L, chosen);
    if (!st && *L == 0)
        st = km_kernel_error(k, "it is 0 on every training row: nothing to approximate");
    return st;
}

/* km_kernel_fit_gamma's mean distance on the rows' view. */
static km_status rows_mean_distance(void *rows, double *mean)
{
    return km_view_mean_sqdist(&((nystrom_rows *)rows)->view, mean);
}

/* The landmarks, P and the training rows' features; the base kernel's default gamma first (the provider
 * has resolved a relative width already). A kernel
 * fitted before its source was made (km_nystrom_fit_landmarks) has its rows' features already. */
static km_status nystrom_fit(km_kernel *k, void *source)
{
    nystrom_source *s = source;
    if (k->projection && (s->phi || s->phi_float)) {   /* fitted before the source was made: its features
                                                           are computed */
        release_rows(s);
        return KM_OK;
    }
    km_status st = km_kernel_fit_gamma(k, s->base, s->rows->view.dim, rows_mean_distance, s->rows);
    size_t L, *chosen = NULL;
    if (!st)
        st = choose_landmarks(k, s->rows, s, &chosen, &L);
    if (!st)
        st = fit_on(k, s, chosen, L, k->features_float);
    free(chosen);
    if (!st)
        release_rows(s);
    return st;
}

/* The rows of the kernels on one feature subset while km_nystrom_fit_landmarks fits them: one view,
 * one mean distance, one k-means++ draw. */
typedef struct landmark_group {
    size_t lead;             /* the first kernel on the subset */
    nystrom_rows rows;
    double mean;
    int has_mean;
} landmark_group;

static km_status group_mean_distance(void *group, double *mean)
{
    landmark_group *g = group;
    km_status st = g->has_mean ? KM_OK : km_view_mean_sqdist(&g->rows.view, &g->mean);
    g->has_mean = !st;
    *mean = g->mean;
    return st;
}

km_status km_nystrom_fit_landmarks(km_kernel_set *set, const km_dataset *data)
{
    size_t M = set->size, n_groups = 0;
    landmark_group *groups = calloc(M ? M : 1, sizeof *groups);
    km_status st = groups ? KM_OK : km_error_nomem("the landmark rows");
    for (size_t m = 0; !st && m < M; m++) {
        km_kernel *k = &set->kernels[m];
        const km_kernel_family *base = km_kernel_family_of(k->type);
        if (data->text || !base || base->input != KM_INPUT_DOT || !k->rank) {
            st = km_kernel_error(k, "a low-rank kernel on numeric feature rows is needed here");
            break;
        }
        size_t g = 0;
        while (g < n_groups && !km_kernel_same_features(&set->kernels[groups[g].lead], k))
            g++;
        landmark_group *group = &groups[g];
        if (g == n_groups) {
            group->lead = m;
            group->rows.users = 1;
            if ((st = km_view_build(data, NULL, data->n, k->features, k->n_features, data->d, &group->rows.view)))
                break;
            n_groups++;
        }
        st = km_kernel_fit_gamma(k, base, group->rows.view.dim, group_mean_distance, group);
        size_t L = 0, *chosen = NULL;
        if (!st)
            st = choose_landmarks(k, &group->rows, NULL, &chosen, &L);
        if (!st)
            st = fit_map(k, &group->rows.view, chosen, L);
        free(chosen);
    }
    for (size_t g = 0; g < n_groups; g++) {
        free(groups[g].rows.seeded);
        km_view_free(&groups[g].rows.view);
    }
    free(groups);
    return st;
}

static double nystrom_value(const km_kernel *k, const void *a, size_t i, const void *b, size_t j)
{
    (void)k;
    const nystrom_source *sa = a, *sb = b;
    size_t r = sa->r;
    if (sa->phi_float && sb->phi_float)
        return km_float_dot(sa->phi_float + i * r, sb->phi_float + j * r, r);
    if (sa->phi && sb->phi)
        return cblas_ddot((int)r, sa->phi + i * r, 1, sb->phi + j * r, 1);
    km_feature_block other = {.phi = sb->phi, .phi_float = sb->phi_float, .r = r};   /* one of each */
    if (sa->phi)
        return km_feature_dot(&other, j, sa->phi + i * r);
    other = (km_feature_block){.phi_float = sa->phi_float, .r = r};
    return km_feature_dot(&other, i, sb->phi + j * r);
}

static void nystrom_column(const km_kernel *k, const void *source, size_t i, const size_t *rows, size_t count,
                           double *out)
{
    (void)k;
    const nystrom_source *s = source;
    if (s->phi_float) {
        const float *x = s->phi_float + i * s->r;
        for (size_t t = 0; t < count; t++)
            out[t] = km_float_dot(s->phi_float + (rows ? rows[t] : t) * s->r, x, s->r);
        return;
    }
    const double *x = s->phi + i * s->r;
    if (!rows) {
        cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)count, (int)s->r, 1.0, s->phi, (int)s->r, x, 1, 0.0, out, 1);
        return;
    }
    for (size_t t = 0; t < count; t++)
        out[t] = cblas_ddot((int)s->r, s->phi + rows[t] * s->r, 1, x, 1);
}

int km_nystrom_same_landmarks(const km_kernel *a, const km_kernel *b)
{
    return a->projection && b->projection && km_kernel_same_features(a, b) && a->n_landmarks == b->n_landmarks &&
           a->landmark_dim == b->landmark_dim &&
           (a->landmarks == b->landmarks ||
            memcmp(a->landmarks, b->landmarks, a->n_landmarks * a->landmark_dim * sizeof *a->landmarks) == 0);
}

km_status km_nystrom_dots(const km_kernel *k, const km_dataset *data, const size_t *rows, size_t n, double *dots,
                          double *sqnorm)
{
    km_view x, z;
    km_status st = km_view_build(data, rows, n, k->features, k->n_features, k->features ? data->d : k->landmark_dim, &x);
    if (st)
        return st;
    st = landmark_view(k, &z);
    if (!st)
        st = km_view_dots(&x, 0, n, &z, dots);
    if (!st)
        memcpy(sqnorm, x.sqnorm, n * sizeof *sqnorm);
    free(z.sqnorm);
    km_view_free(&x);
    return st;
}

km_status km_nystrom_values(const km_kernel *k, const double *dots, const double *sqnorm, size_t n, double *values)
{
    km_view z;
    km_status st = landmark_view(k, &z);
    if (!st && values != dots)
        memcpy(values, dots, n * k->n_landmarks * sizeof *values);
    if (!st)
        st = values_from_dots(k, &z, sqnorm, n, "to a landmark row", values);
    free(z.sqnorm);
    return st;
}

km_status km_nystrom_project(const km_kernel *k, const double *v, double *u)
{
    size_t L = k->n_landmarks, r = k->rank_kept;
    double *t = malloc((r ? r : 1) * sizeof *t);
    if (!t)
        return km_error_nomem("a projection onto the landmarks");
    cblas_dgemv(CblasRowMajor, CblasTrans, (int)L, (int)r, 1.0, k->projection, (int)r, v, 1, 0.0, t, 1);
    cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)L, (int)r, 1.0, k->projection, (int)r, t, 1, 0.0, u, 1);
    free(t);
    return KM_OK;
}

km_status km_nystrom_self_values(const km_kernel *k, const double *values, size_t n, double *sq)
{
    size_t L = k->n_landmarks, r = k->rank_kept, block = KM_NYSTROM_BLOCK_ROWS;
    double *phi = malloc(block * (r ? r : 1) * sizeof *phi);
    if (!phi)
        return km_error_nomem("the rows' features");
    for (size_t r0 = 0; r0 < n; r0 += block) {
        size_t count = n - r0 < block ? n - r0 : block;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)count, (int)r, (int)L, 1.0, values + r0 * L,
                    (int)L, k->projection, (int)r, 0.0, phi, (int)r);
        for (size_t t = 0; t < count; t++)
            sq[r0 + t] = cblas_ddot((int)r, phi + t * r, 1, phi + t * r, 1);
    }
    free(phi);
    return KM_OK;
}

static void nystrom_features(const void *source, km_feature_block *out)
{
    const nystrom_source *s = source;
    out->phi = s->phi;
    out->phi_float = s->phi_float;
    out->r = s->r;
}

const km_kernel_family km_family_nystrom = {
    .type = (km_kernel_type)-1,   /* no type of its own: km_family serves rank= kernels by it */
    .input = KM_INPUT_ROWS,
    .mean_distance = nystrom_mean_distance,
    .fit = nystrom_fit,
    .source_per_kernel = 1,
    .source_new = nystrom_source_new,
    .source_share = nystrom_source_share,
    .source_free = nystrom_source_free,
    .value = nystrom_value,
    .column = nystrom_column,
    .features = nystrom_features,
};
