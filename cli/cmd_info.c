/* kernelmix info: describes a model (task, kernels, weights, machines, support vectors). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const CMD = "info";

static void usage(FILE *out)
{
    fprintf(out,
"usage: kernelmix info [--json] MODEL_FILE\n"
"\n"
"MODEL_FILE '-' is standard input. Describes a model: task and parameters, classes, one line per kernel (its weight, block\n"
"norm ||w_m||, alignment with the labels, and spec with the fitted values; with several\n"
"machines the mean of their weights and block norms), and per machine the kernel weights,\n"
"objective, bias, support vectors and iterations.\n"
"With learned kernel weights also the diagnostics for choosing kernels and p: the centred\n"
"alignment of each kernel with the labels and with the other kernels (on the training rows),\n"
"and per machine the block norms ||w_m|| and the p in [1, 2] (block norm; kernel-weight p in\n"
"brackets) that minimises the global bound factor ||(||w_m||)_m||_p sqrt(s) M^(1/s),\n"
"s = max(1, min(p/(p-1), 2 ln M)) (docs/mkl.md); with two classes or regression targets the\n"
"centred (rho), uncentred (A) and unnormalized (eta) alignments of each kernel and of the\n"
"learned combination with the training targets (docs/krr-alignment.md).\n"
"With probability models (train -b 1) also the Platt sigmoid A, B of each machine, or the\n"
"Laplace width sigma of a regression model (JSON: \"probability\", null without them).\n"
"Empirical-Bayes models (--mkl eb-rw, eb-mackay) show per machine the negative log evidence\n"
"-log p(y | d, s2), the noise variance s2 and the number of kernels kept (JSON: \"evidence\").\n"
"\n"
"options:\n"
"  --json    machine-readable output: one JSON object whose \"kernels\" is an array of\n"
"            objects, one per kernel: spec, weight, block_norm, alignment (the mean\n"
"            over machines), weights and block_norms (per machine); \"alignment\": the\n"
"            centred alignments with the labels (\"target\") and between kernels, and\n"
"            \"targets\": rho, uncentred and eta per kernel; per machine the learned\n"
"            combination's \"combined_alignment\"; localized models (clmkl,\n"
"            hlmkl): \"clusters\", \"tau\", \"average_evenness\" and per machine\n"
"            \"cluster_weights\", one array per cluster; numbers that are\n"
"            not finite or not known are null\n"
"  --help    show this help\n");
}

/* The canonical name of a value of enumeration e, "unknown" for a value without one. */
static const char *name_of(km_enum e, int value)
{
    const char *name = km_enum_name(e, value);
    return name ? name : "unknown";
}

static void json_string(const char *s) { cli_json_string(stdout, s); }

/* Localized MKL: the clusters' count, tau and average evenness (nothing for other models). */
static void print_clusters_text(const km_model *model)
{
    double tau, evenness;
    if (km_model_cluster_tau(model, &tau, &evenness) == KM_OK)
        printf("clusters          %zu (kernel k-means), memberships tau %.6g, average evenness %.4g\n",
               km_model_weight_groups(model), tau, evenness);
}

/* The weights of clusters 2..l of a localized machine (cluster 1's are the machine's kernel weights). */
static void print_cluster_weights_text(const km_model *model, size_t machine)
{
    size_t M = km_model_n_kernels(model);
    const double *w = km_model_kernel_weights(model, machine);
    for (size_t j = 1; j < km_model_weight_groups(model); j++) {
        printf("    kernel weights of cluster %zu", j + 1);
        for (size_t m = 0; m < M; m++)
            printf(" %.6g", w[j * M + m]);
        printf("\n");
    }
}

/* JSON has no NaN or infinity: absent labels, p = inf and values that are not finite are null. */
static void json_number(double v) { cli_json_number(stdout, v); }

static void json_array(const double *values, size_t n)
{
    printf("[");
    for (size_t i = 0; i < n; i++) {
        printf(i ? ", " : "");
        json_number(values[i]);
    }
    printf("]");
}

static void print_clusters_json(const km_model *model)
{
    double tau, evenness;
    if (km_model_cluster_tau(model, &tau, &evenness) != KM_OK)
        return;
    printf(", \"clusters\": %zu, \"tau\": ", km_model_weight_groups(model));
    if (isinf(tau))
        printf("\"inf\"");
    else
        json_number(tau);
    printf(", \"average_evenness\": ");
    json_number(evenness);
}

