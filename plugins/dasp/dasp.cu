// DASP kernels: one launch, four kinds of warps — long-row segments, medium
// row-blocks, short tiles, and the tail (singles and empty rows). The format
// and the MMA diagonal trick are described at the top of dasp.c; dasp_host.c
// runs the same steps on the CPU.
#include <climits>
#include <cstdint>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "dasp.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "dasp needs sm_80 or newer (f64 and f16 mma.sync)"
#endif

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kWarps = DASP_BLOCK_THREADS / 32;

// ---- MMA instructions -------------------------------------------------------
// Only rows 0-7 of A are used (row g: the lane's own values); C[g][g] is in
// lane 4g + g/2, element g & 1. c[2], c[3] (rows 8-15) are never read.

__device__ __forceinline__ void mma_m8n8k4(double (&c)[4], double a, double b)
{
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
                 : "+d"(c[0]), "+d"(c[1])
                 : "d"(a), "d"(b));
}

__device__ __forceinline__ void mma_m16n8k4(double (&c)[4], double a, double b)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                 : "d"(a), "d"(0.0), "d"(b));
#else
    mma_m8n8k4(c, a, b);
#endif
}

// A: a0 (g, t), a2 (g, t+4) hold the lane's values; B: b0 (t, g), b1 (t+4, g).
__device__ __forceinline__ void mma_m16n8k8(double (&c)[4], const double (&a)[2], const double (&b)[2])
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                 : "d"(a[0]), "d"(0.0), "d"(a[1]), "d"(0.0), "d"(b[0]), "d"(b[1]));
#else
    mma_m8n8k4(c, a[0], b[0]);
    mma_m8n8k4(c, a[1], b[1]);
#endif
}

// A: a(2j) = (g, t+4j) for the lane's value j; B: b(j) = (t+4j, g).
__device__ __forceinline__ void mma_m16n8k16(double (&c)[4], const double (&a)[4], const double (&b)[4])
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
                 : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
                 : "d"(a[0]), "d"(0.0), "d"(a[1]), "d"(0.0), "d"(a[2]), "d"(0.0), "d"(a[3]), "d"(0.0),
                   "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
#else
    for (int j = 0; j < 4; j++)
        mma_m8n8k4(c, a[j], b[j]);
#endif
}

// f16 x f16 + f32. A reg0 = {(g, 2t), (g, 2t+1)}, B reg0 = {(2t, g), (2t+1, g)}.
__device__ __forceinline__ void mma_m16n8k8_f16(float (&c)[4], uint32_t a0, uint32_t b0)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(0u), "r"(b0));
}

// A reg0 = row g slots 2t, 2t+1; reg2 = row g slots 2t+8, 2t+9; B likewise.
__device__ __forceinline__ void mma_m16n8k16_f16(float (&c)[4], uint32_t a0, uint32_t a2, uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a0), "r"(0u), "r"(a2), "r"(0u), "r"(b0), "r"(b1));
}

// ---- value types ----------------------------------------------------------------

struct F64 {
    using val_t = double;
    using acc_t = double;
    __device__ static double acc(double v) { return v; }
    __device__ static double x_at(const double *x, int c) { return __ldg(x + c); }
    __device__ static double fma(double a, double b, double c) { return __fma_rn(a, b, c); }
    __device__ static double mul(double a, double b) { return __dmul_rn(a, b); }
    __device__ static void store(double *y, int row, double v) { y[row] = v; }
};

struct F16 {
    using val_t = unsigned short; // binary16 bits
    using acc_t = float;
    __device__ static float acc(unsigned short v) { return __half2float(__ushort_as_half(v)); }
    __device__ static float x_at(const unsigned short *x, int c) { return acc(__ldg(x + c)); }
    __device__ static float fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
    __device__ static float mul(float a, float b) { return __fmul_rn(a, b); }
    __device__ static void store(unsigned short *y, int row, float v) { y[row] = __half_as_ushort(__float2half_rn(v)); }
};

