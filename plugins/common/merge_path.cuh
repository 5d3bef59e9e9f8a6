// Merge-path SpMV (merge_path.h) of one CSR given as device arrays, shared
// by merge and tilespmv: the search of the tiles' starts (when it runs
// apart from the tiles), the tile kernel (merge_tiles.cuh) and the fix-up
// of rows cut between tiles (carry_fixup.cuh), launched in that order.
// Every row of y is written (an empty row gets 0). V: the stored values'
// type, A (the run's) unless the caller stores them narrower.
#ifndef SPMVLAB_PLUGINS_COMMON_MERGE_PATH_CUH
#define SPMVLAB_PLUGINS_COMMON_MERGE_PATH_CUH

#include <cuda_runtime.h>

#include <stdint.h>

#include "merge_path.h"
#include "merge_tiles.cuh"
#include "carry_fixup.cuh"

// Tile t starts where the path crosses diagonal t * tile (the path's end
// for t == tiles).
static __global__ void __launch_bounds__(MERGE_SEARCH_THREADS)
    merge_search(int32_t tiles, int32_t tile, const int32_t *__restrict__ row_ptr, int32_t rows, int32_t nnz,
                 merge_coord *__restrict__ coords)
{
    const int32_t t = blockIdx.x * MERGE_SEARCH_THREADS + threadIdx.x;
    if (t > tiles)
        return;
    int64_t length = (int64_t)rows + nnz, d = (int64_t)t * tile;
    coords[t] = merge_path_search(d < length ? d : length, row_ptr + 1, rows, 0, nnz);
}

template <typename A, int ITEMS, typename V>
static cudaError_t merge_launch_tiles(const merge_dev *d, const A *x, A *y, cudaStream_t s)
{
    if (d->products == MERGE_PRODUCTS_STAGED)
        merge_tiles_kernel<A, ITEMS, true, V><<<(unsigned)d->tiles, MERGE_THREADS, 0, s>>>(*d, x, y);
    else
        merge_tiles_kernel<A, ITEMS, false, V><<<(unsigned)d->tiles, MERGE_THREADS, 0, s>>>(*d, x, y);
    return cudaGetLastError();
}

// y = A x for d on stream s: [search kernel], tiles, [fix-up]; nothing
// without tiles. Returns the first launch error.
template <typename A, typename V = A>
static cudaError_t merge_path_launch(const merge_dev *d, const A *x, A *y, cudaStream_t s)
{
    if (d->tiles <= 0)
        return cudaSuccess;
    if (d->search == MERGE_SEARCH_LAUNCH) {
        unsigned blocks = (unsigned)((d->tiles + 1 + MERGE_SEARCH_THREADS - 1) / MERGE_SEARCH_THREADS);
        merge_search<<<blocks, MERGE_SEARCH_THREADS, 0, s>>>(d->tiles, merge_tile_items(d->items), d->row_ptr, d->rows,
                                                            d->nnz, d->coords);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
    }
    cudaError_t e;
    switch (d->items) {
    case 4: e = merge_launch_tiles<A, 4, V>(d, x, y, s); break;
    case 6: e = merge_launch_tiles<A, 6, V>(d, x, y, s); break;
    case 7: e = merge_launch_tiles<A, 7, V>(d, x, y, s); break;
    case 10: e = merge_launch_tiles<A, 10, V>(d, x, y, s); break;
    default: e = merge_launch_tiles<A, 14, V>(d, x, y, s); break;
    }
    if (e != cudaSuccess || !d->fixup)
        return e;
    return launch_carry_fixup<A, 1>(d->tiles, d->carry_row, static_cast<const A *>(d->carry_val), d->rows, nullptr,
                                    d->rows, y, s);
}

#endif
