/*
 * Long rows split into warp pieces, shared by sell and jds: rows longer
 * than a threshold leave the format's regular part and are stored as CSR
 * rows (long_ptr) cut into pieces of a fixed number of entries (piece_ptr:
 * a row's first piece; piece_of: a piece's row). One warp sums a piece,
 * lane l taking entries b + l, b + l + 32, ... and a butterfly adding the
 * lanes; a row of one piece is written at once, the pieces of a longer row
 * go to partial[] and one warp a row adds them (lane l: pieces l, l + 32,
 * ...): the warp finishing a row's last piece in the same kernel.
 * long_rows.cuh holds the kernels' bodies; this header the rules and the
 * CPU replay, which adds in the kernels' order so both agree bit for bit.
 * Header only: each plugin compiles its own copy.
 */
#ifndef SPMVLAB_PLUGINS_LONG_ROWS_H
#define SPMVLAB_PLUGINS_LONG_ROWS_H

#include <stdint.h>

#include "lane_tree.h"

#define LONG_ROWS_WARP 32     /* lanes of a warp */
#define LONG_ROWS_MIN 64      /* auto long_row: never below 64 entries */
#define LONG_ROWS_MEAN 4      /* auto long_row: 4 times the mean row length */
#define LONG_ROWS_TPR_SLOTS 8 /* auto threads_per_row: each lane keeps >= 8 entries */

/* long_row = auto: max(LONG_ROWS_MIN, LONG_ROWS_MEAN x ceil(nnz / rows)),
 * clamped to INT32_MAX. */
static inline int32_t long_rows_threshold(int32_t rows, int32_t nnz)
{
    int64_t mean = rows > 0 ? ((int64_t)nnz + rows - 1) / rows : 0;
    int64_t l = LONG_ROWS_MEAN * mean;
    return (int32_t)(l > LONG_ROWS_MIN ? (l < INT32_MAX ? l : INT32_MAX) : LONG_ROWS_MIN);
}

/* Whether rows rows with t lanes each fit one wave of resident_warps warps. */
static inline int long_rows_one_wave(int64_t rows, int32_t t, int64_t resident_warps)
{
    return (rows * t + LONG_ROWS_WARP - 1) / LONG_ROWS_WARP <= resident_warps;
}

/* threads_per_row = auto for the regular part: T doubles while each lane
 * keeps >= LONG_ROWS_TPR_SLOTS entries of a mean_len row and the
 * rows * 2T / 32 warps of the doubled launch fit in resident_warps. */
static inline int32_t long_rows_tpr(double mean_len, int64_t rows, int64_t resident_warps)
{
    int32_t t = 1;
    while (t < LONG_ROWS_WARP && mean_len >= (double)LONG_ROWS_TPR_SLOTS * (2 * t) &&
           long_rows_one_wave(rows, 2 * t, resident_warps))
        t *= 2;
    return t;
}

/* threads_per_row = auto, fitted on the corpus's tune part (sell and jds
 * README.md; docs/perf/2026-11-28-corpus-tune, "Round 2"): uneven rows
 * (coefficient of variation of the row lengths from LONG_ROWS_UNEVEN_CV_MIN
 * to below LONG_ROWS_UNEVEN_CV_MAX) with a mean of LONG_ROWS_UNEVEN_MEAN
 * entries or more take LONG_ROWS_UNEVEN_TPR lanes a row, whatever the
 * residency: power-law and mixed rows of 2e5 - 1.5e7 non-zeros that the
 * rule above kept at 1 or 2 lanes ran at 0.52 - 0.72x cuSPARSE there and
 * at 0.77 - 0.93x with 8. Past the upper bound a few huge rows hold the
 * unevenness, and 8 lanes lost. Refitted with one launch a product (H200):
 * the rule holds while the rows fit LONG_ROWS_UNEVEN_WAVES waves of
 * resident warps at 8 lanes; to 10.9 waves 8 lanes gained (mixed-b-6e6
 * 0.67 -> 0.84x, pl-a2.5-k16-6e6 0.75 -> 0.85x), from 17.5 they lost
 * (wide4-pl-6e6 0.75 -> 0.69x, pl-a2.0-k16-15e6 0.83 -> 0.68x, rmat-s21-ef16
 * 0.86 -> 0.67x). */
#define LONG_ROWS_UNEVEN_MEAN 10.0
#define LONG_ROWS_UNEVEN_CV_MIN 1.0
#define LONG_ROWS_UNEVEN_CV_MAX 100.0
#define LONG_ROWS_UNEVEN_TPR 8
#define LONG_ROWS_UNEVEN_WAVES 12

/* Whether rows rows at LONG_ROWS_UNEVEN_TPR lanes each fit `waves` waves
 * of resident_warps warps. */
static inline int long_rows_waves_fit(int64_t rows, int64_t waves, int64_t resident_warps)
{
    return (rows * LONG_ROWS_UNEVEN_TPR + LONG_ROWS_WARP - 1) / LONG_ROWS_WARP <= waves * resident_warps;
}

/* 1 when the rows of row_ptr (rows of them) are uneven and long enough on
 * average for LONG_ROWS_UNEVEN_TPR lanes (the rule above); 0 otherwise. */