__device__ __forceinline__ uint32_t pack_half2(unsigned short lo, unsigned short hi)
{
    return (uint32_t)lo | ((uint32_t)hi << 16);
}

__device__ __forceinline__ unsigned short x_half(const unsigned short *x, int c)
{
    return c >= 0 ? __ldg(x + c) : (unsigned short)0;
}

// ---- fragments: one lane's VPL values of a block row, loaded streaming, and
// the x values at their columns (read-only path; 0 for padding slots) --------

template <int VPL>
struct FragF64 {
    double a[VPL], b[VPL];
    __device__ void load(const double *val, const int32_t *col, int64_t off, const double *x)
    {
        int c[VPL];
        if constexpr (VPL == 1) {
            a[0] = __ldcs(val + off);
            c[0] = __ldcs(col + off);
        } else if constexpr (VPL == 2) {
            double2 v = __ldcs(reinterpret_cast<const double2 *>(val + off));
            int2 k = __ldcs(reinterpret_cast<const int2 *>(col + off));
            a[0] = v.x, a[1] = v.y, c[0] = k.x, c[1] = k.y;
        } else {
            double2 v0 = __ldcs(reinterpret_cast<const double2 *>(val + off));
            double2 v1 = __ldcs(reinterpret_cast<const double2 *>(val + off + 2));
            int4 k = __ldcs(reinterpret_cast<const int4 *>(col + off));
            a[0] = v0.x, a[1] = v0.y, a[2] = v1.x, a[3] = v1.y;
            c[0] = k.x, c[1] = k.y, c[2] = k.z, c[3] = k.w;
        }
#pragma unroll
        for (int j = 0; j < VPL; j++)
            b[j] = c[j] >= 0 ? __ldg(x + c[j]) : 0.0;
    }
    __device__ void zero()
    {
#pragma unroll
        for (int j = 0; j < VPL; j++)
            a[j] = b[j] = 0.0;
    }
};

template <int VPL>
struct FragF16 {
    uint32_t a[VPL / 2], b[VPL / 2];
    __device__ void load(const unsigned short *val, const int32_t *col, int64_t off, const unsigned short *x)
    {
        if constexpr (VPL == 2) {
            a[0] = __ldcs(reinterpret_cast<const unsigned int *>(val + off));
            int2 k = __ldcs(reinterpret_cast<const int2 *>(col + off));
            b[0] = pack_half2(x_half(x, k.x), x_half(x, k.y));
        } else {
            uint2 v = __ldcs(reinterpret_cast<const uint2 *>(val + off));
            int4 k = __ldcs(reinterpret_cast<const int4 *>(col + off));
            a[0] = v.x, a[1] = v.y;
            b[0] = pack_half2(x_half(x, k.x), x_half(x, k.y));
            b[1] = pack_half2(x_half(x, k.z), x_half(x, k.w));
        }
    }
    __device__ void zero()
    {
#pragma unroll
        for (int j = 0; j < VPL / 2; j++)
            a[j] = b[j] = 0u;
    }
};

// ---- shapes: value type, values per lane, fragment, MMA, loads in flight -----

template <int S>
struct Shape;

