/*
 * tilespmv's choice of a tile's storage (Niu et al., IPDPS'21, Section
 * III-B), tested in the paper's order: dense when the tile is mostly full,
 * COO when it holds a handful of entries, dense rows or dense columns when
 * every row (column) is either full or empty, ELL when the row lengths are
 * even, HYB when they vary strongly, CSR otherwise.
 */
#include <math.h>

#include "tilespmv.h"

/* 1 when every count is 0 or full. */
static int all_full_or_empty(const int *count, int n, int full)
{
    for (int i = 0; i < n; i++)
        if (count[i] != 0 && count[i] != full)
            return 0;
    return 1;
}

int tilespmv_rule(const tilespmv_opts *o, const int *len, const int *col_count, int rows, int cols)
{
    int n = 0;
    for (int i = 0; i < rows; i++)
        n += len[i];
    if ((double)n >= o->dense_fill * rows * cols)
        return TILE_DENSE;
    if (n <= o->coo_max)
        return TILE_COO;
    if (all_full_or_empty(len, rows, cols))
        return TILE_DNSROW;
    if (all_full_or_empty(col_count, cols, rows))
        return TILE_DNSCOL;
    /* the coefficient of variation of the row lengths over the tile's rows */
    double mean = (double)n / rows, var = 0;
    for (int i = 0; i < rows; i++)
        var += (len[i] - mean) * (len[i] - mean);
    double variation = sqrt(var / rows) / mean;
    if (variation <= o->ell_variation)
        return TILE_ELL;
    return variation > o->hyb_variation ? TILE_HYB : TILE_CSR;
}
