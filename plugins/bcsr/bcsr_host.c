/*
 * bcsr on the CPU: the kernel of the format's layout run lane by lane from
 * its own arrays — for the warp layout (bcsr.cu) the same fixed positions
 * per lane and the same xor-shuffle tree, for the slice layout
 * (bcsr_slice.cu) the same per-row order, both with the same fused
 * multiply-adds — so the CPU checks the layout and the lane arithmetic the
 * GPU relies on, and f32 results match the device's bits.
 */
#include <math.h>

#include "bcsr.h"

/* Entry pos of a stored array of f (bval or rval) as a T: the value, its
 * code's table entry or the pattern's value. */
#define BCSR_VALUE(T, stored, pos) SPMVLAB_VALUE_HOST(T, &f->vs, stored, pos)

#define BCSR_HOST(T, FMA)                                                                           \
    void bcsr_host_##T##_rows(const bcsr_fmt *f, const T *x, T *y)                                  \
    {                                                                                               \
        const int rc = f->r * f->c, two = rc > BCSR_WARP, g = two ? 1 : BCSR_WARP / rc;             \
        for (int32_t br = 0; br < f->nbr; br++) {                                                   \
            T acc0[BCSR_WARP], acc1[BCSR_WARP], t[BCSR_WARP], u[BCSR_WARP];                         \
            int ii0[BCSR_WARP], ii1[BCSR_WARP], act0[BCSR_WARP], act1[BCSR_WARP];                   \
            for (int l = 0; l < BCSR_WARP; l++) {                                                   \
                int goff = two ? 0 : l / rc, p0 = two ? l : l - goff * rc, p1 = l + BCSR_WARP;      \
                int jj0 = p0 % f->c, jj1 = p1 % f->c;                                               \
                act0[l] = goff < g;                                                                 \
                act1[l] = two && p1 < rc;                                                           \
                ii0[l] = p0 / f->c;                                                                 \
                ii1[l] = p1 / f->c;                                                                 \
                acc0[l] = acc1[l] = 0;                                                              \
                /* chunks of 32 blocks; group goff takes j = goff, goff + g, ... of each */        \
                for (int32_t cb = f->bptr[br]; act0[l] && cb < f->bptr[br + 1]; cb += BCSR_WARP) { \
                    int32_t nb = f->bptr[br + 1] - cb < BCSR_WARP ? f->bptr[br + 1] - cb : BCSR_WARP; \
                    for (int32_t b = cb + goff; b < cb + nb; b += g) {                              \
                        size_t v = (size_t)b * (size_t)rc;                                          \
                        acc0[l] = FMA(BCSR_VALUE(T, f->bval, v + p0), x[f->bcol[b] + jj0], acc0[l]); \
                        if (act1[l])                                                                \
                            acc1[l] = FMA(BCSR_VALUE(T, f->bval, v + p1), x[f->bcol[b] + jj1], acc1[l]); \
                    }                                                                               \
                }                                                                                   \
            }                                                                                       \
            for (int ii = 0; ii < f->r; ii++) {                                                     \
                int64_t row = (int64_t)br * f->r + ii;                                              \
                for (int l = 0; l < BCSR_WARP; l++) {                                               \
                    t[l] = act0[l] && ii0[l] == ii ? acc0[l] : (T)0;                                \
                    if (two)                                                                        \
                        t[l] += act1[l] && ii1[l] == ii ? acc1[l] : (T)0;                           \
                    if (f->rptr && row < f->rows)                                                   \
                        for (int32_t k = f->rptr[row] + l; k < f->rptr[row + 1]; k += BCSR_WARP)    \
                            t[l] = FMA(BCSR_VALUE(T, f->rval, k), x[f->rcol[k]], t[l]);             \
                }                                                                                   \
                for (int m = BCSR_WARP / 2; m > 0; m >>= 1) {                                       \
                    for (int l = 0; l < BCSR_WARP; l++)                                             \
                        u[l] = t[l] + t[l ^ m];                                                     \
                    for (int l = 0; l < BCSR_WARP; l++)                                             \
                        t[l] = u[l];                                                                \
                }                                                                                   \
                if (row < f->rows)                                                                  \
                    y[row] = t[0];                                                                  \
            }                                                                                       \
        }                                                                                           \
    }

static BCSR_HOST(double, fma)
static BCSR_HOST(float, fmaf)

void bcsr_host_f64(const bcsr_fmt *f, const double *x, double *y)
{
    if (f->slice)
        bcsr_slice_host_f64(f, x, y);
    else
        bcsr_host_double_rows(f, x, y);
}
void bcsr_host_f32(const bcsr_fmt *f, const float *x, float *y)
{
    if (f->slice)
        bcsr_slice_host_f32(f, x, y);
    else
        bcsr_host_float_rows(f, x, y);
}

/* The slice kernel of bcsr_slice.cu, lane by lane: each row's sum in one
 * accumulator, blocks in step order and columns in order, then the row's
 * remainder entries, with the kernel's fused multiply-adds. */
#define BCSR_SLICE_HOST(T, FMA)                                                                     \
    void bcsr_slice_host_##T##_rows(const bcsr_fmt *f, const T *x, T *y)                            \
    {                                                                                               \
        const int r = f->r, c = f->c;                                                               \
        for (int32_t s = 0; s < f->nslices; s++) {                                                  \
            int64_t br0 = (int64_t)s * f->slice_h;                                                  \
            int32_t nbs = f->nbr - br0 < f->slice_h ? (int32_t)(f->nbr - br0) : f->slice_h;         \
            int32_t lanes = nbs * r;                                                                \
            for (int32_t lane = 0; lane < lanes; lane++) {                                          \
                int32_t b = lane / r, ii = lane - b * r;                                            \
                int64_t br = br0 + b, row = br * r + ii;                                            \
                const int32_t *cp = f->bcol + f->sptr[s] + b;                                       \
                size_t vp = (size_t)f->sptr[s] * (size_t)(r * c) + (size_t)lane;                   \
                T acc = 0;                                                                          \
                for (int32_t k = 0; k < f->bptr[br + 1] - f->bptr[br]; k++)                         \
                    for (int jj = 0; jj < c; jj++)                                                  \
                        acc = FMA(BCSR_VALUE(T, f->bval, vp + ((size_t)k * c + jj) * lanes),        \
                                  x[cp[(size_t)k * nbs] + jj], acc);                                \
                if (row >= f->rows)                                                                 \
                    continue;                                                                       \
                if (f->rptr)                                                                        \
                    for (int32_t q = f->rptr[row]; q < f->rptr[row + 1]; q++)                       \
                        acc = FMA(BCSR_VALUE(T, f->rval, q), x[f->rcol[q]], acc);                   \
                y[row] = acc;                                                                       \
            }                                                                                       \
        }                                                                                           \
    }

static BCSR_SLICE_HOST(double, fma)
static BCSR_SLICE_HOST(float, fmaf)

void bcsr_slice_host_f64(const bcsr_fmt *f, const double *x, double *y)
{
    bcsr_slice_host_double_rows(f, x, y);
}
void bcsr_slice_host_f32(const bcsr_fmt *f, const float *x, float *y) { bcsr_slice_host_float_rows(f, x, y); }