template <>
struct Shape<DASP_F64_M8N8K4> {
    using V = F64;
    static constexpr int VPL = 1, BK = 4, U = 4;
    using Frag = FragF64<1>;
    __device__ static void mma(double (&c)[4], const Frag &f) { mma_m8n8k4(c, f.a[0], f.b[0]); }
};
template <>
struct Shape<DASP_F64_M16N8K4> {
    using V = F64;
    static constexpr int VPL = 1, BK = 4, U = 4;
    using Frag = FragF64<1>;
    __device__ static void mma(double (&c)[4], const Frag &f) { mma_m16n8k4(c, f.a[0], f.b[0]); }
};
template <>
struct Shape<DASP_F64_M16N8K8> {
    using V = F64;
    static constexpr int VPL = 2, BK = 8, U = 2;
    using Frag = FragF64<2>;
    __device__ static void mma(double (&c)[4], const Frag &f) { mma_m16n8k8(c, f.a, f.b); }
};
template <>
struct Shape<DASP_F64_M16N8K16> {
    using V = F64;
    static constexpr int VPL = 4, BK = 16, U = 1;
    using Frag = FragF64<4>;
    __device__ static void mma(double (&c)[4], const Frag &f) { mma_m16n8k16(c, f.a, f.b); }
};
template <>
struct Shape<DASP_F16_M16N8K8> {
    using V = F16;
    static constexpr int VPL = 2, BK = 8, U = 4;
    using Frag = FragF16<2>;
    __device__ static void mma(float (&c)[4], const Frag &f) { mma_m16n8k8_f16(c, f.a[0], f.b[0]); }
};
template <>
struct Shape<DASP_F16_M16N8K16> {
    using V = F16;
    static constexpr int VPL = 4, BK = 16, U = 2;
    using Frag = FragF16<4>;
    __device__ static void mma(float (&c)[4], const Frag &f) { mma_m16n8k16_f16(c, f.a[0], f.a[1], f.b[0], f.b[1]); }
};
// 8 x 4 blocks on m16n8k8: lanes t < 2 hold slots 2t, 2t+1; t >= 2 hold zero.
template <>
struct Shape<DASP_F16_M16N8K8_K4> {
    using V = F16;
    static constexpr int VPL = 2, BK = 4, U = 4;
    using Frag = FragF16<2>;
    __device__ static void mma(float (&c)[4], const Frag &f) { mma_m16n8k8_f16(c, f.a[0], f.b[0]); }
};

// The medium levels of a top shape (dasp_shape_levels): block widths BK,
// BK/2, ..., 4.
template <int S>
struct Levels {
    static constexpr int N = 1;
    static constexpr int at[DASP_MAX_LEVELS] = {S, S, S};
};
template <>
struct Levels<DASP_F64_M16N8K8> {
    static constexpr int N = 2;
    static constexpr int at[DASP_MAX_LEVELS] = {DASP_F64_M16N8K8, DASP_F64_M16N8K4, 0};
};
template <>
struct Levels<DASP_F64_M16N8K16> {
    static constexpr int N = 3;
    static constexpr int at[DASP_MAX_LEVELS] = {DASP_F64_M16N8K16, DASP_F64_M16N8K8, DASP_F64_M16N8K4};
};
template <>
struct Levels<DASP_F16_M16N8K8> {
    static constexpr int N = 2;
    static constexpr int at[DASP_MAX_LEVELS] = {DASP_F16_M16N8K8, DASP_F16_M16N8K8_K4, 0};
};
template <>
struct Levels<DASP_F16_M16N8K16> {
    static constexpr int N = 3;
    static constexpr int at[DASP_MAX_LEVELS] = {DASP_F16_M16N8K16, DASP_F16_M16N8K8, DASP_F16_M16N8K8_K4};
};

// Sum over the warp; every lane ends with the same bits (dasp_host_impl.h's
// butterfly).
template <typename T>
__device__ __forceinline__ T warp_sum(T v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(kFull, v, off);
    return v;
}

// The diagonal result of block row g = lane / 4, held by lane 4g + g/2.
__device__ __forceinline__ bool holds_diag(int lane)
{
    return (lane & 3) == (lane >> 3);
}
template <typename T>
__device__ __forceinline__ T diag_of(const T (&c)[4], int lane)
{
    return (lane >> 2) & 1 ? c[1] : c[0];
}

