/*
 * csr: row statistics, the auto rule, and the adaptive path's binning.
 *
 * The adaptive path is CSR-Adaptive / CSR-stream (Greathouse & Daga, SC'14)
 * with a long-row split: the binning here is done once at conversion.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csr_kernels.h"
#include "csr_plan.h"

csr_stats csr_row_stats(int32_t rows, const int32_t *row_ptr)
{
    csr_stats s = {0, 0, 0};
    if (rows <= 0)
        return s;
    s.mean = (double)row_ptr[rows] / rows;
    double sq = 0;
    for (int32_t i = 0; i < rows; i++) {
        int32_t len = row_ptr[i + 1] - row_ptr[i];
        double d = len - s.mean;
        sq += d * d;
        s.max = len > s.max ? len : s.max;
    }
    s.cv = s.mean > 0 ? sqrt(sq / rows) / s.mean : 0;
    return s;
}

/* Uneven rows (a high coefficient of variation, or a row far beyond the
 * mean) idle the lanes of a fixed-width kernel and serialise on the longest
 * row: adaptive balances them. Regular rows: scalar when they are a few
 * entries (a warp's rows are then one contiguous stretch), vector when they
 * are long enough for 32 lanes and there are rows enough to fill the device
 * or every row is longer than a row block takes (adaptive would split each
 * into a piece of its own, one block and one ticket per row: the collapse of
 * const-k512, measured on the corpus tune part, docs/perf), adaptive
 * otherwise (its staged loads coalesce across short rows). */
csr_kernel csr_auto_kernel(const csr_stats *s, int32_t rows)
{
    if (s->max == 0)
        return CSR_SCALAR;
    int uneven = s->cv > CSR_UNEVEN_CV || s->max > 4 * s->mean + 32;
    if (uneven)
        return CSR_ADAPTIVE;
    if (s->max <= CSR_SCALAR_MAX)
        return CSR_SCALAR;
    if (s->mean >= CSR_VECTOR_MEAN && (rows >= CSR_VECTOR_MIN_ROWS || s->max > CSR_AD_LONG))
        return CSR_VECTOR;
    return CSR_ADAPTIVE;
}

int csr_vector_width(double mean)
{
    int w = 2;
    while (w < 32 && w < mean)
        w *= 2;
    return w;
}

void csr_adaptive_free(csr_adaptive_plan *p)
{
    free(p->blk_row);
    free(p->piece_row);
    free(p->piece_first);
    memset(p, 0, sizeof *p);
}

int csr_adaptive_build(csr_adaptive_plan *p, int32_t rows, const int32_t *row_ptr, int sm_count,
                       int32_t block_rows)
{
    memset(p, 0, sizeof *p);
    const long long want = 2LL * (sm_count > 0 ? sm_count : 132);
    int32_t max_rows = block_rows, cap = CSR_AD_CAP;
    for (;;) { /* blocks are at least rows / max_rows and nnz / cap */
        long long by_rows = rows / max_rows, by_nnz = row_ptr[rows] / cap;
        if ((by_rows > by_nnz ? by_rows : by_nnz) >= want || (max_rows <= 8 && cap <= CSR_AD_LONG))
            break;
        max_rows = max_rows > 8 ? max_rows / 2 : max_rows;
        cap = cap > CSR_AD_LONG ? cap / 2 : cap;
    }
    p->block_rows = max_rows;
    p->block_nnz = cap;
    long long pieces = 0;
    for (int32_t i = 0; i < rows; i++) {
        int32_t len = row_ptr[i + 1] - row_ptr[i];
        if (len > CSR_AD_LONG) {
            pieces += (len + CSR_AD_PIECE - 1) / CSR_AD_PIECE;
            p->long_rows++;
        }
    }
    p->blk_row = malloc(((size_t)rows + 1) * sizeof *p->blk_row);
    p->piece_row = malloc(((size_t)pieces + 1) * sizeof *p->piece_row);
    p->piece_first = malloc(((size_t)pieces + 1) * sizeof *p->piece_first);
    if (!p->blk_row || !p->piece_row || !p->piece_first) {
        csr_adaptive_free(p);
        return -1;
    }
    int32_t nb = 0, np = 0;
    p->blk_row[0] = 0;
    for (int32_t i = 0; i < rows;) {
        int32_t r = i, n = 0;
        while (r < rows && r - i < max_rows) { /* short rows while they fit */
            int32_t l = row_ptr[r + 1] - row_ptr[r];
            if (l > CSR_AD_LONG || n + l > cap)
                break;
            n += l;
            r++;
        }
        while (r < rows && row_ptr[r + 1] - row_ptr[r] > CSR_AD_LONG) { /* long rows follow */
            int32_t first = np, len = row_ptr[r + 1] - row_ptr[r];
            for (int32_t j = 0; j < (len + CSR_AD_PIECE - 1) / CSR_AD_PIECE; j++, np++) {
                p->piece_row[np] = r;
                p->piece_first[np] = first;
            }
            r++;
        }
        if (nb > 0 && row_ptr[i + 1] - row_ptr[i] > CSR_AD_LONG)
            p->blk_row[nb] = r; /* only long rows: they trail the previous block */
        else
            p->blk_row[++nb] = r;
        i = r;
    }
    p->blocks = nb;
    p->pieces = np;
    return 0;
}