/* "cluster_weights": one array of M weights per cluster (localized models only). */
static void print_cluster_weights_json(const km_model *model, size_t machine)
{
    size_t M = km_model_n_kernels(model), l = km_model_weight_groups(model);
    if (l < 2)
        return;
    printf(", \"cluster_weights\": [");
    for (size_t j = 0; j < l; j++) {
        printf(j ? ", " : "");
        json_array(km_model_kernel_weights(model, machine) + j * M, M);
    }
    printf("]");
}

/* The alignments of machine's combination with the training targets (km_model_alignment):
 * {"rho", "uncentred", "eta"}, or null when the model stores none. */
static void print_combined_alignment_json(const km_model *model, size_t machine)
{
    double rho, uncentred, eta;
    if (km_model_alignment(model, machine, km_model_n_kernels(model), &rho, &uncentred, &eta) != KM_OK) {
        printf("null");
        return;
    }
    printf("{\"rho\": ");
    json_number(rho);
    printf(", \"uncentred\": ");
    json_number(uncentred);
    printf(", \"eta\": ");
    json_number(eta);
    printf("}");
}

/* The alignments of every kernel with the training targets: {"rho": [M], "uncentred": [M], "eta": [M]},
 * or null when the model stores none. */
static void print_target_alignments_json(const km_model *model)
{
    size_t M = km_model_n_kernels(model);
    double *values = malloc(3 * (M ? M : 1) * sizeof *values);
    int stored = values != NULL;
    for (size_t m = 0; stored && m < M; m++)
        stored = km_model_alignment(model, 0, m, &values[m], &values[M + m], &values[2 * M + m]) == KM_OK;
    if (!stored)
        printf("null");
    else {
        printf("{\"rho\": ");
        json_array(values, M);
        printf(", \"uncentred\": ");
        json_array(values + M, M);
        printf(", \"eta\": ");
        json_array(values + 2 * M, M);
        printf("}");
    }
    free(values);
}

/* Alignments with the labels and between kernels, when the model stores them. */
static void print_alignment_json(const km_model *model)
{
    size_t M = km_model_n_kernels(model);
    const double *target = km_model_target_alignment(model), *A = km_model_kernel_alignment(model);
    printf(",\n  \"alignment\": ");
    if (!A && !target) {
        printf("null");
        return;
    }
    printf("{\"target\": ");
    if (target)
        json_array(target, M);
    else
        printf("null");
    printf(", \"kernels\": ");
    for (size_t a = 0; A && a < M; a++) {
        printf(a ? ", " : "[");
        json_array(A + a * M, M);
    }
    printf(A ? "]" : "null");
    printf(", \"targets\": ");
    print_target_alignments_json(model);
    printf("}");
}

/* Block norms and the bound-factor choice of p of a machine, when the model stores them. */
static void print_diagnostics_json(const km_model *model, size_t machine)
{
    const double *block_norms = km_model_block_norms(model, machine);
    km_bound_choice choice = KM_BOUND_CHOICE_INIT;
    if (!block_norms || km_model_bound_choice(model, machine, &choice))
        return;
    printf(", \"block_norms\": ");
    json_array(block_norms, km_model_n_kernels(model));
    printf(", \"bound\": {\"p_block\": ");
    json_number(choice.p_block);
    printf(", \"p\": ");
    json_number(choice.p);
    printf(", \"factor\": ");
    json_number(choice.factor);
    printf(", \"flat_low\": ");
    json_number(choice.flat_low);
    printf(", \"flat_high\": ");
    json_number(choice.flat_high);
    printf("}");
}

/* Kernel m's weight and block norm ||w_m|| averaged over the machines (one machine: its values);
 * the block norm is NAN when the model stores none (fixed weights). The mean is taken as machine 1's
 * value plus the mean difference, so that weights shared by all machines come out exactly. */
