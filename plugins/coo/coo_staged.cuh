// The blocked COO kernel with its arrays staged in shared memory (loads =
// staged): each warp copies the rows, columns and values of its next tiles
// into a two-stage ring with cp.async (L2-only, evict-first), two tiles
// ahead of the tile it reduces. The arithmetic is the blocked kernel's
// (coo_blocked.cuh: the same tiles of 32 x kItems entries, lanes, scans and
// writes), so coo_blk_host_* replays it unchanged; only the data path
// differs. Why: on a large matrix the blocked kernel's warps wait on the
// arrays and then on the gathers of x in turn (long-scoreboard stalls 66-80 %
// of the time, Nsight Compute on uniform-k32); here the next tiles' bytes
// are in flight while a tile's gathers are, and they wait in shared memory,
// not in registers, so a warp holds the same registers as before. Each warp
// copies whole 512-byte stretches per instruction (the register loads of
// items = 8 touch half of each sector per instruction).
#ifndef SPMVLAB_COO_STAGED_CUH
#define SPMVLAB_COO_STAGED_CUH

#include "coo_segmented.cuh"
#include "coo_tile.cuh"

namespace coo_stg {

using coo_seg::kFullMask;
using coo_seg::kWarps;

// One ring stage of a warp: a tile's rows, then its columns, then its values.
template <typename T, int kItems> struct Stage {
    static constexpr int kEntries = COO_SEG_WARP * kItems;
    static constexpr int kColOff = kEntries * 4, kValOff = kEntries * 8;
    static constexpr int kBytes = kEntries * (8 + (int)sizeof(T));
};

// Dynamic shared memory of a block: 8 warps x 2 stages.
template <typename T, int kItems> constexpr int smem_bytes()
{
    return kWarps * 2 * Stage<T, kItems>::kBytes;
}

// Blocks per SM the launch bounds promise: as many as the shared memory
// allows (f64: 32 KB a block at 4 entries a lane, 64 KB at 8), at most 5.
template <typename T, int kItems> constexpr int min_blocks()
{
    return 200 * 1024 / smem_bytes<T, kItems>() < 5 ? 200 * 1024 / smem_bytes<T, kItems>() : 5;
}

__device__ __forceinline__ uint64_t evict_first()
{
    uint64_t p = 0;
#if __CUDA_ARCH__ >= 800
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
#endif
    return p;
}

// 16 bytes from global src to shared dst, of which the first `bytes` are
// read and the rest zero-filled (cp.async.cg: through L2 only).
__device__ __forceinline__ void copy16(unsigned char *dst, const void *src, int bytes, uint64_t pol)
{
#if __CUDA_ARCH__ >= 800
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2, %3;" ::"r"(d),
                 "l"(src), "r"(bytes), "l"(pol)
                 : "memory");
#else
    (void)pol;
    for (int i = 0; i < 16; i++)
        dst[i] = i < bytes ? static_cast<const unsigned char *>(src)[i] : 0;
#endif
}

__device__ __forceinline__ void commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

// Waits until at most one copy group (the latest) is still in flight.
__device__ __forceinline__ void wait_all_but_one()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group 1;" ::: "memory");
#endif
}

// One array's part of a stage: n of its kEntries elements (E bytes each)
// from src, in 16-byte pieces spread over the lanes; pieces past n are zero.
template <int kEntries, int E>
__device__ __forceinline__ void copy_array(unsigned char *dst, const void *src, int n, int lane,
                                           uint64_t pol)
{
    constexpr int kPer = 16 / E, kPieces = kEntries / kPer;
    const unsigned char *s = static_cast<const unsigned char *>(src);
#pragma unroll
    for (int q = lane; q < kPieces; q += COO_SEG_WARP) {
        const int left = (n - q * kPer) * E, bytes = left < 0 ? 0 : left < 16 ? left : 16;
        copy16(dst + 16 * q, bytes > 0 ? s + 16 * q : s, bytes, pol);
    }
}

// Copies the tile of entries [s0, min(s0 + kEntries, end)) into stage dst
// (nothing when s0 >= end) and commits the group (an empty one then, so the
// groups in flight stay counted by tiles).
template <typename T, int kItems>
__device__ __forceinline__ void copy_tile(unsigned char *dst, const int32_t *row, const int32_t *col,
                                          const T *val, long long s0, long long end, int lane,
                                          uint64_t pol)
{
    using S = Stage<T, kItems>;
    if (s0 < end) {
        const int n = end - s0 < S::kEntries ? (int)(end - s0) : S::kEntries;
        copy_array<S::kEntries, 4>(dst, row + s0, n, lane, pol);
        copy_array<S::kEntries, 4>(dst + S::kColOff, col + s0, n, lane, pol);
        copy_array<S::kEntries, (int)sizeof(T)>(dst + S::kValOff, val + s0, n, lane, pol);
    }
    commit();
}

// N consecutive 4-byte (or T) elements of shared memory, 16 bytes a read.
template <int N> __device__ __forceinline__ void read(const unsigned char *p, int32_t *v)
{
#pragma unroll
    for (int q = 0; q < N / 4; q++) {
        const int4 a = reinterpret_cast<const int4 *>(p)[q];
        v[4 * q] = a.x, v[4 * q + 1] = a.y, v[4 * q + 2] = a.z, v[4 * q + 3] = a.w;
    }
}
template <int N> __device__ __forceinline__ void read(const unsigned char *p, double *v)
{
#pragma unroll
    for (int q = 0; q < N / 2; q++) {
        const double2 a = reinterpret_cast<const double2 *>(p)[q];
        v[2 * q] = a.x, v[2 * q + 1] = a.y;
    }
}
template <int N> __device__ __forceinline__ void read(const unsigned char *p, float *v)
{
#pragma unroll
    for (int q = 0; q < N / 4; q++) {
        const float4 a = reinterpret_cast<const float4 *>(p)[q];
        v[4 * q] = a.x, v[4 * q + 1] = a.y, v[4 * q + 2] = a.z, v[4 * q + 3] = a.w;
    }
}

