/* km_plot_weights: a model's kernel weights as bars (one weight set) or a heat map (several). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/locale.h"
#include "model/model_describe.h"
#include "plot/chart.h"
#include "plot/kernel_label.h"

enum { BAR_SLOT = 34, GROUP_GAP = 1 };

static int is_empirical_bayes(const km_model *model)
{
    return (km_model_method_flags(model) & KM_METHOD_EMPIRICAL_BAYES) != 0;
}

/* Bars of one weight set: kernels in groups (family and features, in order of first appearance), a gap
 * between groups, each group its colour; zero weights marked x. */
static void bars(km_svg *svg, const km_model *model, const double *w, const km_kernel_label *labels, size_t M)
{
    size_t *order = malloc(M * sizeof *order), *group_of = malloc(M * sizeof *group_of), n = 0, groups = 0;
    if (!order || !group_of) {
        svg->failed = 1;
        free(order);
        free(group_of);
        return;
    }
    for (size_t m = 0; m < M; m++) { /* kernels in group order, each group by its value (gamma, degree) */
        int seen = 0;
        for (size_t k = 0; k < m && !seen; k++)
            seen = !strcmp(labels[k].group, labels[m].group);
        if (seen)
            continue;
        size_t first = n;
        for (size_t k = m; k < M; k++)
            if (!strcmp(labels[k].group, labels[m].group)) {
                group_of[n] = groups;
                order[n++] = k;
            }
        /* insertion sort: an RBF grid stands in ascending gamma, equally spaced for a geometric grid
         * (a log axis of gamma); kernels without a number keep their order */
        for (size_t i = first + 1; i < n; i++)
            for (size_t j = i; j > first && labels[order[j]].number < labels[order[j - 1]].number; j--) {
                size_t swap = order[j];
                order[j] = order[j - 1];
                order[j - 1] = swap;
            }
        groups++;
    }
    size_t slots = M + (groups - 1) * GROUP_GAP, kept = 0;
    /* a bar's label: its value (gamma, degree) in a group of several, which the group's label names */
    const char **bar_label = malloc(M * sizeof *bar_label);
    size_t *family_of = malloc(M * sizeof *family_of), families = 0;
    double longest = 0;
    if (!bar_label || !family_of) {
        svg->failed = 1;
        free(order);
        free(group_of);
        free(bar_label);
        free(family_of);
        return;
    }
    for (size_t k = 0; k < n; k++) {
        size_t m = order[k], in_group = 0;
        for (size_t j = 0; j < n; j++)
            in_group += group_of[j] == group_of[k];
        bar_label[m] = in_group > 1 && labels[m].value[0] ? labels[m].value : labels[m].short_name;
        longest = fmax(longest, km_svg_text_width(bar_label[m], 11));
        family_of[m] = families;   /* the colour of an earlier bar's family, or a new one */
        for (size_t i = 0; i < k; i++)
            if (!strcmp(labels[order[i]].family, labels[m].family)) {
                family_of[m] = family_of[order[i]];
                break;
            }
        families += family_of[m] == families;
    }
    double below = 14 + 0.77 * longest; /* labels rotated by 50 degrees */
    /* the first bar's label reaches 0.64 of its length left of the bar */
    km_panel p = {.x = fmax(80, 0.64 * longest), .y = 50, .width = (double)(slots * BAR_SLOT), .height = 260};
    if (p.width < 440)
        p.width = 440;
    km_axis_init(&p.x_axis, NULL, 0);
    p.x_axis.categorical = 1;
    p.x_axis.lo = 0;
    p.x_axis.hi = (double)slots;
    km_axis_init(&p.y_axis, "kernel weight", 0);
    double zero = 0;
    km_axis_include(&p.y_axis, &zero, 1);
    km_axis_include(&p.y_axis, w, M);
    km_axis_finish(&p.y_axis);
    for (size_t m = 0; m < M; m++)
        kept += w[m] > 0;
    char title[128];
    if (is_empirical_bayes(model))
        snprintf(title, sizeof title, "kernel weights: %zu of %zu kernels kept (empirical Bayes; \xc3\x97 dropped)", kept,
                 M);
    else
        snprintf(title, sizeof title, "kernel weights (%zu of %zu non-zero)", kept, M);
    p.title = title;
    km_svg_begin(svg, fmax(p.x + p.width, p.x + km_svg_text_width(title, 14)) + 30, p.y + p.height + below + 40);
    km_chart_frame(svg, &p);
    double slot = p.width / (double)slots;
    for (size_t k = 0, position = 0; k < n; k++, position++) {
        if (k > 0 && group_of[k] != group_of[k - 1])
            position += GROUP_GAP;
        size_t m = order[k];
        double x = (double)position + 0.5, px = km_panel_x(&p, x);
        km_chart_bar(svg, &p, x, slot * 0.7, w[m], km_svg_category_colour(family_of[m]), 0, labels[m].full);
        if (!(w[m] > 0))
            km_svg_text(svg, px, p.y + p.height - 4, "middle", 14, 0, "dropped", "\xc3\x97");
        km_svg_text(svg, px + 4, p.y + p.height + 10, "end", 11, -50, "tick", bar_label[m]);
        /* a group of several: its name under its bars' labels, centred, with a bracket */
        size_t count = 0;
        while (k + count < n && group_of[k + count] == group_of[k])
            count++;
        if ((k == 0 || group_of[k] != group_of[k - 1]) && count > 1) {
            double left = km_panel_x(&p, (double)position + 0.15), right = km_panel_x(&p, (double)(position + count) - 0.15);
            double y = p.y + p.height + below;
            km_svg_printf(svg, "<path class=\"bracket\" d=\"M%.1f %.1fV%.1fH%.1fV%.1f\" stroke=\"#555555\" "
                               "fill=\"none\"/>\n", left, y - 6, y, right, y - 6);
            km_svg_text(svg, (left + right) / 2, y + 16, "middle", 13, 0, "group", labels[m].group);
        }
    }
    free(order);
    free(group_of);
    free(bar_label);
    free(family_of);
}

