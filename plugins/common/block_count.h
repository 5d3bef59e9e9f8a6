/*
 * The number of h x w blocks of a block grid that hold at least one entry
 * of A, shared by bccoo (its block shapes) and cusparse (BSR's blocks): one
 * pass over each block row with a marker per block column. Header only:
 * each plugin compiles its own copy.
 */
#ifndef SPMVLAB_PLUGINS_BLOCK_COUNT_H
#define SPMVLAB_PLUGINS_BLOCK_COUNT_H

#include <stdint.h>
#include <stdlib.h>

#include "spmvlab/plugin.h"

/* The non-empty blocks, or -1 when out of host memory. */
static inline int64_t block_count(const spmvlab_matrix *A, int h, int w)
{
    int32_t block_cols = (int32_t)(((int64_t)A->cols + w - 1) / w);
    int64_t block_rows = ((int64_t)A->rows + h - 1) / h, blocks = 0;
    int32_t *last_row = (int32_t *)malloc(((size_t)block_cols + 1) * sizeof *last_row); /* block row that last marked it */
    if (!last_row)
        return -1;
    for (int32_t j = 0; j < block_cols; j++)
        last_row[j] = -1;
    for (int32_t br = 0; br < block_rows; br++) {
        int64_t end = (int64_t)(br + 1) * h < A->rows ? (int64_t)(br + 1) * h : A->rows;
        for (int64_t r = (int64_t)br * h; r < end; r++)
            for (int32_t k = A->row_ptr[r]; k < A->row_ptr[r + 1]; k++) {
                int32_t bc = A->col_idx[k] / w;
                blocks += last_row[bc] != br;
                last_row[bc] = br;
            }
    }
    free(last_row);
    return blocks;
}

#endif
