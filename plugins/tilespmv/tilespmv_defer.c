/*
 * tilespmv's deferred path (option deferred): how the deferred CSR part
 * (dptr, dcol, dval) is summed.
 * - fused: inside the chunk kernel, `lanes` lanes a row of a WHOLE chunk
 *   (tilespmv_plan.c), so y is written once;
 * - merge: as the paper's program does with CSR5, by a load-balanced CSR
 *   SpMV first: the merge-path kernels of ../common/merge_path.cuh over all
 *   rows write every row of y (0 where nothing is deferred), then the chunk
 *   kernel adds the tiles;
 * - auto: merge when the deferred rows' lengths vary by more than
 *   MERGE_UNEVEN_ROWS_CV (std / mean over the rows with any deferred
 *   entry) or, when at least half the entries are deferred, at least
 *   TILESPMV_IDLE_ROWS of the rows have no deferred entry (their lanes
 *   idle in the fused chunks), else fused.
 * With nothing deferred there is nothing to balance: the path is fused.
 * The merge pass takes the merge plugin's auto rules (merge_auto_plan):
 * direct products, items from the deferred part's size and column
 * locality, the tiles' starts found here, at convert.
 */
#include <stdlib.h>

#include "tilespmv.h"

/* std / mean of the deferred row lengths over the rows with at least one
 * deferred entry (0 when there are none) into f->defer_cv, and the share
 * of rows without a deferred entry into f->idle_share. */
static void defer_rows(tilespmv_fmt *f)
{
    int64_t n = 0;
    double sum = 0, sq = 0;
    for (int32_t r = 0; r < f->rows; r++) {
        const double len = (double)(f->dptr[r + 1] - f->dptr[r]);
        n += len > 0;
        sum += len;
        sq += len * len;
    }
    f->defer_cv = merge_length_cv(n, sum, sq);
    f->idle_share = f->rows ? (double)(f->rows - n) / f->rows : 0;
}

/* The merge pass over the deferred CSR: shape, auto rules, the tiles'
 * starts (into f->mcoords when the search is at convert) and the fix-up.
 * Returns -1 when the starts cannot be allocated. */
static int merge_shape(tilespmv_fmt *f)
{
    merge_dev *d = &f->mdev;
    const double share = merge_gather_share(f->rows, f->dptr, f->dcol, NULL, f->dtype == SPMVLAB_F64 ? 4 : 8);
    merge_auto_plan(d, f->dtype, f->rows, f->cols, f->ndef, share);
    return merge_plan_tiles(d, f->dptr, &f->mcoords);
}

spmvlab_status tilespmv_defer(tilespmv_fmt *f, const tilespmv_opts *o, spmvlab_err *err)
{
    defer_rows(f);
    if (f->ndef == 0)
        f->path = TILESPMV_DEFER_FUSED;
    else if (o->deferred == TILESPMV_DEFER_AUTO)
        f->path = f->defer_cv > MERGE_UNEVEN_ROWS_CV || (f->idle_share >= TILESPMV_IDLE_ROWS &&
                                                         2 * (int64_t)f->ndef >= f->nnz)
                      ? TILESPMV_DEFER_MERGE
                      : TILESPMV_DEFER_FUSED;
    else
        f->path = o->deferred;
    if (f->path != TILESPMV_DEFER_MERGE)
        return SPMVLAB_OK;
    const int shaped = merge_shape(f);
    f->s_end = malloc(((size_t)merge_tile_items(f->mdev.items) + 1) * sizeof *f->s_end);
    if (shaped != 0 || !f->s_end)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the tilespmv merge pass");
    return SPMVLAB_OK;
}
