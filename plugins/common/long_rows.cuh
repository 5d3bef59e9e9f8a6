/*
 * The long-row kernels shared by sell and jds (layout and order in
 * long_rows.h) and their launches. Each plugin instantiates them with its
 * piece size, loads in flight and instruction order.
 */
#ifndef SPMVLAB_PLUGINS_LONG_ROWS_CUH
#define SPMVLAB_PLUGINS_LONG_ROWS_CUH

#include <cuda_runtime.h>

#include "long_rows.h"

__device__ __forceinline__ double long_rows_fma(double a, double b, double c) { return __fma_rn(a, b, c); }
__device__ __forceinline__ float long_rows_fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }

/* Lane 0's (every lane's) sum over the lanes whose index differs in the
 * bits from R up, by the butterfly (R = 1: the whole warp). */
template <typename V, int R>
__device__ __forceinline__ V long_rows_tree(V sum)
{
#pragma unroll
    for (int off = LONG_ROWS_WARP / 2; off >= R; off /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, off);
    return sum;
}

/* The piece of this thread's warp (WARPS warps a block, a warp a piece;
 * whole warps leave together past npieces): U columns and values in flight
 * a lane, then their x, then the adds; the sum goes to y[row_of[j]] for a
 * row of one piece, else to partial[piece]. Column -1 marks an entry past
 * the piece's end. AHEAD keeps the instruction order each plugin was
 * measured with: the row's end before its start and all U x values before
 * the adds (sell), or each load where it is first used (jds). */
template <typename V, int PIECE, int U, int WARPS, bool AHEAD>
__device__ __forceinline__ void long_rows_piece(int32_t npieces,
                                                const int32_t *__restrict__ row_of,
                                                const int32_t *__restrict__ long_ptr,
                                                const int32_t *__restrict__ piece_ptr,
                                                const int32_t *__restrict__ piece_of,
                                                const int32_t *__restrict__ col, const V *__restrict__ val,
                                                const V *__restrict__ x, V *__restrict__ partial,
                                                V *__restrict__ y)
{
    const int lane = threadIdx.x % LONG_ROWS_WARP;
    const int64_t piece = (int64_t)blockIdx.x * WARPS + threadIdx.x / LONG_ROWS_WARP;
    if (piece >= npieces)
        return;
    const int32_t j = __ldg(piece_of + piece), first = __ldg(piece_ptr + j);
    int32_t b, row_end;
    if (AHEAD) {
        row_end = __ldg(long_ptr + j + 1);
        b = __ldg(long_ptr + j) + ((int32_t)piece - first) * PIECE;
    } else {
        b = __ldg(long_ptr + j) + ((int32_t)piece - first) * PIECE;
        row_end = __ldg(long_ptr + j + 1);
    }
    const int32_t e = b + PIECE < row_end ? b + PIECE : row_end;
    V sum = 0;
#pragma unroll
    for (int h = 0; h < PIECE / LONG_ROWS_WARP; h += U) {
        int32_t c[U];
        V v[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int32_t i = b + lane + (h + u) * LONG_ROWS_WARP;
            c[u] = i < e ? __ldg(col + i) : -1;
            v[u] = i < e ? __ldg(val + i) : V(0);
        }
        if (AHEAD) {
            V xv[U];
#pragma unroll
            for (int u = 0; u < U; u++)
                xv[u] = c[u] != -1 ? __ldg(x + c[u]) : V(0);
#pragma unroll
            for (int u = 0; u < U; u++)
                sum = c[u] != -1 ? long_rows_fma(v[u], xv[u], sum) : sum;
        } else {
#pragma unroll
            for (int u = 0; u < U; u++)
                sum = c[u] >= 0 ? long_rows_fma(v[u], __ldg(x + c[u]), sum) : sum;
        }
    }
    sum = long_rows_tree<V, 1>(sum);
    if (lane == 0) {
        if (__ldg(piece_ptr + j + 1) - first == 1)
            y[__ldg(row_of + j)] = sum;
        else
            partial[piece] = sum;
    }
}

