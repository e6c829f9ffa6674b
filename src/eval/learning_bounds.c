/* Bounds of learning kernels as numbers (learning_bounds.h; Rostamizadeh's thesis ch. 2). */
#include <math.h>

#include "core/error.h"
#include "eval/learning_bounds.h"

#define NAPIER_E 2.71828182845904523536

static km_status check_sample(size_t m, size_t p)
{
    if (m == 0)
        return km_error(KM_EINVAL, "the sample size m must be at least 1");
    if (p == 0)
        return km_error(KM_EINVAL, "the number of kernels p must be at least 1");
    return KM_OK;
}

static km_status check_positive(const char *name, double value)
{
    if (!(value > 0) || !isfinite(value))
        return km_error(KM_EINVAL, "%s must be a positive number", name);
    return KM_OK;
}

static km_status check_delta(double delta)
{
    if (!(delta > 0 && delta < 1))
        return km_error(KM_EINVAL, "delta must be in (0, 1)");
    return KM_OK;
}

static km_status check_traces(size_t p, const double *traces)
{
    for (size_t k = 0; k < p; k++)
        if (!(traces[k] >= 0) || !isfinite(traces[k]))
            return km_error(KM_EINVAL, "kernel trace %zu is not a non-negative number", k + 1);
    return KM_OK;
}

/* ceil(ln p), at least 1: the exponent of Thm 2.6 (Cor. 2.1 and the proof; §2.2 prints e^ceil(ln p)) */
static double log_kernels(size_t p)
{
    double c = ceil(log((double)p));
    return c < 1 ? 1 : c;
}

km_status km_bound_rademacher(size_t m, size_t p, const double *traces, int r, double *out)
{
    km_status st = check_sample(m, p);
    if (st == KM_OK)
        st = check_traces(p, traces);
    if (st != KM_OK)
        return st;
    if (r < 1)
        return km_error(KM_EINVAL, "r must be an integer >= 1");
    /* ||u||_r, scaled by the largest trace against overflow of u_k^r */
    double top = 0, sum = 0;
    for (size_t k = 0; k < p; k++)
        top = traces[k] > top ? traces[k] : top;
    if (top > 0)
        for (size_t k = 0; k < p; k++)
            sum += pow(traces[k] / top, r);
    double norm = top * pow(sum, 1.0 / r);
    *out = sqrt(KM_BOUND_ETA0 * r * norm) / (double)m;
    return KM_OK;
}

km_status km_bound_rademacher_l1(size_t m, size_t p, const double *traces, double *out, int *best_r)
{
    km_status st = check_sample(m, p);
    if (st != KM_OK)
        return st;
    int last = (int)ceil(log((double)p)) + 2, arg = 1;
    double best = INFINITY;
    for (int r = 1; r <= last; r++) {
        double value;
        if ((st = km_bound_rademacher(m, p, traces, r, &value)) != KM_OK)
            return st;
        if (value < best) {
            best = value;
            arg = r;
        }
    }
    *out = best;
    if (best_r)
        *best_r = arg;
    return KM_OK;
}

km_status km_bound_l1_complexity(size_t m, size_t p, double R2, double *out)
{
    km_status st = check_sample(m, p);
    if (st == KM_OK)
        st = check_positive("R^2", R2);
    if (st != KM_OK)
        return st;
    *out = sqrt(KM_BOUND_ETA0 * NAPIER_E * log_kernels(p) * R2 / (double)m);
    return KM_OK;
}

km_status km_bound_l1_complexity_traces(size_t m, size_t p, const double *traces, double *out)
{
    km_status st = check_sample(m, p);
    if (st == KM_OK)
        st = check_traces(p, traces);
    if (st != KM_OK)
        return st;
    double top = 0;
    for (size_t k = 0; k < p; k++)
        top = traces[k] > top ? traces[k] : top;
    *out = sqrt(KM_BOUND_ETA0 * NAPIER_E * log_kernels(p) * top) / (double)m;
    return KM_OK;
}

km_status km_bound_lq_complexity(size_t m, size_t p, int r, double R2, double *out)
{
    km_status st = check_sample(m, p);
    if (st == KM_OK)
        st = check_positive("R^2", R2);
    if (st != KM_OK)
        return st;
    if (r < 1)
        return km_error(KM_EINVAL, "r must be an integer >= 1");
    *out = sqrt(KM_BOUND_ETA0 * r * pow((double)p, 1.0 / r) * R2 / (double)m);
    return KM_OK;
}

km_status km_bound_margin(size_t m, double rho, double delta, double rademacher, double empirical_margin_loss,
                          km_margin_bound *out)
{
    km_status st = check_sample(m, 1);
    if (st == KM_OK)
        st = check_positive("the margin rho", rho);
    if (st == KM_OK)
        st = check_delta(delta);
    if (st != KM_OK)
        return st;
    if (!(rademacher >= 0) || !isfinite(rademacher))
        return km_error(KM_EINVAL, "the Rademacher complexity must be a non-negative number");
    if (!(empirical_margin_loss >= 0 && empirical_margin_loss <= 1))
        return km_error(KM_EINVAL, "the empirical margin loss must be in [0, 1]");
    out->complexity = 2.0 / rho * rademacher;
    out->confidence = 3.0 * sqrt(log(2.0 / delta) / (2.0 * (double)m));
    out->value = empirical_margin_loss + out->complexity + out->confidence;
    return KM_OK;
}

