/* km_model_check_data: the [data NAME] sections a model's methods leave in its record (core/record.h),
 * checked against the model's own sizes as training produces them, so that an edited file (checksum
 * recomputed) or a forged buffer cannot hand prediction, info or the Python package an index, count or
 * shape they would trust:
 *   clusters          localized methods (clmkl, hlmkl, lmkl): read by km_clustering_read (mkl/clmkl.h)
 *   eb                empirical-Bayes methods: neg_log_evidence_K, noise_K, kernels_kept_K per machine K
 *   obscure           OBSCURE: weights and weights_pk (1 x M) and the figures of its two stages
 *   target_alignment  alignment statistics of the kernels with the targets (train/alignment_record.c)
 *   input             the CSV layout of the training rows (train/model_input.c)
 * A known section holds only the entries its method writes; sections this kernelmix does not know are
 * kept as they are (nothing reads them but km_model_data_values). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "mkl/clmkl.h"
#include "mkl/method.h"
#include "train/clmkl_predict.h"
#include "train/model.h"

/* The sizes an entry's shape or bound may name. */
enum { FIXED, KERNELS, TRAIN_ROWS };

/* An entry: rows x cols values (rows 0: the kernel count; cols_of FIXED: cols, KERNELS: the kernel count), each
 * within [lo, hi] (hi_of TRAIN_ROWS: at most the training rows), whole numbers when `whole`. */
typedef struct entry_rule {
    const char *key;
    int required;
    size_t rows;
    int cols_of;
    size_t cols;
    double lo, hi;
    int hi_of;
    int whole;
} entry_rule;

typedef struct check_context {
    const km_model *model;
    const km_record_section *section;
    const char *path;
    km_status failure;
} check_context;

#define ANY -INFINITY, INFINITY, FIXED
#define NONNEGATIVE 0, INFINITY, FIXED
#define POSITIVE DBL_MIN, INFINITY, FIXED

static const entry_rule obscure_rules[] = {
    {"weights", 1, 1, KERNELS, 0, 0, 1, FIXED, 0},
    {"weights_pk", 1, 1, KERNELS, 0, NONNEGATIVE, 0},
    {"q", 0, 1, FIXED, 1, 1, INFINITY, FIXED, 0},
    {"lambda", 0, 1, FIXED, 1, POSITIVE, 0},
    {"eta", 0, 1, FIXED, 1, NONNEGATIVE, 0},
    {"radius", 0, 1, FIXED, 1, -1, INFINITY, FIXED, 0},     /* -1: infinite (Pegasos-MKL) */
    {"objective_online", 0, 1, FIXED, 1, ANY, 0},
    {"objective", 0, 1, FIXED, 1, ANY, 0},
    {"dual", 0, 1, FIXED, 1, ANY, 0},             /* the certificate's dual bound on the objective */
    {"training_error", 0, 1, FIXED, 1, 0, 1, FIXED, 0},
    {"online_epochs", 0, 1, FIXED, 1, NONNEGATIVE, 1},
    {"online_updates", 0, 1, FIXED, 1, NONNEGATIVE, 1},
    {"online_steps", 0, 1, FIXED, 1, NONNEGATIVE, 1},
    {"epochs", 0, 1, FIXED, 1, NONNEGATIVE, 1},
    {"support_rows", 0, 1, FIXED, 1, 0, 0, TRAIN_ROWS, 1},
    {NULL, 0, 0, 0, 0, 0, 0, 0, 0},
};

/* labels: n, ||y - mean y||^2, ||y||^2 (their bounds are checked apart) */
static const entry_rule alignment_rules[] = {
    {"labels", 1, 1, FIXED, 3, NONNEGATIVE, 0},
    {"a", 1, 1, KERNELS, 0, ANY, 0},
    {"b", 1, 1, KERNELS, 0, ANY, 0},
    {"centred_sq", 1, 1, KERNELS, 0, NONNEGATIVE, 0},
    {"frobenius_sq", 1, 1, KERNELS, 0, NONNEGATIVE, 0},
    {"gram", 0, 0, KERNELS, 0, ANY, 0},                   /* rows 0: M x M */
    {"uncentred_gram", 0, 0, KERNELS, 0, ANY, 0},
    {NULL, 0, 0, 0, 0, 0, 0, 0, 0},
};

