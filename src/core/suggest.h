/* "Did you mean": the known word nearest to a misspelt one, for the messages about unknown options,
 * kernel spec keys, kernel types and enumeration names. */
#ifndef KM_CORE_SUGGEST_H
#define KM_CORE_SUGGEST_H

#include <stddef.h>

#include "core/names.h"

/* The candidate nearest to word in edit distance (insertions, deletions, substitutions and swaps
 * of neighbouring characters), when it is near enough to be a likely typo: at most one edit per
 * three characters of word, and fewer edits than the candidate has characters. NULL otherwise; ties
 * go to the earlier candidate. NULL entries are skipped. */
const char *km_suggest(const char *word, const char *const *candidates, size_t n);
/* The same over the names (canonical and aliases) of a name table. */
const char *km_suggest_name(const km_name *table, const char *word);
/* "; did you mean 'SUGGESTION'?" into buf, or "" when suggestion is NULL; returns buf. */
const char *km_did_you_mean(const char *suggestion, char *buf, size_t size);

#endif
