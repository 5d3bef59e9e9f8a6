/*
 * coo — coordinate format (Hwu, Kirk, El Hajj, "Programming Massively
 * Parallel Processors", 4th ed., ch. 14, the COO format and its SpMV kernel).
 *
 * Format: three arrays of nnz entries, row_idx, col_idx and val, in the order
 * of the CSR input (sorted by row, then column). No padding; every row, empty
 * or not, costs nothing but its entries.
 *
 * Execution: y is zeroed on the stream, then non-zeros are handed out to
 * threads (one per thread per step, grid-stride) and each product is added
 * into y[row]. Two kernels:
 *   atomic     the textbook kernel: one atomicAdd per non-zero;
 *   segmented  the 32 lanes of a warp take 32 consecutive non-zeros, add up
 *              runs of equal row index with a shuffle-based segmented scan
 *              (rows are sorted, so a run is contiguous), and only the last
 *              lane of each run issues an atomicAdd: one atomic per row piece
 *              per warp instead of one per non-zero.
 * spmv_host runs the same algorithm on the CPU from the format's arrays: the
 * segmented path emulates the warp's scan step by step on 32-lane tiles.
 *
 * Options: kernel = atomic | segmented (default segmented).
 * Limits: dtypes f64 and f32 (f64 atomicAdd needs sm_60 or newer). The
 * summation order across warps depends on atomic timing, so results are
 * reproducible only within the error bound, not bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "spmvlab/plugin.h"

#define COO_BLOCK 256 /* threads per block of both kernels */
#define COO_WARP 32   /* lanes that share one segmented scan (the warp) */

/* Launchers in coo.cu: zero y on the stream, then run the atomic or the
 * segmented kernel; return the first CUDA error. */
cudaError_t coo_launch(int segmented, int f64, int32_t rows, int32_t nnz, int grid, int block,
                       const int32_t *row_idx, const int32_t *col_idx, const void *val,
                       const void *x, void *y, cudaStream_t stream);

enum { COO_KERNEL_ATOMIC = 0, COO_KERNEL_SEGMENTED = 1 };