static const entry_rule input_rules[] = {
    {"csv_fields", 1, 1, FIXED, 1, 1, INT_MAX, FIXED, 1},
    {"csv_label_column", 1, 1, FIXED, 1, 0, INT_MAX, FIXED, 1},   /* 1-based; 0: none */
    {NULL, 0, 0, 0, 0, 0, 0, 0, 0},
};

static km_status refuse(const check_context *c, const char *key, const char *what)
{
    return km_error(c->failure, "%s: [data %s] %s: %s", c->path, c->section->name, key, what);
}

static const km_record_entry *find(const check_context *c, const char *key)
{
    for (size_t e = 0; e < c->section->n_entries; e++)
        if (!strcmp(c->section->entries[e].name, key))
            return &c->section->entries[e];
    return NULL;
}

/* The entry of rule r: its shape and every value's bound. */
static km_status check_entry(const check_context *c, const entry_rule *r)
{
    size_t M = c->model->kernels->size;
    size_t cols = r->cols_of == KERNELS ? M : r->cols, rows = r->rows ? r->rows : M;
    double hi = r->hi_of == TRAIN_ROWS ? (double)c->model->n_train : r->hi;
    km_status st = KM_OK;
    km_record_checked_values(&c->model->data, c->section->name, r->key, rows, cols, r->lo, hi, r->whole, &st);
    return st ? km_error_in(c->path, c->failure) : KM_OK;
}

/* Every entry of the section follows its rule; required ones are present. */
static km_status check_rules(const check_context *c, const entry_rule *rules)
{
    for (size_t e = 0; e < c->section->n_entries; e++) {
        const km_record_entry *entry = &c->section->entries[e];
        const entry_rule *r = rules;
        while (r->key && strcmp(r->key, entry->name))
            r++;
        if (!r->key)
            return refuse(c, entry->name, "not an entry of this section");
        km_status st = check_entry(c, r);
        if (st)
            return st;
    }
    for (const entry_rule *r = rules; r->key; r++)
        if (r->required && !find(c, r->key))
            return check_entry(c, r);   /* says it is missing */
    return KM_OK;
}

/* Whether the model's method keeps the section of c as its own figures (its entry's data_section). */
static int section_of_method(const check_context *c)
{
    const km_mkl_method_entry *method = km_mkl_method_of(c->model->mkl.method);
    return method && method->data_section && !strcmp(method->data_section, c->section->name);
}

static km_status check_clusters(const check_context *c)
{
    const km_mkl_method_entry *method = km_mkl_method_of(c->model->mkl.method);
    if (!(method && method->weight_groups))
        return refuse(c, "memberships", "a clustering in a model whose method keeps none");
    return km_localized_check(c->model, c->path, c->failure);
}

/* Per machine K: neg_log_evidence_K, noise_K >= 0 (sigma^2), kernels_kept_K (the machine's positive
 * kernel weights, as method_eb.c counts them). */
