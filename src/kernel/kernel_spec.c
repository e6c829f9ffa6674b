/* The kernel spec language (kernelmix.h km_kernel_set_add_spec, docs/kernels.md):
 *   SPEC := TYPE [':' KEY '=' VALUES]*, VALUES := VALUE (',' VALUE)* | a..b | B^a..B^b  [ "/mean" ]
 * Lists expand to one kernel per value, several lists to their cross product (first key slowest). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/names.h"
#include "core/number.h"
#include "core/suggest.h"
#include "data/text_input.h"
#include "kernel/kernel.h"
#include "kernel/kernel_eval.h"
#include "kernel/kernel_family.h"

/* Most kernels one spec may expand to (docs/kernels.md; each kernel costs about a kilobyte before any
 * value is computed), and most features one feature list may name. */
#define KM_SPEC_MAX_KERNELS 100000
#define KM_SPEC_MAX_FEATURES ((size_t)1 << 22)

typedef enum spec_key {
    KEY_GAMMA, KEY_SIGMA, KEY_DEGREE, KEY_COEF0, KEY_FEATURES, KEY_NORM, KEY_CENTER, KEY_SCALE, KEY_FILE, KEY_KMER,
    KEY_SHIFT, KEY_RANK, KEY_ICD, KEY_SAMPLING, KEY_COUNT
} spec_key;

static const char *const key_names[KEY_COUNT] = {"gamma",    "sigma", "degree", "coef0", "features",
                                                 "norm",     "center", "scale", "file",  "k",
                                                 "shift",    "rank",   "icd",   "sampling"};

#define BIT(k) (1u << (k))
#define COMMON_KEYS (BIT(KEY_FEATURES) | BIT(KEY_NORM) | BIT(KEY_CENTER) | BIT(KEY_SCALE))


/* The keys of a family: its parameters (kernel_family.h KM_PARAM_*), norm, center, scale, and rank for
 * the dot-product kernels (their Nystrom approximation, family_nystrom.c). */
static unsigned keys_of_type(km_kernel_type type)
{
    static const struct { unsigned param; spec_key key; } param_keys[] = {
        {KM_SPEC_GAMMA, KEY_GAMMA},   {KM_SPEC_SIGMA, KEY_SIGMA},       {KM_SPEC_DEGREE, KEY_DEGREE},
        {KM_SPEC_COEF0, KEY_COEF0},   {KM_SPEC_FEATURES, KEY_FEATURES}, {KM_SPEC_FILE, KEY_FILE},
        {KM_SPEC_KMER, KEY_KMER},     {KM_SPEC_SHIFT, KEY_SHIFT}};
    const km_kernel_family *family = km_kernel_family_of(type);
    unsigned params = family->params;
    unsigned keys = family->one_kernel_per_feature ? 0u : BIT(KEY_NORM) | BIT(KEY_CENTER) | BIT(KEY_SCALE);
    if (family->input == KM_INPUT_DOT)
        keys |= BIT(KEY_RANK) | BIT(KEY_ICD) | BIT(KEY_SAMPLING);
    for (size_t t = 0; t < sizeof param_keys / sizeof *param_keys; t++)
        if (params & param_keys[t].param)
            keys |= BIT(param_keys[t].key);
    return keys;
}

/* One KEY=VALUES option: its alternatives. */
typedef struct option {
    spec_key key;
    size_t count;
    double *values;          /* numeric keys, norm (as km_normalization) and center */
    int relative;            /* gamma given as "/mean" */
    int each;                /* features=each: alternative a is feature a */
    uint32_t *features;      /* features=LIST (one alternative) */
    size_t n_features;
} option;

typedef struct spec_parser {
    const char *spec;        /* for messages */
    const km_kernel_set *set;
    const char *base_dir;    /* relative file= paths are taken from here (NULL: current directory) */
    km_kernel_type type;
    option options[KEY_COUNT];
    size_t n_options;
    char *file;              /* resolved file= path */
    km_matrix *matrix;       /* read from file, owned until handed to the first kernel */
    km_kernel *out;          /* expanded kernels */
    size_t n_out;
} spec_parser;

