// The fix-up pass of segmented-sum SpMV kernels (merge, bccoo): every
// thread block leaves the partial sum of the segment it ended in (a row,
// or a block row of H rows) as a carry; carries of one segment are
// adjacent, as their keys never decrease. One thread a carry: a warp adds
// the carries of each segment it holds (a segmented scan with shuffles),
// and the last lane of each segment adds that sum to y. Several warps may
// hold pieces of one long segment, so the add is atomic.
#ifndef SPMVLAB_PLUGINS_COMMON_CARRY_FIXUP_CUH
#define SPMVLAB_PLUGINS_COMMON_CARRY_FIXUP_CUH

#include <cuda_runtime.h>

#include <stdint.h>

#define CARRY_FIXUP_THREADS 256

// Inclusive segmented scan of H sums over a full warp, keyed by key: keys
// never decrease along the lanes, so the lanes of one key are a run and a
// lane adds only its own key's sums. Afterwards v holds the sums of this
// lane's key up to and including this lane.
template <typename A, int H>
__device__ __forceinline__ void warp_segmented_scan(int32_t key, A (&v)[H])
{
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int s = 1; s < 32; s *= 2) {
        int32_t ko = __shfl_up_sync(0xffffffffu, key, s);
#pragma unroll
        for (int r = 0; r < H; r++) {
            A vo = __shfl_up_sync(0xffffffffu, v[r], s);
            if (lane >= s && ko == key)
                v[r] += vo;
        }
    }
}

// Carry c has key[c] and values val[H c .. H c + H); a key of `segments` or
// more is no segment (the open end of the last block). Segment k's rows are
// H * row_of(k) + r, r < H, those below rows; row_of(k) = map ? map[k] : k.
template <typename A, int H>
__global__ void __launch_bounds__(CARRY_FIXUP_THREADS)
    carry_fixup(int32_t n, const int32_t *__restrict__ key, const A *__restrict__ val, int32_t segments,
                const int32_t *__restrict__ map, int32_t rows, A *__restrict__ y)
{
    const int32_t c = blockIdx.x * CARRY_FIXUP_THREADS + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const bool in = c < n;
    const int32_t k = in ? key[c] : INT32_MAX;
    A v[H];
#pragma unroll
    for (int r = 0; r < H; r++)
        v[r] = in ? val[(int64_t)H * c + r] : A(0);
    warp_segmented_scan<A, H>(k, v);
    const int32_t next = __shfl_down_sync(0xffffffffu, k, 1);
    const bool tail = lane == 31 || next != k;
    if (!in || !tail || k >= segments)
        return;
    const int64_t row0 = (int64_t)H * (map ? map[k] : k);
#pragma unroll
    for (int r = 0; r < H; r++)
        if (row0 + r < rows)
            atomicAdd(y + row0 + r, v[r]);
}

// Launches carry_fixup over n carries on stream s; returns the launch's status.
template <typename A, int H>
static inline cudaError_t launch_carry_fixup(int32_t n, const int32_t *key, const A *val, int32_t segments,
                                             const int32_t *map, int32_t rows, A *y, cudaStream_t s)
{
    if (n <= 0)
        return cudaSuccess;
    unsigned blocks = (unsigned)((n + CARRY_FIXUP_THREADS - 1) / CARRY_FIXUP_THREADS);
    carry_fixup<A, H><<<blocks, CARRY_FIXUP_THREADS, 0, s>>>(n, key, val, segments, map, rows, y);
    return cudaGetLastError();
}

#endif