// Accumulates blocks [t0, t1) of 8 x BK values at val/col into the MMA
// accumulator c, U blocks at a time: the loads of a chunk are all issued
// before its MMAs (a chunk past t1 loads nothing). Lane 4g+t reads values
// g*BK + t*VPL.. of each block; lanes with t*VPL >= BK (8 x 4 blocks on a
// k8 MMA) and values at or past len (the end of a long row) load nothing
// and take part with zeros.
template <int S>
__device__ __forceinline__ void mma_tiles(typename Shape<S>::V::acc_t (&c)[4], const typename Shape<S>::V::val_t *val,
                                          const int32_t *col, int64_t t0, int64_t t1, int64_t len,
                                          const typename Shape<S>::V::val_t *x, int lane)
{
    using Sh = Shape<S>;
    constexpr int TE = DASP_BM * Sh::BK, U = Sh::U;
    const int64_t lane_off = (lane >> 2) * Sh::BK + (lane & 3) * Sh::VPL;
    const bool active = (lane & 3) * Sh::VPL < Sh::BK;
    for (int64_t t = t0; t < t1; t += U) {
        typename Sh::Frag fr[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int64_t off = (t + u) * TE + lane_off;
            if (t + u < t1 && active && off < len)
                fr[u].load(val, col, off, x);
            else
                fr[u].zero();
        }
#pragma unroll
        for (int u = 0; u < U; u++)
            if (t + u < t1)
                Sh::mma(c, fr[u]);
    }
}

// The medium levels I.. of top shape S for one row-block whose level
// starts (in units of 32 values) are q[0..N] (global memory).
template <int S, int I>
__device__ __forceinline__ void mma_levels(typename Shape<S>::V::acc_t (&c)[4], const dasp_launch &L,
                                           const int32_t *q, const typename Shape<S>::V::val_t *x, int lane)
{
    if constexpr (I < Levels<S>::N) {
        constexpr int SL = Levels<S>::at[I];
        using val_t = typename Shape<S>::V::val_t;
        const int32_t q0 = __ldg(q + I), q1 = __ldg(q + I + 1);
        const int64_t base = (int64_t)q0 * 32;
        const int64_t blocks = ((int64_t)q1 - q0) * 32 / (DASP_BM * Shape<SL>::BK);
        mma_tiles<SL>(c, static_cast<const val_t *>(L.med_val) + base, L.med_col + base, 0, blocks, INT64_MAX, x,
                      lane);
        mma_levels<S, I + 1>(c, L, q, x, lane);
    }
}

// ---- long rows: one warp per segment; the last warp of a row reduces -------

template <int S>
__device__ __forceinline__ void long_warp(const dasp_launch &L, const typename Shape<S>::V::val_t *x,
                                          typename Shape<S>::V::val_t *y, int64_t s, int lane)
{
    using V = typename Shape<S>::V;
    using acc_t = typename V::acc_t;
    constexpr int TE = DASP_BM * Shape<S>::BK;
    const int lr = __ldg(L.seg_row + s);
    const int sp0 = __ldg(L.seg_ptr + lr), nseg = __ldg(L.seg_ptr + lr + 1) - sp0;
    const int64_t base = __ldg(L.long_ptr + lr), len = __ldg(L.long_ptr + lr + 1) - base;
    const int64_t ntiles = (len + TE - 1) / TE, t0 = (int64_t)(s - sp0) * L.seg_tiles;
    const int64_t t1 = t0 + L.seg_tiles < ntiles ? t0 + L.seg_tiles : ntiles;
    acc_t c[4] = {0, 0, 0, 0};
    mma_tiles<S>(c, static_cast<const typename V::val_t *>(L.long_val) + base, L.long_col + base, t0, t1, len, x,
                 lane);
    acc_t v = warp_sum(holds_diag(lane) ? diag_of(c, lane) : acc_t(0));
    const int row = __ldg(L.long_row + lr);
    if (nseg == 1) {
        if (lane == 0)
            V::store(y, row, v);
        return;
    }
    acc_t *partial = static_cast<acc_t *>(L.partial);
    int last = 0;
    if (lane == 0) {
        partial[s] = v;
        __threadfence(); // the partial is visible before the count says so
        last = atomicAdd(L.count + lr, 1) == nseg - 1;
    }
    if (!__shfl_sync(kFull, last, 0))
        return;
    __threadfence();
    acc_t p = 0;
    for (int i = lane; i < nseg; i += 32)
        p += __ldcg(partial + sp0 + i);
    p = warp_sum(p);
    if (lane == 0) {
        V::store(y, row, p);
        L.count[lr] = 0; // ready for the next call
    }
}

