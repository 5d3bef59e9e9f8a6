/*
 * csrdu on the CPU: the kernels' algorithm from the format's own arrays, in
 * their summation order (lanes, shuffle trees, the combine block's tree),
 * decoding every column from its chunk as the device does. The tasks are
 * the tiles or stream kernel's tiles and pieces, or the vector kernel's
 * pieces (a piece's fma chains are the same in all three); the
 * vector kernel's rows follow (a lane's fma chain does not depend on how
 * many of its entries a batch loads).
 */
#include <math.h>

#include "csrdu_format.h"

/* One lane group's shuffle tree: lane l adds lane l + s for s = n/2 .. 1. */
#define CSRDU_TREE(lane, n)                                                                   \
    for (int s_ = (n) / 2; s_ > 0; s_ /= 2)                                                    \
        for (int l_ = 0; l_ < s_; l_++)                                                        \
            lane[l_] += lane[l_ + s_];

/* ACC: accumulator and x/y type; VAL(k): value k as ACC; FMA: fused
 * multiply-add of ACC. */
#define CSRDU_HOST(NAME, ACC, VAL, FMA)                                                       \
    void NAME(const csrdu_format *f, const ACC *x, ACC *y)                                      \
    {                                                                                          \
        const csrdu_plan *p = &f->plan;                                                        \
        ACC *partial = f->host_partial, prod[CSRDU_STREAM_TILE];                               \
        for (int32_t t = 0; t < p->ntasks; t++) {                                              \
            csrdu_task tk = p->tasks[t];                                                       \
            ACC lane[32];                                                                      \
            if (tk.r0 < 0) { /* row piece: 32 strided lanes, then the warp's tree */          \
                for (int l = 0; l < 32; l++) {                                                 \
                    ACC s = 0;                                                                 \
                    for (int64_t k = (int64_t)tk.k0 + l; k < tk.k1; k += 32)                   \
                        s = FMA(VAL(k), x[csrdu_index_col(&f->ix, k)], s);                     \
                    lane[l] = s;                                                               \
                }                                                                              \
                CSRDU_TREE(lane, 32)                                                           \
                if (tk.r1 < 0)                                                                 \
                    y[~tk.r0] = lane[0];                                                       \
                else                                                                           \
                    partial[tk.r1] = lane[0];                                                  \
                continue;                                                                      \
            }                                                                                  \
            for (int64_t k = tk.k0; k < tk.k1; k++) /* products staged */                     \
                prod[k - tk.k0] = VAL(k) * x[csrdu_index_col(&f->ix, k)];                      \
            int v = f->kernel == CSRDU_K_STREAM ? csrdu_stream_lanes(tk.r1 - tk.r0) : f->lanes;   \
            for (int32_t r = tk.r0; r < tk.r1; r++) { /* `lanes` lanes a row */               \
                int64_t b = f->row_ptr[r] - tk.k0, e = f->row_ptr[r + 1] - tk.k0;              \
                for (int l = 0; l < v; l++) {                                                  \
                    ACC s = 0;                                                                 \
                    for (int64_t i = b + l; i < e; i += v)                                     \
                        s += prod[i];                                                          \
                    lane[l] = s;                                                               \
                }                                                                              \
                CSRDU_TREE(lane, v)                                                            \
                y[r] = lane[0];                                                                \
            }                                                                                  \
        }                                                                                      \
        for (int32_t r = 0; f->kernel == CSRDU_K_VECTOR && r < f->rows; r++) {                 \
            int64_t b = f->row_ptr[r], e = f->row_ptr[r + 1]; /* vector: `lanes` lanes a row */ \
            if (e - b > f->long_len)                                                           \
                continue; /* a row of the pieces */                                            \
            ACC lane[32] = {0};                                                                \
            for (int l = 0; l < f->lanes; l++) {                                               \
                ACC s = 0;                                                                     \
                for (int64_t k = b + l; k < e; k += f->lanes)                                  \
                    s = FMA(VAL(k), x[csrdu_index_col(&f->ix, k)], s);                         \
                lane[l] = s;                                                                   \
            }                                                                                  \
            CSRDU_TREE(lane, f->lanes)                                                         \
            y[r] = lane[0];                                                                    \
        }                                                                                      \
        for (int32_t q = 0; q < p->nsplits; q++) { /* the combine */                           \
            csrdu_split sp = p->splits[q];                                                     \
            ACC th[CSRDU_COMBINE_THREADS];                                                     \
            for (int t = 0; t < CSRDU_COMBINE_THREADS; t++) {                                  \
                ACC s = 0;                                                                     \
                for (int32_t i = t; i < sp.count; i += CSRDU_COMBINE_THREADS)                  \
                    s += partial[sp.slot0 + i];                                                \
                th[t] = s;                                                                     \
            }                                                                                  \
            CSRDU_TREE(th, CSRDU_COMBINE_THREADS)                                              \
            y[sp.row] = th[0];                                                                 \
        }                                                                                      \
    }

#define VAL_F64(k) \
    (f->vmode == CSRDU_V_F64 ? SPMVLAB_VALUE_HOST(double, &f->vs, f->val, k) : (double)((const float *)f->val)[k])
#define VAL_F32(k) SPMVLAB_VALUE_HOST(float, &f->vs, f->val, k)

CSRDU_HOST(csrdu_host_f64, double, VAL_F64, fma)
CSRDU_HOST(csrdu_host_f32, float, VAL_F32, fmaf)
