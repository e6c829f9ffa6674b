/* Model files: the text format read by km_model_load and written by km_model_save, and the same bytes
 * in memory (km_model_load_buffer, km_model_save_buffer). */
#ifndef KM_MODEL_MODEL_IO_H
#define KM_MODEL_MODEL_IO_H

#include <stddef.h>
#include <stdint.h>

#include "model/model_text.h"
#include "train/model.h"

#define KM_MODEL_FORMAT_VERSION 3

/* ------------------------------------------------------------------------------------------------
 * Model file format, version 3 (text). The first line is "kernelmix-model 3", the last
 * "checksum crc32 XXXXXXXX": the CRC-32 (IEEE 802.3) of every byte before that line, 8 lowercase hex.
 * Between them, sections: a header line "[NAME]" or "[NAME ARG]", then lines "KEY VALUE ..." in any
 * order, each key at most once. A key whose second token is "rows" opens a block: "KEY rows N ..."
 * is followed by N lines that belong to it. Readers skip keys and sections they do not know (with
 * their blocks), so later versions can add optional content; a key or section name starting with '!'
 * is required content, and a reader that does not know it refuses the file.
 *
 *   [model]         task svc|svr|oneclass, multiclass ovo|ovr, C, epsilon, nu, tolerance,
 *                   n_train N (training rows: columns of precomputed test kernels), labels none|L_1 ..
 *                   L_K (the classes in model order), n_kernels M, kernel_dimension D (0: unknown),
 *                   n_machines P, weight_groups G (kernel-weight sets per machine; optional, 1),
 *                   optional MKL diagnostics target_alignment (M values), kernel_alignment (M x M)
 *   [mkl]           learned kernel weights (absent: fixed weights): method NAME (--mkl's), then the
 *                   parameters its method-table entry lists (km_mkl_method_entry.params), each under
 *                   its parameter name (km_param_name) with its value as km_params_set_text reads it
 *                   and checked against the same bounds; one not present keeps its default (a value
 *                   that does not exist, lp's p of a block norm above 2, is not written: without p,
 *                   p follows from p_block)
 *   [kernel m]      m = 0 .. M-1: type, gamma, gamma_mode absolute|relative, coef0, degree,
 *                   features all|COUNT i_1 .. i_COUNT (1-based ascending), norm none|mult|spherical|trace,
 *                   center 0|1, file none|"NAME" (C-style escapes \\ \" \xHH), fitted 0|1, scale,
 *                   mean_all, col_mean none|v_1 .. v_N (centring: column means over the N training rows)
 *   [machine p]     p = 0 .. P-1: theta (M x G values, group by group), outputs K (optional, 1),
 *                   bias (K values), objective, iterations, converged 0|1, class_pos, class_neg,
 *                   with learned weights primal, gap, mkl_iterations and optional block_norms (M values),
 *                   support_vectors rows S: S lines "INDEX C_1 .. C_K" (0-based basis rows, ascending)
 *   [probability]   optional, the probability models of -b 1 (train/probability.h): classification
 *                   sigmoid_a and sigmoid_b (P values each: P(class_pos | f) = 1/(1 + exp(A f + B))),
 *                   regression laplace_sigma (>= 0); absent in one-class models
 *   [data NAME]     method-specific data (train/model.h, km_model_set_values): "KEY rows R C" and R
 *                   lines of C values, or "KEY text "TEXT"" (escaped as file names)
 *   [basis]         storage dense|sparse, dim D, labels 0|1, ids 0|1,
 *                   vectors rows B: B lines "KCOL [LABEL] [ID] FEATURES", FEATURES the D values (dense)
 *                   or "i:v" pairs (sparse, 1-based ascending indices)
 *
 * Doubles are written with %.17g, so that reading a file reproduces every value bit for bit and
 * writing it again reproduces the file byte for byte. Non-finite values are refused both ways. Every
 * value is checked on reading as strictly as training checks it (km_model_validate): counts must fit
 * in the file before anything is allocated for them.
 *
 * Version 2 (still read by the same reader): [mkl] had a fixed set of keys, method, p_block, lambda,
 * solver, gap, shared_weights; tikhonov regularizer and reg_param; the alignment and KRR methods radius,
 * align-q align_q, l2krr eta and mu0 (the keys solver, gap, radius and eta are the parameters
 * mkl_solver, mkl_gap, mkl_radius and l2krr_eta).
 *
 * Version 1 (still read, model_load_v1.c): the same values as "key value" lines in a fixed order
 * without section headers; keys task .. tolerance, mkl [mkl_p_block mkl_lambda mkl_solver mkl_gap
 * [mkl_regularizer [mkl_reg_param]] [mkl_shared_weights]], n_train, n_classes, labels, n_kernels,
 * kernel_dimension, n_machines; per kernel "kernel m" then type .. scale, mean_all, n_train, col_mean;
 * optional target_alignment, kernel_alignment; per machine "machine p", theta, bias, objective,
 * iterations, converged, [primal gap mkl_iterations [block_norms]], class_pos, class_neg, n_sv and
 * its lines; basis_rows, basis_dim, basis_storage, basis_labels, basis_ids and the rows.
 * ---------------------------------------------------------------------------------------------- */

#define KM_MODEL_MAGIC "kernelmix-model"

/* Versions 1 and 2 stored the block-norm exponent p_block alone: the kernel-weight norm
 * p = p_block/(2 - p_block), which exists for p_block <= 2 (Kloft's thesis Problem II.4; NAN above). */
double km_model_p_of_block(double p_block);

/* CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of n bytes, continuing from crc
 * (0 to start): km_crc32(km_crc32(0, a, n), b, m) is the CRC of a followed by b. */
uint32_t km_crc32(uint32_t crc, const void *data, size_t n);

/* The bodies of the versions (1; 2 and 3) (between the header and the checksum lines) into a zeroed model. */
km_status km_model_read_v1(km_text_reader *r, km_model *model);
km_status km_model_read_sections(km_text_reader *r, km_model *model);

/* Checks the values a model read from a file holds, as training checks the same values (kernel
 * parameters, normalization constants, training parameters, weights), and derives what files do not
 * store (p from p_block). file_size bounds a sparse basis's dimension. KM_EFORMAT "PATH: ...". */
km_status km_model_validate(km_model *model, const char *path, size_t file_size);

#endif
