/*
 * vbr's remainder path (option remainder): how the CSR remainder is summed.
 * - vector: rem_lanes lanes a remainder row (vbr.cu's vector kernel), a
 *   launch beside the block kernel: the parts write disjoint rows;
 * - merge: the merge-path kernels of ../common/merge_path.cuh over the
 *   remainder as a CSR of all rows (a block-part row is an empty row there
 *   and gets 0) write every row of y, then the block kernel adds its rows:
 *   a few very long remainder rows are cut between tiles instead of
 *   holding a warp each while the rest of the device idles;
 * - auto: merge when the remainder rows' lengths vary by more than
 *   MERGE_UNEVEN_ROWS_CV (std / mean over the remainder rows) or a
 *   remainder row is longer than VBR_REMAINDER_MERGE_LEN, else vector.
 * Without remainder entries there is nothing to balance: the path is
 * vector (and without remainder rows there is no remainder launch). The
 * merge pass takes the merge plugin's auto rules (merge_auto_plan), as
 * tilespmv's does: direct products, items from the remainder's size and
 * column locality, the tiles' starts found at convert (vbr_rem_finish).
 */
#include <stdlib.h>

#include "vbr.h"

/* std / mean of the remainder rows' lengths; 0 without remainder entries. */
static double rem_cv(const vbr_count *c)
{
    return merge_length_cv(c->nr, (double)c->rem_nnz, c->rem_sq);
}

void vbr_rem_path(vbr_fmt *f, const spmvlab_matrix *A, const uint8_t *in_block, const vbr_opts *o, vbr_count *c)
{
    f->rem_cv = rem_cv(c);
    if (c->rem_nnz == 0)
        f->rem_merge = 0;
    else if (o->remainder == VBR_REM_AUTO)
        f->rem_merge = f->rem_cv > MERGE_UNEVEN_ROWS_CV || c->rem_max > VBR_REMAINDER_MERGE_LEN;
    else
        f->rem_merge = o->remainder == VBR_REM_MERGE;
    c->merge = f->rem_merge;
    c->scratch = 0;
    if (!f->rem_merge)
        return;
    merge_dev *d = &f->mdev;
    const double share = merge_gather_share(A->rows, A->row_ptr, A->col_idx, in_block, f->dtype == SPMVLAB_F64 ? 4 : 8);
    merge_auto_plan(d, f->dtype, f->rows, f->cols, c->rem_nnz, share);
    c->scratch = (double)merge_scratch_bytes(d, spmvlab_dtype_size(f->dtype));
}

spmvlab_status vbr_rem_finish(vbr_fmt *f, spmvlab_err *err)
{
    if (!f->rem_merge)
        return SPMVLAB_OK;
    const int no_coords = merge_plan_tiles(&f->mdev, f->rptr, &f->mcoords);
    f->s_end = malloc(((size_t)merge_tile_items(f->mdev.items) + 1) * sizeof *f->s_end);
    if (!f->s_end || no_coords)
        return f->ctx->fail(f->ctx, err, SPMVLAB_NOMEM, "out of host memory for the vbr merge pass");
    return SPMVLAB_OK;
}
