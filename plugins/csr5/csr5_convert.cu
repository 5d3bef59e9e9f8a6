/*
 * CSR5 conversion on the GPU, from the core's device CSR (read only). The
 * per-tile work is csr5_build_tile (csr5_tile.h), the very function the host
 * conversion runs, so both produce identical arrays.
 *
 * Step 1 (csr5_gpu_build_tiles): tile_ptr by binary search on row_ptr at
 * each tile boundary and the lane descriptors, one thread per tile; the
 * transpose of col and val, one thread per entry; empty rows counted per
 * chunk of rows, one thread per chunk; the row pointer copied;
 * inline-calibration counters zeroed.
 * The host then sums the per-tile slot counts and per-chunk empty counts
 * (small downloads) to size and place empty_offset and empty_rows.
 * Step 2 (csr5_gpu_build_lists): the slot rows of the tiles that span empty
 * rows, and the ordered list of empty rows. The host conversion
 * (csr5_build.c) runs the same steps with loops, so only the launches and
 * the transfers are particular to the GPU.
 */
#include <cuda_runtime.h>

#include "csr5.h"
#include "csr5_tile.h"

namespace {

constexpr int kTileBlock = 128; /* threads per block of the per-tile kernels */
constexpr int kCopyBlock = 256; /* threads per block of the transpose */

/* Thread k <= tiles: tile_ptr[k]; for k < tiles also the descriptors and
 * the slot count when the tile spans empty rows. */
__global__ void csr5_k_tiles(int32_t rows, int32_t sigma, int32_t tiles, const int32_t *__restrict__ row_ptr,
                             uint32_t *__restrict__ tile_ptr, uint32_t *__restrict__ desc,
                             int32_t *__restrict__ tile_slots)
{
    const int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (k > tiles)
        return;
    const int64_t T = (int64_t)CSR5_OMEGA * sigma;
    if (k == tiles) {
        tile_ptr[k] = (uint32_t)csr5_row_of(row_ptr, rows, k * T);
        return;
    }
    csr5_tile_info info;
    csr5_build_tile(row_ptr, rows, sigma, (int32_t)k, desc + k * CSR5_OMEGA * csr5_desc_words(sigma), nullptr,
                    &info);
    tile_ptr[k] = (uint32_t)info.first_row | (info.empty ? CSR5_EMPTY_FLAG : 0u);
    tile_slots[k] = info.empty ? info.starts : 0;
}

/* Stored position o <- CSR position csr5_source_pos(o): coalesced writes. */
template <typename U>
__global__ void csr5_k_transpose(int64_t nnz, int32_t sigma, int64_t tail_start, const int32_t *__restrict__ src_col,
                                 const U *__restrict__ src_val, int32_t *__restrict__ col, U *__restrict__ val)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < nnz; o += stride) {
        const int64_t s = csr5_source_pos(o, sigma, tail_start);
        col[o] = __ldg(src_col + s);
        val[o] = __ldg(src_val + s);
    }
}

/* Thread c counts the empty rows of chunk c (csr5_chunk_empty). */
__global__ void csr5_k_empty_count(int32_t rows, int64_t chunks, const int32_t *__restrict__ row_ptr,
                                   int32_t *__restrict__ count)
{
    const int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (c < chunks)
        count[c] = csr5_chunk_empty(row_ptr, rows, c, nullptr);
}

/* Thread c writes the empty rows of chunk c from first[c] on. */
__global__ void csr5_k_empty_fill(int32_t rows, int64_t chunks, const int32_t *__restrict__ row_ptr,
                                  const int32_t *__restrict__ first, int32_t *__restrict__ list)
{
    const int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (c < chunks)
        csr5_chunk_empty(row_ptr, rows, c, list + first[c]);
}

/* Slot rows of the flagged tiles; eo_ptr[t] moves back by the head slot. */
__global__ void csr5_k_slot_rows(int32_t rows, int32_t sigma, int32_t tiles, const int32_t *__restrict__ row_ptr,
                                 const uint32_t *__restrict__ tile_ptr, int32_t *__restrict__ eo_ptr,
                                 int32_t *__restrict__ empty_offset)
{
    const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= tiles || !(tile_ptr[t] & CSR5_EMPTY_FLAG))
        return;
    csr5_tile_info info;
    csr5_build_tile(row_ptr, rows, sigma, (int32_t)t, nullptr, empty_offset + eo_ptr[t], &info);
    eo_ptr[t] -= info.head;
}