// ---- medium rows: rb_per_warp row-blocks per warp ----------------------------

template <int S>
__device__ __forceinline__ void medium_warp(const dasp_launch &L, const typename Shape<S>::V::val_t *x,
                                            typename Shape<S>::V::val_t *y, int64_t w, int lane)
{
    using V = typename Shape<S>::V;
    using val_t = typename V::val_t;
    using acc_t = typename V::acc_t;
    constexpr int NL = Levels<S>::N;
    const int g = lane >> 2, t = lane & 3;
    const val_t *ival = static_cast<const val_t *>(L.irr_val);
    const int64_t rb0 = w * L.rb_per_warp, rb1 = rb0 + L.rb_per_warp < L.n_rb ? rb0 + L.rb_per_warp : L.n_rb;
    for (int64_t rb = rb0; rb < rb1; rb++) {
        const int32_t *q = L.rb_ptr + rb * NL;
        const int64_t r = rb * DASP_BM + g;
        const int i0 = __ldg(L.irr_ptr + r), i1 = __ldg(L.irr_ptr + r + 1);
        // The lane's first irregular entry is loaded before the MMA chain so
        // both streams are in flight together.
        int i = i0 + t;
        val_t v0 = 0;
        int c0 = 0;
        if (i < i1) {
            v0 = __ldcs(ival + i);
            c0 = __ldcs(L.irr_col + i);
        }
        acc_t c[4] = {0, 0, 0, 0};
        mma_levels<S, 0>(c, L, q, x, lane);
        acc_t s = 0;
        if (i < i1)
            s = V::fma(V::acc(v0), V::x_at(x, c0), s);
        for (i += 4; i < i1; i += 4)
            s = V::fma(V::acc(__ldcs(ival + i)), V::x_at(x, __ldcs(L.irr_col + i)), s);
        s += __shfl_xor_sync(kFull, s, 1);
        s += __shfl_xor_sync(kFull, s, 2);
        if (holds_diag(lane)) {
            const int row = __ldg(L.med_row + r);
            if (row >= 0)
                V::store(y, row, diag_of(c, lane) + s);
        }
    }
}

// ---- short tiles: 8 rows x 4 slots; one MMA per packing segment --------------

// Result of segment seg of tile row g into y (diagonal lanes only).
template <typename V, typename T>
__device__ __forceinline__ void short_store(const dasp_launch &L, typename V::val_t *y, int64_t id0, int seg,
                                            const T (&c)[4], int lane)
{
    if (holds_diag(lane)) {
        const int row = __ldg(L.sh_row + id0 + seg * DASP_BM + (lane >> 2));
        if (row >= 0)
            V::store(y, row, diag_of(c, lane));
    }
}

__device__ __forceinline__ int64_t short_id0(const dasp_launch &L, int64_t tile)
{
    const int64_t n2 = L.n_tiles13 + L.n_tiles22;
    return tile < n2 ? tile * DASP_SHORT_IDS2 : n2 * DASP_SHORT_IDS2 + (tile - n2) * DASP_SHORT_IDS1;
}

__device__ __forceinline__ int short_split(const dasp_launch &L, int64_t tile)
{
    return tile < L.n_tiles13 ? 1 : tile < L.n_tiles13 + L.n_tiles22 ? 2 : DASP_SHORT_K;
}