static km_status spec_error(const spec_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static km_status spec_error(const spec_parser *p, const char *fmt, ...)
{
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return km_error(KM_EINVAL, "kernel spec '%s': %s", p->spec, message);
}

static int parse_type(const char *name, km_kernel_type *type)
{
    const km_kernel_family *family = km_kernel_family_named(name);
    if (family)
        *type = family->type;
    return family != NULL;
}

static km_status push_value(const spec_parser *p, option *o, double value)
{
    if (o->count >= KM_SPEC_MAX_KERNELS)
        return spec_error(p, "%s has more than %d values, the most kernels one spec may give", key_names[o->key],
                          KM_SPEC_MAX_KERNELS);
    if ((o->count & (o->count - 1)) == 0) {   /* grow at powers of two */
        double *grown = realloc(o->values, (o->count ? 2 * o->count : 1) * sizeof *grown);
        if (!grown)
            return km_error_nomem("kernel spec values");
        o->values = grown;
    }
    o->values[o->count++] = value;
    return KM_OK;
}

/* a..b in steps of 1, or B^a..B^b in exponent steps of 1 */
static km_status parse_range(const spec_parser *p, option *o, char *text, char *dots)
{
    *dots = '\0';
    double lo, hi, base_lo, base_hi, e_lo = 0, e_hi = 0;
    km_user_number_status problem_lo = km_parse_user_number(text, &lo, &base_lo, &e_lo);
    km_user_number_status problem_hi = problem_lo ? KM_USER_NUMBER_OK : km_parse_user_number(dots + 2, &hi, &base_hi, &e_hi);
    if (problem_lo || problem_hi)
        return spec_error(p, "%s: bad range '%s..%s': '%s' is %s", key_names[o->key], text, dots + 2,
                          problem_lo ? text : dots + 2, km_number_problem(problem_lo ? problem_lo : problem_hi));
    int powers = !isnan(base_lo);
    if (powers != !isnan(base_hi) || (powers && base_lo != base_hi))
        return spec_error(p, "%s: range '%s..%s' mixes forms (use a..b or B^a..B^b)", key_names[o->key], text,
                          dots + 2);
    double from = powers ? e_lo : lo, to = powers ? e_hi : hi;
    if (from > to)
        return spec_error(p, "%s: empty grid '%s..%s'", key_names[o->key], text, dots + 2);
    double steps = floor(to - from + 1e-9 * (fabs(to) + 1));   /* counted before any value is kept */
    if (!(steps < KM_SPEC_MAX_KERNELS - o->count))
        return spec_error(p, "%s: range '%s..%s' gives %.6g values, more than the %d kernels one spec may give",
                          key_names[o->key], text, dots + 2, steps + 1, KM_SPEC_MAX_KERNELS);
    for (double step = 0; step <= steps; step += 1.0) {
        km_status st = push_value(p, o, powers ? pow(base_lo, from + step) : from + step);
        if (st)
            return st;
    }
    return KM_OK;
}

static km_status parse_numbers(const spec_parser *p, option *o, char *text)
{
    char *dots = strstr(text, "..");
    if (dots)
        return parse_range(p, o, text, dots);
    for (char *item = text;;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        double value, base, exponent;
        km_user_number_status problem = km_parse_user_number(item, &value, &base, &exponent);
        if (problem)
            return spec_error(p, "%s: bad value '%s': %s", key_names[o->key], item, km_number_problem(problem));
        km_status st = push_value(p, o, value);
        if (st || !comma)
            return st;
        item = comma + 1;
    }
}

/* KEY=NAMES, a list of names of table (core/names.h): norm= and sampling=; what names them in errors. */
static km_status parse_names(const spec_parser *p, option *o, char *text, const km_name *table, const char *what)
{
    for (char *item = text;;) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        int value;
        if (!km_value_of(table, item, &value)) {
            char names[64];
            return spec_error(p, "unknown %s '%s' (%s)", what, item, km_names_phrase(table, names, sizeof names));
        }
        km_status st = push_value(p, o, (double)value);
        if (st || !comma)
            return st;
        item = comma + 1;
    }
}

