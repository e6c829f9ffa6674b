/* kernelmix bound: the generalization and concentration bounds of learning kernels (Rostamizadeh's
 * thesis ch. 2) as numbers, one JSON object per line. */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const CMD = "bound";

static void usage(FILE *out)
{
    fprintf(out,
"usage: kernelmix bound KIND [DATA --kernel SPEC... | --kernels FILE] [options]\n"
"\n"
"Computes a bound of learning kernels (A. Rostamizadeh, Learning Kernels, NYU 2010, ch. 2;\n"
"Cortes, Mohri & Rostamizadeh) and prints it as one JSON object on one line.\n"
"DATA (or a --kernels FILE) '-' is standard input.\n"
"eta0 = 23/22; q is the norm of the kernel weights, r its conjugate (1/q + 1/r = 1).\n"
"With a training file DATA and kernels (--kernel, --kernels, as train takes them), m, p, the\n"
"traces u and R^2 = max_k max_i K_k(x_i, x_i) (R = sqrt(R^2)) come from the kernels as used on the\n"
"rows of DATA, normalized and centred as their specs say; options given explicitly win.\n"
"\n"
"kinds and the options they use:\n"
"  rademacher  Thm 2.5/2.7: sqrt(eta0 r ||u||_r)/m of the kernel traces u; --m --traces\n"
"              [--q | --r]; q = 1: the minimum over r = 1..ceil(ln p)+2\n"
"  margin      Cor. 2.1/2.2: empirical margin loss + (2/rho) complexity\n"
"              + 3 sqrt(ln(2/delta)/(2m)); --m --rho [--delta --empirical --q | --r]\n"
"              and either --p [--R2] (q = 1: Thm 2.6, sqrt(eta0 e ceil(ln p) R^2/m);\n"
"              q > 1: Thm 2.8, sqrt(eta0 r p^(1/r) R^2/m)) or --traces (Thm 2.5/2.7)\n"
"  sbd         Srebro & Ben-David's bound, for comparison; --m --p --rho [--R2];\n"
"              --sbd-delta adds ln(1/delta) inside the bracket (the printed form has none)\n"
"  linear      Thm 2.9: X W sqrt(eta0 r/(2m)) and Kakade et al.'s X W sqrt((r-1)/m);\n"
"              --m --r (even) [--X --W]\n"
"  stability   Prop. 2.4/Thm 2.4 (L2-regularized KRR kernel learning): C0, C1, beta and\n"
"              the term 2 beta + (4 m beta + B) sqrt(ln(1/delta)/(2m)); --m --p [--R --M\n"
"              --radius --lambda0 --lambda-min --delta --loss-bound M|M2]\n"
"  alignment   Prop. 2.6, |eta - eta_hat| <= 18 R^4/m + 24 R^4 sqrt(ln(2/delta)/(2m)),\n"
"              and with --beta Thm 2.10, |rho - rho_hat| <= 18 beta [3/m\n"
"              + 4 sqrt(ln(6/delta)/(2m))]; --m [--R --delta --beta]\n"
"  predictor   Thm 2.11-2.13, the error of the predictors of a well-aligned kernel:\n"
"              1 - rho Var(y)/Gamma, 2 (1 - rho Var(y)), 1 - eta/R^2; --alignment RHO\n"
"              [--var-y --gamma --eta --R2]\n"
"\n"
"options (defaults in brackets):\n"
"  --m N            sample size (also --samples)\n"
"  --p N            number of base kernels (also --kernel-count; train's --p is the norm)\n"
"  --traces U,...   the traces Tr K_k of the kernels as used (p values)\n"
"  --q Q            kernel-weight norm, >= 1 [1]; q > 1 needs an integer r = q/(q-1)\n"
"  --r R            the conjugate of q, an integer >= 1 (instead of --q)\n"
"  --rho RHO        margin\n"
"  --R2 R2          bound on K(x,x) [1]\n"
"  --R R            bound on sqrt K(x,x) (stability, alignment) [1]\n"
"  --delta D        confidence parameter in (0,1) [0.05]\n"
"  --empirical L    empirical margin loss in [0,1] [0]\n"
"  --sbd-delta      Srebro-Ben-David with ln(1/delta)\n"
"  --X X, --W W     bounds on ||x||_r and ||w||_q [1]\n"
"  --M M            bound on |y| [1]\n"
"  --radius L       radius Lambda of the kernel weights' ball [1]\n"
"  --lambda0 L      ridge per point (lambda = lambda0 m) [1]\n"
"  --lambda-min L   smallest eigenvalue of the learned kernel matrix [0]\n"
"  --loss-bound B   bound of the loss in Thm 2.4: M (as printed) or M2 (M^2, the squared\n"
"                   loss when |h - y| <= M) [M]\n"
"  --beta B         max(R^4/E[K_c^2], R^4/E[K'_c^2]) of Thm 2.10\n"
"  --alignment A    the centred alignment rho(K, yy') of Thm 2.11/2.12\n"
"  --eta E          the unnormalized alignment eta(K, yy') of Thm 2.13 [0]\n"
"  --var-y V        Var(y) (1 for centred labels of variance 1) [1]\n"
"  --gamma G        Gamma >= 1 of Thm 2.11 [1]\n"
"  --kernel SPEC    a base kernel on DATA (repeatable; see kernelmix train --help)\n"
"  --kernels FILE   base kernels on DATA, one spec per line\n"
"%s"
"  --help           show this help\n", CLI_INPUT_HELP);
}

