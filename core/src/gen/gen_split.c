/* The fixed split of a set's members into a tuning part and a held-out
 * part, by a hash of the member name alone: adding, removing or reordering
 * members never moves another member between the parts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

spmvlab_part spmvlab_split_part(const char *name)
{
    /* A derived matrix (NAME@rcm, NAME@rcm+call) is its source's member:
     * a permuted copy of a tuning matrix must not be held out. */
    char source[256];
    const char *at = strchr(name, '@');
    if (at) {
        snprintf(source, sizeof source, "%.*s", (int)(at - name), name);
        name = source;
    }
    /* FNV-1a, then splitmix64's finaliser so that names differing in one
     * trailing character land independently. */
    uint64_t h = gen_salt(name);
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    return h % 3 == 0 ? SPMVLAB_PART_HELDOUT : SPMVLAB_PART_TUNE;
}

void spmvlab_set_keep_part(spmvlab_set *s, spmvlab_part part)
{
    int kept = 0;
    for (int i = 0; i < s->count; i++)
        if (spmvlab_split_part(s->entries[i].name) == part)
            s->entries[kept++] = s->entries[i];
    s->count = kept;
}
