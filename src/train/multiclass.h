/* Classes of a labelled dataset and the binary problems of one-vs-one / one-vs-rest. */
#ifndef KM_TRAIN_MULTICLASS_H
#define KM_TRAIN_MULTICLASS_H

#include <stddef.h>

#include "kernelmix.h"

typedef struct km_classes {
    size_t n_classes;
    double *labels;         /* distinct labels in LIBSVM's order (first appearance; binary -1/+1 as +1, -1) */
    size_t *class_of;       /* per row: index into labels */
    size_t *count;          /* rows per class */
} km_classes;

/* Groups n labels into classes. */
km_status km_classes_find(const double *labels, size_t n, km_classes *classes);
void km_classes_clear(km_classes *classes);

/* One binary problem: rows of class_pos get y = +1, the others (class_neg, or every other class when
 * class_neg < 0) y = -1. */
typedef struct km_binary_problem {
    int class_pos;
    int class_neg;
} km_binary_problem;

/* Number of binary problems for k classes: 1 for k = 2, k(k-1)/2 for one-vs-one, k for one-vs-rest;
 * joint: 1 (one machine with k outputs, class_pos 0 and class_neg -1). */
size_t km_binary_problem_count(size_t n_classes, km_multiclass scheme);
/* The p-th binary problem (LIBSVM's pair order for one-vs-one: (0,1), (0,2), ..., (1,2), ...). */
km_binary_problem km_binary_problem_at(size_t n_classes, km_multiclass scheme, size_t p);

/* Class index predicted from the decision values of all binary problems (one-vs-one: votes, ties
 * to the lower class index as LIBSVM; one-vs-rest and joint: largest decision value, ties to the lower
 * class index). */
size_t km_multiclass_vote(size_t n_classes, km_multiclass scheme, const double *decision, size_t *votes);

#endif