/* features=LIST, LIST := ITEM (',' ITEM)*, ITEM := i | i-j, 1-based and strictly ascending */
static km_status parse_features(const spec_parser *p, option *o, char *text)
{
    size_t dim = p->set->dimension;
    if (strcmp(text, "each") == 0) {
        if (dim == 0)
            return spec_error(p, "features=each needs the number of features of the data (set the dimension)");
        o->each = 1;
        o->count = dim;
        return KM_OK;
    }
    unsigned long last = 0;
    o->count = 1;
    for (char *item = text;;) {
        char *end;
        errno = 0;
        unsigned long a = strtoul(item, &end, 10), b = a;
        if (end == item || *item == '-' || *item == '+' || errno)
            return spec_error(p, "bad feature list '%s'", text);
        if (*end == '-') {
            char *second = end + 1;
            b = strtoul(second, &end, 10);
            if (end == second || *second == '-' || *second == '+' || errno || b < a)
                return spec_error(p, "bad feature range in '%s'", text);
        }
        if (*end != ',' && *end != '\0')
            return spec_error(p, "bad feature list '%s'", text);
        if (a == 0)
            return spec_error(p, "features are numbered from 1 (got 0)");
        if (a <= last)
            return spec_error(p, "features must be in ascending order without repeats (%lu after %lu)", a, last);
        if (dim && b > dim)
            return spec_error(p, "feature %lu is beyond the data's %zu features", b, dim);
        if (b > UINT32_MAX)
            return spec_error(p, "feature %lu is too large", b);
        if (b - a >= KM_SPEC_MAX_FEATURES - o->n_features)
            return spec_error(p, "the feature list names more than %zu features", KM_SPEC_MAX_FEATURES);
        uint32_t *grown = realloc(o->features, (o->n_features + (b - a + 1)) * sizeof *grown);
        if (!grown)
            return km_error_nomem("a feature list");
        o->features = grown;
        for (unsigned long f = a; f <= b; f++)
            o->features[o->n_features++] = (uint32_t)(f - 1);
        last = b;
        if (*end == '\0')
            break;
        item = end + 1;
    }
    if (km_kernel_family_of(p->type)->one_kernel_per_feature) {   /* alternative a: feature features[a] */
        o->each = 1;
        o->count = o->n_features;
    }
    return KM_OK;
}

static km_status read_matrix_file(spec_parser *p, const char *name)
{
    size_t base_len = (p->base_dir && name[0] != '/') ? strlen(p->base_dir) + 1 : 0;
    if (!(p->file = malloc(base_len + strlen(name) + 1)))
        return km_error_nomem("a file name");
    if (base_len)
        sprintf(p->file, "%s/%s", p->base_dir, name);
    else
        strcpy(p->file, name);
    km_status st = km_matrix_read_training(p->file, &p->matrix);
    if (st)
        return st;
    if (p->matrix->rows != p->matrix->cols)
        return spec_error(p, "%s is a %zu x %zu matrix; a training kernel must be square", p->file, p->matrix->rows,
                          p->matrix->cols);
    return KM_OK;
}