/* Long row j, this thread's warp (WARPS a block; past nlong: nothing), of
 * several pieces: the warp adds their partial sums into y[row_of[j]]; a
 * row of one piece was written already. */
template <typename V, int WARPS>
__device__ __forceinline__ void long_rows_sum(int32_t nlong,
                                              const int32_t *__restrict__ row_of,
                                              const int32_t *__restrict__ piece_ptr,
                                              const V *__restrict__ partial, V *__restrict__ y)
{
    const int lane = threadIdx.x % LONG_ROWS_WARP;
    const int64_t j = (int64_t)blockIdx.x * WARPS + threadIdx.x / LONG_ROWS_WARP;
    if (j >= nlong)
        return;
    const int32_t first = __ldg(piece_ptr + j), n = __ldg(piece_ptr + j + 1) - first;
    if (n <= 1)
        return;
    V sum = 0;
    for (int32_t q = lane; q < n; q += LONG_ROWS_WARP)
        sum = sum + partial[first + q];
    sum = long_rows_tree<V, 1>(sum);
    if (lane == 0)
        y[__ldg(row_of + j)] = sum;
}

/* The two kernels, blocks of WARPS warps. */
template <typename V, int PIECE, int U, int WARPS, bool AHEAD>
__global__ void __launch_bounds__(WARPS * LONG_ROWS_WARP)
    long_rows_piece_kernel(int32_t npieces, const int32_t *__restrict__ row_of,
                           const int32_t *__restrict__ long_ptr, const int32_t *__restrict__ piece_ptr,
                           const int32_t *__restrict__ piece_of, const int32_t *__restrict__ col,
                           const V *__restrict__ val, const V *__restrict__ x, V *__restrict__ partial,
                           V *__restrict__ y)
{
    long_rows_piece<V, PIECE, U, WARPS, AHEAD>(npieces, row_of, long_ptr, piece_ptr, piece_of, col, val, x,
                                               partial, y);
}

template <typename V, int WARPS>
__global__ void __launch_bounds__(WARPS * LONG_ROWS_WARP)
    long_rows_sum_kernel(int32_t nlong, const int32_t *__restrict__ row_of, const int32_t *__restrict__ piece_ptr,
                         const V *__restrict__ partial, V *__restrict__ y)
{
    long_rows_sum<V, WARPS>(nlong, row_of, piece_ptr, partial, y);
}

/* The long rows' launches on stream s, blocks of WARPS warps: one warp a
 * piece, then, when a row has several pieces, one warp a row adding them.
 * Returns the first launch error (nothing to launch without pieces). */
template <typename V, int PIECE, int U, int WARPS, bool AHEAD>
cudaError_t long_rows_launch(cudaStream_t s, int32_t npieces, int32_t nlong, int multi_piece,
                             const int32_t *row_of, const int32_t *long_ptr, const int32_t *piece_ptr,
                             const int32_t *piece_of, const int32_t *col, const void *val, const void *x,
                             void *partial, void *y)
{
    if (npieces == 0)
        return cudaSuccess;
    long_rows_piece_kernel<V, PIECE, U, WARPS, AHEAD>
        <<<(unsigned)(((int64_t)npieces + WARPS - 1) / WARPS), WARPS * LONG_ROWS_WARP, 0, s>>>(
            npieces, row_of, long_ptr, piece_ptr, piece_of, col, static_cast<const V *>(val),
            static_cast<const V *>(x), static_cast<V *>(partial), static_cast<V *>(y));
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || !multi_piece)
        return e;
    long_rows_sum_kernel<V, WARPS><<<(unsigned)(((int64_t)nlong + WARPS - 1) / WARPS), WARPS * LONG_ROWS_WARP, 0, s>>>(
        nlong, row_of, piece_ptr, static_cast<const V *>(partial), static_cast<V *>(y));
    return cudaGetLastError();
}

#endif