unsigned csr5_blocks(int64_t n, int per_block) { return (unsigned)((n + per_block - 1) / per_block); }

} // namespace

extern "C" int csr5_gpu_build_tiles(const csr5_gpu_build *b, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    const int64_t T = (int64_t)CSR5_OMEGA * b->sigma, tail_start = (int64_t)b->tiles * T;
    cudaError_t e = cudaMemcpyAsync(b->row_ptr, b->src_row_ptr, ((size_t)b->rows + 1) * sizeof(int32_t),
                                    cudaMemcpyDeviceToDevice, s);
    if (e != cudaSuccess)
        return (int)e;
    if (b->arrivals && b->tiles > 0) {
        e = cudaMemsetAsync(b->arrivals, 0, (size_t)b->tiles * sizeof(int32_t), s);
        if (e != cudaSuccess)
            return (int)e;
    }
    csr5_k_tiles<<<csr5_blocks((int64_t)b->tiles + 1, kTileBlock), kTileBlock, 0, s>>>(
        b->rows, b->sigma, b->tiles, b->src_row_ptr, b->tile_ptr, b->desc, b->tile_slots);
    if ((e = cudaGetLastError()) != cudaSuccess)
        return (int)e;
    if (b->nnz > 0) {
        const int64_t blocks = (int64_t)b->nnz < (int64_t)kCopyBlock * 65535 * 8
                                   ? ((int64_t)b->nnz + kCopyBlock - 1) / kCopyBlock
                                   : (int64_t)65535 * 8;
        if (b->value_size == 8)
            csr5_k_transpose<unsigned long long><<<(unsigned)blocks, kCopyBlock, 0, s>>>(
                b->nnz, b->sigma, tail_start, b->src_col, static_cast<const unsigned long long *>(b->src_val),
                b->col, static_cast<unsigned long long *>(b->val));
        else
            csr5_k_transpose<unsigned int><<<(unsigned)blocks, kCopyBlock, 0, s>>>(
                b->nnz, b->sigma, tail_start, b->src_col, static_cast<const unsigned int *>(b->src_val), b->col,
                static_cast<unsigned int *>(b->val));
        if ((e = cudaGetLastError()) != cudaSuccess)
            return (int)e;
    }
    const int64_t chunks = ((int64_t)b->rows + CSR5_EMPTY_CHUNK - 1) / CSR5_EMPTY_CHUNK;
    if (chunks > 0) {
        csr5_k_empty_count<<<csr5_blocks(chunks, kTileBlock), kTileBlock, 0, s>>>(b->rows, chunks, b->src_row_ptr,
                                                                                 b->empty_count);
        if ((e = cudaGetLastError()) != cudaSuccess)
            return (int)e;
    }
    return 0;
}

extern "C" int csr5_gpu_build_lists(const csr5_gpu_build *b, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    cudaError_t e;
    if (b->eo_ptr && b->tiles > 0) {
        csr5_k_slot_rows<<<csr5_blocks(b->tiles, kTileBlock), kTileBlock, 0, s>>>(
            b->rows, b->sigma, b->tiles, b->src_row_ptr, b->tile_ptr, b->eo_ptr, b->empty_offset);
        if ((e = cudaGetLastError()) != cudaSuccess)
            return (int)e;
    }
    const int64_t chunks = ((int64_t)b->rows + CSR5_EMPTY_CHUNK - 1) / CSR5_EMPTY_CHUNK;
    if (b->empty_rows && chunks > 0) {
        csr5_k_empty_fill<<<csr5_blocks(chunks, kTileBlock), kTileBlock, 0, s>>>(b->rows, chunks, b->src_row_ptr,
                                                                                b->empty_first, b->empty_rows);
        if ((e = cudaGetLastError()) != cudaSuccess)
            return (int)e;
    }
    return 0;
}

extern "C" int csr5_gpu_wait(void *stream) { return (int)cudaStreamSynchronize(static_cast<cudaStream_t>(stream)); }