static const spmvlab_option coo_options[] = {
    {"kernel", SPMVLAB_OPT_ENUM, "segmented", 0, 0, "atomic|segmented",
     "atomic: one atomicAdd per non-zero; segmented: warp reduces runs of a row first"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* One COO matrix: host arrays for spmv_host, device arrays for spmv. */
typedef struct coo_fmt {
    spmvlab_ctx *ctx;       /* services of the instance; frees device memory */
    int32_t rows;           /* rows of A (values of y) */
    int32_t nnz;            /* entries in each array */
    spmvlab_dtype dtype;    /* type of val, x and y */
    int kernel;             /* COO_KERNEL_ATOMIC or COO_KERNEL_SEGMENTED */
    int grid;               /* blocks of COO_BLOCK threads per launch (grid-stride) */
    int32_t *row_idx;       /* host, nnz row indices, non-decreasing */
    int32_t *col_idx;       /* host, nnz column indices */
    void *val;              /* host, nnz values of dtype */
    int32_t *d_row_idx;     /* device copy of row_idx (NULL when nnz == 0) */
    int32_t *d_col_idx;     /* device copy of col_idx */
    void *d_val;            /* device copy of val */
    size_t dev_bytes;       /* sum of the live dev_alloc byte counts */
} coo_fmt;

/* Frees every host and device array of f (NULL allowed). */
static void coo_destroy(void *fmt)
{
    coo_fmt *f = fmt;
    if (!f)
        return;
    f->ctx->dev_free(f->ctx, f->d_row_idx);
    f->ctx->dev_free(f->ctx, f->d_col_idx);
    f->ctx->dev_free(f->ctx, f->d_val);
    free(f->row_idx);
    free(f->col_idx);
    free(f->val);
    free(f);
}

/* Allocates bytes of tracked device memory into *p and uploads src there;
 * counts them in f->dev_bytes. Returns the core's status. */
static spmvlab_status coo_upload(coo_fmt *f, void **p, const void *src, size_t bytes,
                                 spmvlab_err *err)
{
    return spmvlab_dev_put(f->ctx, p, src, bytes, &f->dev_bytes, err);
}

/* Blocks per launch: enough to cover nnz once, but no more than the device
 * keeps resident (the kernels stride over the rest). At least 1. */
static int coo_grid(const spmvlab_device *dev, int32_t nnz)
{
    long long need = ((long long)nnz + COO_BLOCK - 1) / COO_BLOCK;
    long long resident = 0;
    if (dev->present && dev->sm_count > 0) {
        int per_sm = dev->max_threads_per_sm / COO_BLOCK;
        resident = (long long)dev->sm_count * (per_sm > 0 ? per_sm : 1);
    }
    if (resident > 0 && need > resident)
        need = resident;
    return need > 0 ? (int)need : 1;
}

/* Builds COO from the CSR input: row indices expanded from row_ptr, column
 * indices and values copied. Returns OK, UNSUPPORTED (dtype) or the
 * allocation's status; on failure nothing is kept. */
static spmvlab_status coo_convert(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                                  const spmvlab_opts *opts, void **out, spmvlab_err *err)
{
    *out = NULL;
    if (A->dtype != SPMVLAB_F64 && A->dtype != SPMVLAB_F32)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "coo supports f64 and f32 values only");
    coo_fmt *f = calloc(1, sizeof *f);
    if (!f)
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the coo descriptor");
    f->ctx = ctx;
    f->rows = A->rows;
    f->nnz = A->nnz;
    f->dtype = A->dtype;
    f->kernel = strcmp(spmvlab_opt_str(opts, "kernel"), "atomic") == 0 ? COO_KERNEL_ATOMIC
                                                                        : COO_KERNEL_SEGMENTED;
    f->grid = coo_grid(ctx->device, A->nnz);

    size_t n = (size_t)A->nnz, vs = spmvlab_dtype_size(A->dtype);
    /* malloc(0) may return NULL; ask for one byte so NULL always means failure */
    f->row_idx = malloc(n * sizeof(int32_t) + 1);
    f->col_idx = malloc(n * sizeof(int32_t) + 1);
    f->val = malloc(n * vs + 1);
    if (!f->row_idx || !f->col_idx || !f->val) {
        coo_destroy(f);
        return ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for %d coo entries",
                         A->nnz);
    }
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            f->row_idx[k] = i;
    memcpy(f->col_idx, A->col_idx, n * sizeof(int32_t));
    memcpy(f->val, A->val, n * vs);

    spmvlab_status st = coo_upload(f, (void **)&f->d_row_idx, f->row_idx, n * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st = coo_upload(f, (void **)&f->d_col_idx, f->col_idx, n * sizeof(int32_t), err);
    if (st == SPMVLAB_OK)
        st = coo_upload(f, &f->d_val, f->val, n * vs, err);
    if (st != SPMVLAB_OK) {
        coo_destroy(f);
        return st;
    }
    *out = f;
    return SPMVLAB_OK;
}

/* y = A x on the device: zero y on the stream, then the chosen kernel.
 * Returns CUDA_ERROR with the runtime's text when a call failed. */
static spmvlab_status coo_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err)
{
    coo_fmt *f = fmt;
    cudaError_t e = coo_launch(f->kernel == COO_KERNEL_SEGMENTED, f->dtype == SPMVLAB_F64,
                               f->rows, f->nnz, f->grid, COO_BLOCK, f->d_row_idx, f->d_col_idx, f->d_val, x,
                               y, (cudaStream_t)stream);
    if (e != cudaSuccess)
        return f->ctx->fail(f->ctx, err, SPMVLAB_CUDA_ERROR, "coo %s kernel failed: %s",
                            f->kernel == COO_KERNEL_SEGMENTED ? "segmented" : "atomic",
                            cudaGetErrorString(e));
    return SPMVLAB_OK;
}

/* The segmented kernel's warp step on the CPU, for one tile of up to 32
 * consecutive non-zeros starting at base: the same inclusive segmented scan
 * (offsets 1, 2, 4, 8, 16) and one add per run from the run's last lane.
 * T is double or float; the macro keeps both dtypes on one code path. */
