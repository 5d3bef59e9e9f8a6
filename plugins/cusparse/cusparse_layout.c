/*
 * Builds the arrays of cusparse_layout.h from the core's CSR on the CPU:
 * values rounded to the storage type once, then placed in the family's
 * layout. Every padding slot is zero (calloc) and every padded column -1.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cusparse_layout.h"

double cusparse_layout_fill(const cusparse_layout *L)
{
    return L->nnz > 0 ? (double)L->n_val / (double)L->nnz : 0.0;
}

double cusparse_bsr_bytes(const spmvlab_matrix *A, int b, int64_t nnzb, size_t vs)
{
    double brows = (double)(((int64_t)A->rows + b - 1) / b);
    return 4.0 * (brows + 1) + 4.0 * (double)nnzb + (double)vs * b * b * (double)nnzb;
}

int64_t cusparse_sell_count(const spmvlab_matrix *A, int C)
{
    int64_t stored = 0;
    for (int32_t s = 0; (int64_t)s * C < A->rows; s++) {
        int32_t width = 0;
        for (int32_t i = s * C; i < A->rows && i < (s + 1) * C; i++) {
            int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
            width = len > width ? len : width;
        }
        stored += (int64_t)C * width;
    }
    return stored;
}

/* dst[i] = src[k] for values of es bytes. */
static inline void put_value(void *dst, int64_t i, const void *src, int64_t k, size_t es)
{
    if (es == 8)
        ((double *)dst)[i] = ((const double *)src)[k];
    else if (es == 4)
        ((float *)dst)[i] = ((const float *)src)[k];
    else
        ((uint16_t *)dst)[i] = ((const uint16_t *)src)[k];
}

/* A's values in the storage type: a copy, or f64 rounded to f32 (nearest). */
static void *stored_values(const spmvlab_matrix *A, spmvlab_dtype storage)
{
    size_t es = spmvlab_dtype_size(storage);
    void *v = malloc(A->nnz ? (size_t)A->nnz * es : 1);
    if (!v)
        return NULL;
    if (storage == A->dtype)
        memcpy(v, A->val, (size_t)A->nnz * es);
    else /* only f64 -> f32 is offered */
        for (int32_t k = 0; k < A->nnz; k++)
            ((float *)v)[k] = (float)((const double *)A->val)[k];
    return v;
}

