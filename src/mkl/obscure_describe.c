/* What `kernelmix info` shows of an OBSCURE model: its exponents and stages, and the figures of both
 * stages that training keeps in the model's section "obscure" (method_obscure.c), each by its key. */
#include <math.h>

#include "mkl/method.h"
#include "mkl/obscure.h"

static const char *const SECTION = "obscure";

static const char *const scalars[] = {"q", "lambda", "eta", "radius", "online_epochs", "online_updates",
                                      "online_steps", "objective_online", "epochs", "objective", "dual",
                                      "training_error", "support_rows"};

static double value(const km_mkl_description *d, const char *key)
{
    size_t rows, cols;
    const double *v = km_record_values(d->record, SECTION, key, &rows, &cols);
    return v && rows * cols == 1 ? v[0] : NAN;
}

static void weights_text(const km_mkl_description *d, const char *key, const char *title)
{
    size_t rows, cols;
    const double *w = km_record_values(d->record, SECTION, key, &rows, &cols);
    if (!w)
        return;
    fprintf(d->out, "    %s", title);
    for (size_t m = 0; m < rows * cols; m++)
        fprintf(d->out, " %.6g", w[m]);
    fprintf(d->out, "\n");
}

/* The stages: objective after each, R, steps, and the weights in both conventions. */
static void learned_text(const km_mkl_description *d)
{
    double radius = value(d, "radius");
    fprintf(d->out, "  obscure: lambda %.6g, q %.6g, online step %.6g, R ", value(d, "lambda"), value(d, "q"),
            value(d, "eta"));
    fprintf(d->out, radius < 0 ? "inf (Pegasos-MKL)\n" : "%.6g\n", radius);
    fprintf(d->out, "    online stage: %.0f epochs, %.0f updates in %.0f steps, objective %.10g\n",
            value(d, "online_epochs"), value(d, "online_updates"), value(d, "online_steps"),
            value(d, "objective_online"));
    fprintf(d->out, "    stochastic stage: %.0f epochs; the best iterate: objective %.10g, training error %.6g, %.0f "
                    "support rows\n",
            value(d, "epochs"), value(d, "objective"), value(d, "training_error"), value(d, "support_rows"));
    weights_text(d, "weights", "weights (sum 1)        ");
    weights_text(d, "weights_pk", "weights (||d||_p = 1)  ");
}

static void learned_json(const km_mkl_description *d)
{
    fprintf(d->out, ", \"obscure\": {");
    for (size_t k = 0; k < sizeof scalars / sizeof *scalars; k++) {
        double v = value(d, scalars[k]);
        fprintf(d->out, "%s\"%s\": ", k ? ", " : "", scalars[k]);
        if (isfinite(v))
            fprintf(d->out, "%.17g", v);
        else
            fprintf(d->out, "null");
    }
    const char *arrays[] = {"weights", "weights_pk"};
    for (size_t a = 0; a < 2; a++) {
        size_t rows = 0, cols = 0;
        const double *w = km_record_values(d->record, SECTION, arrays[a], &rows, &cols);
        fprintf(d->out, ", \"%s\": ", arrays[a]);
        km_describe_json_array(d, w, w ? rows * cols : 0);
    }
    fprintf(d->out, "}");
}

void km_obscure_describe(const km_mkl_description *d)
{
    const km_mkl_params *mkl = d->mkl;
    if (d->part == KM_DESCRIBE_SETTINGS && d->json) {
        km_describe_json_p(d);
        km_describe_json_solver(d);
    } else if (d->part == KM_DESCRIBE_SETTINGS) {
        fprintf(d->out, "obscure (Orabona, Jie & Caputo), p-block %.6g (kernel-weight p %.6g), %s\n", mkl->p_block,
                mkl->p_block < 2 ? mkl->p_block / (2 - mkl->p_block) : INFINITY,
                mkl->solver == KM_MKL_PEGASOS ? "Pegasos-MKL (stochastic stage alone)" : "online and stochastic stages");
    } else if (d->part == KM_DESCRIBE_LEARNED && d->json) {
        learned_json(d);
    } else if (d->part == KM_DESCRIBE_LEARNED) {
        learned_text(d);
    }
}