enum { KIND_RADEMACHER, KIND_MARGIN, KIND_SBD, KIND_LINEAR, KIND_STABILITY, KIND_ALIGNMENT, KIND_PREDICTOR, N_KINDS };
static const char *const KIND_NAMES[N_KINDS] = {"rademacher", "margin",    "sbd",      "linear",
                                                "stability",  "alignment", "predictor"};

typedef struct bound_options {
    int kind;
    long m, p, r;
    double q, rho, R2, R, delta, empirical, X, W, M, radius, lambda0, lambda_min, beta, alignment, eta, var_y,
        gamma;
    int sbd_delta, loss_m2, given_m, given_p, given_q, given_r, given_rho, given_beta, given_alignment, given_R2,
        given_R;
    double *traces;
    size_t n_traces;
    const char *data;           /* training file the kernel inputs come from (NULL: numbers only) */
    cli_input input;
    cli_kernel_specs specs;
} bound_options;

/* A comma-separated list of non-negative numbers. */
static int parse_traces(const char *text, bound_options *o)
{
    size_t n = 1;
    for (const char *c = text; *c; c++)
        n += *c == ',';
    free(o->traces);
    o->traces = malloc(n * sizeof *o->traces);
    char *copy = strdup(text);
    if (!o->traces || !copy) {
        free(copy);
        cli_error(CMD, "out of memory");
        return 0;
    }
    o->n_traces = 0;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save))
        if (!cli_parse_double(CMD, "--traces", item, 0, INFINITY, &o->traces[o->n_traces++])) {
            free(copy);
            return 0;
        }
    free(copy);
    if (o->n_traces == 0) {
        cli_error(CMD, "option --traces: no values");
        return 0;
    }
    return 1;
}