/* Rows x kernels: machines (multiclass) and/or clusters (localized). */
static void heatmap(km_svg *svg, const km_model *model, const km_kernel_label *labels, size_t M)
{
    size_t K = km_model_n_machines(model), l = km_model_weight_groups(model), rows = K * l;
    double *values = malloc(rows * M * sizeof *values);
    char **row_labels = calloc(rows, sizeof *row_labels);
    const char **cols = malloc(M * sizeof *cols);
    if (!values || !row_labels || !cols) {
        svg->failed = 1;
    } else {
        for (size_t k = 0; k < K; k++) {
            const double *w = km_model_kernel_weights(model, k);
            km_machine_info info = KM_MACHINE_INFO_INIT;
            km_model_machine_info(model, k, &info);
            for (size_t j = 0; j < l; j++) {
                size_t r = k * l + j;
                memcpy(values + r * M, w + j * M, M * sizeof *values);
                char text[96], machine[64] = "";
                if (K > 1 && isnan(info.negative_label))
                    snprintf(machine, sizeof machine, "%g vs rest", info.positive_label);
                else if (K > 1)
                    snprintf(machine, sizeof machine, "%g vs %g", info.positive_label, info.negative_label);
                if (l > 1)
                    snprintf(text, sizeof text, "%s%scluster %zu", machine, K > 1 ? ", " : "", j + 1);
                else
                    snprintf(text, sizeof text, "%s", machine);
                row_labels[r] = strdup(text);
                if (!row_labels[r])
                    svg->failed = 1;
            }
        }
        for (size_t m = 0; m < M; m++)
            cols[m] = labels[m].short_name;
        km_heatmap map = {.rows = rows, .cols = M, .values = values, .row_labels = (const char *const *)row_labels,
                          .col_labels = cols, .row_title = l > 1 ? "cluster" : "machine", .col_title = "kernel",
                          .value_label = "weight", .best_row = rows};
        double cell_w = M > 12 ? 36 : 64, cell_h = rows > 16 ? 20 : 30, left = 0, bottom = 0;
        if (!svg->failed)
            km_heatmap_margins(&map, cell_w, &left, &bottom);
        double x = left + 10, y = 50, width = cell_w * (double)M, height = cell_h * (double)rows;
        int failed = svg->failed;
        km_svg_begin(svg, fmax(x + width + 150, 420), y + height + bottom + 10);
        svg->failed = failed;
        km_svg_text(svg, 10, y - 22, "start", 14, 0, "title",
                    l > 1 ? "kernel weights per cluster (localized MKL)" : "kernel weights per machine");
        if (!svg->failed)
            km_chart_heatmap(svg, x, y, width, height, &map);
    }
    for (size_t r = 0; row_labels && r < rows; r++)
        free(row_labels[r]);
    free(row_labels);
    free(values);
    free(cols);
}

km_status km_plot_weights(const km_model *model, char **out)
{
    if (!model || !out)
        return km_error(KM_EINVAL, "km_plot_weights: no model or no output");
    size_t M = km_model_n_kernels(model);
    km_kernel_label *labels = malloc((M ? M : 1) * sizeof *labels);
    if (!labels)
        return km_error_nomem("the weights figure");
    km_numeric_locale locale;
    km_status st = km_numeric_locale_enter(&locale);
    if (st) {
        free(labels);
        return st;
    }
    for (size_t m = 0; m < M; m++)
        km_kernel_label_of(model, m, &labels[m]);
    km_svg svg = {0};
    if (km_model_n_machines(model) == 1 && km_model_weight_groups(model) == 1)
        bars(&svg, model, km_model_kernel_weights(model, 0), labels, M);
    else
        heatmap(&svg, model, labels, M);
    st = km_svg_end(&svg, out);
    km_numeric_locale_leave(&locale);
    free(labels);
    return st;
}
