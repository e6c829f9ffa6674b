/* Prediction with low-rank kernels in the space of their landmark rows (train/low_rank_predict.h). */
#include "train/low_rank_predict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "core/error.h"
#include "kernel/normalization.h"
#include "kernel/nystrom.h"

/* Basis rows whose kernel values to the landmarks are computed at once. */
#define KM_LOW_RANK_BASIS_BLOCK 512

struct km_low_rank_predictor {
    const km_kernel_set *set;
    size_t n_decisions;
    size_t *lead;            /* per kernel: the first kernel with the same landmarks (shared dot products) */
    size_t L_max;
    double **u;              /* per kernel: n_decisions x L_m */
    double *offset;          /* n_decisions biases */
};

void km_low_rank_predictor_free(km_low_rank_predictor *p)
{
    if (!p)
        return;
    for (size_t m = 0; p->u && m < p->set->size; m++)
        free(p->u[m]);
    free(p->u);
    free(p->lead);
    free(p->offset);
    free(p);
}

size_t km_low_rank_predictor_row_values(const km_low_rank_predictor *p) { return 2 * p->L_max + 2; }

/* s_m(x_t) of n rows from their values to the landmarks: sqrt(global), times 1/sqrt(k~(x, x)) when
 * spherical (normalization.h's factors). */
static km_status row_scales(const km_kernel *k, const double *values, size_t n, double *scale)
{
    km_status st = KM_OK;
    if (k->norm == KM_NORM_SPHERICAL) {
        st = km_nystrom_self_values(k, values, n, scale);
        if (!st)
            st = km_norm_factors(k, scale, NULL, n, scale);
    } else {
        for (size_t t = 0; t < n; t++)
            scale[t] = 1.0;
    }
    double root = sqrt(km_norm_global(k));
    for (size_t t = 0; t < n; t++)
        scale[t] *= root;
    return st;
}

/* coef[b * nd + d]: the coefficient of basis row b in decision d; theta[d * M + m]: the weight of
 * kernel m in decision d's machine. */
static void basis_coefficients(const km_model *model, size_t nd, double *coef, double *theta)
{
    size_t M = model->kernels->size;
    memset(coef, 0, model->basis->n * nd * sizeof *coef);
    for (size_t q = 0, first = 0; q < model->n_machines; q++) {
        const km_machine *machine = &model->machines[q];
        size_t outputs = machine->n_outputs > 1 ? machine->n_outputs : 1;
        for (size_t o = 0; o < outputs; o++) {
            memcpy(theta + (first + o) * M, machine->theta, M * sizeof *theta);
            for (size_t j = 0; j < machine->n_sv; j++)
                coef[machine->sv[j] * nd + first + o] = machine->coef[j * outputs + o];
        }
        first += outputs;
    }
}

/* u_m of every decision: v = sum_b coef_b s(x_b) k(Z, x_b) over blocks of basis rows (their dot products
 * with the landmarks shared by the kernels of one lead), then u = theta_m P P' v. */
static km_status basis_weights(km_low_rank_predictor *p, const km_model *model, size_t lead, const double *coef,
                               const double *theta)
{
    const km_kernel_set *set = model->kernels;
    size_t nb = model->basis->n, nd = p->n_decisions, M = set->size, L = set->kernels[lead].n_landmarks;
    size_t block = KM_LOW_RANK_BASIS_BLOCK;
    double *dots = malloc(block * L * sizeof *dots), *values = malloc(block * L * sizeof *values);
    double *sq = malloc(block * sizeof *sq), *scale = malloc(block * sizeof *scale);
    double *scaled = malloc(block * nd * sizeof *scaled);
    size_t *rows = malloc(block * sizeof *rows);
    km_status st = dots && values && sq && scale && scaled && rows ? KM_OK : km_error_nomem("the low-rank predictor");
    for (size_t m = lead; !st && m < M; m++)
        if (p->lead[m] == lead && !(p->u[m] = calloc(nd * L, sizeof **p->u)))
            st = km_error_nomem("the low-rank predictor");
    for (size_t b0 = 0; !st && b0 < nb; b0 += block) {
        size_t count = nb - b0 < block ? nb - b0 : block;
        for (size_t t = 0; t < count; t++)
            rows[t] = b0 + t;
        st = km_nystrom_dots(&set->kernels[lead], model->basis, rows, count, dots, sq);
        for (size_t m = lead; !st && m < M; m++) {
            if (p->lead[m] != lead)
                continue;
            const km_kernel *k = &set->kernels[m];
            st = km_nystrom_values(k, dots, sq, count, values);
            if (!st)
                st = row_scales(k, values, count, scale);
            if (st)
                break;
            for (size_t t = 0; t < count; t++)
                for (size_t d = 0; d < nd; d++)
                    scaled[t * nd + d] = coef[(b0 + t) * nd + d] * scale[t];
            /* v (nd x L) += scaled' (nd x count) values (count x L) */
            cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)nd, (int)L, (int)count, 1.0, scaled, (int)nd,
                        values, (int)L, 1.0, p->u[m], (int)L);
        }
    }
    for (size_t m = lead; !st && m < M; m++)
        for (size_t d = 0; !st && p->lead[m] == lead && d < nd; d++) {
            double *u = p->u[m] + d * L;
            st = km_nystrom_project(&set->kernels[m], u, u);
            cblas_dscal((int)L, theta[d * M + m], u, 1);
        }
    free(dots);
    free(values);
    free(sq);
    free(scale);
    free(scaled);
    free(rows);
    return st;
}

