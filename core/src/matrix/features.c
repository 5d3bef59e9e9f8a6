/* Structural features of a CSR matrix for the selector: row-length
 * statistics, distance from the diagonal, column locality and 4 x 4 block
 * fill, all in one pass plus a stamp array of the block columns. */
#include <math.h>
#include <stdlib.h>

#include "spmvlab/core.h"
#include "spmvlab/features.h"

static const char *const names[SPMVLAB_FEATURE_COUNT] = {
    "rows", "cols", "nnz", "row_mean", "row_cv", "row_max", "empty_share", "bandwidth",
    "locality", "block_fill",
};

const char *spmvlab_feature_name(int i)
{
    return i >= 0 && i < SPMVLAB_FEATURE_COUNT ? names[i] : NULL;
}

/* Counts the non-empty aligned 4 x 4 blocks: block-row by block-row, a
 * block column is counted the first time it is stamped with that block-row. */
static int count_blocks(const spmvlab_csr *A, double *blocks, spmvlab_err *err)
{
    int32_t bcols = A->cols / 4 + 1;
    int32_t *stamp = malloc((size_t)bcols * sizeof *stamp);
    if (!stamp)
        return spmvlab_errf(err, "features: out of host memory for %d block columns", bcols), -1;
    for (int32_t b = 0; b < bcols; b++)
        stamp[b] = -1;
    double count = 0;
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int32_t b = A->col_idx[k] / 4;
            if (stamp[b] != i / 4) {
                stamp[b] = i / 4;
                count++;
            }
        }
    free(stamp);
    *blocks = count;
    return 0;
}

int spmvlab_features_of(const spmvlab_csr *A, spmvlab_features *f, spmvlab_err *err)
{
    double rows = A->rows > 0 ? A->rows : 1, cols = A->cols > 0 ? A->cols : 1;
    double sum_sq = 0, max = 0, empty = 0, dist = 0, near = 0, pairs = 0, blocks = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t lo = A->row_ptr[i], hi = A->row_ptr[i + 1];
        double len = hi - lo, diag = (double)i * cols / rows;
        sum_sq += len * len;
        max = len > max ? len : max;
        empty += len == 0;
        for (int32_t k = lo; k < hi; k++) {
            dist += fabs(A->col_idx[k] - diag);
            if (k > lo) {
                pairs++;
                near += A->col_idx[k] - A->col_idx[k - 1] <= 8;
            }
        }
    }
    if (count_blocks(A, &blocks, err))
        return -1;
    double nnz = A->nnz, mean = nnz / rows, var = sum_sq / rows - mean * mean;
    f->rows = A->rows;
    f->cols = A->cols;
    f->nnz = nnz;
    f->row_mean = mean;
    f->row_cv = mean > 0 && var > 0 ? sqrt(var) / mean : 0;
    f->row_max = max;
    f->empty_share = empty / rows;
    f->bandwidth = nnz > 0 ? dist / nnz / cols : 0;
    f->locality = pairs > 0 ? near / pairs : 0;
    f->block_fill = blocks > 0 ? nnz / (16 * blocks) : 0;
    return 0;
}

void spmvlab_features_to_array(const spmvlab_features *f, double v[SPMVLAB_FEATURE_COUNT])
{
    const double a[SPMVLAB_FEATURE_COUNT] = {f->rows,    f->cols,        f->nnz,       f->row_mean,
                                             f->row_cv,  f->row_max,     f->empty_share, f->bandwidth,
                                             f->locality, f->block_fill};
    for (int i = 0; i < SPMVLAB_FEATURE_COUNT; i++)
        v[i] = a[i];
}

void spmvlab_features_from_array(const double v[SPMVLAB_FEATURE_COUNT], spmvlab_features *f)
{
    f->rows = v[0];
    f->cols = v[1];
    f->nnz = v[2];
    f->row_mean = v[3];
    f->row_cv = v[4];
    f->row_max = v[5];
    f->empty_share = v[6];
    f->bandwidth = v[7];
    f->locality = v[8];
    f->block_fill = v[9];
}

void spmvlab_features_vector(const spmvlab_features *f, double v[SPMVLAB_FEATURE_COUNT])
{
    spmvlab_features_to_array(f, v);
    /* Sizes and lengths compare by ratio; cv and bandwidth span decades near
     * zero, so log1p keeps them finite at 0; shares stay linear. */
    for (int i = 0; i < 6; i++)
        v[i] = i == 4 ? log1p(v[i]) : log(v[i] > 1 ? v[i] : 1);
    v[7] = log1p(1000 * v[7]);
}
