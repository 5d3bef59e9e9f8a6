// merge kernels: the search of the tiles' starts on the merge path (when
// it runs apart from the tiles), the launches of the tile kernel
// (merge_tiles.cuh) and the fix-up of rows cut between tiles
// (../common/carry_fixup.cuh).
#include <cuda_runtime.h>

#include <stdint.h>

#include "merge.h"
#include "merge_tiles.cuh"
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

template <typename A, int ITEMS> cudaError_t launch_tiles(const merge_dev *d, const A *x, A *y, cudaStream_t s)
{
    if (d->products == MERGE_PRODUCTS_STAGED)
        merge_tiles_kernel<A, ITEMS, true><<<(unsigned)d->tiles, MERGE_THREADS, 0, s>>>(*d, x, y);
    else
        merge_tiles_kernel<A, ITEMS, false><<<(unsigned)d->tiles, MERGE_THREADS, 0, s>>>(*d, x, y);
    return cudaGetLastError();
}

template <typename A> cudaError_t launch_typed(const merge_dev *d, const A *x, A *y, cudaStream_t s)
{
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
    case 4: e = launch_tiles<A, 4>(d, x, y, s); break;
    case 6: e = launch_tiles<A, 6>(d, x, y, s); break;
    case 7: e = launch_tiles<A, 7>(d, x, y, s); break;
    case 10: e = launch_tiles<A, 10>(d, x, y, s); break;
    default: e = launch_tiles<A, 14>(d, x, y, s); break;
    }
    if (e != cudaSuccess || !d->fixup)
        return e;
    return launch_carry_fixup<A, 1>(d->tiles, d->carry_row, static_cast<const A *>(d->carry_val), d->rows, nullptr,
                                    d->rows, y, s);
}

} // namespace

SPMVLAB_TYPED_LAUNCHER(merge_launch, merge_dev, f->tiles > 0)

SPMVLAB_CUDA_ERROR_STRING(merge)
