/* Mostly short rows plus a few extremely long ones: n rows of about k
 * random columns (uniform in [k/2, 3k/2]) and long_rows rows, at random
 * positions, of long_len columns each (at most cols). One long row holds
 * as much work as thousands of short ones: formats that give a row to one
 * thread or pad to the longest row suffer. */
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct longrows_params {
    gen_common common;
    int n, cols, k, long_rows, long_len;
} longrows_params;

static const spmvlab_option params[] = {
    GEN_PARAM(longrows_params, n, SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, "rows"),
    GEN_PARAM(longrows_params, cols, SPMVLAB_OPT_INT, "0", 0, 2147483647.0, "columns; 0: as many as rows"),
    GEN_PARAM(longrows_params, k, SPMVLAB_OPT_INT, "8", 0, 2147483647.0, "mean length of the short rows"),
    GEN_PARAM(longrows_params, long_rows, SPMVLAB_OPT_INT, "4", 0, 2147483647.0, "number of long rows"),
    GEN_PARAM(longrows_params, long_len, SPMVLAB_OPT_INT, "100000", 0, 2147483647.0,
              "length of a long row (capped at cols)"),
    GEN_COMMON_PARAMS(longrows_params),
    {0},
};

static int check(const void *params_, spmvlab_err *err)
{
    const longrows_params *p = params_;
    if (p->long_rows > p->n)
        return spmvlab_errf(err, "longrows: long_rows = %d exceeds the %d rows", p->long_rows, p->n), -1;
    double llen = p->long_len < gen_cols(p->n, p->cols) ? p->long_len : gen_cols(p->n, p->cols);
    double kk = p->k < gen_cols(p->n, p->cols) ? p->k : gen_cols(p->n, p->cols);
    return gen_fits("longrows", "non-zeros (expected)",
                    ((double)p->n - p->long_rows) * kk + (double)p->long_rows * llen, err);
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const longrows_params *p = params_;
    int32_t n = p->n, cols = (int32_t)gen_cols(p->n, p->cols), nl = p->long_rows;
    int32_t llen = p->long_len < cols ? p->long_len : cols;
    int32_t *len = malloc((size_t)n * sizeof *len), *at = malloc(((size_t)nl + 1) * sizeof *at);
    int rc = -1;
    if (!len || !at) {
        spmvlab_errf(err, "longrows: out of host memory for %d rows", n);
        goto done;
    }
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)p->common.seed, gen_salt("longrows"));
    gen_sample_sorted(&r, n, nl, at);
    for (int32_t i = 0, q = 0; i < n; i++) {
        if (q < nl && at[q] == i) {
            len[i] = llen;
            q++;
        } else {
            len[i] = gen_jitter_len(&r, p->k, cols);
        }
    }
    rc = gen_random_rows(A, "longrows", n, cols, len, &r, err);
done:
    free(len);
    free(at);
    return rc;
}

const spmvlab_gen_kind gen_kind_longrows = {
    "longrows", "mostly short random rows plus a few extremely long rows (n x cols)",
    params, 1, check, generate, sizeof(longrows_params),
};