km_status km_bound_margin_loss(size_t m, const double *y, const double *h, double rho, double *out)
{
    km_status st = check_sample(m, 1);
    if (st == KM_OK)
        st = check_positive("the margin rho", rho);
    if (st != KM_OK)
        return st;
    double sum = 0;
    for (size_t i = 0; i < m; i++) {
        if (!isfinite(y[i]) || !isfinite(h[i]))
            return km_error(KM_EINVAL, "value %zu is not a finite number", i + 1);
        double loss = 1.0 - y[i] * h[i] / rho;
        sum += loss < 0 ? 0 : loss > 1 ? 1 : loss;
    }
    *out = sum / (double)m;
    return KM_OK;
}

km_status km_bound_srebro_ben_david(size_t m, size_t p, double R2, double rho, double delta, double *out)
{
    km_status st = check_sample(m, p);
    if (st == KM_OK)
        st = check_positive("R^2", R2);
    if (st == KM_OK)
        st = check_positive("the margin rho", rho);
    if (st == KM_OK && delta != 0)
        st = check_delta(delta);
    if (st != KM_OK)
        return st;
    double md = (double)m, R = sqrt(R2), ratio = R2 / (rho * rho);
    double arg_p = 128.0 * NAPIER_E * md * md * md * ratio / (double)p;
    double arg_margin = rho * NAPIER_E * md / (8.0 * R), arg_sample = 128.0 * md * ratio;
    if (!(arg_p > 1 && arg_margin > 1 && arg_sample > 1))
        return km_error(KM_EINVAL, "m is too small for the Srebro-Ben-David bound (a logarithm is negative)");
    double bracket = 2.0 + (double)p * log(arg_p) + 256.0 * ratio * log(arg_margin) * log(arg_sample);
    if (delta != 0)
        bracket += log(1.0 / delta);
    *out = sqrt(8.0 * bracket / md);
    return KM_OK;
}

km_status km_bound_linear(size_t m, int r, double X, double W, double *out, double *kakade)
{
    km_status st = check_sample(m, 1);
    if (st == KM_OK)
        st = check_positive("X", X);
    if (st == KM_OK)
        st = check_positive("W", W);
    if (st != KM_OK)
        return st;
    if (r < 2 || r % 2)
        return km_error(KM_EINVAL, "r must be an even integer >= 2 (Thm 2.9)");
    *out = X * W * sqrt(KM_BOUND_ETA0 * r / (2.0 * (double)m));
    if (kakade)
        *kakade = X * W * sqrt((r - 1.0) / (double)m);
    return KM_OK;
}

km_status km_bound_stability(size_t m, size_t p, double R, double M, double Lambda, double lambda0, double lambda_min,
                             double delta, double loss_bound, km_stability_bound *out)
{
    km_status st = check_sample(m, p);
    if (st == KM_OK)
        st = check_positive("R", R);
    if (st == KM_OK)
        st = check_positive("M", M);
    if (st == KM_OK)
        st = check_positive("the radius Lambda", Lambda);
    if (st == KM_OK)
        st = check_positive("lambda0", lambda0);
    if (st == KM_OK)
        st = check_delta(delta);
    if (st == KM_OK)
        st = check_positive("the loss bound B", loss_bound);
    if (st != KM_OK)
        return st;
    if (!(lambda_min >= 0) || !isfinite(lambda_min))
        return km_error(KM_EINVAL, "lambda_min must be a non-negative number");
    double md = (double)m, denominator = lambda_min + lambda0 * md;
    double fixed = 2.0 * R * R * M, change = 4.0 * Lambda * R * M * (R * R / lambda0 + 1.0);
    out->C0 = fixed + change;
    out->C1 = 16.0 * Lambda * Lambda * M * R * R * R / lambda0;
    out->beta_S = M * fixed / denominator;
    out->beta_K = M * (change + out->C1 * sqrt((double)p)) / denominator;
    out->beta = 2.0 * (out->beta_S + out->beta_K);
    out->term = 2.0 * out->beta + (4.0 * md * out->beta + loss_bound) * sqrt(log(1.0 / delta) / (2.0 * md));
    return KM_OK;
}

km_status km_bound_alignment_eta(size_t m, double R, double delta, double *out)
{
    km_status st = check_sample(m, 1);
    if (st == KM_OK)
        st = check_positive("R", R);
    if (st == KM_OK)
        st = check_delta(delta);
    if (st != KM_OK)
        return st;
    double R4 = R * R * R * R, md = (double)m;
    *out = 18.0 * R4 / md + 24.0 * R4 * sqrt(log(2.0 / delta) / (2.0 * md));
    return KM_OK;
}

km_status km_bound_alignment_rho(size_t m, double beta, double delta, double *out)
{
    km_status st = check_sample(m, 1);
    if (st == KM_OK)
        st = check_positive("beta", beta);
    if (st == KM_OK)
        st = check_delta(delta);
    if (st != KM_OK)
        return st;
    double md = (double)m;
    *out = 18.0 * beta * (3.0 / md + 4.0 * sqrt(log(6.0 / delta) / (2.0 * md)));
    return KM_OK;
}

km_status km_bound_good_predictor(double rho, double var_y, double gamma, double eta, double R2,
                                  double *thm211, double *thm212, double *thm213)
{
    if (!(rho >= -1 && rho <= 1))
        return km_error(KM_EINVAL, "the alignment rho must be in [-1, 1]");
    if (!(eta >= 0) || !isfinite(eta))
        return km_error(KM_EINVAL, "the alignment eta must be a non-negative number");
    km_status st = check_positive("Var(y)", var_y);
    if (st == KM_OK)
        st = check_positive("R^2", R2);
    if (st != KM_OK)
        return st;
    if (!(gamma >= 1) || !isfinite(gamma))
        return km_error(KM_EINVAL, "Gamma must be a number >= 1");
    *thm211 = 1.0 - rho * var_y / gamma;
    *thm212 = 2.0 * (1.0 - rho * var_y);
    *thm213 = 1.0 - eta / R2;
    return KM_OK;
}