static km_status check_values(const spec_parser *p, const option *o)
{
    for (size_t k = 0; k < o->count && !o->each && o->values; k++) {
        double v = o->values[k];
        switch (o->key) {
        case KEY_GAMMA:
        case KEY_SIGMA:
        case KEY_SCALE:
            if (!(v > 0))
                return spec_error(p, "%s must be positive (got %g)", key_names[o->key], v);
            /* sigma enters as gamma = 1/(2 sigma^2), which must stay a positive normal number */
            if (o->key == KEY_SIGMA && !(isnormal(1.0 / (2.0 * v * v)) && isfinite(1.0 / (2.0 * v * v))))
                return spec_error(p, "sigma=%g gives gamma = 1/(2 sigma^2) outside the range of doubles", v);
            break;
        case KEY_DEGREE:
            if (!(v >= 1) || v != floor(v) || v > KM_KERNEL_DEGREE_MAX)
                return spec_error(p, "degree must be a positive integer (got %g)", v);
            break;
        case KEY_KMER:
            if (!(v >= 1) || v != floor(v) || v > 1024)
                return spec_error(p, "k must be a positive integer up to 1024 (got %g)", v);
            break;
        case KEY_ICD:
            if (!(v > 0 && v < 1))
                return spec_error(p, "icd must be a tolerance between 0 and 1, exclusive (got %g)", v);
            break;
        case KEY_RANK:
            if (!(v >= 1) || v != floor(v) || v > KM_KERNEL_MAX_RANK)
                return spec_error(p, "rank must be a positive integer up to %d (got %g)", KM_KERNEL_MAX_RANK, v);
            break;
        case KEY_SHIFT:
            if (!(v >= 0) || v != floor(v) || v > 1024)
                return spec_error(p, "shift must be an integer from 0 to 1024 (got %g)", v);
            break;
        case KEY_CENTER:
            if (v != 0 && v != 1)
                return spec_error(p, "center must be 0 or 1 (got %g)", v);
            break;
        default:
            break;
        }
    }
    return KM_OK;
}

/* gamma=auto, gamma=VALUES or gamma=VALUES/mean */
static km_status parse_gamma(const spec_parser *p, option *o, char *value)
{
    int relative_allowed = km_kernel_family_of(p->type)->mean_distance != NULL;
    if (strcmp(value, "auto") == 0) {
        /* rbf, chi2: 1/mean distance; poly, sigmoid: 0 stands for LIBSVM's 1/(number of features) */
        o->relative = relative_allowed;
        return push_value(p, o, relative_allowed ? 1.0 : 0.0);
    }
    size_t len = strlen(value);
    if (len > 5 && strcmp(value + len - 5, "/mean") == 0) {
        if (!relative_allowed)
            return spec_error(p, "gamma relative to the mean distance ('/mean') needs rbf or chi2");
        value[len - 5] = '\0';
        o->relative = 1;
    }
    km_status st = parse_numbers(p, o, value);
    return st ? st : check_values(p, o);
}

static km_status parse_option(spec_parser *p, char *token)
{
    char *eq = strchr(token, '=');
    if (!eq)
        return spec_error(p, "option '%s' is not KEY=VALUES", token);
    *eq = '\0';
    char *value = eq + 1;
    int key = 0;
    while (key < KEY_COUNT && strcmp(token, key_names[key]) != 0)
        key++;
    if (key == KEY_COUNT) {
        char hint[96];
        return spec_error(p, "unknown key '%s'%s", token,
                          km_did_you_mean(km_suggest(token, key_names, KEY_COUNT), hint, sizeof hint));
    }
    if (!(keys_of_type(p->type) & BIT(key)))
        return spec_error(p, "key '%s' is not valid for %s kernels", token, km_kernel_type_name(p->type));
    for (size_t k = 0; k < p->n_options; k++)
        if (p->options[k].key == (spec_key)key)
            return spec_error(p, "key '%s' is given twice", token);
    for (size_t k = 0; k < p->n_options; k++)
        if ((key == KEY_GAMMA && p->options[k].key == KEY_SIGMA) || (key == KEY_SIGMA && p->options[k].key == KEY_GAMMA))
            return spec_error(p, "give either gamma or sigma, not both");
    if (!*value)
        return spec_error(p, "key '%s' has no value", token);
    option *o = &p->options[p->n_options++];
    o->key = (spec_key)key;
    km_status st;
    switch (key) {
    case KEY_FEATURES:
        return parse_features(p, o, value);
    case KEY_NORM:
        return parse_names(p, o, value, km_normalization_names, "normalization");
    case KEY_SAMPLING:
        return parse_names(p, o, value, km_landmark_sampling_names, "landmark sampling");
    case KEY_FILE:
        o->count = 1;
        return read_matrix_file(p, value);
    case KEY_GAMMA:
        return parse_gamma(p, o, value);
    default:
        st = parse_numbers(p, o, value);
        return st ? st : check_values(p, o);
    }
}

