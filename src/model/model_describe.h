/* What the layers above ask of a model's kernel-weight method (its entry in src/mkl/method.h) without
 * naming methods: its flags, the description `kernelmix info` prints, its regularization-path
 * parameter. */
#ifndef KM_MODEL_MODEL_DESCRIBE_H
#define KM_MODEL_MODEL_DESCRIBE_H

#include <stddef.h>
#include <stdio.h>

#include "kernelmix.h"
#include "mkl/method.h"

/* The KM_METHOD_* flags of the model's method. */
unsigned km_model_method_flags(const km_model *model);
/* Writes part `part` of the description of the model's method to out: JSON members (json) or text;
 * `machine` is the machine of KM_DESCRIBE_MACHINE (nothing for one the model does not have). */
void km_model_method_describe(const km_model *model, km_describe_part part, size_t machine, int json, FILE *out);
/* The parameter a regularization path of the model's method runs over (km_plot_path) and its axis
 * title in *title; 0 when it has none. */
km_param km_model_path_parameter(const km_model *model, const char **title);

#endif