static void kernel_means(const km_model *model, size_t m, double *weight, double *block_norm)
{
    size_t K = km_model_n_machines(model);
    const double *norms0 = km_model_block_norms(model, 0);
    double w0 = km_model_kernel_weights(model, 0)[m], b0 = norms0 ? norms0[m] : NAN, dw = 0, db = 0;
    for (size_t k = 1; k < K; k++) {
        const double *norms = km_model_block_norms(model, k);
        dw += km_model_kernel_weights(model, k)[m] - w0;
        db += (norms ? norms[m] : NAN) - b0;
    }
    *weight = w0 + dw / (double)K;
    *block_norm = b0 + db / (double)K;
}

/* Kernel m's alignment with the labels (NAN when the model stores none). */
static double label_alignment(const km_model *model, size_t m)
{
    const double *target = km_model_target_alignment(model);
    return target ? target[m] : NAN;
}

/* One kernel as a JSON object: spec, mean weight and block norm, alignment, per-machine values. */
static void print_kernel_json(const km_model *model, size_t m)
{
    char spec[4096];
    double weight, block_norm;
    size_t K = km_model_n_machines(model);
    km_model_kernel_describe(model, m, spec, sizeof spec);
    kernel_means(model, m, &weight, &block_norm);
    printf("%s\n    {\"spec\": ", m ? "," : "");
    json_string(spec);
    printf(", \"weight\": ");
    json_number(weight);
    printf(", \"block_norm\": ");
    json_number(block_norm);
    printf(", \"alignment\": ");
    json_number(label_alignment(model, m));
    printf(", \"weights\": [");
    for (size_t k = 0; k < K; k++) {
        printf(k ? ", " : "");
        json_number(km_model_kernel_weights(model, k)[m]);
    }
    /* learned weights store block norms for every machine, fixed ones for none */
    printf("], \"block_norms\": %s", km_model_block_norms(model, 0) ? "[" : "null");
    for (size_t k = 0; km_model_block_norms(model, 0) && k < K; k++) {
        const double *norms = km_model_block_norms(model, k);
        printf(k ? ", " : "");
        json_number(norms ? norms[m] : NAN);
    }
    printf("%s}", km_model_block_norms(model, 0) ? "]" : "");
}

/* A number for the text tables; "-" when not known. */
static const char *number_text(char *buf, size_t size, double value)
{
    if (isnan(value))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.6g", value);
    return buf;
}

/* One line per kernel: weight, block norm and alignment with the labels, then the spec. */
static void print_kernels_text(const km_model *model)
{
    size_t M = km_model_n_kernels(model), K = km_model_n_machines(model);
    char spec[4096], weight_text[32], norm_text[32], alignment_text[32];
    printf("kernels           %zu%s\n", M, K > 1 ? " (weight and block norm: the mean over the machines)" : "");
    printf("    #  %-11s  %-11s  %-9s  spec\n", "weight", "block norm", "alignment");
    for (size_t m = 0; m < M; m++) {
        double weight, block_norm;
        kernel_means(model, m, &weight, &block_norm);
        km_model_kernel_describe(model, m, spec, sizeof spec);
        printf("  %3zu  %-11s  %-11s  %-9s  %s\n", m + 1, number_text(weight_text, sizeof weight_text, weight),
               number_text(norm_text, sizeof norm_text, block_norm),
               number_text(alignment_text, sizeof alignment_text, label_alignment(model, m)), spec);
    }
}

/* Kernels with weight exactly 0: MKL switched them off (docs/mkl.md "Stopping and reports"). */
static size_t switched_off(const double *weights, size_t M)
{
    size_t off = 0;
    for (size_t m = 0; m < M; m++)
        off += weights[m] == 0.0;
    return off;
}

/* The probability models of -b 1 (docs/user-guide.md "Probability outputs"): per machine the Platt
 * sigmoid's A and B, or the Laplace width of a regression model; null for a model without them. */
static void print_probability_json(const km_model *model)
{
    size_t K = km_model_n_machines(model);
    double a, b, sigma;
    printf(",\n  \"probability\": ");
    if (km_model_laplace_sigma(model, &sigma) == KM_OK) {
        printf("{\"laplace_sigma\": ");
        json_number(sigma);
        printf("}");
    } else if (km_model_has_probability(model)) {
        for (int part = 0; part < 2; part++) {
            printf(part ? "], \"sigmoid_b\": [" : "{\"sigmoid_a\": [");
            for (size_t k = 0; k < K && km_model_sigmoid(model, k, &a, &b) == KM_OK; k++) {
                printf(k ? ", " : "");
                json_number(part ? b : a);
            }
        }
        printf("]}");
    } else {
        printf("null");
    }
}

