/* km_plot_path: kernel weights against the regularization parameter of a series of models (the
 * sparsity figures of lp-norm MKL and the elastic net). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/locale.h"
#include "model/model_describe.h"
#include "plot/chart.h"
#include "plot/kernel_label.h"

/* The parameter the path runs over, of one model (its method's path_parameter: p of lp, lambda of the
 * elastic net, the regularizer's parameter of Tikhonov); its name in *name. KM_EINVAL for other methods. */
static km_status path_parameter(const km_model *model, size_t index, const char **name, double *value)
{
    km_param id = km_model_path_parameter(model, name);
    if (!id)
        return km_error(KM_EINVAL, "model %zu: its kernel weights have no path parameter (lp, elasticnet or "
                        "tikhonov models)", index + 1);
    km_params *params = NULL;
    km_status st = km_model_params(model, &params);
    if (!st)
        st = km_params_get_double(params, id, value);
    km_params_free(params);
    return st;
}

static int by_parameter(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

km_status km_plot_path(const km_model *const *models, size_t n, char **out)
{
    if (!models || !out || n == 0)
        return km_error(KM_EINVAL, "km_plot_path: no models or no output");
    size_t M = km_model_n_kernels(models[0]);
    const char *name = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *this_name;
        double ignored;
        km_status st = path_parameter(models[i], i, &this_name, &ignored);
        if (st)
            return st;
        if (km_model_n_kernels(models[i]) != M || km_model_n_machines(models[i]) != 1 ||
            km_model_weight_groups(models[i]) != 1 || (name && strcmp(name, this_name)))
            return km_error(KM_EINVAL, "model %zu: a path needs models of one machine, %zu kernels and one method",
                            i + 1, M);
        name = this_name;
    }
    /* rows of (parameter, M weights), sorted by the parameter */
    double *rows = malloc(n * (M + 1) * sizeof *rows), *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    km_kernel_label *labels = malloc((M ? M : 1) * sizeof *labels);
    const char **names = malloc((M ? M : 1) * sizeof *names);
    km_numeric_locale locale;
    km_status st = rows && x && y && labels && names ? km_numeric_locale_enter(&locale) : km_error_nomem("the path figure");
    if (!st) {
        for (size_t i = 0; i < n; i++) {
            path_parameter(models[i], i, &name, &rows[i * (M + 1)]);
            memcpy(rows + i * (M + 1) + 1, km_model_kernel_weights(models[i], 0), M * sizeof *rows);
        }
        qsort(rows, n, (M + 1) * sizeof *rows, by_parameter);
        km_panel p = {.x = 90, .y = 50, .width = 520, .height = 320, .title = "kernel weights along the path"};
        km_axis_init(&p.x_axis, name, 0);
        km_axis_init(&p.y_axis, "kernel weight", 0);
        for (size_t i = 0; i < n; i++)
            x[i] = rows[i * (M + 1)];
        km_axis_include(&p.x_axis, x, n);
        p.x_axis.log = p.x_axis.lo > 0 && p.x_axis.hi / p.x_axis.lo > 20;
        double zero = 0;
        km_axis_include(&p.y_axis, &zero, 1);
        for (size_t i = 0; i < n; i++)
            km_axis_include(&p.y_axis, rows + i * (M + 1) + 1, M);
        km_axis_finish(&p.x_axis);
        km_axis_finish(&p.y_axis);
        km_svg svg = {0};
        km_svg_begin(&svg, p.x + p.width + 260, p.y + p.height + 60);
        km_chart_frame(&svg, &p);
        for (size_t m = 0; m < M; m++) {
            km_kernel_label_of(models[0], m, &labels[m]);
            names[m] = labels[m].full;
            for (size_t i = 0; i < n; i++)
                y[i] = rows[i * (M + 1) + 1 + m];
            km_chart_line(&svg, &p, labels[m].full, m, x, y, NULL, n);
        }
        km_chart_legend(&svg, p.x + p.width + 20, p.y + 10, names, M, 1);
        st = km_svg_end(&svg, out);
        km_numeric_locale_leave(&locale);
    }
    free(rows);
    free(x);
    free(y);
    free(labels);
    free(names);
    return st;
}
