/* "Did you mean": the nearest known word within one edit per three characters (insertions,
 * deletions, substitutions, swaps of neighbours), ties to the earlier candidate, and the phrase. */
#include <string.h>

#include "check.h"
#include "core/suggest.h"
#include "mkl/mkl_names.h"

static const char *const options[] = {"-c", "--C", "--gamma", "--kernel", "--kernels", "--verbose", "--mkl-eps",
                                      "--mkl-step-eps"};
#define N_OPTIONS (sizeof options / sizeof options[0])

static int suggests(const char *word, const char *expected)
{
    const char *got = km_suggest(word, options, N_OPTIONS);
    return expected ? got && !strcmp(got, expected) : got == NULL;
}

KM_TEST_CASE(one_edit_of_each_kind)
{
    CHECK(suggests("--gama", "--gamma"));        /* deletion */
    CHECK(suggests("--gammma", "--gamma"));      /* insertion */
    CHECK(suggests("--kernal", "--kernel"));     /* substitution, nearer than --kernels */
    CHECK(suggests("--verbsoe", "--verbose"));   /* swap of neighbours: one edit */
    CHECK(suggests("--mkl-eps", "--mkl-eps"));   /* distance 0 */
    CHECK(suggests("--mkl-step-ep", "--mkl-step-eps"));
}

KM_TEST_CASE(too_far_is_no_suggestion)
{
    CHECK(suggests("-x", NULL));                 /* two characters allow no edit */
    CHECK(suggests("--zzzzz", NULL));
    CHECK(suggests("--gxmmx", "--gamma"));       /* 7 characters: two edits */
    CHECK(suggests("--gxxmx", NULL));            /* three */
    CHECK(km_suggest(NULL, options, N_OPTIONS) == NULL);
    CHECK(km_suggest("--gama", options, 0) == NULL);
    const char *const with_null[] = {NULL, "--gamma"};
    CHECK(!strcmp(km_suggest("--gama", with_null, 2), "--gamma"));
}

/* A one-character candidate is never suggested for a different word (every word is one edit away). */
KM_TEST_CASE(short_candidates)
{
    const char *const letters[] = {"a", "b"};
    CHECK(km_suggest("abc", letters, 2) == NULL);
    const char *const ties[] = {"-c", "-C"};
    CHECK(!strcmp(km_suggest("--c", ties, 2), "-c"));
}

KM_TEST_CASE(name_tables_and_phrase)
{
    CHECK(!strcmp(km_suggest_name(km_kernel_type_names, "rfb"), "rbf"));
    CHECK(!strcmp(km_suggest_name(km_kernel_type_names, "polly"), "poly"));
    CHECK(!strcmp(km_suggest_name(km_normalization_names, "multiplicativ"), "multiplicative")); /* an alias */
    CHECK(km_suggest_name(km_mkl_method_name_table(), "simplex") == NULL);
    char buf[64];
    CHECK(!strcmp(km_did_you_mean("rbf", buf, sizeof buf), "; did you mean 'rbf'?"));
    CHECK(!strcmp(km_did_you_mean(NULL, buf, sizeof buf), ""));
    CHECK(!strcmp(km_did_you_mean("rbf", buf, 8), "; did y"));
}