/* Parses one option; 1 when taken, 0 on an error (reported), -1 when unknown. */
static int parse_option(cli_args *args, bound_options *o)
{
    static const struct {
        const char *name;
        size_t offset;
        double lo, hi;
    } doubles[] = {
        {"--q", offsetof(bound_options, q), 1, INFINITY},
        {"--rho", offsetof(bound_options, rho), 0, INFINITY},
        {"--R2", offsetof(bound_options, R2), 0, INFINITY},
        {"--R", offsetof(bound_options, R), 0, INFINITY},
        {"--delta", offsetof(bound_options, delta), 0, 1},
        {"--empirical", offsetof(bound_options, empirical), 0, 1},
        {"--X", offsetof(bound_options, X), 0, INFINITY},
        {"--W", offsetof(bound_options, W), 0, INFINITY},
        {"--M", offsetof(bound_options, M), 0, INFINITY},
        {"--radius", offsetof(bound_options, radius), 0, INFINITY},
        {"--lambda0", offsetof(bound_options, lambda0), 0, INFINITY},
        {"--lambda-min", offsetof(bound_options, lambda_min), 0, INFINITY},
        {"--beta", offsetof(bound_options, beta), 0, INFINITY},
        {"--alignment", offsetof(bound_options, alignment), -1, 1},
        {"--eta", offsetof(bound_options, eta), 0, INFINITY},
        {"--var-y", offsetof(bound_options, var_y), 0, INFINITY},
        {"--gamma", offsetof(bound_options, gamma), 1, INFINITY},
    };
    for (size_t k = 0; k < sizeof doubles / sizeof doubles[0]; k++)
        if (cli_args_is(args, NULL, doubles[k].name)) {
            const char *name = doubles[k].name;
            if (!cli_parse_double(CMD, name, cli_args_value(args), doubles[k].lo, doubles[k].hi,
                                  (double *)((char *)o + doubles[k].offset)))
                return 0;
            o->given_q |= !strcmp(name, "--q");
            o->given_rho |= !strcmp(name, "--rho");
            o->given_beta |= !strcmp(name, "--beta");
            o->given_alignment |= !strcmp(name, "--alignment");
            o->given_R2 |= !strcmp(name, "--R2");
            o->given_R |= !strcmp(name, "--R");
            return 1;
        }
    /* the thesis' m and p, also by names that cannot be mistaken for train's --p (the norm) */
    if (cli_args_is(args, "--m", "--samples")) {
        o->given_m = 1;
        return cli_parse_long(CMD, "--m", cli_args_value(args), 1, LONG_MAX, &o->m);
    }
    if (cli_args_is(args, "--p", "--kernel-count")) {
        o->given_p = 1;
        return cli_parse_long(CMD, "--p", cli_args_value(args), 1, LONG_MAX, &o->p);
    }
    if (cli_args_is(args, NULL, "--r")) {
        o->given_r = 1;
        return cli_parse_long(CMD, "--r", cli_args_value(args), 1, 1000, &o->r);
    }
    if (cli_args_is(args, NULL, "--traces")) {
        const char *value = cli_args_value(args);
        return value && parse_traces(value, o);
    }
    int handled = cli_kernel_spec_option(args, &o->specs);
    if (!handled)
        handled = cli_data_option(args, &o->input);
    if (handled)
        return handled > 0;
    if (cli_args_is(args, NULL, "--sbd-delta")) {
        o->sbd_delta = 1;
        return 1;
    }
    if (cli_args_is(args, NULL, "--loss-bound")) {
        const char *value = cli_args_value(args);
        if (!value)
            return 0;
        if (strcmp(value, "M") && strcmp(value, "M2")) {
            cli_error(CMD, "option --loss-bound: '%s' is not M or M2", value);
            return 0;
        }
        o->loss_m2 = !strcmp(value, "M2");
        return 1;
    }
    return -1;
}

/* m, p, the traces, R^2 and R from the kernels on the rows of o->data, where not given as numbers.
 * Returns CLI_OK or the exit status of the (reported) failure. */
static int kernel_inputs_from_data(bound_options *o)
{
    km_dataset *data = NULL;
    km_kernel_set *set = NULL;
    double *traces = NULL, R2 = 0;
    cli_inputs inputs = {0};   /* no output, but standard input can be read once */
    int once = cli_inputs_add(CMD, &inputs, o->data) &&
               cli_inputs_add_all(CMD, &inputs, o->specs.files, o->specs.n_files);
    cli_inputs_free(&inputs);
    if (!once)
        return CLI_USAGE;
    km_status st = cli_read_data(o->data, &o->input, 0, &data);
    if (!st)
        st = km_kernel_set_new(&set);
    if (!st)
        st = km_kernel_set_set_dimension(set, km_dataset_dim(data));
    if (!st)
        st = cli_kernel_specs_add(&o->specs, set);
    size_t p = st ? 0 : km_kernel_set_size(set);
    if (!st && !(traces = malloc(p * sizeof *traces)))
        st = km_error(KM_ENOMEM, "out of memory");
    if (!st)
        st = km_bound_kernel_inputs(data, set, &R2, traces);
    int status = st ? cli_fail(CMD, st) : CLI_OK;
    if (!st) {
        if (!o->given_m) {
            o->m = (long)km_dataset_rows(data);
            o->given_m = 1;
        }
        if (!o->given_p) {
            o->p = (long)p;
            o->given_p = 1;
        }
        if (!o->traces) {
            o->traces = traces;
            o->n_traces = p;
            traces = NULL;
        }
        if (!o->given_R2)
            o->R2 = R2;
        if (!o->given_R)
            o->R = sqrt(o->R2);
    }
    free(traces);
    km_kernel_set_free(set);
    km_dataset_free(data);
    return status;
}

/* The conjugate r of q (0 for q = 1), or -1 (reported) when it is not an integer. */
static long conjugate_of(const bound_options *o)
{
    if (o->given_r)
        return o->r;
    if (o->q == 1)
        return 0;
    double r = o->q / (o->q - 1);
    if (fabs(r - round(r)) > 1e-9 * r) {
        cli_error(CMD, "option --q: the conjugate r = q/(q-1) = %.10g is not an integer (the bounds need one)", r);
        return -1;
    }
    return lround(r);
}

static int require(int given, const char *option, const char *kind)
{
    if (!given)
        cli_error(CMD, "%s needs %s (see kernelmix bound --help)", kind, option);
    return given;
}

