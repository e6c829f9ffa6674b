/* The library internals the command-line tool uses beyond the public API (include/kernelmix.h): the
 * only header of src/ that a file of cli/ may include (tests/arch/check_layers.py). The shared library
 * does not export these functions; the tool links the static library. Each line says what cli/ takes
 * from the header it includes. */
#ifndef KM_CLI_INTERNALS_H
#define KM_CLI_INTERNALS_H

#include "kernelmix.h"

/* output files that appear under their final name only when complete, published alone or together
 * (km_atomic_open, _write, _commit, _finish, _publish_all, _abort, _remove_temporaries) */
#include "core/atomic_file.h"
/* the message km_last_error() gives for a failure the tool finds itself (km_error, _in, _nomem) */
#include "core/error.h"
/* numbers as users write them, 2^-3 or 1e-3 (km_parse_user_number, km_number_problem) */
#include "core/number.h"
/* "did you mean" for a mistyped subcommand or option (km_suggest, km_did_you_mean) */
#include "core/suggest.h"
/* scale's pass over the stored nonzeros of sparse rows (km_dataset's fields, km_dataset_make_sparse) */
#include "data/dataset.h"
/* kernel's matrices published together (km_matrix_writable, km_matrix_write_to) */
#include "data/matrix.h"
/* reading plot's and scale's text files, "-" for standard input (km_open_input, km_input_name,
 * km_line_reader, km_grow) */
#include "data/text_input.h"
/* the processes of an MPI job: cv's ranks agree, read inputs once and print on rank 0 (km_dist_*);
 * inputs read from another rank's copy (km_input_provide, in data/text_input.h above) */
#include "dist/dist.h"
/* the learning bounds of `kernelmix bound` (km_bound_*) */
#include "eval/learning_bounds.h"
/* train's --help: the kernel-weight methods' names, paragraphs and options (km_mkl_method_at, _of) */
#include "mkl/method.h"
/* info's description of a model's method (km_model_method_describe, km_model_method_flags) */
#include "model/model_describe.h"
/* the options that set parameters, from the parameter table (km_params_set_text_as,
 * km_param_is_method_param) */
#include "train/param_table.h"
/* predict's checks of test rows, train's of labels (km_check_targets, km_model_test_coverage,
 * km_label_doubt_of) */
#include "train/input_checks.h"
/* predict's model side computed once for its ranges (km_prediction_prep_new, km_predict_range_prepared) */
#include "train/train.h"

#endif
