/* Canonical kernel specs: every parameter of the type, the feature subset as ranges, normalization,
 * and fitted values, written so that km_kernel_set_add_spec reads back the same kernel. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/names.h"
#include "kernel/kernel.h"
#include "kernel/kernel_eval.h"
#include "kernel/kernel_family.h"

typedef struct text {
    char *buf;
    size_t size;
    size_t length;      /* full length, may exceed size */
} text;

static void append(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = t->length < t->size ? t->size - t->length : 0;
    int n = vsnprintf(room ? t->buf + t->length : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->length += (size_t)n;
}

/* Shortest %g form that reads back as the same double. */
static void append_number(text *t, double value)
{
    char s[40];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(s, sizeof s, "%.*g", digits, value);
        if (strtod(s, NULL) == value)
            break;
    }
    append(t, "%s", s);
}

static void append_features(text *t, const uint32_t *features, size_t n)
{
    append(t, ":features=");
    for (size_t k = 0; k < n;) {
        size_t end = k;
        while (end + 1 < n && features[end + 1] == features[end] + 1)
            end++;
        append(t, k ? ",%u" : "%u", features[k] + 1);
        if (end > k)
            append(t, "-%u", features[end] + 1);
        k = end + 1;
    }
}

static const char *norm_name(km_normalization norm)
{
    switch (norm) {
    case KM_NORM_MULTIPLICATIVE: return "mult";
    case KM_NORM_SPHERICAL: return "spherical";
    case KM_NORM_TRACE: return "trace";
    case KM_NORM_NONE: break;
    }
    return "none";
}

size_t km_kernel_describe(const km_kernel *k, char *buf, size_t size)
{
    text t = {buf, size, 0};
    if (size)
        buf[0] = '\0';
    const km_kernel_family *family = km_kernel_family_of(k->type);
    append(&t, "%s", family ? km_kernel_type_name(k->type) : "unknown");
    unsigned params = family ? family->params : 0;
    if (params & KM_SPEC_GAMMA) {
        append(&t, ":gamma=");
        if (k->gamma_mode == KM_GAMMA_RELATIVE) {
            append_number(&t, k->gamma);
            append(&t, "/mean");
        } else if (k->gamma > 0) {
            append_number(&t, k->gamma);
        } else {
            append(&t, "auto");
        }
    }
    if (params & KM_SPEC_DEGREE) {
        append(&t, ":degree=");
        append_number(&t, k->degree);
    }
    if (params & KM_SPEC_COEF0) {
        append(&t, ":coef0=");
        append_number(&t, k->coef0);
    }
    if (params & KM_SPEC_KMER)
        append(&t, ":k=%zu", k->kmer);
    if ((params & KM_SPEC_SHIFT) && k->shift)
        append(&t, ":shift=%zu", k->shift);
    if (k->features)
        append_features(&t, k->features, k->n_features);
    if (k->norm != KM_NORM_NONE)
        append(&t, ":norm=%s", norm_name(k->norm));
    if (k->center)
        append(&t, ":center=1");
    if ((k->norm == KM_NORM_MULTIPLICATIVE || k->norm == KM_NORM_TRACE) && k->scale > 0) {
        append(&t, ":scale=");
        append_number(&t, k->scale);
    }
    if (k->file)
        append(&t, ":file=%s", k->file);
    if (k->rank)
        append(&t, ":rank=%zu", k->rank);
    if (k->icd_tolerance > 0) {
        append(&t, ":icd=");
        append_number(&t, k->icd_tolerance);
    }
    if (k->landmark_sampling != KM_LANDMARKS_UNIFORM)
        append(&t, ":sampling=%s", km_name_of(km_landmark_sampling_names, (int)k->landmark_sampling));
    return t.length;
}

size_t km_kernel_set_describe(const km_kernel_set *set, size_t m, char *buf, size_t size)
{
    if (m >= set->size) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    return km_kernel_describe(&set->kernels[m], buf, size);
}

km_status km_kernel_error(const km_kernel *k, const char *fmt, ...)
{
    char name[256], message[512];
    km_kernel_describe(k, name, sizeof name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    return km_error(KM_EINVAL, "kernel %s: %s", name, message);
}
