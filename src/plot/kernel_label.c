#include "plot/kernel_label.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of key= in the canonical spec (up to the next ':'), into buf; 0 when absent. */
static int spec_value(const char *spec, const char *key, char *buf, size_t size)
{
    size_t k = strlen(key);
    for (const char *at = strchr(spec, ':'); at; at = strchr(at + 1, ':'))
        if (!strncmp(at + 1, key, k) && at[1 + k] == '=') {
            const char *v = at + 2 + k, *end = strchr(v, ':');
            size_t n = end ? (size_t)(end - v) : strlen(v);
            snprintf(buf, size, "%.*s", (int)n, v);
            return 1;
        }
    return 0;
}

void km_kernel_label_of(const km_model *model, size_t m, km_kernel_label *out)
{
    char spec[1024], value[64], features[64];
    km_model_kernel_describe(model, m, spec, sizeof spec);
    size_t family = strcspn(spec, ":");
    snprintf(out->family, sizeof out->family, "%.*s", (int)family, spec);
    int subset = spec_value(spec, "features", features, sizeof features);
    if (subset)
        snprintf(out->group, sizeof out->group, "%.*s features=%s", (int)family, spec, features);
    else
        snprintf(out->group, sizeof out->group, "%.*s", (int)family, spec);
    out->value[0] = '\0';
    out->number = NAN;
    if (spec_value(spec, "gamma", value, sizeof value) && !strncmp(spec, "rbf", family)) {
        out->number = strtod(value, NULL);
        snprintf(out->value, sizeof out->value, "\xce\xb3=%.3g", out->number);
    } else if (spec_value(spec, "degree", value, sizeof value)) {
        out->number = strtod(value, NULL);
        snprintf(out->value, sizeof out->value, "degree %.3g", out->number);
    } else if (spec_value(spec, "k", value, sizeof value)) {
        out->number = strtod(value, NULL);
        snprintf(out->value, sizeof out->value, "k=%.40s", value);
    }
    if (out->value[0] && !subset)
        snprintf(out->short_name, sizeof out->short_name, "%s", out->value);
    else
        snprintf(out->short_name, sizeof out->short_name, "%s%s%s", out->group, out->value[0] ? " " : "", out->value);
    snprintf(out->full, sizeof out->full, "%zu: %s%s%s", m + 1, out->group, out->value[0] ? " " : "", out->value);
}