km_status km_low_rank_predictor_new(const km_model *model, km_low_rank_predictor **out)
{
    *out = NULL;
    const km_kernel_set *set = model->kernels;
    size_t M = set->size;
    if (model->weight_groups > 1)
        return KM_OK;
    for (size_t m = 0; m < M; m++)
        if (!set->kernels[m].projection || set->kernels[m].center)
            return KM_OK;
    km_low_rank_predictor *p = calloc(1, sizeof *p);
    if (!p)
        return km_error_nomem("the low-rank predictor");
    p->set = set;
    p->n_decisions = km_model_n_decision(model);
    p->lead = malloc(M * sizeof *p->lead);
    p->u = calloc(M, sizeof *p->u);
    p->offset = malloc(p->n_decisions * sizeof *p->offset);
    double *coef = malloc((model->basis->n ? model->basis->n : 1) * p->n_decisions * sizeof *coef);
    double *theta = malloc(p->n_decisions * M * sizeof *theta);
    km_status st = p->lead && p->u && p->offset && coef && theta ? KM_OK : km_error_nomem("the low-rank predictor");
    if (!st)
        basis_coefficients(model, p->n_decisions, coef, theta);
    for (size_t m = 0; !st && m < M; m++) {
        size_t g = 0;
        while (g < m && !km_nystrom_same_landmarks(&set->kernels[g], &set->kernels[m]))
            g++;
        p->lead[m] = g;
        p->L_max = set->kernels[m].n_landmarks > p->L_max ? set->kernels[m].n_landmarks : p->L_max;
    }
    for (size_t m = 0; !st && m < M; m++)
        if (p->lead[m] == m)
            st = basis_weights(p, model, m, coef, theta);
    for (size_t q = 0, first = 0; !st && q < model->n_machines; q++) {
        const km_machine *machine = &model->machines[q];
        size_t outputs = machine->n_outputs > 1 ? machine->n_outputs : 1;
        for (size_t o = 0; o < outputs; o++)
            p->offset[first + o] = outputs > 1 ? machine->biases[o] : machine->bias;
        first += outputs;
    }
    free(coef);
    free(theta);
    if (st) {
        km_low_rank_predictor_free(p);
        return st;
    }
    *out = p;
    return KM_OK;
}

km_status km_low_rank_decisions(const km_low_rank_predictor *p, const km_dataset *test, const size_t *rows, size_t n,
                                double *decision)
{
    size_t nd = p->n_decisions, L_max = p->L_max ? p->L_max : 1, rows_n = n ? n : 1;
    double *dots = malloc(rows_n * L_max * sizeof *dots), *values = malloc(rows_n * L_max * sizeof *values);
    double *sq = malloc(rows_n * sizeof *sq), *scale = malloc(rows_n * sizeof *scale);
    double *product = malloc(rows_n * nd * sizeof *product);
    km_status st = dots && values && sq && scale && product ? KM_OK : km_error_nomem("the test rows' kernel values");
    for (size_t t = 0; !st && t < n; t++)
        memcpy(decision + t * nd, p->offset, nd * sizeof *decision);
    for (size_t m = 0; !st && m < p->set->size; m++) {
        const km_kernel *k = &p->set->kernels[m];
        size_t L = k->n_landmarks;
        if (p->lead[m] == m)
            st = km_nystrom_dots(k, test, rows, n, dots, sq);
        if (!st)
            st = km_nystrom_values(k, dots, sq, n, values);
        if (!st)
            st = row_scales(k, values, n, scale);
        if (st)
            break;
        /* product (n x nd) = values (n x L) u_m' (L x nd); decision += s(x) product */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)nd, (int)L, 1.0, values, (int)L, p->u[m],
                    (int)L, 0.0, product, (int)nd);
        for (size_t t = 0; t < n; t++)
            for (size_t d = 0; d < nd; d++)
                decision[t * nd + d] += scale[t] * product[t * nd + d];
    }
    free(dots);
    free(values);
    free(sq);
    free(scale);
    free(product);
    return st;
}
