#include "train/multiclass.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

void km_classes_clear(km_classes *classes)
{
    free(classes->labels);
    free(classes->class_of);
    free(classes->count);
    memset(classes, 0, sizeof *classes);
}

km_status km_classes_find(const double *labels, size_t n, km_classes *classes)
{
    memset(classes, 0, sizeof *classes);
    size_t capacity = 16;
    classes->labels = malloc(capacity * sizeof *classes->labels);
    classes->count = malloc(capacity * sizeof *classes->count);
    classes->class_of = malloc((n ? n : 1) * sizeof *classes->class_of);
    if (!classes->labels || !classes->count || !classes->class_of) {
        km_classes_clear(classes);
        return km_error_nomem("class labels");
    }
    for (size_t i = 0; i < n; i++) {
        size_t c = 0;
        while (c < classes->n_classes && classes->labels[c] != labels[i])
            c++;
        if (c == classes->n_classes) {
            if (c == capacity) {
                capacity *= 2;
                double *l = realloc(classes->labels, capacity * sizeof *l);
                if (l)
                    classes->labels = l;
                size_t *k = realloc(classes->count, capacity * sizeof *k);
                if (k)
                    classes->count = k;
                if (!l || !k) {
                    km_classes_clear(classes);
                    return km_error_nomem("class labels");
                }
            }
            classes->labels[c] = labels[i];
            classes->count[c] = 0;
            classes->n_classes++;
        }
        classes->class_of[i] = c;
        classes->count[c]++;
    }
    /* LIBSVM: a -1/+1 problem where -1 comes first is swapped so that +1 is the positive class */
    if (classes->n_classes == 2 && classes->labels[0] == -1 && classes->labels[1] == +1) {
        classes->labels[0] = +1;
        classes->labels[1] = -1;
        size_t t = classes->count[0];
        classes->count[0] = classes->count[1];
        classes->count[1] = t;
        for (size_t i = 0; i < n; i++)
            classes->class_of[i] = 1 - classes->class_of[i];
    }
    return KM_OK;
}

size_t km_binary_problem_count(size_t n_classes, km_multiclass scheme)
{
    if (n_classes == 2 || scheme == KM_MULTICLASS_JOINT)
        return 1;
    return scheme == KM_MULTICLASS_OVR ? n_classes : n_classes * (n_classes - 1) / 2;
}

km_binary_problem km_binary_problem_at(size_t n_classes, km_multiclass scheme, size_t p)
{
    km_binary_problem problem = {0, 1};
    if (n_classes == 2)
        return problem;
    if (scheme == KM_MULTICLASS_OVR || scheme == KM_MULTICLASS_JOINT) {
        problem.class_pos = (int)p;
        problem.class_neg = -1;
        return problem;
    }
    for (size_t i = 0; i + 1 < n_classes; i++) {
        size_t pairs = n_classes - 1 - i;
        if (p < pairs) {
            problem.class_pos = (int)i;
            problem.class_neg = (int)(i + 1 + p);
            return problem;
        }
        p -= pairs;
    }
    return problem;
}

size_t km_multiclass_vote(size_t n_classes, km_multiclass scheme, const double *decision, size_t *votes)
{
    if (n_classes == 2)
        return decision[0] > 0 ? 0 : 1;
    size_t best = 0;
    if (scheme == KM_MULTICLASS_OVR || scheme == KM_MULTICLASS_JOINT) {
        for (size_t c = 1; c < n_classes; c++)
            if (decision[c] > decision[best])
                best = c;
        return best;
    }
    memset(votes, 0, n_classes * sizeof *votes);
    size_t p = 0;
    for (size_t i = 0; i + 1 < n_classes; i++)
        for (size_t j = i + 1; j < n_classes; j++, p++)
            votes[decision[p] > 0 ? i : j]++;
    for (size_t c = 1; c < n_classes; c++)
        if (votes[c] > votes[best])
            best = c;
    return best;
}
