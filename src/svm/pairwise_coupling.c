/* Pairwise coupling of Wu, Lin & Weng (2004), method 2 (svm/pairwise_coupling.h). */
#include "svm/pairwise_coupling.h"

#include <math.h>

/* Qp and p'Qp from scratch (the updates below drift by rounding). */
static double refresh(size_t k, const double *Q, const double *p, double *Qp)
{
    double pQp = 0.0;
    for (size_t t = 0; t < k; t++) {
        Qp[t] = 0.0;
        for (size_t j = 0; j < k; j++)
            Qp[t] += Q[t * k + j] * p[j];
        pQp += p[t] * Qp[t];
    }
    return pQp;
}

int km_pairwise_coupling(size_t k, const double *r, double *p, double *work)
{
    double *Q = work, *Qp = work + k * k;
    for (size_t t = 0; t < k; t++) {
        p[t] = 1.0 / (double)k;
        Q[t * k + t] = 0.0;
        for (size_t j = 0; j < k; j++) {
            if (j == t)
                continue;
            Q[t * k + t] += r[j * k + t] * r[j * k + t];
            Q[t * k + j] = -r[j * k + t] * r[t * k + j];
        }
    }
    size_t max_sweeps = k > 100 ? k : 100;
    double tolerance = 0.005 / (double)k;
    for (size_t sweep = 0; sweep < max_sweeps; sweep++) {
        double pQp = refresh(k, Q, p, Qp), worst = 0.0;
        for (size_t t = 0; t < k; t++)
            worst = fmax(worst, fabs(Qp[t] - pQp));
        if (worst < tolerance)
            return 1;
        /* the minimiser in p_t with the others fixed, then p scaled back to sum 1; Qp and p'Qp follow
         * the step exactly (Wu, Lin & Weng, eq. 45) */
        for (size_t t = 0; t < k; t++) {
            double step = (pQp - Qp[t]) / Q[t * k + t];
            p[t] += step;
            pQp = (pQp + step * (step * Q[t * k + t] + 2.0 * Qp[t])) / ((1.0 + step) * (1.0 + step));
            for (size_t j = 0; j < k; j++) {
                Qp[j] = (Qp[j] + step * Q[t * k + j]) / (1.0 + step);
                p[j] /= 1.0 + step;
            }
        }
    }
    return 0;
}