// f64: m8n8k4, lane 4g+t holds slot t of tile row g.
__device__ __forceinline__ void short_warp_f64(const dasp_launch &L, const double *x, double *y, int64_t w, int lane)
{
    constexpr int P = DASP_SHORT_TILES_PER_WARP;
    const int t = lane & 3;
    const int64_t nt = L.n_tiles13 + L.n_tiles22 + L.n_tiles4, tl0 = w * P;
    const double *val = static_cast<const double *>(L.sh_val);
    double a[P], xv[P];
#pragma unroll
    for (int u = 0; u < P; u++) {
        a[u] = xv[u] = 0.0;
        if (tl0 + u < nt) {
            const int64_t p = (tl0 + u) * DASP_SHORT_TILE + lane;
            const int c = __ldcs(L.sh_col + p);
            a[u] = __ldcs(val + p);
            xv[u] = c >= 0 ? __ldg(x + c) : 0.0;
        }
    }
#pragma unroll
    for (int u = 0; u < P; u++) {
        const int64_t tile = tl0 + u;
        if (tile >= nt)
            continue;
        const int split = short_split(L, tile);
        const int64_t id0 = short_id0(L, tile);
        double c[4] = {0, 0, 0, 0};
        mma_m8n8k4(c, a[u], t < split ? xv[u] : 0.0);
        short_store<F64>(L, y, id0, 0, c, lane);
        if (split < DASP_SHORT_K) {
            double d[4] = {0, 0, 0, 0};
            mma_m8n8k4(d, a[u], t >= split ? xv[u] : 0.0);
            short_store<F64>(L, y, id0, 1, d, lane);
        }
    }
}

// f16: m16n8k8, lane 4g+t (t < 2) holds slots 2t, 2t+1 of tile row g; lanes
// t >= 2 hold slots 4-7, which a short tile does not have (zero).
__device__ __forceinline__ void short_warp_f16(const dasp_launch &L, const unsigned short *x, unsigned short *y,
                                               int64_t w, int lane)
{
    constexpr int P = DASP_SHORT_TILES_PER_WARP;
    const int g = lane >> 2, t = lane & 3;
    const int64_t nt = L.n_tiles13 + L.n_tiles22 + L.n_tiles4, tl0 = w * P;
    const unsigned short *val = static_cast<const unsigned short *>(L.sh_val);
    uint32_t a[P];
    unsigned short x0[P], x1[P];
#pragma unroll
    for (int u = 0; u < P; u++) {
        a[u] = 0u;
        x0[u] = x1[u] = 0;
        if (tl0 + u < nt && t < 2) {
            const int64_t p = (tl0 + u) * DASP_SHORT_TILE + g * DASP_SHORT_K + 2 * t;
            const int2 c = __ldcs(reinterpret_cast<const int2 *>(L.sh_col + p));
            a[u] = __ldcs(reinterpret_cast<const unsigned int *>(val + p));
            x0[u] = x_half(x, c.x);
            x1[u] = x_half(x, c.y);
        }
    }
#pragma unroll
    for (int u = 0; u < P; u++) {
        const int64_t tile = tl0 + u;
        if (tile >= nt)
            continue;
        const int split = short_split(L, tile);
        const int64_t id0 = short_id0(L, tile);
        const int s0 = 2 * t, s1 = 2 * t + 1;
        float c[4] = {0, 0, 0, 0};
        mma_m16n8k8_f16(c, a[u], pack_half2(s0 < split ? x0[u] : 0, s1 < split ? x1[u] : 0));
        short_store<F16>(L, y, id0, 0, c, lane);
        if (split < DASP_SHORT_K) {
            float d[4] = {0, 0, 0, 0};
            mma_m16n8k8_f16(d, a[u], pack_half2(s0 >= split ? x0[u] : 0, s1 >= split ? x1[u] : 0));
            short_store<F16>(L, y, id0, 1, d, lane);
        }
    }
}

// ---- tail: one lane per leftover length-1 row, then per empty row -------------