#define COO_HOST_TILE(T)                                                                    \
    do {                                                                                    \
        const T *v_ = (const T *)f->val, *x_ = (const T *)x;                                \
        T *y_ = (T *)y;                                                                     \
        T sum[COO_WARP], from[COO_WARP];                                                    \
        int32_t row[COO_WARP];                                                              \
        for (int l = 0; l < COO_WARP; l++) {                                                \
            long long k = base + l;                                                         \
            row[l] = k < f->nnz ? f->row_idx[k] : -1;                                       \
            sum[l] = k < f->nnz ? v_[k] * x_[f->col_idx[k]] : (T)0;                         \
        }                                                                                   \
        for (int off = 1; off < COO_WARP; off *= 2) {                                       \
            memcpy(from, sum, sizeof sum);                                                  \
            for (int l = off; l < COO_WARP; l++)                                            \
                if (row[l - off] == row[l])                                                 \
                    sum[l] += from[l - off];                                                \
        }                                                                                   \
        for (int l = 0; l < COO_WARP; l++)                                                  \
            if (row[l] >= 0 && (l == COO_WARP - 1 || row[l + 1] != row[l]))                 \
                y_[row[l]] += sum[l];                                                       \
    } while (0)

/* y = A x on the CPU from the format's own arrays, by the same algorithm as
 * the selected kernel (y zeroed first, then atomic adds or warp tiles). */
static spmvlab_status coo_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err)
{
    const coo_fmt *f = fmt;
    memset(y, 0, (size_t)f->rows * spmvlab_dtype_size(f->dtype));
    if (f->kernel == COO_KERNEL_ATOMIC) {
        if (f->dtype == SPMVLAB_F64) {
            const double *v = f->val, *xx = x;
            double *yy = y;
            for (int32_t k = 0; k < f->nnz; k++)
                yy[f->row_idx[k]] += v[k] * xx[f->col_idx[k]];
        } else {
            const float *v = f->val, *xx = x;
            float *yy = y;
            for (int32_t k = 0; k < f->nnz; k++)
                yy[f->row_idx[k]] += v[k] * xx[f->col_idx[k]];
        }
        return SPMVLAB_OK;
    }
    for (long long base = 0; base < f->nnz; base += COO_WARP) {
        if (f->dtype == SPMVLAB_F64)
            COO_HOST_TILE(double);
        else
            COO_HOST_TILE(float);
    }
    return SPMVLAB_OK;
}

/* Device bytes held: row_idx, col_idx (4 bytes each) and val per non-zero. */
static size_t coo_footprint(const void *fmt)
{
    return ((const coo_fmt *)fmt)->dev_bytes;
}

/* Facts for reports: the kernel, launch shape and bytes per non-zero. */
static void coo_describe(const void *fmt, char *buf, size_t len)
{
    const coo_fmt *f = fmt;
    snprintf(buf, len, "kernel=%s grid=%d block=%d bytes_per_nnz=%.2f",
             f->kernel == COO_KERNEL_SEGMENTED ? "segmented" : "atomic", f->grid, COO_BLOCK,
             f->nnz ? (double)f->dev_bytes / f->nnz : 0.0);
}

static const spmvlab_plugin coo_plugin = {
    .abi_major = SPMVLAB_ABI_MAJOR,
    .abi_minor = SPMVLAB_ABI_MINOR,
    .struct_size = sizeof(spmvlab_plugin),
    .name = "coo",
    .summary = "coordinate format: (row, col, val) per non-zero, atomic or warp-segmented adds",
    .version = "1.0.0",
    .reference = "W. Hwu, D. Kirk, I. El Hajj, Programming Massively Parallel Processors, "
                 "4th ed., Morgan Kaufmann 2022, ch. 14 (COO)",
    .dtypes = SPMVLAB_DTYPES_F64_F32,
    .options = coo_options,
    .check_options = NULL,
    .convert = coo_convert,
    .spmv = coo_spmv,
    .footprint = coo_footprint,
    .destroy = coo_destroy,
    .spmv_host = coo_spmv_host,
    .describe = coo_describe,
};

SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void)
{
    return &coo_plugin;
}