static int int32_ascending(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int build_csr(cusparse_layout *L, const spmvlab_matrix *A)
{
    L->n_ptr = (int64_t)A->rows + 1;
    L->n_idx = L->n_val = A->nnz;
    L->ptr = malloc((size_t)L->n_ptr * sizeof *L->ptr);
    L->idx = malloc(A->nnz ? (size_t)A->nnz * sizeof *L->idx : 1);
    if (!L->ptr || !L->idx)
        return -1;
    memcpy(L->ptr, A->row_ptr, (size_t)L->n_ptr * sizeof *L->ptr);
    memcpy(L->idx, A->col_idx, (size_t)A->nnz * sizeof *L->idx);
    return 0;
}

static int build_coo(cusparse_layout *L, const spmvlab_matrix *A)
{
    L->n_ptr = L->n_idx = L->n_val = A->nnz;
    L->ptr = malloc(A->nnz ? (size_t)A->nnz * sizeof *L->ptr : 1);
    L->idx = malloc(A->nnz ? (size_t)A->nnz * sizeof *L->idx : 1);
    if (!L->ptr || !L->idx)
        return -1;
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            L->ptr[k] = i;
    memcpy(L->idx, A->col_idx, (size_t)A->nnz * sizeof *L->idx);
    return 0;
}

static int build_sell(cusparse_layout *L, const spmvlab_matrix *A, const void *sv, int64_t stored)
{
    int32_t C = L->slice, slices = (int32_t)(((int64_t)A->rows + C - 1) / C);
    size_t es = spmvlab_dtype_size(L->storage);
    L->n_ptr = (int64_t)slices + 1;
    L->n_idx = L->n_val = stored;
    L->ptr = malloc((size_t)L->n_ptr * sizeof *L->ptr);
    L->idx = malloc(stored ? (size_t)stored * sizeof *L->idx : 1);
    L->val = calloc(stored ? (size_t)stored : 1, es);
    if (!L->ptr || !L->idx || !L->val)
        return -1;
    for (int64_t e = 0; e < stored; e++)
        L->idx[e] = -1;
    L->ptr[0] = 0;
    for (int32_t s = 0; s < slices; s++) {
        int32_t width = 0, first = s * C;
        for (int32_t i = first; i < A->rows && i < first + C; i++) {
            int32_t len = A->row_ptr[i + 1] - A->row_ptr[i];
            width = len > width ? len : width;
        }
        int64_t off = L->ptr[s];
        for (int32_t i = first; i < A->rows && i < first + C; i++)
            for (int32_t k = A->row_ptr[i], j = 0; k < A->row_ptr[i + 1]; k++, j++) {
                int64_t e = off + (int64_t)j * C + (i - first);
                L->idx[e] = A->col_idx[k];
                put_value(L->val, e, sv, k, es);
            }
        L->ptr[s + 1] = (int32_t)(off + (int64_t)C * width);
    }
    return 0;
}

static int build_bsr(cusparse_layout *L, const spmvlab_matrix *A, const void *sv, int64_t nnzb)
{
    int32_t b = L->block, bb = b * b;
    size_t es = spmvlab_dtype_size(L->storage);
    L->brows = (int32_t)(((int64_t)A->rows + b - 1) / b);
    L->bcols = (int32_t)(((int64_t)A->cols + b - 1) / b);
    L->n_ptr = (int64_t)L->brows + 1;
    L->n_idx = nnzb;
    L->n_val = nnzb * bb;
    L->ptr = malloc((size_t)L->n_ptr * sizeof *L->ptr);
    L->idx = malloc(nnzb ? (size_t)nnzb * sizeof *L->idx : 1);
    L->val = calloc(L->n_val ? (size_t)L->n_val : 1, es);
    int32_t *seen = malloc(((size_t)L->bcols + 1) * sizeof *seen), *slot = malloc(((size_t)L->bcols + 1) * sizeof *slot);
    if (!L->ptr || !L->idx || !L->val || !seen || !slot) {
        free(seen);
        free(slot);
        return -1;
    }
    for (int32_t j = 0; j < L->bcols; j++)
        seen[j] = -1;
    int32_t n = 0;
    L->ptr[0] = 0;
    for (int32_t I = 0; I < L->brows; I++) {
        int32_t first = I * b, last = first + b < A->rows ? first + b : A->rows;
        /* this block row's block columns, in order, then their slots */
        for (int32_t i = first; i < last; i++)
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                int32_t bc = A->col_idx[k] / b;
                if (seen[bc] != I) {
                    seen[bc] = I;
                    L->idx[n++] = bc;
                }
            }
        qsort(L->idx + L->ptr[I], (size_t)(n - L->ptr[I]), sizeof *L->idx, int32_ascending);
        for (int32_t p = L->ptr[I]; p < n; p++)
            slot[L->idx[p]] = p;
        for (int32_t i = first; i < last; i++)
            for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
                int32_t c = A->col_idx[k];
                put_value(L->val, (int64_t)slot[c / b] * bb + (int64_t)(i - first) * b + c % b, sv, k, es);
            }
        L->ptr[I + 1] = n;
    }
    free(seen);
    free(slot);
    return 0;
}

spmvlab_status cusparse_layout_build(cusparse_layout *L, const spmvlab_matrix *A, cusparse_family family,
                                     spmvlab_dtype storage, int slice, int block, char *why, size_t len)
{
    memset(L, 0, sizeof *L);
    L->family = family;
    L->dtype = A->dtype;
    L->storage = storage;
    L->rows = A->rows;
    L->cols = A->cols;
    L->nnz = A->nnz;
    L->slice = slice;
    L->block = block;
    int64_t count = 0;
    if (family == CUSPARSE_FAMILY_SELL) {
        count = cusparse_sell_count(A, slice);
        if (count > INT32_MAX) {
            snprintf(why, len, "Sliced-ELL with slice %d would store %lld entries, past its 32-bit slice offsets",
                     slice, (long long)count);
            return SPMVLAB_LIMIT;
        }
    } else if (family == CUSPARSE_FAMILY_BSR) {
        count = cusparse_bsr_count(A, block);
        if (count >= 0 && count * block * block > INT32_MAX) {
            snprintf(why, len, "BSR with %dx%d blocks would store %lld values, past 32-bit indexing", block, block,
                     (long long)(count * block * block));
            return SPMVLAB_LIMIT;
        }
    }
    void *sv = count >= 0 ? stored_values(A, storage) : NULL;
    int rc = -1;
    if (sv) {
        if (family == CUSPARSE_FAMILY_CSR || family == CUSPARSE_FAMILY_COO) {
            rc = family == CUSPARSE_FAMILY_CSR ? build_csr(L, A) : build_coo(L, A);
            L->val = sv; /* csr and coo keep the values in the input's order */
            sv = NULL;
        } else {
            rc = family == CUSPARSE_FAMILY_SELL ? build_sell(L, A, sv, count) : build_bsr(L, A, sv, count);
        }
    }
    free(sv);
    if (rc) {
        cusparse_layout_free(L);
        snprintf(why, len, "out of host memory building the layout of %d non-zeros", A->nnz);
        return SPMVLAB_NOMEM;
    }
    return SPMVLAB_OK;
}

void cusparse_layout_free(cusparse_layout *L)
{
    free(L->ptr);
    free(L->idx);
    free(L->val);
    L->ptr = L->idx = NULL;
    L->val = NULL;
}