/* The evidence of an empirical-Bayes machine (docs/blocknorm-bayes.md), when the model has one. */
static void print_evidence_json(const km_model *model, size_t machine)
{
    km_evidence_info ev = KM_EVIDENCE_INFO_INIT;
    if (km_model_evidence(model, machine, &ev) != KM_OK)
        return;
    printf(", \"evidence\": {\"neg_log_evidence\": ");
    json_number(ev.neg_log_evidence);
    printf(", \"noise\": ");
    json_number(ev.noise);
    printf(", \"kernels_kept\": %zu}", ev.kernels_kept);
}

static void print_evidence_text(const km_model *model, size_t machine)
{
    km_evidence_info ev = KM_EVIDENCE_INFO_INIT;
    if (km_model_evidence(model, machine, &ev) == KM_OK)
        printf("    evidence: -log p(y | d, s2) %.10g, noise s2 %.6g, %zu of %zu kernels kept\n", ev.neg_log_evidence,
               ev.noise, ev.kernels_kept, km_model_n_kernels(model));
}

static void print_json(const km_model *model, const char *method)
{
    size_t M = km_model_n_kernels(model), nc = km_model_n_classes(model);
    unsigned flags = km_model_method_flags(model);
    printf("{\n  \"task\": \"%s\",\n  \"mkl\": {\"method\": \"%s\"", name_of(KM_ENUM_TASK, km_model_task(model)),
           method);
    km_model_method_describe(model, KM_DESCRIBE_SETTINGS, 0, 1, stdout);
    km_model_method_describe(model, KM_DESCRIBE_LEARNED, 0, 1, stdout);
    print_clusters_json(model);
    printf("},\n  \"kernels\": [");
    for (size_t m = 0; m < M; m++)
        print_kernel_json(model, m);
    printf("\n  ],\n  \"classes\": [");
    for (size_t c = 0; c < nc; c++) {
        printf(c ? ", " : "");
        json_number(km_model_labels(model)[c]);
    }
    printf("]");
    print_alignment_json(model);
    printf(",\n  \"support_vectors\": %zu,\n  \"machines\": [\n", km_model_n_sv_total(model));
    for (size_t k = 0; k < km_model_n_machines(model); k++) {
        km_machine_info info = KM_MACHINE_INFO_INIT;
        km_model_machine_info(model, k, &info);
        printf("    {\"positive_label\": ");
        json_number(info.positive_label);
        printf(", \"negative_label\": ");
        json_number(info.negative_label);
        printf(", \"objective\": ");
        json_number(info.objective);
        printf(", \"bias\": ");
        json_number(info.bias);
        printf(", \"support_vectors\": %zu, \"iterations\": %ld, \"converged\": %s, \"primal\": ", info.n_sv,
               info.iterations, info.converged ? "true" : "false");
        json_number(info.primal);
        printf(", \"duality_gap\": ");
        json_number(info.gap);
        printf(", \"mkl_iterations\": %ld, \"kernel_weights\": ", info.mkl_iterations);
        const double *w = km_model_kernel_weights(model, k);
        json_array(w, M);
        if (flags & KM_METHOD_LEARNS_WEIGHTS)
            printf(", \"switched_off\": %zu", switched_off(w, M));
        print_cluster_weights_json(model, k);
        print_diagnostics_json(model, k);
        if (flags & KM_METHOD_LEARNS_WEIGHTS) {
            printf(", \"combined_alignment\": ");
            print_combined_alignment_json(model, k);
        }
        km_model_method_describe(model, KM_DESCRIBE_MACHINE, k, 1, stdout);
        print_evidence_json(model, k);
        printf("}%s\n", k + 1 < km_model_n_machines(model) ? "," : "");
    }
    printf("  ]");
    print_probability_json(model);
    printf("\n}\n");
}

static void print_label(const char *name, double label)
{
    char value[64];
    if (isnan(label)) {
        printf(" %s rest", name);
        return;
    }
    cli_format_value(value, sizeof value, label);
    printf(" %s %s", name, value);
}