/* The set's default rank (km_kernel_set_set_default_low_rank) for a kernel with a low-rank form whose spec
 * names no rank=; its icd= or sampling= too where the spec names neither. */
static void low_rank_defaults(const spec_parser *p, km_kernel *base)
{
    int named_rank = 0, named_choice = 0;
    for (size_t k = 0; k < p->n_options; k++) {
        named_rank |= p->options[k].key == KEY_RANK;
        named_choice |= p->options[k].key == KEY_ICD || p->options[k].key == KEY_SAMPLING;
    }
    if (!(keys_of_type(p->type) & BIT(KEY_RANK)) || named_rank || !p->set->default_rank)
        return;
    base->rank = p->set->default_rank;
    if (!named_choice) {
        base->icd_tolerance = p->set->default_icd;
        base->landmark_sampling = p->set->default_sampling;
    }
}

static km_kernel default_kernel(km_kernel_type type, km_normalization norm)
{
    const km_kernel_family *family = km_kernel_family_of(type);
    km_kernel k = {.type = type, .norm = family->one_kernel_per_feature ? KM_NORM_NONE : norm, .scale = 0.0};
    if (family->mean_distance) {   /* gamma = 1/mean distance */
        k.gamma = 1.0;
        k.gamma_mode = KM_GAMMA_RELATIVE;
    }
    if (family->params & KM_SPEC_DEGREE)
        k.degree = 3;
    if (family->params & KM_SPEC_KMER)
        k.kmer = 3;
    return k;
}

static void apply(km_kernel *k, const option *o, size_t a, uint32_t *single_feature)
{
    double v = o->values ? o->values[a] : 0.0;
    switch (o->key) {
    case KEY_GAMMA:
        k->gamma = v;
        k->gamma_mode = o->relative ? KM_GAMMA_RELATIVE : KM_GAMMA_ABSOLUTE;
        break;
    case KEY_SIGMA:
        k->gamma = 1.0 / (2.0 * v * v);
        k->gamma_mode = KM_GAMMA_ABSOLUTE;
        break;
    case KEY_DEGREE: k->degree = v; break;
    case KEY_COEF0: k->coef0 = v; break;
    case KEY_NORM: k->norm = (km_normalization)v; break;
    case KEY_CENTER: k->center = (int)v; break;
    case KEY_SCALE: k->scale = v; break;
    case KEY_FILE: break;
    case KEY_KMER: k->kmer = (size_t)v; break;
    case KEY_SHIFT: k->shift = (size_t)v; break;
    case KEY_RANK: k->rank = (size_t)v; break;
    case KEY_ICD: k->icd_tolerance = v; break;
    case KEY_SAMPLING: k->landmark_sampling = (km_landmark_sampling)v; break;
    case KEY_FEATURES:
        if (o->each) {
            *single_feature = o->features ? o->features[a] : (uint32_t)a;
            k->features = single_feature;
            k->n_features = 1;
        } else {
            k->features = o->features;
            k->n_features = o->n_features;
        }
        break;
    case KEY_COUNT: break;
    }
}

