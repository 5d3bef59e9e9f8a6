/* Cells to shards by hash; see shard.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shard.h"
#include "spmvlab/cache.h"
#include "spmvlab/core.h"

int shard_parse(const char *text, int *index, int *count, spmvlab_err *err)
{
    char *end, *slash;
    errno = 0;
    long i = strtol(text, &slash, 10);
    if (slash == text || *slash != '/' || errno)
        return spmvlab_errf(err, "'%s' is not of the form I/N (e.g. 0/4)", text), -1;
    long n = strtol(slash + 1, &end, 10);
    if (end == slash + 1 || *end || errno || n < 1 || n > SHARD_MAX)
        return spmvlab_errf(err, "'%s': the shard count must be a whole number from 1 to %d", text, SHARD_MAX),
               -1;
    if (i < 0 || i >= n)
        return spmvlab_errf(err, "'%s': the index must lie from 0 to %ld (shards are numbered from 0)", text,
                            n - 1),
               -1;
    *index = (int)i;
    *count = (int)n;
    return 0;
}

int shard_of(int count, const char *label, spmvlab_dtype d)
{
    if (count <= 1)
        return 0;
    char key[300];
    int n = snprintf(key, sizeof key, "%s\x1f%s", label, spmvlab_dtype_name(d));
    uint64_t h = spmvlab_hash64(key, (size_t)(n < (int)sizeof key ? n : (int)sizeof key - 1), 0x7368617264);
    return (int)(h % (uint64_t)count);
}

int shard_owns(int index, int count, const char *label, spmvlab_dtype d)
{
    return shard_of(count, label, d) == index;
}
