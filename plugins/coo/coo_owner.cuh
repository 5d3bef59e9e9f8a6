// The carry pass of the owner write (coo_owner.h), shared by coo and hyb:
// after the chunked kernel stored every row once, the partial sums of rows
// continued from an earlier chunk are added.
#ifndef SPMVLAB_COO_OWNER_CUH
#define SPMVLAB_COO_OWNER_CUH

#include "coo_blocked.cuh"
#include "coo_owner.h"
#include "coo_segmented.cuh"

namespace coo_owner {

// One thread per carry slot; a warp's 32 slots combined over runs of equal
// rows (a row's slots are consecutive), one atomicAdd per run: slots of
// other warps may add to the same row.
template <typename T>
__global__ void __launch_bounds__(COO_SEG_BLOCK)
    add_carries(int32_t warps, const int32_t *__restrict__ rows, const T *__restrict__ vals,
                T *__restrict__ y)
{
    const long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = (int)(threadIdx.x % COO_SEG_WARP);
    int32_t r = k < warps ? __ldg(rows + k) : -1; // every lane takes part in the scan
    T v = r >= 0 ? vals[k] : (T)0;
    const unsigned heads = coo_seg::run_scan(v, r, lane);
    if (r >= 0 && (lane == COO_SEG_WARP - 1 || ((heads >> (lane + 1)) & 1u)))
        atomicAdd(y + r, v);
}

// Launches the carry pass for plan p when it has carries; returns
// cudaGetLastError(), or cudaSuccess when there is nothing to add.
template <typename T>
cudaError_t launch_carries(coo_seg_plan p, const ::coo_own &o, void *y, cudaStream_t stream)
{
    if (o.carries == 0 || p.warps <= 0)
        return cudaSuccess;
    const unsigned blocks = (unsigned)(((long long)p.warps + COO_SEG_BLOCK - 1) / COO_SEG_BLOCK);
    add_carries<T><<<blocks, COO_SEG_BLOCK, 0, stream>>>(
        p.warps, o.d_rows, static_cast<const T *>(o.d_vals), static_cast<T *>(y));
    return cudaGetLastError();
}

// The owner write of plan p, as coo and hyb launch it: the blocked (items
// entries a lane) or the segmented kernel storing every row once, then the
// carry pass. Returns the first CUDA error, cudaSuccess otherwise.
template <typename T>
cudaError_t launch(bool blocked, int items, coo_seg_plan p, int32_t entries, int32_t rows,
                   const int32_t *row, const int32_t *col, const void *val, const void *x, void *y,
                   const ::coo_own &o, cudaStream_t stream)
{
    const cudaError_t e =
        blocked ? coo_blk::launch<T, coo_seg::kOwn>(p, items, entries, rows, row, col, val, x, y,
                                                    o.d_vals, stream)
                : coo_seg::launch<T, coo_seg::kOwn>(p, entries, rows, row, col, val, x, y,
                                                    o.d_vals, stream);
    return e != cudaSuccess ? e : launch_carries<T>(p, o, y, stream);
}

} // namespace coo_owner

#endif
