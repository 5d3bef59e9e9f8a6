// csr adaptive kernel: CSR-stream row blocks and split long rows in one
// launch (Greathouse & Daga, SC'14, with the long rows of CSR-VectorL summed
// by several blocks). The plan comes from csr_plan.c; csr_host.c runs the
// same decomposition and summation order on the CPU.
#include <cuda_runtime.h>

#include <type_traits>

#include "csr_kernels.h"
#include "../common/value_store.cuh"

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kWarps = CSR_AD_BLOCK / 32;
constexpr int kStream = CSR_AD_CAP / CSR_AD_BLOCK; // staged entries per thread, at most
constexpr int kUnroll = 4;                          // piece loads in flight per thread

// The product rounded on its own (it is staged before it is summed), and
// a*b + c rounded once; csr_host.c does the same.
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double fma_rn(double a, double b, double c) { return __fma_rn(a, b, c); }
__device__ __forceinline__ float fma_rn(float a, float b, float c) { return __fmaf_rn(a, b, c); }

// A run of short rows: every thread stages up to kStream products of the
// block's contiguous entries into shared memory (coalesced, all loads in
// flight at once); then G = 128 / rows lanes (a power of two, 1 to 32) per
// row add lane-strided products and meet in a shuffle tree, or, with more
// than 64 rows (up to CSR_AD_ROWS: runs of empty and very short rows), each
// thread sums rows tid, tid + 128, ... alone. Every row of the block, empty
// ones too, is stored once; trailing long rows are left to their pieces.
template <typename T, typename V>
__device__ __forceinline__ void row_block(T *prod, int32_t first, int32_t last,
                                          const int32_t *__restrict__ rp,
                                          const int32_t *__restrict__ ci,
                                          V val, const T *__restrict__ x,
                                          T *__restrict__ y)
{
    const int tid = (int)threadIdx.x;
    const int32_t base = __ldg(rp + first);
    int32_t end = __ldg(rp + last);
    while (last > first) { // trailing long rows: their pieces sum them
        const int32_t e = __ldg(rp + last - 1);
        if (end - e <= CSR_AD_LONG)
            break;
        last--;
        end = e;
    }
    const int32_t rows = last - first, n = end - base;
    if (rows == 0)
        return; // block-uniform: only long rows
    int32_t c[kStream];
    T a[kStream];
#pragma unroll
    for (int j = 0; j < kStream; j++) { // all index and value loads first, then the gathers
        const int k = tid + j * CSR_AD_BLOCK;
        c[j] = 0;
        a[j] = 0;
        if (k < n) {
            c[j] = __ldg(ci + base + k);
            a[j] = val(base + k);
        }
    }
#pragma unroll
    for (int j = 0; j < kStream; j++) {
        const int k = tid + j * CSR_AD_BLOCK;
        if (k < n)
            prod[k] = mul(a[j], __ldg(x + c[j]));
    }
    __syncthreads();
    int g = 1;
    while (g < 32 && 2 * g * rows <= CSR_AD_BLOCK)
        g *= 2;
    if (g == 1) { // block-uniform: no shuffles, a thread per row
        for (int32_t r = tid; r < rows; r += CSR_AD_BLOCK) {
            const int32_t e = __ldg(rp + first + r + 1) - base;
            T sum = 0;
            for (int32_t k = __ldg(rp + first + r) - base; k < e; k++)
                sum += prod[k];
            y[first + r] = sum;
        }
        return;
    }
    const int r = tid / g, lane = tid % g;
    T sum = 0;
    if (r < rows) {
        const int32_t e = __ldg(rp + first + r + 1) - base;
        for (int32_t k = __ldg(rp + first + r) - base + lane; k < e; k += g)
            sum += prod[k];
    }
    for (int s = g / 2; s > 0; s /= 2) // block-uniform g: every lane takes part
        sum += __shfl_down_sync(kFull, sum, s, g);
    if (r < rows && lane == 0)
        y[first + r] = sum;
}