/* Alignments as a table: per kernel its alignment with the labels, then with every kernel. */
static void print_alignment_text(const km_model *model)
{
    size_t M = km_model_n_kernels(model);
    const double *target = km_model_target_alignment(model), *A = km_model_kernel_alignment(model);
    if (!A && !target)
        return;
    printf("alignment         centred, on the training rows%s\n       %s",
           A ? "" : " (with the labels only: the model has no kernel-kernel table beyond 100 kernels)",
           target ? "  labels" : "");
    for (size_t b = 0; A && b < M; b++)
        printf("  %6zu", b + 1);
    printf("\n");
    for (size_t a = 0; a < M; a++) {
        printf("  %3zu  ", a + 1);
        if (target)
            printf("  %6.4f", target[a]);
        for (size_t b = 0; A && b < M; b++)
            printf("  %6.4f", A[a * M + b]);
        printf("\n");
    }
}

/* One row of the target-alignment table: rho, A and eta. */
static void print_target_alignment_row(const char *name, double rho, double uncentred, double eta)
{
    char t1[32], t2[32], t3[32];
    printf("  %-12s  %-11s  %-11s  %s\n", name, number_text(t1, sizeof t1, rho),
           number_text(t2, sizeof t2, uncentred), number_text(t3, sizeof t3, eta));
}

/* The alignments of every kernel and of each machine's combination with the training targets. */
static void print_target_alignment_text(const km_model *model)
{
    size_t M = km_model_n_kernels(model), K = km_model_n_machines(model);
    double rho, uncentred, eta;
    char name[32];
    if (km_model_alignment(model, 0, 0, &rho, &uncentred, &eta) != KM_OK)
        return;
    printf("target alignment  with the training targets: centred rho, uncentred A, eta = <K_c, yy'>_F / n^2\n");
    printf("  %-12s  %-11s  %-11s  %s\n", "kernel", "rho", "A", "eta");
    for (size_t m = 0; m < M && km_model_alignment(model, 0, m, &rho, &uncentred, &eta) == KM_OK; m++) {
        snprintf(name, sizeof name, "%zu", m + 1);
        print_target_alignment_row(name, rho, uncentred, eta);
    }
    for (size_t k = 0; k < K && km_model_alignment(model, k, M, &rho, &uncentred, &eta) == KM_OK; k++) {
        snprintf(name, sizeof name, K > 1 ? "combined %zu" : "combined", k + 1);
        print_target_alignment_row(name, rho, uncentred, eta);
    }
}

static void print_diagnostics_text(const km_model *model, size_t machine)
{
    const double *block_norms = km_model_block_norms(model, machine);
    km_bound_choice choice = KM_BOUND_CHOICE_INIT;
    if (!block_norms || km_model_bound_choice(model, machine, &choice))
        return;
    printf("    block norms");
    for (size_t m = 0; m < km_model_n_kernels(model); m++)
        printf(" %.6g", block_norms[m]);
    printf("\n    bound factor %.6g, smallest at p-block %.4f (p %.4f)", choice.factor, choice.p_block, choice.p);
    if (choice.flat_low < choice.flat_high)
        printf(", the same on p-block [%.4f, %.4f]", choice.flat_low, choice.flat_high);
    printf("\n");
}

/* The probability models of -b 1, when the model has them. */
static void print_probability_text(const km_model *model)
{
    double a, b, sigma;
    if (km_model_laplace_sigma(model, &sigma) == KM_OK) {
        printf("probability       Laplace residuals, density exp(-|z|/sigma)/(2 sigma), sigma %.10g\n", sigma);
    } else if (km_model_has_probability(model)) {
        printf("probability       Platt sigmoid P(positive | f) = 1/(1 + exp(A f + B)) per machine\n");
        for (size_t k = 0; k < km_model_n_machines(model) && km_model_sigmoid(model, k, &a, &b) == KM_OK; k++)
            printf("  machine %zu: A %.10g, B %.10g\n", k + 1, a, b);
    }
}