/* Final kernel: own copies of the feature list and file name; the first kernel of a file owns its matrix. */
static km_status emit(spec_parser *p, const km_kernel *k)
{
    km_kernel *out = &p->out[p->n_out];
    *out = *k;
    out->features = NULL;
    out->file = NULL;
    if (k->features) {
        if (!(out->features = malloc(k->n_features * sizeof *out->features)))
            return km_error_nomem("a feature list");
        memcpy(out->features, k->features, k->n_features * sizeof *out->features);
    }
    if (p->file && !(out->file = strdup(p->file))) {
        km_kernel_clear(out);
        return km_error_nomem("a file name");
    }
    if (p->matrix) {
        out->matrix = p->matrix;
        if (p->n_out == 0)
            out->owned_matrix = p->matrix;
    }
    p->n_out++;
    return KM_OK;
}

static km_status expand(spec_parser *p, const km_kernel *partial, size_t level)
{
    if (level == p->n_options)
        return emit(p, partial);
    const option *o = &p->options[level];
    for (size_t a = 0; a < o->count; a++) {
        km_kernel k = *partial;
        uint32_t single_feature;
        apply(&k, o, a, &single_feature);
        km_status st = expand(p, &k, level + 1);
        if (st)
            return st;
    }
    return KM_OK;
}

static km_status check_combination(const spec_parser *p, size_t *total)
{
    *total = 1;
    const option *norm = NULL, *scale = NULL;
    int rank = 0, icd = 0, sampling = 0;
    for (size_t k = 0; k < p->n_options; k++) {
        rank |= p->options[k].key == KEY_RANK;
        icd |= p->options[k].key == KEY_ICD;
        sampling |= p->options[k].key == KEY_SAMPLING;
    }
    if ((icd || sampling) && !rank && !p->set->default_rank)
        return spec_error(p, "%s= chooses the landmark rows of a low-rank kernel: give rank= too (the most of them)",
                          icd ? "icd" : "sampling");
    if (icd && sampling)
        return spec_error(p, "give either icd= (the pivots of an incomplete Cholesky factorization) or sampling= "
                             "(a draw of the landmark rows), not both");
    for (size_t k = 0; k < p->n_options; k++) {
        const option *o = &p->options[k];
        if (o->key == KEY_NORM)
            norm = o;
        if (o->key == KEY_SCALE)
            scale = o;
        if (*total > KM_SPEC_MAX_KERNELS / o->count)
            return spec_error(p, "expands to more than %d kernels, the most one spec may give", KM_SPEC_MAX_KERNELS);
        *total *= o->count;
    }
    if (scale) {
        for (size_t a = 0; !norm || a < norm->count; a++) {
            km_normalization n = norm ? (km_normalization)norm->values[a] : p->set->default_norm;
            if (n != KM_NORM_MULTIPLICATIVE && n != KM_NORM_TRACE)
                return spec_error(p, "scale= needs norm=mult or norm=trace");
            if (!norm)
                break;
        }
    }
    return KM_OK;
}

static void parser_clear(spec_parser *p)
{
    for (size_t k = 0; k < p->n_options; k++) {
        free(p->options[k].values);
        free(p->options[k].features);
    }
    free(p->file);
    km_matrix_free(p->matrix);
}

static km_status trim_copy(const char *spec, char **out)
{
    while (*spec == ' ' || *spec == '\t')
        spec++;
    size_t len = strlen(spec);
    while (len && (spec[len - 1] == ' ' || spec[len - 1] == '\t' || spec[len - 1] == '\r' || spec[len - 1] == '\n'))
        len--;
    if (!(*out = malloc(len + 1)))
        return km_error_nomem("a kernel spec");
    memcpy(*out, spec, len);
    (*out)[len] = '\0';
    return KM_OK;
}

