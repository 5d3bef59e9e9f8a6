/*
 * merge on the CPU: the kernels' decomposition from the CSR arrays
 * (MERGE_PATH_HOST, ../common/merge_path.h): each tile's start is searched
 * on the whole path, each thread's start on the tile's staged row ends, and
 * each thread walks its items as the device does; the row a thread leaves
 * open passes to the next thread (the block scan) or the next tile (the
 * fix-up), in path order.
 */
#include "merge_format.h"

MERGE_PATH_HOST(merge_replay_f64, double)
MERGE_PATH_HOST(merge_replay_f32, float)

void merge_host_f64(const merge_format *f, const double *x, double *y)
{
    merge_replay_f64(&f->dev, f->row_ptr, f->col_idx, (const double *)f->val, f->s_end, x, y);
}

void merge_host_f32(const merge_format *f, const float *x, float *y)
{
    merge_replay_f32(&f->dev, f->row_ptr, f->col_idx, (const float *)f->val, f->s_end, x, y);
}
