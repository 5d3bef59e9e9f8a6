/*
 * bcsr's shape rule: for each candidate r x c (r, c in 1..8), count the
 * aligned blocks a matrix touches and their entries; a block is kept when
 * its stored r*c values stay within max_fill times its real entries, the
 * rest go to the CSR remainder. The shape chosen is the one whose whole
 * format (blocks, block-row pointers, remainder) takes the fewest device
 * bytes, which is what an SpMV moves. Counting all 64 shapes on every
 * non-zero would cost more than many SpMVs, so large matrices are measured
 * on every k-th block row (about 2^18 non-zeros per shape), as OSKI
 * estimates fill by sampling block rows (Vuduc, Demmel, Yelick 2005).
 */
#include <stdlib.h>

#include "bcsr.h"

#define BCSR_SAMPLE_NNZ (1 << 18) /* non-zeros measured per shape, about */

double bcsr_shape_bytes(const spmvlab_matrix *A, int r, int c, double blocks, double rem_nnz)
{
    double vs = (double)spmvlab_dtype_size(A->dtype);
    double nbr = A->rows > 0 ? (double)((A->rows + r - 1) / r) : 0.0;
    double bytes = 4.0 * (nbr + 1.0) + blocks * (4.0 + (double)(r * c) * vs);
    if (rem_nnz > 0)
        bytes += 4.0 * ((double)A->rows + 1.0) + rem_nnz * (4.0 + vs);
    return bytes;
}

void bcsr_shape_measure(const spmvlab_matrix *A, int r, int c, double max_fill, int32_t stride,
                        int32_t *count, int32_t *touched, bcsr_shape *out)
{
    const int rc = r * c;
    double blocks = 0, blocked = 0, rem = 0;
    int32_t nbr = (A->rows + r - 1) / r;
    for (int32_t br = 0; br < nbr; br += stride) {
        int32_t nt = 0, row_end = br * r + r < A->rows ? br * r + r : A->rows;
        for (int32_t k = A->row_ptr[br * r]; k < A->row_ptr[row_end]; k++) {
            int32_t bc = bcsr_div(A->col_idx[k], c);
            if (count[bc]++ == 0)
                touched[nt++] = bc;
        }
        for (int32_t t = 0; t < nt; t++) {
            int32_t n = count[touched[t]];
            count[touched[t]] = 0;
            if ((double)rc <= max_fill * (double)n) {
                blocks += 1;
                blocked += n;
            } else {
                rem += n;
            }
        }
    }
    /* Scale the sample to the whole matrix by its share of the non-zeros. */
    double sampled = blocked + rem, scale = sampled > 0 ? (double)A->nnz / sampled : 0.0;
    out->r = r;
    out->c = c;
    out->blocks = blocks * scale;
    out->blocked_nnz = blocked * scale;
    out->rem_nnz = rem * scale;
    out->bytes = bcsr_shape_bytes(A, r, c, out->blocks, out->rem_nnz);
}

int bcsr_shape_choose(const spmvlab_matrix *A, const bcsr_opts *o, bcsr_shape *best,
                      bcsr_shape *best_blocked, double *csr)
{
    /* 1x1 blocks hold every entry: exactly plain CSR, measured or not. */
    *csr = bcsr_shape_bytes(A, 1, 1, (double)A->nnz, 0.0);
    int r_lo = o->r == SPMVLAB_AUTO ? 1 : o->r, r_hi = o->r == SPMVLAB_AUTO ? BCSR_MAX_DIM : o->r;
    int c_lo = o->c == SPMVLAB_AUTO ? 1 : o->c, c_hi = o->c == SPMVLAB_AUTO ? BCSR_MAX_DIM : o->c;
    /* Shapes taller or wider than the matrix only add padding. */
    if (o->r == SPMVLAB_AUTO && r_hi > A->rows)
        r_hi = A->rows > 1 ? A->rows : 1;
    if (o->c == SPMVLAB_AUTO && c_hi > A->cols)
        c_hi = A->cols > 1 ? A->cols : 1;
    size_t n = (size_t)A->cols + 1;
    int32_t *count = calloc(n, sizeof *count), *touched = malloc(n * sizeof *touched);
    if (!count || !touched) {
        free(count);
        free(touched);
        return -1;
    }
    int32_t stride = A->nnz > BCSR_SAMPLE_NNZ ? (int32_t)(((int64_t)A->nnz + BCSR_SAMPLE_NNZ - 1) / BCSR_SAMPLE_NNZ) : 1;
    best->bytes = best_blocked->bytes = -1;
    for (int r = r_lo; r <= r_hi; r++)
        for (int c = c_lo; c <= c_hi; c++) {
            bcsr_shape s;
            bcsr_shape_measure(A, r, c, o->max_fill, stride, count, touched, &s);
            if (best->bytes < 0 || s.bytes < best->bytes) /* ties keep the smaller shape */
                *best = s;
            if (r * c > 1 && (best_blocked->bytes < 0 || s.bytes < best_blocked->bytes))
                *best_blocked = s;
        }
    free(count);
    free(touched);
    return 0;
}
