// DASP kernels: one launch, four kinds of warps — long-row segments, medium
// row-blocks (dasp_rows.cuh), short tiles, and the tail (singles and empty
// rows). The format and the MMA diagonal trick are described at the top of
// dasp.c; dasp_host.c runs the same steps on the CPU. The balanced
// (merge-path) path is dasp_balanced.cu.
//
// Memory-level parallelism is the design goal: every warp issues all the
// loads of a step (values and columns of several blocks, then their x
// gathers, with the indices it needs later prefetched) before it waits.
#include <climits>

#include "dasp_rows.cuh"

namespace {

// ---- short tiles: 8 rows x 4 slots; one MMA per packing segment --------------

__device__ __forceinline__ int64_t short_id0(const dasp_launch &L, int64_t tile)
{
    const int64_t n2 = L.n_tiles13 + L.n_tiles22;
    return tile < n2 ? tile * DASP_SHORT_IDS2 : n2 * DASP_SHORT_IDS2 + (tile - n2) * DASP_SHORT_IDS1;
}

// Slots of segment 0 of a tile: 1 (1&3), 2 (2&2), 4 (4-tile, one segment).
__device__ __forceinline__ int short_split(const dasp_launch &L, int64_t tile)
{
    return tile < L.n_tiles13 ? 1 : tile < L.n_tiles13 + L.n_tiles22 ? 2 : DASP_SHORT_K;
}

// The rows of the two segments of tile row g (-1: none), for the diagonal
// lanes; loaded with the tile.
__device__ __forceinline__ void short_rows(const dasp_launch &L, int64_t tile, int split, int lane, int &row0,
                                           int &row1)
{
    const int g = lane >> 2;
    row0 = row1 = -1;
    if (lane == diag_lane(g)) {
        const int64_t id0 = short_id0(L, tile);
        row0 = __ldg(L.sh_row + id0 + g);
        if (split < DASP_SHORT_K)
            row1 = __ldg(L.sh_row + id0 + DASP_BM + g);
    }
}

// f64: m8n8k4, lane 4g+t holds slot t of tile row g.
__device__ __forceinline__ void short_warp(const dasp_launch &L, const double *x, double *y, int64_t w, int lane)
{
    constexpr int P = DASP_SHORT_TILES_PER_WARP;
    const int t = lane & 3;
    const int64_t nt = L.n_tiles13 + L.n_tiles22 + L.n_tiles4, tl0 = w * P;
    const double *val = static_cast<const double *>(L.sh_val);
    double a[P], xv[P];
    int cl[P], split[P], row0[P], row1[P];
#pragma unroll
    for (int u = 0; u < P; u++) {
        const int64_t tile = tl0 + u, p = tile * DASP_SHORT_TILE + lane;
        a[u] = 0.0, cl[u] = DASP_PAD_COL, split[u] = DASP_SHORT_K, row0[u] = row1[u] = -1;
        if (tile < nt) {
            a[u] = __ldcs(val + p);
            cl[u] = __ldcs(L.sh_col + p);
            split[u] = short_split(L, tile);
            short_rows(L, tile, split[u], lane, row0[u], row1[u]);
        }
    }
#pragma unroll
    for (int u = 0; u < P; u++)
        xv[u] = cl[u] >= 0 ? __ldg(x + cl[u]) : 0.0;
#pragma unroll
    for (int u = 0; u < P; u++) {
        if (tl0 + u >= nt)
            continue;
        double c[2] = {0, 0};
        mma_m8n8k4(c, a[u], t < split[u] ? xv[u] : 0.0);
        if (row0[u] >= 0)
            y[row0[u]] = diag_pick(c, lane);
        if (split[u] < DASP_SHORT_K) {
            double d[2] = {0, 0};
            mma_m8n8k4(d, a[u], t >= split[u] ? xv[u] : 0.0);
            if (row1[u] >= 0)
                y[row1[u]] = diag_pick(d, lane);
        }
    }
}

// f16: m16n8k8, lane 4g+t (t < 2) holds slots 2t, 2t+1 of tile row g; lanes
// t >= 2 hold slots 4-7, which a short tile does not have (zero).
__device__ __forceinline__ void short_warp(const dasp_launch &L, const unsigned short *x, unsigned short *y,
                                           int64_t w, int lane)
{
    constexpr int P = DASP_SHORT_TILES_PER_WARP;
    const int g = lane >> 2, t = lane & 3;
    const int64_t nt = L.n_tiles13 + L.n_tiles22 + L.n_tiles4, tl0 = w * P;
    const unsigned short *val = static_cast<const unsigned short *>(L.sh_val);
    uint32_t a[P];
    int2 cl[P];
    int split[P], row0[P], row1[P];
    unsigned short x0[P], x1[P];
#pragma unroll
    for (int u = 0; u < P; u++) {
        const int64_t tile = tl0 + u, p = tile * DASP_SHORT_TILE + g * DASP_SHORT_K + 2 * t;
        a[u] = 0u, cl[u] = make_int2(DASP_PAD_COL, DASP_PAD_COL), split[u] = DASP_SHORT_K, row0[u] = row1[u] = -1;
        if (tile < nt) {
            if (t < 2) {
                a[u] = __ldcs(reinterpret_cast<const unsigned int *>(val + p));
                cl[u] = __ldcs(reinterpret_cast<const int2 *>(L.sh_col + p));
            }
            split[u] = short_split(L, tile);
            short_rows(L, tile, split[u], lane, row0[u], row1[u]);
        }
    }
#pragma unroll
    for (int u = 0; u < P; u++) {
        x0[u] = x_half(x, cl[u].x);
        x1[u] = x_half(x, cl[u].y);
    }
#pragma unroll
    for (int u = 0; u < P; u++) {
        if (tl0 + u >= nt)
            continue;
        const int s0 = 2 * t, s1 = 2 * t + 1;
        float c[2] = {0, 0};
        mma_m16n8k8_f16(c, a[u], pack_half2(s0 < split[u] ? x0[u] : 0, s1 < split[u] ? x1[u] : 0));
        if (row0[u] >= 0)
            F16::store(y, row0[u], diag_pick(c, lane));
        if (split[u] < DASP_SHORT_K) {
            float d[2] = {0, 0};
            mma_m16n8k8_f16(d, a[u], pack_half2(s0 >= split[u] ? x0[u] : 0, s1 >= split[u] ? x1[u] : 0));
            if (row1[u] >= 0)
                F16::store(y, row1[u], diag_pick(d, lane));
        }
    }
}

// ---- tail: leftover length-1 rows, then empty rows; kTailPerLane a lane ----

template <typename V>
__device__ __forceinline__ void tail_warp(const dasp_launch &L, const typename V::val_t *x, typename V::val_t *y,
                                          int64_t w, int lane)
{
    using val_t = typename V::val_t;
    const val_t *sval = static_cast<const val_t *>(L.single_val);
    const int64_t n = L.n_single + L.n_empty;
    int row[kTailPerLane], cl[kTailPerLane];
    val_t v[kTailPerLane];
#pragma unroll
    for (int u = 0; u < kTailPerLane; u++) {
        const int64_t i = (w * kTailPerLane + u) * 32 + lane;
        row[u] = -1, cl[u] = DASP_PAD_COL, v[u] = 0;
        if (i < L.n_single) {
            row[u] = __ldg(L.single_row + i);
            cl[u] = __ldcs(L.single_col + i);
            v[u] = __ldcs(sval + i);
        } else if (i < n) {
            row[u] = __ldg(L.empty_row + (i - L.n_single));
        }
    }
#pragma unroll
    for (int u = 0; u < kTailPerLane; u++)
        if (row[u] >= 0)
            V::store(y, row[u], cl[u] >= 0 ? V::mul(V::acc(v[u]), V::x_at(x, cl[u])) : typename V::acc_t(0));
}

// ---- empty runs (empty_runs = 1): DASP_RUNS_PER_WARP runs a warp; lane j
// loads run j, then the warp writes each run whole, 32 consecutive rows a
// store ----

template <typename V>
__device__ __forceinline__ void runs_warp(const dasp_launch &L, typename V::val_t *y, int64_t w, int lane)
{
    const int64_t r0 = w * DASP_RUNS_PER_WARP;
    const int64_t left = L.n_runs - r0;
    const int nr = left < DASP_RUNS_PER_WARP ? (int)left : DASP_RUNS_PER_WARP; // uniform over the warp
    int start = 0, len = 0;
    if (lane < nr) {
        start = __ldcs(L.run_start + r0 + lane);
        len = __ldcs(L.run_len + r0 + lane);
    }
    for (int j = 0; j < nr; j++) {
        const int s = __shfl_sync(0xffffffffu, start, j), n = __shfl_sync(0xffffffffu, len, j);
        for (int i = lane; i < n; i += 32)
            V::store(y, s + i, typename V::acc_t(0));
    }
}

// ---- empty rows by bitmap (empty_rows = bitmap): DASP_ZERO_ROWS_PER_WARP
// consecutive rows a warp; lane l loads the warp's word l, then store i
// writes the empty ones of rows 32 i .. 32 i + 31 (256 consecutive bytes of
// y in f64, 8 sectors, instead of up to 32 scattered sectors a store) ----

template <typename V>
__device__ __forceinline__ void zero_warp(const dasp_launch &L, typename V::val_t *y, int64_t w, int lane)
{
    constexpr int kWords = DASP_ZERO_ROWS_PER_WARP / 32;
    const int64_t w0 = w * kWords;
    const uint32_t bits = w0 + lane < L.n_bit_words && lane < kWords ? __ldcs(L.empty_bits + w0 + lane) : 0u;
#pragma unroll 8
    for (int i = 0; i < kWords; i++)
        if ((__shfl_sync(kFull, bits, i) >> lane) & 1u)
            V::store(y, (int)((w0 + i) * 32 + lane), typename V::acc_t(0));
}

// Warps are numbered long segments, medium, short, tail, runs, zero; every role is
// uniform over a warp, so each MMA and shuffle runs with all 32 lanes. E:
// the medium warps' early irregular gather (irr_gather = early).
template <int S, int RB, bool E>
__device__ __forceinline__ void dasp_body(const dasp_launch &L, const void *xv, void *yv)
{
    using V = typename Shape<S>::V;
    using val_t = typename V::val_t;
    const val_t *x = static_cast<const val_t *>(xv);
    val_t *y = static_cast<val_t *>(yv);
    int64_t w = (int64_t)blockIdx.x * L.block_warps + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (w < L.w_long) {
        long_warp<S>(L, x, y, w, lane);
        return;
    }
    w -= L.w_long;
    if (w < L.w_med) {
        medium_warp<S, RB, E>(L, x, y, w, lane);
        return;
    }
    w -= L.w_med;
    if (w < L.w_short) {
        short_warp(L, x, y, w, lane);
        return;
    }
    w -= L.w_short;
    if (w < L.w_tail) {
        tail_warp<V>(L, x, y, w, lane);
        return;
    }
    w -= L.w_tail;
    if (w < L.w_runs) {
        runs_warp<V>(L, y, w, lane);
        return;
    }
    w -= L.w_runs;
    if (w < L.w_zero)
        zero_warp<V>(L, y, w, lane);
}

// C = 1: the same kernel as a separate function whose shared-memory
// carveout dasp_prefer_l1 sets to 0 (l1 = max); the carveout belongs to the
// function, so instances with l1 = driver keep the C = 0 kernels untouched.
// E = true: the early-gather twins, of the kIrrEarly shapes only.
template <int S, int RB, int C, bool E>
__global__ void __launch_bounds__(DASP_BLOCK_THREADS) dasp_kernel(const dasp_launch L, const void *xv, void *yv)
{
    dasp_body<S, RB, E>(L, xv, yv);
}

// The same kernel held to 64 registers (4 blocks, 32 warps an SM), for the
// instances the compiler would otherwise give a few registers more and one
// block less without need: m16n8k4 with 4 row-blocks a warp (66 -> 64, no
// spills; nvcc -Xptxas -v). Late gather only (m16n8k4 has no early twin).
template <int S, int RB, int C>
__global__ void __launch_bounds__(DASP_BLOCK_THREADS, 4) dasp_kernel_r64(const dasp_launch L, const void *xv, void *yv)
{
    dasp_body<S, RB, false>(L, xv, yv);
}

template <int S, int C, bool E>
cudaError_t launch(const dasp_launch &L, const void *x, void *y, unsigned blocks, cudaStream_t s)
{
    switch (L.rb_per_warp) {
    case 1: dasp_kernel<S, 1, C, E><<<blocks, L.block_warps * 32, 0, s>>>(L, x, y); break;
    case 2: dasp_kernel<S, 2, C, E><<<blocks, L.block_warps * 32, 0, s>>>(L, x, y); break;
    case 4:
        if constexpr (S == DASP_F64_M16N8K4 && !E)
            dasp_kernel_r64<S, 4, C><<<blocks, L.block_warps * 32, 0, s>>>(L, x, y);
        else
            dasp_kernel<S, 4, C, E><<<blocks, L.block_warps * 32, 0, s>>>(L, x, y);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

// The kernels of shape S, the l1 = max copies or the others; the early
// twins where S has them and the format asks (irr_gather), else the late.
template <int S>
cudaError_t launch_shape(const dasp_launch &L, const void *x, void *y, unsigned blocks, cudaStream_t s)
{
    if constexpr (kIrrEarly<S>)
        if (L.irr_early)
            return L.l1_max ? launch<S, 1, true>(L, x, y, blocks, s) : launch<S, 0, true>(L, x, y, blocks, s);
    return L.l1_max ? launch<S, 1, false>(L, x, y, blocks, s) : launch<S, 0, false>(L, x, y, blocks, s);
}

} // namespace

// empty_rows = stage: y in row order from the slots the parts stored
// (coalesced reads of pos, stores of y in whole sectors), 0 for the rows
// without a slot.
template <typename T>
__global__ void __launch_bounds__(256) dasp_unstage(const int32_t *__restrict__ pos, const T *__restrict__ ys,
                                                    T *__restrict__ y, int32_t rows)
{
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    const int32_t p = __ldcs(pos + r);
    y[r] = p >= 0 ? ys[p] : T(0);
}

static cudaError_t unstage(const dasp_launch &L, void *y, cudaStream_t s)
{
    const unsigned blocks = (unsigned)(((int64_t)L.stage_rows + 255) / 256);
    if (L.shape >= DASP_F16_M16N8K8)
        dasp_unstage<unsigned short><<<blocks, 256, 0, s>>>(L.stage_pos, static_cast<const unsigned short *>(L.stage_y),
                                                            static_cast<unsigned short *>(y), L.stage_rows);
    else
        dasp_unstage<double><<<blocks, 256, 0, s>>>(L.stage_pos, static_cast<const double *>(L.stage_y),
                                                    static_cast<double *>(y), L.stage_rows);
    return cudaGetLastError();
}

// The row-class kernel (and the memset of empty_rows = memset) into y.
static int parts_launch(const dasp_launch *L, const void *x, void *y, cudaStream_t s)
{
    const int64_t warps = L->w_long + L->w_med + L->w_short + L->w_tail + L->w_runs + L->w_zero;
    const int64_t blocks = (warps + L->block_warps - 1) / L->block_warps;
    if (blocks > INT_MAX)
        return (int)cudaErrorInvalidConfiguration;
    // empty_rows = memset: every row 0 first (one streaming write of y,
    // whole sectors); the kernel then stores the non-empty rows only.
    if (L->y_zero_bytes > 0) {
        const cudaError_t e = cudaMemsetAsync(y, 0, (size_t)L->y_zero_bytes, s);
        if (e != cudaSuccess)
            return (int)e;
    }
    if (warps <= 0)
        return 0;
    const unsigned b = (unsigned)blocks;
    switch (L->shape) {
    case DASP_F64_M8N8K4:
        return L->k4_batch8 ? (int)launch_shape<kF64M8N8K4x8>(*L, x, y, b, s)
                            : (int)launch_shape<DASP_F64_M8N8K4>(*L, x, y, b, s);
    case DASP_F64_M16N8K4: return (int)launch_shape<DASP_F64_M16N8K4>(*L, x, y, b, s);
    case DASP_F64_M16N8K8: return (int)launch_shape<DASP_F64_M16N8K8>(*L, x, y, b, s);
    case DASP_F64_M16N8K16: return (int)launch_shape<DASP_F64_M16N8K16>(*L, x, y, b, s);
    case DASP_F16_M16N8K8: return (int)launch_shape<DASP_F16_M16N8K8>(*L, x, y, b, s);
    case DASP_F16_M16N8K16: return (int)launch_shape<DASP_F16_M16N8K16>(*L, x, y, b, s);
    default: return (int)cudaErrorInvalidValue;
    }
}

extern "C" int dasp_spmv_launch(const dasp_launch *L, const void *x, void *y, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    if (L->stage_rows <= 0)
        return parts_launch(L, x, y, s);
    const int rc = parts_launch(L, x, L->stage_y, s);
    return rc ? rc : (int)unstage(*L, y, s);
}

extern "C" const char *dasp_cuda_error_text(int code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }

extern "C" int dasp_prefer_l1(void)
{
    // Every l1 = max row-class kernel: carveout 0, the most L1 (none of
    // them uses shared memory).
    cudaError_t e = cudaSuccess;
#define DASP_CARVE(S, E)                                                                                  \
    if (e == cudaSuccess)                                                                                    \
        e = cudaFuncSetAttribute(dasp_kernel<S, 1, 1, E>, cudaFuncAttributePreferredSharedMemoryCarveout, 0); \
    if (e == cudaSuccess)                                                                                    \
        e = cudaFuncSetAttribute(dasp_kernel<S, 2, 1, E>, cudaFuncAttributePreferredSharedMemoryCarveout, 0); \
    if (e == cudaSuccess)                                                                                    \
        e = cudaFuncSetAttribute(dasp_kernel<S, 4, 1, E>, cudaFuncAttributePreferredSharedMemoryCarveout, 0);
    DASP_CARVE(DASP_F64_M8N8K4, false)
    DASP_CARVE(kF64M8N8K4x8, false)
    DASP_CARVE(DASP_F64_M16N8K4, false)
    DASP_CARVE(DASP_F64_M16N8K8, false)
    DASP_CARVE(DASP_F64_M16N8K16, false)
    DASP_CARVE(DASP_F16_M16N8K8, false)
    DASP_CARVE(DASP_F16_M16N8K16, false)
    // the early-gather twins (irr_gather = early) of the kIrrEarly shapes
    DASP_CARVE(DASP_F64_M8N8K4, true)
    DASP_CARVE(kF64M8N8K4x8, true)
    DASP_CARVE(DASP_F16_M16N8K8, true)
    DASP_CARVE(DASP_F16_M16N8K16, true)
#undef DASP_CARVE
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(dasp_kernel_r64<DASP_F64_M16N8K4, 4, 1>,
                                 cudaFuncAttributePreferredSharedMemoryCarveout, 0);
    return (int)e;
}
