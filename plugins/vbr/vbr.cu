// vbr kernel: one warp per block row of height h (h <= 32). The block
// row's blocks are one contiguous run of values, each block column-major,
// so every block starts at a multiple of h: lane l = g h + i (G = 32 / h
// groups, lanes from G h on idle) takes positions l, l + G h, ... and
// always serves row i — one accumulator, consecutive loads across lanes.
// The blocks come 32 at a time: lane b holds block b's first column and
// first position, and each lane finds the block of its position by a
// binary search over those lanes with shuffles (every lane runs the same
// five steps, so the shuffles see the whole warp). The h lanes of one
// column read the same x, served by one load.
// The G partial sums of a row are added in lane order through shared
// memory; each row's CSR remainder is summed by the warp's strided lanes
// and an xor tree, and lane i writes row i once. vbr_host.c runs the same
// lanes in the same order.
#include <cuda_runtime.h>

#include "vbr.h"
#include "../common/launch.cuh"

namespace {

constexpr int kThreads = 128; // 4 block rows per thread block
constexpr int kWarps = kThreads / VBR_WARP;
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ double vbr_fma(double a, double b, double c) { return fma(a, b, c); }
__device__ __forceinline__ float vbr_fma(float a, float b, float c) { return fmaf(a, b, c); }

struct vbr_arrays {
    const int32_t *rpart, *cpart, *bptr, *bcol, *voff, *rptr, *rcol;
};

// T: x, y and the arithmetic; V: the stored values (float for f32 storage).
template <typename T, typename V>
__global__ void __launch_bounds__(kThreads)
vbr_kernel(int32_t nbr, vbr_arrays a, const V *__restrict__ bval, const V *__restrict__ rval,
           const T *__restrict__ x, T *__restrict__ y)
{
    __shared__ T part[kWarps][VBR_WARP];
    const int lane = threadIdx.x & (VBR_WARP - 1), warp = threadIdx.x / VBR_WARP;
    const int64_t b = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / VBR_WARP;
    if (b >= nbr) // the whole warp leaves together: the shuffles below see 32 lanes
        return;
    const int32_t r0 = __ldg(a.rpart + b), h = __ldg(a.rpart + b + 1) - r0, G = VBR_WARP / h, L = G * h;
    T acc = 0;
    const int32_t kb = __ldg(a.bptr + b), ke = __ldg(a.bptr + b + 1);
    for (int32_t cb = kb; cb < ke; cb += VBR_WARP) {
        const int nb = ke - cb < VBR_WARP ? ke - cb : VBR_WARP;
        const int32_t base = __ldg(a.voff + cb), end = __ldg(a.voff + cb + nb) - base;
        const int32_t my_start = lane < nb ? __ldg(a.voff + cb + lane) - base : end;
        const int32_t my_col = lane < nb ? __ldg(a.cpart + __ldg(a.bcol + cb + lane)) : 0;
        for (int32_t s = 0; s < end; s += L) { // the same trip count on every lane
            const int32_t p = s + lane;
            int q = 0;
#pragma unroll
            for (int step = VBR_WARP / 2; step > 0; step >>= 1) {
                const int cand = q + step;
                const int32_t at = __shfl_sync(kFull, my_start, cand & (VBR_WARP - 1));
                if (cand < nb && at <= p)
                    q = cand;
            }
            const int32_t start = __shfl_sync(kFull, my_start, q), col0 = __shfl_sync(kFull, my_col, q);
            if (lane < L && p < end)
                acc = vbr_fma(static_cast<T>(__ldg(bval + base + p)), __ldg(x + col0 + (p - start) / h), acc);
        }
    }
    part[warp][lane] = acc;
    __syncwarp();
    T mine = 0;
    if (lane < h) {
        mine = part[warp][lane];
        for (int g = 1; g < G; g++)
            mine += part[warp][g * h + lane];
    }
    if (a.rptr)
        for (int i = 0; i < h; i++) {
            T t = 0;
            for (int32_t k = __ldg(a.rptr + r0 + i) + lane, e = __ldg(a.rptr + r0 + i + 1); k < e; k += VBR_WARP)
                t = vbr_fma(static_cast<T>(__ldg(rval + k)), __ldg(x + __ldg(a.rcol + k)), t);
            for (int m = VBR_WARP / 2; m > 0; m >>= 1)
                t += __shfl_xor_sync(kFull, t, m);
            if (lane == i)
                mine += t;
        }
    if (lane < h)
        y[r0 + lane] = mine;
}

template <typename T, typename V>
cudaError_t launch_stored(const vbr_fmt *f, const T *x, T *y, cudaStream_t s)
{
    const vbr_arrays a = {f->d_rpart, f->d_cpart, f->d_bptr, f->d_bcol, f->d_voff, f->d_rptr, f->d_rcol};
    const int64_t threads = (int64_t)f->nbr * VBR_WARP;
    const unsigned grid = (unsigned)((threads + kThreads - 1) / kThreads);
    vbr_kernel<T, V><<<grid, kThreads, 0, s>>>(f->nbr, a, static_cast<const V *>(f->d_bval),
                                               static_cast<const V *>(f->d_rval), x, y);
    return cudaGetLastError();
}

template <typename T>
cudaError_t launch_typed(const vbr_fmt *f, const T *x, T *y, cudaStream_t s)
{
    if (f->store_f32)
        return launch_stored<T, float>(f, x, y, s);
    return launch_stored<T, T>(f, x, y, s);
}

} // namespace

// y = A x; nothing to launch without rows (a matrix with rows but no
// entries still launches: every row is written as 0).
SPMVLAB_TYPED_LAUNCHER(vbr_launch, vbr_fmt, f->nbr > 0)

SPMVLAB_CUDA_ERROR_STRING(vbr)
