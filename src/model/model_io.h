/* Model files: the text format read by km_model_load and written by km_model_save. */
#ifndef KM_MODEL_MODEL_IO_H
#define KM_MODEL_MODEL_IO_H

#include <stddef.h>
#include <stdint.h>

#include "train/model.h"

#define KM_MODEL_FORMAT_VERSION 1

/* ------------------------------------------------------------------------------------------------
 * Model file format (text, version KM_MODEL_FORMAT_VERSION), one "key value" per line:
 *
 *   kernelmix-model 1
 *   task svc|svr|oneclass          multiclass ovo|ovr       C, epsilon, nu, tolerance (doubles)
 *   n_train N      n_classes K     labels L_1 .. L_K        n_kernels M      kernel_dimension D
 *   n_machines P
 *   M kernel blocks: kernel m (0-based), type, gamma, gamma_mode absolute|relative, coef0, degree,
 *     features all|COUNT i_1 .. i_COUNT (1-based), norm none|mult|spherical|trace, center, file none|"NAME"
 *     (C-style escapes \\ \" \xHH), fitted, scale, mean_all, n_train N_m, col_mean none|v_1 .. v_N_m
 *   optional (learned kernel weights): target_alignment (M values), kernel_alignment (M x M, row-major)
 *   P machine blocks: machine p (0-based), theta (M values), bias, objective, iterations, converged,
 *     [MKL: primal, gap, mkl_iterations, optional block_norms (M values)],
 *     class_pos, class_neg, n_sv S, then S lines "INDEX COEF" (0-based basis row, ascending)
 *   basis_rows B, basis_dim, basis_storage dense|sparse, basis_labels 0|1, basis_ids 0|1, then B lines
 *     "KCOL [LABEL] [ID] FEATURES" with FEATURES the basis_dim values (dense) or "i:v" pairs (sparse,
 *     1-based ascending indices)
 *   checksum crc32 XXXXXXXX        CRC-32 (IEEE 802.3) of every byte before this line, 8 lowercase hex
 *
 * Doubles are written with %.17g, so that reading a file reproduces every value bit for bit and
 * writing it again reproduces the file byte for byte. Non-finite values are rejected both ways.
 * ---------------------------------------------------------------------------------------------- */

#define KM_MODEL_MAGIC "kernelmix-model"

/* CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of n bytes, continuing from crc
 * (0 to start): km_crc32(km_crc32(0, a, n), b, m) is the CRC of a followed by b. */
uint32_t km_crc32(uint32_t crc, const void *data, size_t n);

#endif