static void print_number(FILE *out, const char *name, double value)
{
    fprintf(out, ", \"%s\": %.10g", name, value);
}

/* Writes the result line to out. */
static km_status run_kind(const bound_options *o, long r, FILE *out)
{
    size_t m = (size_t)o->m, p = o->traces ? o->n_traces : (size_t)o->p;
    const char *kind = KIND_NAMES[o->kind];
    km_status st = KM_OK;
    double value = 0, other = 0, third = 0;
    fprintf(out, "{\"bound\": \"%s\"", kind);
    if (o->data) {
        /* the inputs taken from the kernels on the data, for checking */
        print_number(out, "R2", o->R2);
        fprintf(out, ", \"traces\": [");
        for (size_t k = 0; k < o->n_traces; k++)
            fprintf(out, "%s%.10g", k ? ", " : "", o->traces[k]);
        fprintf(out, "]");
    }
    switch (o->kind) {
    case KIND_RADEMACHER:
    case KIND_MARGIN: {
        int best_r = (int)r;
        const char *theorem;
        if (o->traces && r == 0) {
            st = km_bound_rademacher_l1(m, p, o->traces, &value, &best_r);
            theorem = "2.5";
        } else if (o->traces) {
            st = km_bound_rademacher(m, p, o->traces, (int)r, &value);
            theorem = "2.7";
        } else if (r == 0) {
            st = km_bound_l1_complexity(m, p, o->R2, &value);
            theorem = "2.6";
        } else {
            st = km_bound_lq_complexity(m, p, (int)r, o->R2, &value);
            theorem = "2.8";
        }
        if (st != KM_OK)
            break;
        fprintf(out, ", \"theorem\": \"%s\", \"m\": %zu, \"p\": %zu", theorem, m, p);
        /* q = r/(r-1): 1 for the l1 bounds, null (infinity) for r = 1 */
        if (r == 0)
            fprintf(out, ", \"q\": 1");
        else if (r == 1)
            fprintf(out, ", \"q\": null");
        else
            print_number(out, "q", (double)r / (double)(r - 1));
        if (r != 0 || o->traces)
            fprintf(out, ", \"r\": %d", best_r);
        print_number(out, "rademacher", value);
        if (o->kind == KIND_MARGIN) {
            km_margin_bound b;
            if ((st = km_bound_margin(m, o->rho, o->delta, value, o->empirical, &b)) != KM_OK)
                break;
            print_number(out, "rho", o->rho);
            print_number(out, "delta", o->delta);
            print_number(out, "empirical", o->empirical);
            print_number(out, "complexity", b.complexity);
            print_number(out, "confidence", b.confidence);
            print_number(out, "value", b.value);
        }
        break;
    }
    case KIND_SBD:
        if ((st = km_bound_srebro_ben_david(m, p, o->R2, o->rho, o->sbd_delta ? o->delta : 0, &value)) != KM_OK)
            break;
        fprintf(out, ", \"m\": %zu, \"p\": %zu", m, p);
        print_number(out, "rho", o->rho);
        print_number(out, "R2", o->R2);
        if (o->sbd_delta)
            print_number(out, "delta", o->delta);
        print_number(out, "value", value);
        break;
    case KIND_LINEAR:
        if ((st = km_bound_linear(m, (int)r, o->X, o->W, &value, &other)) != KM_OK)
            break;
        fprintf(out, ", \"theorem\": \"2.9\", \"m\": %zu, \"r\": %ld", m, r);
        print_number(out, "value", value);
        print_number(out, "kakade", other);
        break;
    case KIND_STABILITY: {
        km_stability_bound s;
        double B = o->loss_m2 ? o->M * o->M : o->M;
        if ((st = km_bound_stability(m, p, o->R, o->M, o->radius, o->lambda0, o->lambda_min, o->delta, B, &s)) !=
            KM_OK)
            break;
        fprintf(out, ", \"theorem\": \"2.4\", \"m\": %zu, \"p\": %zu", m, p);
        print_number(out, "C0", s.C0);
        print_number(out, "C1", s.C1);
        print_number(out, "beta_S", s.beta_S);
        print_number(out, "beta_K", s.beta_K);
        print_number(out, "beta", s.beta);
        print_number(out, "loss_bound", B);
        print_number(out, "term", s.term);
        break;
    }
    case KIND_ALIGNMENT:
        if ((st = km_bound_alignment_eta(m, o->R, o->delta, &value)) != KM_OK)
            break;
        if (o->given_beta && (st = km_bound_alignment_rho(m, o->beta, o->delta, &other)) != KM_OK)
            break;
        fprintf(out, ", \"m\": %zu", m);
        print_number(out, "delta", o->delta);
        print_number(out, "eta", value);
        if (o->given_beta) {
            print_number(out, "beta", o->beta);
            print_number(out, "rho", other);
        }
        break;
    case KIND_PREDICTOR:
        if ((st = km_bound_good_predictor(o->alignment, o->var_y, o->gamma, o->eta, o->R2, &value, &other,
                                          &third)) != KM_OK)
            break;
        print_number(out, "thm_2_11", value);
        print_number(out, "thm_2_12", other);
        print_number(out, "thm_2_13", third);
        break;
    }
    if (st == KM_OK)
        fprintf(out, "}\n");
    return st;
}