template <typename V>
__device__ __forceinline__ void tail_warp(const dasp_launch &L, const typename V::val_t *x, typename V::val_t *y,
                                          int64_t w, int lane)
{
    const int64_t i = w * 32 + lane;
    if (i < L.n_single) {
        const typename V::val_t *val = static_cast<const typename V::val_t *>(L.single_val);
        V::store(y, __ldg(L.single_row + i), V::mul(V::acc(__ldcs(val + i)), V::x_at(x, __ldcs(L.single_col + i))));
    } else if (i < L.n_single + L.n_empty) {
        V::store(y, __ldg(L.empty_row + (i - L.n_single)), typename V::acc_t(0));
    }
}

__device__ __forceinline__ void short_warp(const dasp_launch &L, const double *x, double *y, int64_t w, int lane)
{
    short_warp_f64(L, x, y, w, lane);
}
__device__ __forceinline__ void short_warp(const dasp_launch &L, const unsigned short *x, unsigned short *y,
                                           int64_t w, int lane)
{
    short_warp_f16(L, x, y, w, lane);
}

// Warps are numbered long segments, medium, short, tail; every role is
// uniform over a warp, so each MMA and shuffle runs with all 32 lanes.
template <int S>
__global__ void __launch_bounds__(DASP_BLOCK_THREADS) dasp_kernel(const dasp_launch L, const void *xv, void *yv)
{
    using V = typename Shape<S>::V;
    using val_t = typename V::val_t;
    const val_t *x = static_cast<const val_t *>(xv);
    val_t *y = static_cast<val_t *>(yv);
    int64_t w = (int64_t)blockIdx.x * kWarps + (threadIdx.x >> 5);
    const int lane = threadIdx.x & 31;
    if (w < L.w_long) {
        long_warp<S>(L, x, y, w, lane);
        return;
    }
    w -= L.w_long;
    if (w < L.w_med) {
        medium_warp<S>(L, x, y, w, lane);
        return;
    }
    w -= L.w_med;
    if (w < L.w_short) {
        short_warp(L, x, y, w, lane);
        return;
    }
    w -= L.w_short;
    if (w < L.w_tail)
        tail_warp<V>(L, x, y, w, lane);
}

template <int S>
cudaError_t launch(const dasp_launch &L, const void *x, void *y, unsigned blocks, cudaStream_t s)
{
    dasp_kernel<S><<<blocks, DASP_BLOCK_THREADS, 0, s>>>(L, x, y);
    return cudaGetLastError();
}

} // namespace

extern "C" int dasp_spmv_launch(const dasp_launch *L, const void *x, void *y, void *stream)
{
    const int64_t warps = L->w_long + L->w_med + L->w_short + L->w_tail;
    if (warps <= 0)
        return 0;
    const int64_t blocks = (warps + kWarps - 1) / kWarps;
    if (blocks > INT_MAX)
        return (int)cudaErrorInvalidConfiguration;
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    const unsigned b = (unsigned)blocks;
    switch (L->shape) {
    case DASP_F64_M8N8K4: return (int)launch<DASP_F64_M8N8K4>(*L, x, y, b, s);
    case DASP_F64_M16N8K4: return (int)launch<DASP_F64_M16N8K4>(*L, x, y, b, s);
    case DASP_F64_M16N8K8: return (int)launch<DASP_F64_M16N8K8>(*L, x, y, b, s);
    case DASP_F64_M16N8K16: return (int)launch<DASP_F64_M16N8K16>(*L, x, y, b, s);
    case DASP_F16_M16N8K8: return (int)launch<DASP_F16_M16N8K8>(*L, x, y, b, s);
    case DASP_F16_M16N8K16: return (int)launch<DASP_F16_M16N8K16>(*L, x, y, b, s);
    default: return (int)cudaErrorInvalidValue;
    }
}

extern "C" const char *dasp_cuda_error_text(int code) { return cudaGetErrorString(static_cast<cudaError_t>(code)); }