static km_status check_eb(const check_context *c)
{
    const km_model *model = c->model;
    size_t M = model->kernels->size;
    if (!section_of_method(c))
        return refuse(c, c->section->n_entries ? c->section->entries[0].name : "eb",
                      "empirical-Bayes data in a model of another method");
    static const char *const kinds[] = {"neg_log_evidence_", "noise_", "kernels_kept_"};
    for (size_t e = 0; e < c->section->n_entries; e++) {
        const km_record_entry *entry = &c->section->entries[e];
        size_t kind = 0, machine = 0;
        int end = 0;
        while (kind < 3 && strncmp(entry->name, kinds[kind], strlen(kinds[kind])))
            kind++;
        if (kind == 3 || sscanf(entry->name + strlen(kinds[kind]), "%zu%n", &machine, &end) != 1 ||
            entry->name[strlen(kinds[kind]) + (size_t)end] || machine < 1 || machine > model->n_machines)
            return refuse(c, entry->name, "not an entry of a machine of this model");
        entry_rule r = {entry->name, 1, 1, FIXED, 1, ANY, 0};
        if (kind == 1)
            r.lo = 0;
        if (kind == 2) {
            r.lo = 0;
            r.hi = (double)M;
            r.whole = 1;
        }
        km_status st = check_entry(c, &r);
        if (!st && kind == 2) {
            size_t active = 0;
            for (size_t m = 0; m < M; m++)
                active += model->machines[machine - 1].theta[m] > 0;
            if (entry->values[0] != (double)active) {
                char why[120];
                snprintf(why, sizeof why, "%g kernels, but machine %zu has %zu positive kernel weights",
                         entry->values[0], machine, active);
                st = refuse(c, entry->name, why);
            }
        }
        if (st)
            return st;
    }
    return KM_OK;
}

static km_status check_obscure(const check_context *c)
{
    if (!section_of_method(c))
        return refuse(c, "weights", "OBSCURE's data in a model of another method");
    km_status st = check_rules(c, obscure_rules);
    const km_record_entry *w = st ? NULL : find(c, "weights");
    double sum = 0;
    for (size_t m = 0; w && m < w->cols; m++)
        sum += w->values[m];
    if (w && !(fabs(sum - 1) <= 1e-6)) {
        char why[80];
        snprintf(why, sizeof why, "the weights sum to %.17g, not 1", sum);
        st = refuse(c, "weights", why);
    }
    return st;
}

static km_status check_alignment(const check_context *c)
{
    km_status st = check_rules(c, alignment_rules);
    if (st)
        return st;
    const double *labels = find(c, "labels")->values;
    if (!(labels[0] >= 1 && labels[0] <= (double)c->model->n_train && labels[0] == floor(labels[0]))) {
        char why[120];
        snprintf(why, sizeof why, "row count %.17g is not a whole number in [1, %zu] (n_train)", labels[0],
                 c->model->n_train);
        return refuse(c, "labels", why);
    }
    if (!find(c, "gram") != !find(c, "uncentred_gram"))
        return refuse(c, find(c, "gram") ? "uncentred_gram" : "gram", "missing (the other Gram matrix is there)");
    return KM_OK;
}

static km_status check_input(const check_context *c)
{
    km_status st = check_rules(c, input_rules);
    if (!st && find(c, "csv_label_column")->values[0] > find(c, "csv_fields")->values[0])
        st = refuse(c, "csv_label_column", "beyond the fields of a line (csv_fields)");
    return st;
}

static const struct {
    const char *name;
    km_status (*check)(const check_context *c);
} section_checks[] = {
    {KM_CLMKL_SECTION, check_clusters}, {"eb", check_eb},          {"obscure", check_obscure},
    {"target_alignment", check_alignment}, {"input", check_input},
};

km_status km_model_check_data(const km_model *model, const char *path, km_status failure)
{
    const km_record *record = &model->data;
    int clustered = 0;
    for (size_t s = 0; s < record->n_sections; s++) {
        check_context c = {model, &record->sections[s], path, failure};
        for (size_t k = 0; k < sizeof section_checks / sizeof *section_checks; k++) {
            if (strcmp(c.section->name, section_checks[k].name))
                continue;
            km_status st = section_checks[k].check(&c);
            if (st)
                return st;
            clustered |= section_checks[k].check == check_clusters;
        }
    }
    /* a model with several weight groups predicts from its clustering */
    if (!clustered && model->weight_groups > 1)
        return km_localized_check(model, path, failure);
    return KM_OK;
}
