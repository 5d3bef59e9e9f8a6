/*
 * vbr on the CPU: the kernel of vbr.cu run lane by lane from the format's
 * arrays — lane l = g h + i of a block row of height h takes positions
 * l, l + G h, ... (G = 32 / h) of each chunk of 32 blocks, the sums of a
 * row's G lanes added in lane order, the remainder by the warp's strided
 * lanes and xor tree — with the kernel's fused multiply-adds, so the CPU
 * checks the layout and the lane arithmetic the GPU relies on.
 */
#include <math.h>

#include "vbr.h"

#define VBR_HOST(T, V, FMA, NAME)                                                                   \
    static void NAME(const vbr_fmt *f, const T *x, T *y)                                            \
    {                                                                                              \
        const V *bval = f->bval, *rval = f->rval;                                                  \
        for (int32_t b = 0; b < f->nbr; b++) {                                                     \
            const int32_t r0 = f->rpart[b], h = f->rpart[b + 1] - r0, G = VBR_WARP / h, L = G * h; \
            T acc[VBR_WARP] = {0}, t[VBR_WARP], u[VBR_WARP];                                        \
            for (int32_t cb = f->bptr[b]; cb < f->bptr[b + 1]; cb += VBR_WARP) {                   \
                int32_t ce = f->bptr[b + 1] - cb < VBR_WARP ? f->bptr[b + 1] : cb + VBR_WARP;      \
                int32_t base = f->voff[cb], end = f->voff[ce] - base;                              \
                for (int32_t s = 0; s < end; s += L)                                               \
                    for (int32_t l = 0; l < L && s + l < end; l++) {                               \
                        int32_t p = s + l, q = cb;                                                 \
                        while (q + 1 < ce && f->voff[q + 1] - base <= p)                           \
                            q++;                                                                   \
                        int32_t col = f->cpart[f->bcol[q]] + (p - (f->voff[q] - base)) / h;        \
                        acc[l] = FMA((T)bval[base + p], x[col], acc[l]);                           \
                    }                                                                              \
            }                                                                                      \
            for (int32_t i = 0; i < h; i++) {                                                      \
                T sum = acc[i];                                                                    \
                for (int32_t g = 1; g < G; g++)                                                    \
                    sum += acc[g * h + i];                                                         \
                if (f->rptr) {                                                                     \
                    for (int l = 0; l < VBR_WARP; l++) {                                           \
                        t[l] = 0;                                                                  \
                        for (int32_t k = f->rptr[r0 + i] + l; k < f->rptr[r0 + i + 1]; k += VBR_WARP) \
                            t[l] = FMA((T)rval[k], x[f->rcol[k]], t[l]);                           \
                    }                                                                              \
                    for (int m = VBR_WARP / 2; m > 0; m >>= 1) {                                   \
                        for (int l = 0; l < VBR_WARP; l++)                                         \
                            u[l] = t[l] + t[l ^ m];                                                \
                        for (int l = 0; l < VBR_WARP; l++)                                         \
                            t[l] = u[l];                                                           \
                    }                                                                              \
                    sum += t[0];                                                                   \
                }                                                                                  \
                y[r0 + i] = sum;                                                                   \
            }                                                                                      \
        }                                                                                          \
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
