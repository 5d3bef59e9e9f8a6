/*
 * vbr on the CPU: the kernels of vbr.cu run lane by lane from the format's
 * arrays. Block part: slice by slice, step by step, each running lane takes
 * the next value at the slice's step offset plus its rank among the running
 * lanes (the kernel's ballot), its column from its block (the next block
 * when the current one's width is used up), and adds it into its row's sum.
 * Remainder: W lanes a row striding through it, then the shuffle-down tree.
 * Both with the kernels' fused multiply-adds, so the CPU checks the layout
 * and the lane arithmetic the GPU relies on, bit for bit. On the merge path
 * the remainder is first replayed in the merge-path kernels' decomposition
 * (MERGE_PATH_HOST_V, ../common/merge_path.h) into every row of y, then the
 * block part's rows are added to it.
 */
#include <math.h>

#include "vbr.h"

/* Block value i as a T: stored as V (native or f32), or by the value store
 * (a code's table entry, or the pattern's value). */
#define VBR_BVAL(T, V, i)                                                                              \
    (f->vs.kind == SPMVLAB_STORE_NATIVE ? (T)((const V *)f->bval)[i] : SPMVLAB_VALUE_HOST(T, &f->vs, f->bval, i))

#define VBR_HOST(T, V, FMA, NAME)                                                                       \
    static void NAME##_blocks(const vbr_fmt *f, const T *x, T *y, int add)                             \
    {                                                                                                  \
        for (int32_t q0 = 0; q0 < f->nq; q0 += VBR_WARP) {                                             \
            const int32_t lanes = f->nq - q0 < VBR_WARP ? f->nq - q0 : VBR_WARP, base = f->qptr[q0];   \
            int32_t len[VBR_WARP], k[VBR_WARP], col[VBR_WARP], left[VBR_WARP], most = 0, off = 0;      \
            T acc[VBR_WARP];                                                                           \
            for (int32_t l = 0; l < lanes; l++) {                                                      \
                len[l] = f->qptr[q0 + l + 1] - f->qptr[q0 + l];                                        \
                k[l] = f->qblk[q0 + l];                                                                \
                col[l] = len[l] > 0 ? f->bcol[k[l]] : 0;                                               \
                left[l] = len[l] > 0 ? f->bwid[k[l]] : 0;                                              \
                acc[l] = 0;                                                                            \
                most = len[l] > most ? len[l] : most;                                                  \
            }                                                                                          \
            for (int32_t t = 0; t < most; t++) {                                                       \
                int32_t rank = 0;                                                                      \
                for (int32_t l = 0; l < lanes; l++) {                                                  \
                    if (t >= len[l])                                                                   \
                        continue;                                                                      \
                    acc[l] = FMA(VBR_BVAL(T, V, base + off + rank), x[col[l]], acc[l]);                \
                    rank++;                                                                            \
                    if (--left[l] > 0) {                                                               \
                        col[l]++;                                                                      \
                    } else if (t + 1 < len[l]) {                                                       \
                        k[l]++;                                                                        \
                        col[l] = f->bcol[k[l]];                                                        \
                        left[l] = f->bwid[k[l]];                                                       \
                    }                                                                                  \
                }                                                                                      \
                off += rank;                                                                           \
            }                                                                                          \
            for (int32_t l = 0; l < lanes; l++)                                                        \
                if (add)                                                                               \
                    y[f->qrow ? f->qrow[q0 + l] : q0 + l] += acc[l];                                   \
                else                                                                                   \
                    y[f->qrow ? f->qrow[q0 + l] : q0 + l] = acc[l];                                    \
        }                                                                                              \
    }                                                                                                  \
    static void NAME##_rem(const vbr_fmt *f, const T *x, T *y)                                         \
    {                                                                                                  \
        const V *rval = f->rval;                                                                       \
        const int32_t W = f->rem_lanes;                                                                \
        for (int32_t i = 0; i < f->nr; i++) {                                                          \
            T t[VBR_WARP];                                                                             \
            for (int32_t l = 0; l < W; l++) {                                                          \
                t[l] = 0;                                                                              \
                for (int32_t k = f->rptr[i] + l; k < f->rptr[i + 1]; k += W)                           \
                    t[l] = FMA((T)rval[k], x[f->rcol[k]], t[l]);                                       \
            }                                                                                          \
            for (int32_t s = W / 2; s > 0; s /= 2)                                                     \
                for (int32_t l = 0; l < s; l++)                                                        \
                    t[l] = t[l] + t[l + s];                                                            \
            y[f->rrow ? f->rrow[i] : i] = t[0];                                                        \
        }                                                                                              \
    }                                                                                                  \
    MERGE_PATH_HOST_V(NAME##_merge, T, V)                                                              \
    static void NAME(const vbr_fmt *f, const T *x, T *y)                                               \
    {                                                                                                  \
        if (f->rem_merge) {                                                                            \
            NAME##_merge(&f->mdev, f->rptr, f->rcol, (const V *)f->rval, f->s_end, x, y);              \
            NAME##_blocks(f, x, y, 1);                                                                 \
            return;                                                                                    \
        }                                                                                              \
        NAME##_blocks(f, x, y, 0);                                                                     \
        NAME##_rem(f, x, y);                                                                           \
    }

VBR_HOST(double, double, fma, vbr_host_f64_native)
VBR_HOST(double, float, fma, vbr_host_f64_stored_f32)
VBR_HOST(float, float, fmaf, vbr_host_f32_native)

void vbr_host_f64(const vbr_fmt *f, const double *x, double *y)
{
    if (f->store_f32)
        vbr_host_f64_stored_f32(f, x, y);
    else
        vbr_host_f64_native(f, x, y);
}

void vbr_host_f32(const vbr_fmt *f, const float *x, float *y) { vbr_host_f32_native(f, x, y); }
