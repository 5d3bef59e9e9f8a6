// The chunked segmented-reduction COO kernel shared by coo and hyb; the
// algorithm is described in coo_segmented.h, whose coo_seg_host_* runs it on
// the CPU in the same order.
#ifndef SPMVLAB_COO_SEGMENTED_CUH
#define SPMVLAB_COO_SEGMENTED_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "coo_segmented.h"

namespace coo_seg {

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kWarps = COO_SEG_BLOCK / COO_SEG_WARP;

// The product rounded on its own, never fused into a later addition, as the
// plain product of coo_seg_host_*.
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }

// Inclusive scan of v over the warp restricted to runs of equal r; returns
// the ballot of run heads (bit l: lane l starts a run).
template <typename T> __device__ __forceinline__ unsigned run_scan(T &v, int32_t r, int lane)
{
    const int32_t r_prev = __shfl_up_sync(kFullMask, r, 1);
    const unsigned heads = __ballot_sync(kFullMask, lane == 0 || r != r_prev);
    const int start = 31 - __clz((int)(heads & ((2u << lane) - 1u)));
    for (int d = 1; d < COO_SEG_WARP; d <<= 1) {
        const T u = __shfl_up_sync(kFullMask, v, (unsigned)d);
        if (lane - d >= start)
            v += u;
    }
    return heads;
}

// Writes a run's sum: shared runs (the chunk's first row) atomically, runs
// owned by this warp alone with a plain store (kStore: y was zeroed) or add.
template <typename T, bool kStore>
__device__ __forceinline__ void put(T *y, int32_t r, T v, int32_t first_row)
{
    if (r == first_row)
        atomicAdd(y + r, v);
    else if (kStore)
        y[r] = v;
    else
        y[r] += v;
}

// One warp per chunk of `interval` row-sorted entries; see coo_segmented.h.
template <typename T, bool kStore>
__global__ void __launch_bounds__(COO_SEG_BLOCK)
    kernel(int32_t entries, int32_t interval, const int32_t *__restrict__ row,
           const int32_t *__restrict__ col, const T *__restrict__ val, const T *__restrict__ x,
           T *__restrict__ y)
{
    __shared__ int32_t out_rows[kWarps];
    __shared__ T out_sums[kWarps];
    const int lane = (int)(threadIdx.x % COO_SEG_WARP), w = (int)(threadIdx.x / COO_SEG_WARP);
    const long long begin = ((long long)blockIdx.x * kWarps + w) * interval;
    const long long end = begin + interval < entries ? begin + interval : entries;
    const int32_t first_row = begin < end ? __ldg(row + begin) : -1;

    int32_t carry_row = -1; // no warp returns early: all reach __syncthreads
    T carry = 0;
    for (long long base = begin; base < end; base += COO_SEG_UNROLL * COO_SEG_WARP) {
        int32_t r[COO_SEG_UNROLL], c[COO_SEG_UNROLL];
        T a[COO_SEG_UNROLL], v[COO_SEG_UNROLL];
#pragma unroll
        for (int u = 0; u < COO_SEG_UNROLL; u++) { // every load of the group in flight at once
            const long long k = base + u * COO_SEG_WARP + lane;
            r[u] = -1;
            c[u] = 0;
            a[u] = 0;
            if (k < end) {
                r[u] = __ldg(row + k);
                c[u] = __ldg(col + k);
                a[u] = __ldg(val + k);
            }
        }
#pragma unroll
        for (int u = 0; u < COO_SEG_UNROLL; u++)
            v[u] = r[u] >= 0 ? mul(a[u], __ldg(x + c[u])) : (T)0;
#pragma unroll
        for (int u = 0; u < COO_SEG_UNROLL; u++) {
            if (base + u * COO_SEG_WARP >= end) // warp-uniform: tiles are whole but the last
                break;
            if (lane == 0) {
                if (r[u] == carry_row)
                    v[u] += carry;
                else if (carry_row >= 0)
                    put<T, kStore>(y, carry_row, carry, first_row);
            }
            const unsigned heads = run_scan(v[u], r[u], lane);
            if (lane < COO_SEG_WARP - 1 && r[u] >= 0 && ((heads >> (lane + 1)) & 1u))
                put<T, kStore>(y, r[u], v[u], first_row);
            carry_row = __shfl_sync(kFullMask, r[u], COO_SEG_WARP - 1);
            carry = __shfl_sync(kFullMask, v[u], COO_SEG_WARP - 1);
        }
    }
    if (lane == 0) {
        out_rows[w] = carry_row;
        out_sums[w] = carry;
    }
    __syncthreads();
    if (w == 0) { // the carry-outs may continue in the next chunk: always atomic
        int32_t r = lane < kWarps ? out_rows[lane] : -1;
        T v = lane < kWarps ? out_sums[lane] : (T)0;
        const unsigned heads = run_scan(v, r, lane);
        if (r >= 0 && (lane == COO_SEG_WARP - 1 || ((heads >> (lane + 1)) & 1u)))
            atomicAdd(y + r, v);
    }
}

// Blocks of kernel<T, kStore> resident on one SM; 0 when the runtime cannot
// say (no device).
template <typename T, bool kStore> int blocks_per_sm()
{
    int n = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel<T, kStore>, COO_SEG_BLOCK, 0) !=
        cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

// Launches the kernel for plan p; kStore when y was zeroed on the stream
// before (coo), else the runs are added to what y holds (hyb). Returns
// cudaGetLastError(), or cudaSuccess when there is nothing to do.
template <typename T, bool kStore>
cudaError_t launch(coo_seg_plan p, int32_t entries, const int32_t *row, const int32_t *col,
                   const void *val, const void *x, void *y, cudaStream_t stream)
{
    if (entries <= 0 || p.warps <= 0 || p.interval <= 0)
        return cudaSuccess;
    const unsigned blocks = (unsigned)(((long long)p.warps + kWarps - 1) / kWarps);
    kernel<T, kStore><<<blocks, COO_SEG_BLOCK, 0, stream>>>(
        entries, p.interval, row, col, static_cast<const T *>(val), static_cast<const T *>(x),
        static_cast<T *>(y));
    return cudaGetLastError();
}

} // namespace coo_seg

#endif