static inline int long_rows_uneven_wide(int32_t rows, const int32_t *row_ptr)
{
    if (rows <= 0 || row_ptr[rows] == row_ptr[0])
        return 0;
    const double mean = (double)(row_ptr[rows] - row_ptr[0]) / rows;
    if (mean < LONG_ROWS_UNEVEN_MEAN)
        return 0;
    double sq = 0.0;
    for (int32_t i = 0; i < rows; i++) {
        const double len = (double)(row_ptr[i + 1] - row_ptr[i]);
        sq += len * len;
    }
    const double cv2 = sq / rows / (mean * mean) - 1.0; /* squared: no sqrt needed */
    return cv2 >= LONG_ROWS_UNEVEN_CV_MIN * LONG_ROWS_UNEVEN_CV_MIN &&
           cv2 < LONG_ROWS_UNEVEN_CV_MAX * LONG_ROWS_UNEVEN_CV_MAX;
}

/* threads_per_row = auto, short chains (fitted on the corpus's tune part
 * with one launch a product; sell and jds README.md): where the widest row
 * of the regular part holds LONG_ROWS_CHAIN_LEN entries or more and
 * LONG_ROWS_CHAIN_UNEVEN times the mean or more, one lane a row leaves the
 * widest rows a chain of 32 - 64 dependent entries, which sets the time
 * while the launch is a few waves: power-law, R-MAT and 70 - 90 %-empty
 * members of 2e4 - 6e5 non-zeros ran at 0.53 - 0.79x cuSPARSE with 1 lane
 * and at 0.89 - 1.9x with LONG_ROWS_UNEVEN_TPR. They take that many lanes
 * while the rows fit LONG_ROWS_CHAIN_WAVES waves of resident warps at that
 * width: the last member that gained had 4.4 waves, the first that lost
 * 5.6 (jds 1.25 -> 0.64x); at 15 and more 8 lanes sank every such member. */
#define LONG_ROWS_CHAIN_LEN 32
#define LONG_ROWS_CHAIN_UNEVEN 2.5
#define LONG_ROWS_CHAIN_WAVES 5

/* 1 when rows rows of mean mean_len entries, the longest max_len, take
 * LONG_ROWS_UNEVEN_TPR lanes by the short-chain rule above; 0 otherwise. */
static inline int long_rows_short_chains(int32_t max_len, double mean_len, int64_t rows, int64_t resident_warps)
{
    return max_len >= LONG_ROWS_CHAIN_LEN && (double)max_len >= LONG_ROWS_CHAIN_UNEVEN * mean_len &&
           long_rows_waves_fit(rows, LONG_ROWS_CHAIN_WAVES, resident_warps);
}

/* The CPU replay for one value type V with fused multiply-add FMA and
 * pieces of PIECE entries:
 * - NAME_tree: lane 0's value after the butterfly __shfl_xor_sync tree over
 *   n lanes (offsets n/2, ..., 1), v overwritten;
 * - NAME_piece: a piece warp's sum over entries [b, e) of col / val;
 * - NAME_long: every long row j into y[row_of[j]], as the piece kernel and
 *   the pieces' sum kernel compute it. */
#define LONG_ROWS_HOST(NAME, V, FMA, PIECE)                                                \
    LANE_TREE_HOST(NAME##_tree, V)                                                         \
    static V NAME##_piece(const int32_t *col, const V *val, const V *x, int32_t b, int32_t e) \
    {                                                                                      \
        V lane[LONG_ROWS_WARP];                                                            \
        for (int32_t l = 0; l < LONG_ROWS_WARP; l++) {                                     \
            lane[l] = 0;                                                                   \
            for (int32_t i = b + l; i < e; i += LONG_ROWS_WARP)                            \
                lane[l] = FMA(val[i], x[col[i]], lane[l]);                                 \
        }                                                                                  \
        return NAME##_tree(lane, LONG_ROWS_WARP);                                          \
    }                                                                                      \
    static void NAME##_long(int32_t nlong, const int32_t *row_of, const int32_t *long_ptr,  \
                            const int32_t *piece_ptr, const int32_t *col, const V *val,    \
                            const V *x, V *y)                                              \
    {                                                                                      \
        for (int32_t j = 0; j < nlong; j++) {                                              \
            int32_t np = piece_ptr[j + 1] - piece_ptr[j];                                  \
            int32_t b = long_ptr[j], e = long_ptr[j + 1];                                  \
            if (np == 1) {                                                                 \
                y[row_of[j]] = NAME##_piece(col, val, x, b, e);                            \
                continue;                                                                  \
            }                                                                              \
            V lane[LONG_ROWS_WARP];                                                        \
            for (int32_t l = 0; l < LONG_ROWS_WARP; l++) {                                 \
                lane[l] = 0;                                                               \
                for (int32_t q = l; q < np; q += LONG_ROWS_WARP) {                         \
                    int32_t qb = b + q * (PIECE);                                          \
                    int32_t qe = qb + (PIECE) < e ? qb + (PIECE) : e;                      \
                    lane[l] = lane[l] + NAME##_piece(col, val, x, qb, qe);                 \
                }                                                                          \
            }                                                                              \
            y[row_of[j]] = NAME##_tree(lane, LONG_ROWS_WARP);                              \
        }                                                                                  \
    }

#endif