/* Parses one spec and appends its kernels to set (all or none). */
static km_status add_spec(km_kernel_set *set, const char *spec, const char *base_dir)
{
    char *text, *shown;
    km_status st = trim_copy(spec, &text);
    if (st)
        return st;
    if ((st = trim_copy(spec, &shown))) {
        free(text);
        return st;
    }
    spec_parser p = {.spec = shown, .set = set, .base_dir = base_dir};
    char *colon = strchr(text, ':');
    if (colon)
        *colon = '\0';
    if (!*text)
        st = spec_error(&p, "empty kernel spec");
    else if (!parse_type(text, &p.type)) {
        char hint[96];
        st = spec_error(&p, "unknown kernel type '%s' (linear, poly, rbf, sigmoid, chi2, histint, precomputed)%s",
                        text, km_did_you_mean(km_suggest_name(km_kernel_type_names, text), hint, sizeof hint));
    }
    for (char *token = colon ? colon + 1 : NULL; !st && token;) {
        char *next = strchr(token, ':');
        if (next)
            *next = '\0';
        st = parse_option(&p, token);
        token = next ? next + 1 : NULL;
    }
    int has_features = 0;
    for (size_t k = 0; k < p.n_options; k++)
        has_features |= p.options[k].key == KEY_FEATURES;
    if (!st && !has_features && km_kernel_family_of(p.type)->one_kernel_per_feature) {
        char each[] = "each";   /* one kernel per feature of the data */
        option *o = &p.options[p.n_options++];
        o->key = KEY_FEATURES;
        st = parse_features(&p, o, each);
    }
    size_t total = 0;
    if (!st)
        st = check_combination(&p, &total);
    if (!st && !(p.out = calloc(total, sizeof *p.out)))
        st = km_error_nomem("kernels of a spec");
    if (!st) {
        km_kernel base = default_kernel(p.type, p.set->default_norm);
        low_rank_defaults(&p, &base);
        st = expand(&p, &base, 0);
    }
    if (p.n_out)
        p.matrix = NULL;    /* owned by the first kernel now */
    size_t appended = 0;
    while (!st && appended < p.n_out) {
        st = km_kernel_set_append(set, &p.out[appended]);
        appended += !st;
    }
    if (st) {
        /* all or nothing: drop what this spec added */
        set->size -= appended;
        for (size_t k = 0; k < p.n_out; k++)
            km_kernel_clear(&p.out[k]);
    }
    parser_clear(&p);
    free(p.out);
    free(text);
    free(shown);
    return st;
}

km_status km_kernel_set_add_spec(km_kernel_set *set, const char *spec)
{
    return add_spec(set, spec, NULL);
}

km_status km_kernel_set_add_file(km_kernel_set *set, const char *path)
{
    FILE *f;
    const char *name = km_input_name(path);
    km_status st = km_open_input(path, &f);
    if (st)
        return km_error(KM_EIO, "%s: cannot open kernel spec file", name);
    /* file= paths inside the file are relative to its directory */
    char *dir = strdup(path);
    if (!dir) {
        fclose(f);
        return km_error_nomem("a file name");
    }
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    /* the bounded line reader: a stream that is not text (/dev/zero) fails at its first byte */
    km_line_reader reader;
    km_line_reader_init(&reader, f, name);
    char *line;
    size_t added = 0, before = set->size;
    while (!st && !(st = km_line_next(&reader, &line)) && line) {
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '#')
            continue;
        st = add_spec(set, s, slash ? dir : NULL);
        if (st) {
            char message[1024];
            snprintf(message, sizeof message, "%s", km_last_error());
            st = km_error(st, "%s:%zu: %s", name, reader.line_no, message);
        }
        added++;
    }
    if (!st && added == 0)
        st = km_error(KM_EINVAL, "%s: no kernel specs in the file", name);
    if (st) {
        /* all or nothing: drop the kernels of the earlier lines */
        while (set->size > before)
            km_kernel_clear(&set->kernels[--set->size]);
    }
    km_line_reader_free(&reader);
    free(dir);
    fclose(f);
    return st;
}