static void print_text(const km_model *model)
{
    size_t M = km_model_n_kernels(model), nc = km_model_n_classes(model);
    char value[64];
    printf("task              %s\n", cli_task_title(km_model_task(model)));
    if (nc) {
        printf("classes           %zu:", nc);
        for (size_t c = 0; c < nc; c++) {
            cli_format_value(value, sizeof value, km_model_labels(model)[c]);
            printf(" %s", value);
        }
        printf("\n");
    }
    unsigned flags = km_model_method_flags(model);
    printf("kernel weights    ");
    km_model_method_describe(model, KM_DESCRIBE_SETTINGS, 0, 0, stdout);
    print_clusters_text(model);
    print_kernels_text(model);
    print_alignment_text(model);
    print_target_alignment_text(model);
    printf("support vectors   %zu\n", km_model_n_sv_total(model));
    printf("machines          %zu\n", km_model_n_machines(model));
    for (size_t k = 0; k < km_model_n_machines(model); k++) {
        km_machine_info info = KM_MACHINE_INFO_INIT;
        km_model_machine_info(model, k, &info);
        printf("  machine %zu:", k + 1);
        if (km_model_n_decision(model) > km_model_n_machines(model))   /* joint: one output per class */
            printf(" all %zu classes, one output each,", nc);
        else if (km_task_classifies(km_model_task(model))) {
            print_label("positive", info.positive_label);
            print_label("vs", info.negative_label);
            printf(",");
        }
        printf(" objective %.10g, bias %.10g, %zu support vectors, %ld iterations%s\n",
               flags & KM_METHOD_PRIMAL_OBJECTIVE ? info.primal : info.objective, info.bias,
               info.n_sv, info.iterations, info.converged ? "" : " (stopped at a limit)");
        if (!isnan(info.gap) && (flags & KM_METHOD_PRIMAL_OBJECTIVE))   /* f(w) - f(w*) <= f(w) - D = gap f(w) */
            printf("    certified: objective at most %.3g above the optimum (relative duality gap %.3g)\n",
                   info.gap * info.primal, info.gap);
        else if (!isnan(info.gap))
            printf("    primal %.10g, duality gap %.3g after %ld weight steps\n", info.primal, info.gap,
                   info.mkl_iterations);
        else if (flags & KM_METHOD_LEARNS_WEIGHTS)   /* EB, LMKL: non-convex, no certificate */
            printf("    primal %.10g after %ld weight steps (no duality gap: the problem is not convex)\n",
                   info.primal, info.mkl_iterations);
        printf("    kernel weights%s", km_model_weight_groups(model) > 1 ? " of cluster 1" : "");
        const double *w = km_model_kernel_weights(model, k);
        for (size_t m = 0; m < M; m++)
            printf(" %.6g", w[m]);
        printf("\n");
        print_cluster_weights_text(model, k);
        size_t off = switched_off(w, M);
        if ((flags & KM_METHOD_LEARNS_WEIGHTS) && off)
            printf("    switched off: %zu of %zu kernels (weight 0)\n", off, M);
        print_diagnostics_text(model, k);
        km_model_method_describe(model, KM_DESCRIBE_MACHINE, k, 0, stdout);
        print_evidence_text(model, k);
    }
    km_model_method_describe(model, KM_DESCRIBE_LEARNED, 0, 0, stdout);
    print_probability_text(model);
}

int cmd_info(int argc, char **argv)
{
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    cli_positionals positionals = {.max = 1};
    int json = 0;
    while (cli_args_next_option(&args, &positionals)) {
        if (cli_args_is(&args, NULL, "--help")) {
            usage(stdout);
            return CLI_OK;
        } else if (cli_args_is(&args, NULL, "--json")) {
            json = 1;
        } else {
            cli_args_unknown(&args);
            return CLI_USAGE;
        }
    }
    if (args.failed || !cli_positionals_given(CMD, &positionals, 1, "missing MODEL_FILE"))
        return CLI_USAGE;
    const char *path = positionals.values[0];
    km_model *model;
    km_params *params;
    km_status st = km_model_load(path, &model);
    if (st)
        return cli_fail(CMD, st);
    if ((st = km_model_params(model, &params))) {
        km_model_free(model);
        return cli_fail(CMD, st);
    }
    int64_t method = 0;
    km_params_get_int(params, KM_PARAM_MKL_METHOD, &method);
    km_params_free(params);
    if (json)
        print_json(model, name_of(KM_ENUM_MKL_METHOD, (int)method));
    else
        print_text(model);
    km_model_free(model);
    return CLI_OK;
}
