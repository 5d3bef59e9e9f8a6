// Pieces of one row summed by several warps of one kernel, added by the
// warp that finishes the row's last piece: shared by the long rows of sell
// and jds (long_rows.cuh) and csrdu's split rows (csrdu_device.cuh).
#ifndef SPMVLAB_PLUGINS_LAST_PIECE_CUH
#define SPMVLAB_PLUGINS_LAST_PIECE_CUH

#include <cuda_runtime.h>
#include <stdint.h>

// Lane 0 publishes this warp's piece sum as partial[slot] and counts it in
// count[row]; true in every lane of the warp that finished the row's last
// of n pieces, which may then read every partial of the row (and resets
// count[row] to 0 for the next launch). Called by whole warps.
template <typename V>
__device__ __forceinline__ bool last_piece_done(V *partial, int64_t slot, V sum, int32_t *count, int32_t row,
                                                int32_t n)
{
    int32_t done = 0;
    if (threadIdx.x % 32 == 0) {
        partial[slot] = sum;
        __threadfence(); // the partial is visible before the count says so
        done = atomicAdd(count + row, 1);
    }
    done = __shfl_sync(0xffffffffu, done, 0);
    if (done != n - 1)
        return false;
    __threadfence(); // the other warps' partials, published before their counts
    return true;
}

#endif
