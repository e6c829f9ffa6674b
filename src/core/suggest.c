/* Nearest known word by optimal-string-alignment distance (Levenshtein with swaps of neighbours). */
#include "core/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest word compared; longer words get no suggestion. */
#define MAX_WORD 64

/* Edit distance of a and b (each at most MAX_WORD characters), with three rows of the usual table. */
static size_t edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
    size_t rows[3][MAX_WORD + 1];
    size_t *before = rows[0], *previous = rows[1], *current = rows[2];
    for (size_t j = 0; j <= nb; j++)
        previous[j] = j;
    for (size_t i = 1; i <= na; i++) {
        current[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t substitute = previous[j - 1] + (a[i - 1] != b[j - 1]);
            size_t remove = previous[j] + 1, insert = current[j - 1] + 1;
            size_t best = substitute < remove ? substitute : remove;
            best = insert < best ? insert : best;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            current[j] = best;
        }
        size_t *oldest = before;
        before = previous;
        previous = current;
        current = oldest;
    }
    return previous[nb];
}

/* Walks n candidates spaced stride bytes apart from first: an array of strings (stride: a pointer)
 * and the name field of a name table (stride: an entry) alike. */
static const char *nearest(const char *word, const char *const *first, size_t n, size_t stride)
{
    size_t len = strlen(word), allowed = len / 3, best_distance = allowed + 1;
    const char *best = NULL;
    if (len > MAX_WORD)
        return NULL;
    for (size_t k = 0; k < n; k++) {
        const char *candidate = *(const char *const *)((const char *)first + k * stride);
        size_t clen = candidate ? strlen(candidate) : 0;
        if (!candidate || clen > MAX_WORD)
            continue;
        size_t d = edit_distance(word, len, candidate, clen);
        if (d < best_distance && d < clen) {
            best_distance = d;
            best = candidate;
        }
    }
    return best;
}

const char *km_suggest(const char *word, const char *const *candidates, size_t n)
{
    return word ? nearest(word, candidates, n, sizeof *candidates) : NULL;
}

const char *km_suggest_name(const km_name *table, const char *word)
{
    size_t n = 0;
    while (table[n].name)
        n++;
    return word ? nearest(word, &table[0].name, n, sizeof *table) : NULL;
}

const char *km_did_you_mean(const char *suggestion, char *buf, size_t size)
{
    if (suggestion)
        snprintf(buf, size, "; did you mean '%s'?", suggestion);
    else if (size)
        buf[0] = '\0';
    return buf;
}