// One warp per chunk of `interval` row-sorted entries (a multiple of
// COO_BLK_TILE), as coo_blk::kernel, a tile of 32 x kItems a step.
template <typename T, int kWrite, int kItems>
__global__ void __launch_bounds__(COO_SEG_BLOCK, (min_blocks<T, kItems>()))
    kernel(int32_t entries, int32_t interval, int32_t rows, const int32_t *__restrict__ row,
           const int32_t *__restrict__ col, const T *__restrict__ val, const T *__restrict__ x,
           T *__restrict__ y, T *__restrict__ carries)
{
    static_assert(kItems == 4 || kItems == 8, "4 or 8 entries per lane and tile");
    using S = Stage<T, kItems>;
    extern __shared__ __align__(16) unsigned char smem[];
    const int lane = (int)(threadIdx.x % COO_SEG_WARP);
    unsigned char *ring = smem + (threadIdx.x / COO_SEG_WARP) * 2 * S::kBytes;
    const coo_seg::Chunk ch = coo_seg::chunk_of<kWrite>(entries, interval, row);
    const coo_seg::Sink<T> sink = coo_seg::sink_of<T, kWrite>(ch, y, carries);
    const long long end = ch.end;
    const uint64_t pol = evict_first();
    copy_tile<T, kItems>(ring, row, col, val, ch.begin, end, lane, pol);
    copy_tile<T, kItems>(ring + S::kBytes, row, col, val, ch.begin + S::kEntries, end, lane, pol);

    int32_t last_row = ch.prev_row; // kOwn: the row before the tile's first entry
    int32_t carry_row = -1;         // no warp returns early: all reach finish's __syncthreads
    T carry = 0;
    int stage = 0;
    for (long long base = ch.begin; base < end; base += S::kEntries, stage ^= 1) {
        wait_all_but_one(); // this tile's group is complete (the next may be in flight)
        __syncwarp();       // and every lane's pieces of it are visible
        unsigned char *st = ring + stage * S::kBytes;
        int32_t r[kItems], c[kItems];
        T a[kItems], b[kItems];
        read<kItems>(st + S::kColOff + 16 * (kItems / 4) * lane, c);
        read<kItems>(st + 16 * (kItems / 4) * lane, r);
        read<kItems>(st + S::kValOff + (int)sizeof(T) * kItems * lane, a);
        __syncwarp(); // the stage is read: refill it two tiles ahead
        copy_tile<T, kItems>(st, row, col, val, base + 2 * S::kEntries, end, lane, pol);
        const long long k0 = base + (long long)lane * kItems;
#pragma unroll
        for (int j = 0; j < kItems; j++) {
            if (k0 + j >= end) // the last tile of the last chunk: row -1 past the end
                r[j] = -1;
            b[j] = r[j] >= 0 ? __ldg(x + c[j]) : (T)0;
        }
        coo_blk::reduce_tile<T, kWrite, kItems>(r, a, b, lane, sink, carry_row, carry);
        if (kWrite == coo_seg::kOwn) { // after the sums: the tile's values are dead
            const int32_t up = __shfl_up_sync(kFullMask, r[kItems - 1], 1);
            coo_seg::zero_gaps<T, kItems>(y, lane > 0 ? up : last_row, r, lane);
            last_row = carry_row; // lane 31's last row
        }
    }
    coo_seg::finish<T, kWrite>(ch, sink, carry_row, carry, entries, rows, row);
}

// Lets kernel<T, kWrite, kItems> have its shared memory (over the default
// 48 KB at f64 with 8 entries a lane); once a process, as the plugins run
// one device a process. Returns the runtime's status.
template <typename T, int kWrite, int kItems> cudaError_t allow_smem()
{
    static cudaError_t done = cudaErrorNotReady;
    if (done != cudaSuccess)
        done = cudaFuncSetAttribute(kernel<T, kWrite, kItems>,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    smem_bytes<T, kItems>());
    return done;
}

// Blocks of the staged kernel with `items` (4 or 8) entries a lane resident
// on one SM; 0 when the runtime cannot say (no device).
template <typename T, int kWrite> int blocks_per_sm(int items)
{
    int n = 0;
    const cudaError_t e =
        items == 4 ? allow_smem<T, kWrite, 4>() : allow_smem<T, kWrite, 8>();
    if (e != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &n, items == 4 ? kernel<T, kWrite, 4> : kernel<T, kWrite, 8>, COO_SEG_BLOCK,
            items == 4 ? smem_bytes<T, 4>() : smem_bytes<T, 8>()) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return n;
}

// Launches the staged kernel for plan p as coo_blk::launch does (which
// checks the plan and the alignment first).
template <typename T, int kWrite, int kItems>
cudaError_t launch(coo_seg_plan p, int32_t entries, int32_t rows, const int32_t *row,
                   const int32_t *col, const T *val, const T *x, T *y, T *carries,
                   cudaStream_t stream)
{
    const cudaError_t e = allow_smem<T, kWrite, kItems>();
    if (e != cudaSuccess)
        return e;
    const unsigned blocks = (unsigned)(((long long)p.warps + kWarps - 1) / kWarps);
    kernel<T, kWrite, kItems><<<blocks, COO_SEG_BLOCK, smem_bytes<T, kItems>(), stream>>>(
        entries, p.interval, rows, row, col, val, x, y, carries);
    return cudaGetLastError();
}

} // namespace coo_stg

#endif
