// merge kernels: the search of the tiles' starts on the merge path, the
// tile kernel (products staged in shared memory, each thread walking its
// equal share of the tile's path, a block-wide segmented scan of the
// threads' open rows) and the launcher with the fix-up of rows cut between
// tiles (../common/carry_fixup.cuh).
#include <cuda_runtime.h>

#include <stdint.h>

#include "merge.h"
#include "../common/carry_fixup.cuh"
#include "../common/launch.cuh"

namespace {

// Tile t starts where the path crosses diagonal t * tile (the path's end
// for t == tiles).
__global__ void __launch_bounds__(MERGE_SEARCH_THREADS)
    merge_search(int32_t tiles, int32_t tile, const int32_t *__restrict__ row_ptr, int32_t rows, int32_t nnz,
                 merge_coord *__restrict__ coords)
{
    const int32_t t = blockIdx.x * MERGE_SEARCH_THREADS + threadIdx.x;
    if (t > tiles)
        return;
    int64_t length = (int64_t)rows + nnz, d = (int64_t)t * tile;
    coords[t] = merge_path_search(d < length ? d : length, row_ptr + 1, rows, 0, nnz);
}

// The block-wide inclusive segmented scan of (key, value) over the
// block's threads, keys never decreasing: a shuffle scan in each warp,
// then each thread adds the totals of earlier warps that end in its key
// (a warp wholly of that key lets the sum run further back).
template <typename A>
__device__ __forceinline__ A block_segmented_scan(int32_t key, A v, int32_t *s_first, int32_t *s_last, A *s_total)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int s = 1; s < 32; s *= 2) {
        int32_t ko = __shfl_up_sync(0xffffffffu, key, s);
        A vo = __shfl_up_sync(0xffffffffu, v, s);
        if (lane >= s && ko == key)
            v += vo;
    }
    const int32_t first = __shfl_sync(0xffffffffu, key, 0);
    if (lane == 31) {
        s_last[warp] = key;
        s_total[warp] = v;
    }
    if (lane == 0)
        s_first[warp] = first;
    __syncthreads();
    if (key == first) // the run reaches back to this warp's first lane
        for (int w = warp - 1; w >= 0 && s_last[w] == key; w--) {
            v += s_total[w];
            if (s_first[w] != key)
                break;
        }
    return v;
}

// One block a tile of ITEMS * MERGE_THREADS path items between coords[b]
// and coords[b + 1]: its rows' ends and its non-zeros' products are staged
// in shared memory with coalesced loads; thread t walks the ITEMS items
// from diagonal t * ITEMS of the tile, writing the rows it ends; the
// partial sum of the row it leaves open goes to the next thread by the
// block scan, or, for the last thread, to the tile's carry.
template <typename A, int ITEMS>
__global__ void __launch_bounds__(MERGE_THREADS)
    merge_tiles_kernel(const merge_coord *__restrict__ coords, const int32_t *__restrict__ row_ptr,
                       const int32_t *__restrict__ col_idx, const A *__restrict__ val, const A *__restrict__ x,
                       int32_t rows, A *__restrict__ y, int32_t *__restrict__ carry_row, A *__restrict__ carry_val)
{
    constexpr int TILE = MERGE_THREADS * ITEMS;
    __shared__ int32_t s_end[TILE + 1];
    __shared__ A s_prod[TILE];
    __shared__ A s_out[TILE];
    __shared__ A s_total[MERGE_THREADS / 32];
    __shared__ int32_t s_first[MERGE_THREADS / 32], s_last[MERGE_THREADS / 32];
    __shared__ A s_incl[MERGE_THREADS];

    const merge_coord c0 = coords[blockIdx.x], c1 = coords[blockIdx.x + 1];
    const int32_t tile_rows = c1.row - c0.row, tile_nz = c1.nz - c0.nz;
    // Row ends relative to the tile's first non-zero; past the last row the
    // walk only meets non-zeros, so the end there is never reached.
    for (int32_t i = threadIdx.x; i <= tile_rows; i += MERGE_THREADS)
        s_end[i] = c0.row + i < rows ? __ldg(row_ptr + c0.row + i + 1) - c0.nz : INT32_MAX;
    for (int32_t j = threadIdx.x; j < tile_nz; j += MERGE_THREADS) {
        int64_t k = (int64_t)c0.nz + j;
        s_prod[j] = __ldg(val + k) * __ldg(x + __ldg(col_idx + k));
    }
    __syncthreads();

    const int32_t length = tile_rows + tile_nz;
    const int32_t d = threadIdx.x * ITEMS < length ? threadIdx.x * ITEMS : length;
    merge_coord p = merge_path_search(d, s_end, tile_rows, 0, tile_nz);
    const int32_t start_row = p.row;
    const int32_t steps = length - d < ITEMS ? length - d : ITEMS;
    A acc = 0;
    for (int s = 0; s < steps; s++) {
        if (p.nz < s_end[p.row]) {
            acc += s_prod[p.nz++];
        } else {
            s_out[p.row++] = acc;
            acc = 0;
        }
    }
    // Thread t's open row is where thread t + 1 starts: the scan's value
    // at t - 1 belongs to this thread's first row.
    A incl = block_segmented_scan<A>(p.row, acc, s_first, s_last, s_total);
    s_incl[threadIdx.x] = incl;
    __syncthreads();
    if (threadIdx.x > 0 && p.row > start_row)
        s_out[start_row] += s_incl[threadIdx.x - 1];
    if (threadIdx.x == MERGE_THREADS - 1) {
        carry_row[blockIdx.x] = c0.row + p.row;
        carry_val[blockIdx.x] = incl;
    }
    __syncthreads();
    for (int32_t i = threadIdx.x; i < tile_rows; i += MERGE_THREADS)
        y[c0.row + i] = s_out[i];
}

template <typename A, int ITEMS> cudaError_t launch_tiles(const merge_dev *d, const A *x, A *y, cudaStream_t s)
{
    merge_tiles_kernel<A, ITEMS><<<(unsigned)d->tiles, MERGE_THREADS, 0, s>>>(
        d->coords, d->row_ptr, d->col_idx, static_cast<const A *>(d->val), x, d->rows, y, d->carry_row,
        static_cast<A *>(d->carry_val));
    return cudaGetLastError();
}

template <typename A> cudaError_t launch_typed(const merge_dev *d, const A *x, A *y, cudaStream_t s)
{
    if (d->search_per_call) {
        unsigned blocks = (unsigned)((d->tiles + 1 + MERGE_SEARCH_THREADS - 1) / MERGE_SEARCH_THREADS);
        merge_search<<<blocks, MERGE_SEARCH_THREADS, 0, s>>>(d->tiles, merge_tile_items(d->items), d->row_ptr, d->rows,
                                                            d->nnz, d->coords);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
    }
    cudaError_t e;
    switch (d->items) {
    case 4: e = launch_tiles<A, 4>(d, x, y, s); break;
    case 7: e = launch_tiles<A, 7>(d, x, y, s); break;
    case 10: e = launch_tiles<A, 10>(d, x, y, s); break;
    default: e = launch_tiles<A, 14>(d, x, y, s); break;
    }
    if (e != cudaSuccess || d->tiles < 2)
        return e;
    return launch_carry_fixup<A, 1>(d->tiles, d->carry_row, static_cast<const A *>(d->carry_val), d->rows, nullptr,
                                    d->rows, y, s);
}

} // namespace

SPMVLAB_TYPED_LAUNCHER(merge_launch, merge_dev, f->tiles > 0)

SPMVLAB_CUDA_ERROR_STRING(merge)