/* The options KIND needs are there. */
static int check_required(const bound_options *o, long r)
{
    const char *kind = KIND_NAMES[o->kind];
    if (o->kind != KIND_PREDICTOR && !require(o->given_m, "--m", kind))
        return 0;
    switch (o->kind) {
    case KIND_RADEMACHER:
        return require(o->traces != NULL, "--traces", kind);
    case KIND_MARGIN:
        return require(o->given_rho, "--rho", kind) && require(o->given_p || o->traces, "--p or --traces", kind);
    case KIND_SBD:
        return require(o->given_rho, "--rho", kind) && require(o->given_p, "--p", kind);
    case KIND_LINEAR:
        return require(r >= 2 && r % 2 == 0, "an even --r >= 2 (or --q = r/(r-1))", kind);
    case KIND_STABILITY:
        return require(o->given_p, "--p", kind);
    case KIND_PREDICTOR:
        return require(o->given_alignment, "--alignment", kind);
    default:
        return 1;
    }
}

int cmd_bound(int argc, char **argv)
{
    bound_options o = {.kind = -1, .q = 1, .R2 = 1, .R = 1, .delta = 0.05, .X = 1, .W = 1, .M = 1, .radius = 1,
                       .lambda0 = 1, .var_y = 1, .gamma = 1, .input = CLI_INPUT_INIT};
    cli_args args;
    cli_args_init(&args, CMD, argc, argv);
    cli_positionals positionals = {.max = 2};     /* KIND [DATA] */
    int status = CLI_USAGE;
    while (cli_args_next_option(&args, &positionals)) {
        if (cli_args_is(&args, NULL, "--help")) {
            usage(stdout);
            status = CLI_OK;
            goto done;
        }
        int taken = parse_option(&args, &o);
        if (taken < 0)
            cli_args_unknown(&args);
        if (taken <= 0)
            goto done;
    }
    if (args.failed || !cli_positionals_given(CMD, &positionals, 1, "missing KIND"))
        goto done;
    for (int k = 0; k < N_KINDS && o.kind < 0; k++)
        if (!strcmp(positionals.values[0], KIND_NAMES[k]))
            o.kind = k;
    if (o.kind < 0) {
        cli_error(CMD, "unknown bound '%s' (rademacher, margin, sbd, linear, stability, alignment or predictor)",
                  positionals.values[0]);
        goto done;
    }
    o.data = positionals.values[1];
    if (!o.data != !o.specs.n) {
        cli_error(CMD, o.data ? "DATA needs its kernels: --kernel SPEC or --kernels FILE"
                              : "--kernel and --kernels need a DATA file");
        goto done;
    }
    if (o.given_q && o.given_r) {
        cli_error(CMD, "give --q or --r, not both");
        goto done;
    }
    if (o.data && (status = kernel_inputs_from_data(&o)) != CLI_OK)
        goto done;
    status = CLI_USAGE;
    if (o.traces && o.given_p && (size_t)o.p != o.n_traces) {
        cli_error(CMD, "--p %ld but %s %zu values", o.p, o.data ? "the kernels give" : "--traces has", o.n_traces);
        goto done;
    }
    long r = conjugate_of(&o);
    if (r < 0 || !check_required(&o, r))
        goto done;
    /* the line is built in memory: a refused bound prints nothing on stdout */
    char *line = NULL;
    size_t length = 0;
    FILE *out = open_memstream(&line, &length);
    if (!out) {
        cli_error(CMD, "out of memory");
        status = CLI_FAILURE;
        goto done;
    }
    km_status st = run_kind(&o, r, out);
    fclose(out);
    if (st == KM_OK) {
        fputs(line, stdout);
        status = CLI_OK;
    } else {
        cli_error(CMD, "%s", km_last_error());
        status = CLI_USAGE;
    }
    free(line);
done:
    cli_kernel_specs_free(&o.specs);
    free(o.traces);
    return status;
}
