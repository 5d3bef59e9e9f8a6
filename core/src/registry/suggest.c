/*
 * "Did you mean": the known name closest to a mistyped one, by edit
 * distance (insertions, deletions, substitutions and swaps of neighbours),
 * for unknown INI sections, plugins, options, commands, flags, baseline
 * labels and set names alike, and the hint every refusal ends with.
 */
#include <stdio.h>
#include <string.h>

#include "spmvlab/core.h"

#define SUGGEST_MAX_LEN 64

/* Optimal string alignment distance of a and b, or SUGGEST_MAX_LEN when
 * either is too long to be a typo of a name. */
static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n >= SUGGEST_MAX_LEN || m >= SUGGEST_MAX_LEN)
        return SUGGEST_MAX_LEN;
    int d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *spmvlab_closest_name(const char *word, const char *const *names, int n)
{
    /* A third of the word's length, at least one edit and at most three:
     * beyond that the names are different words, not typos. */
    int limit = (int)strlen(word) / 3;
    limit = limit < 1 ? 1 : limit > 3 ? 3 : limit;
    const char *best = NULL;
    int best_d = limit + 1;
    for (int i = 0; i < n; i++) {
        if (!names[i] || strcmp(names[i], word) == 0)
            continue;
        int d = edit_distance(word, names[i]);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

const char *spmvlab_did_you_mean(const char *word, const char *const *names, int n, char *hint, size_t len)
{
    const char *near = spmvlab_closest_name(word, names, n);
    if (near)
        snprintf(hint, len, " (did you mean '%s'?)", near);
    else if (len)
        hint[0] = '\0';
    return hint;
}
