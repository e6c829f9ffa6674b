/* What `kernelmix info` shows of a kernel-weight method: the parts a method entry's describe writes
 * (mkl/method.h), what it is given, and the pieces the methods' descriptions share (describe.c). */
#ifndef KM_MKL_DESCRIBE_H
#define KM_MKL_DESCRIBE_H

#include <stddef.h>
#include <stdio.h>

#include "core/record.h"
#include "mkl/mkl_params.h"
#include "kernelmix.h"

/* The part of a method's description that `kernelmix info` asks for (km_mkl_describe). */
typedef enum km_describe_part {
    KM_DESCRIBE_SETTINGS,   /* text: what follows "kernel weights" on its line, with the line's end;
                               JSON: the members of "mkl" after "method", each ", \"key\": value" */
    KM_DESCRIBE_MACHINE,    /* what one machine's weights are beyond themselves (the Tikhonov form's
                               Ivanov equivalent): text lines, or JSON members of the machine's object */
    KM_DESCRIBE_LEARNED     /* the method's own figures from the model's record (OBSCURE's stages): text
                               lines after the machines, or JSON members of "mkl" after the settings */
} km_describe_part;

/* What a describe function is given: the part, the format and stream, and the model's values. */
typedef struct km_mkl_description {
    km_describe_part part;
    int json;                   /* 1: JSON members; 0: text */
    FILE *out;
    const km_mkl_params *mkl;   /* the model's kernel-weight learning (method, its parameters) */
    double C;                   /* the machines' loss weight */
    size_t M;                   /* kernels */
    const double *theta;        /* KM_DESCRIBE_MACHINE: the machine's M kernel weights */
    const km_record *record;    /* the model's data sections (core/record.h) */
} km_mkl_description;

/* Writes part d->part of the description of the method d->mkl->method (its entry's describe). */
void km_mkl_describe(const km_mkl_description *d);
/* The description of the lp-norm form: "NAME MKL, p = .. (p-block ..), SOLVER solver, target gap .."; its
 * JSON settings p, p_block, solver, target_gap and shared_weights. With `lambda`: also the elastic net's
 * lambda. */
void km_mkl_describe_lp(const km_mkl_description *d, int lambda);
/* Pieces of descriptions: the settings every learned method has in JSON, p and p_block ... */
void km_describe_json_p(const km_mkl_description *d);
/* ... and solver, target_gap, shared_weights; a member "key": value (JSON null when not finite). */
void km_describe_json_solver(const km_mkl_description *d);
void km_describe_json_member(const km_mkl_description *d, const char *key, double value);
/* A JSON array of n numbers. */
void km_describe_json_array(const km_mkl_description *d, const double *values, size_t n);
/* The name of value `value` of enumeration e, "unknown" for a value without one. */
const char *km_describe_name(km_enum e, int value);
/* The alignment and KRR methods' description: "NAME (Cortes, Mohri & Rostamizadeh), radius R" and, in
 * JSON, p, p_block, solver, target_gap, shared_weights and radius. km_mkl_describe_alignment ends the
 * text line; a method with more settings writes them after km_mkl_describe_alignment_head, then the
 * line's end. */
void km_mkl_describe_alignment(const km_mkl_description *d);
void km_mkl_describe_alignment_head(const km_mkl_description *d);

#endif
