/*
 * coo: which kernel `auto` picks (shared with hyb's COO part). Measured on
 * the H100 (docs/perf/2026-11-23-h100): the blocked kernel streams
 * matrices of regular rows best once they are large; the segmented kernel
 * is faster on launch-bound matrices (a few microseconds per SpMV, where
 * its shorter tiles finish sooner) and on uneven rows, where a lane's 8
 * consecutive entries straddle many row ends.
 */
#ifndef COO_RULE_H
#define COO_RULE_H

#include <math.h>
#include <stdint.h>

#define COO_AUTO_MIN_NNZ (1 << 20) /* blocked from this many non-zeros on */
#define COO_AUTO_MAX_CV 1.0        /* ... when the row lengths' CV is at most this */

/* 1 when `auto` takes the blocked kernel for a CSR row pointer of rows rows
 * and nnz non-zeros, 0 for the segmented one. */
static inline int coo_auto_blocked(const int32_t *row_ptr, int32_t rows, int32_t nnz)
{
    if (nnz < COO_AUTO_MIN_NNZ || rows == 0)
        return 0;
    double mean = (double)nnz / rows, ss = 0;
    for (int32_t i = 0; i < rows; i++) {
        double d = (double)(row_ptr[i + 1] - row_ptr[i]) - mean;
        ss += d * d;
    }
    return sqrt(ss / rows) <= COO_AUTO_MAX_CV * mean;
}

#endif /* COO_RULE_H */