// One piece of a long row: thread t adds entries t, t+128, ... of the piece
// (fma, in order), the warps reduce by shuffle tree, warp sums (0+2)+(1+3).
// A row of one piece stores y directly; otherwise the piece's sum goes to
// partial[], and the row's last piece to arrive (ticket) adds all partials in
// order with one warp and stores y, so the result does not depend on timing.
template <typename T, typename V>
__device__ __forceinline__ void piece(int p, const int32_t *__restrict__ piece_row,
                                      const int32_t *__restrict__ piece_first, T *partial,
                                      int32_t *ticket, const int32_t *__restrict__ rp,
                                      const int32_t *__restrict__ ci, V val,
                                      const T *__restrict__ x, T *__restrict__ y)
{
    __shared__ T warp_sum[kWarps];
    __shared__ int is_last;
    const int tid = (int)threadIdx.x, lane = tid % 32, w = tid / 32;
    const int32_t row = __ldg(piece_row + p), p0 = __ldg(piece_first + p);
    const int32_t rs = __ldg(rp + row), re = __ldg(rp + row + 1);
    const int32_t beg = rs + (p - p0) * CSR_AD_PIECE;
    const int32_t end = re - beg < CSR_AD_PIECE ? re : beg + CSR_AD_PIECE;
    const int npieces = (re - rs + CSR_AD_PIECE - 1) / CSR_AD_PIECE;
    T sum = 0;
    for (int32_t k0 = beg + tid; k0 < end; k0 += kUnroll * CSR_AD_BLOCK) {
        T a[kUnroll], b[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            const int32_t k = k0 + u * CSR_AD_BLOCK;
            a[u] = 0;
            b[u] = 0;
            if (k < end) {
                a[u] = val(k);
                b[u] = __ldg(x + __ldg(ci + k));
            }
        }
#pragma unroll
        for (int u = 0; u < kUnroll; u++)
            if (k0 + u * CSR_AD_BLOCK < end)
                sum = fma_rn(a[u], b[u], sum);
    }
    for (int s = 16; s > 0; s /= 2)
        sum += __shfl_down_sync(kFull, sum, s);
    if (lane == 0)
        warp_sum[w] = sum;
    __syncthreads();
    if (tid == 0) {
        const T total = (warp_sum[0] + warp_sum[2]) + (warp_sum[1] + warp_sum[3]);
        if (npieces == 1) {
            y[row] = total;
            is_last = 0;
        } else {
            partial[p] = total;
            __threadfence(); // the partial is visible before the ticket counts it
            is_last = atomicAdd(ticket + p0, 1) == npieces - 1;
            __threadfence(); // and the last block reads the others' partials after it
        }
    }
    __syncthreads();
    if (is_last && w == 0) {
        T s = 0;
        for (int q = lane; q < npieces; q += 32)
            s += __ldcg(partial + p0 + q); // from L2: written by other blocks
        for (int d = 16; d > 0; d /= 2)
            s += __shfl_down_sync(kFull, s, d);
        if (lane == 0) {
            y[row] = s;
            ticket[p0] = 0; // ready for the next call
        }
    }
}

static_assert(kWarps == 4, "the piece's warp sums are combined as (0+2)+(1+3)");

// val: the values functor (value_store.cuh).
template <typename T, typename V>
__global__ void __launch_bounds__(CSR_AD_BLOCK)
    csr_adaptive_kernel(csr_adaptive_dev a, const int32_t *__restrict__ rp,
                        const int32_t *__restrict__ ci, V val,
                        const T *__restrict__ x, T *__restrict__ y)
{
    __shared__ T prod[CSR_AD_CAP];
    const int b = (int)blockIdx.x;
    if (b < a.blocks)
        row_block<T, V>(prod, __ldg(a.blk_row + b), __ldg(a.blk_row + b + 1), rp, ci, val, x, y);
    else
        piece<T, V>(b - a.blocks, a.piece_row, a.piece_first, static_cast<T *>(a.partial), a.ticket,
                 rp, ci, val, x, y);
}

} // namespace

extern "C" int csr_launch_adaptive(int is_f64, const csr_adaptive_dev *a, const int32_t *row_ptr,
                                   const int32_t *col_idx, const spmvlab_value_store *vs, const void *val,
                                   const void *x, void *y, void *stream)
{
    const unsigned grid = (unsigned)a->blocks + (unsigned)a->pieces;
    if (grid == 0)
        return 0;
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    auto run = [&](auto xt, auto yt) {
        using T = std::remove_const_t<std::remove_pointer_t<decltype(xt)>>;
        return with_values<T>(vs, val, [&](auto v) {
            csr_adaptive_kernel<T, decltype(v)><<<grid, CSR_AD_BLOCK, 0, s>>>(*a, row_ptr, col_idx, v, xt, yt);
            return cudaGetLastError();
        });
    };
    if (is_f64)
        return static_cast<int>(run(static_cast<const double *>(x), static_cast<double *>(y)));
    return static_cast<int>(run(static_cast<const float *>(x), static_cast<float *>(y)));
}
