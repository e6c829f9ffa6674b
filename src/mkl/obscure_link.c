/* OBSCURE's exponents and the link function of Lemma 1 (Orabona, Jie & Caputo, JMLR 2012), evaluated
 * without forming a^q: q reaches 1e4 at p = 1.0001. */
#include <math.h>

#include "mkl/obscure.h"

double km_obscure_q_of_p(double p) { return p / (p - 1.0); }
double km_obscure_p_of_q(double q) { return q / (q - 1.0); }
double km_obscure_pk_of_p(double p) { return p >= 2.0 ? INFINITY : p / (2.0 - p); }
double km_obscure_p_of_pk(double pk) { return isinf(pk) ? 2.0 : 2.0 * pk / (1.0 + pk); }

static double largest(const double *a, size_t F)
{
    double m = 0.0;
    for (size_t j = 0; j < F; j++)
        if (a[j] > m)
            m = a[j];
    return m;
}

double km_obscure_group_norm(const double *a, size_t F, double r)
{
    double m = largest(a, F);
    if (!(m > 0.0))
        return 0.0;
    double sum = 0.0;
    for (size_t j = 0; j < F; j++)
        if (a[j] > 0.0)
            sum += pow(a[j] / m, r);
    return m * pow(sum, 1.0 / r);
}

void km_obscure_link_weights(const double *a, size_t F, double q, double *d)
{
    double norm = km_obscure_group_norm(a, F, q);
    for (size_t j = 0; j < F; j++)
        d[j] = q == 2.0 || !(norm > 0.0) ? 1.0 : a[j] > 0.0 ? pow(fmin(a[j] / norm, 1.0), q - 2.0) : 0.0;
}

/* xi = (sqrt(D^2 + u) - D)/2 with u = q L^2 / R^2, written u / (2 (sqrt(D^2 + u) + D)) (Algorithm 2). */
double km_obscure_xi(double D, double q, double L, double R)
{
    if (isinf(R))
        return 0.0;
    double u = q * (L / R) * (L / R);
    return u / (2.0 * (sqrt(D * D + u) + D));
}
