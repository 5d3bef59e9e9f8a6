/* Mostly short rows plus a few extremely long ones: n rows of about k
 * random columns (uniform in [k/2, 3k/2]) and long_rows rows, at random
 * positions, of long_len columns each (at most cols). One long row holds
 * as much work as thousands of short ones: formats that give a row to one
 * thread or pad to the longest row suffer. */
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

enum { P_N, P_COLS, P_K, P_LROWS, P_LLEN, P_SEED, P_VALUES };

static const spmvlab_option params[] = {
    {"n", SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, NULL, "rows"},
    {"cols", SPMVLAB_OPT_INT, "0", 0, 2147483647.0, NULL, "columns; 0: as many as rows"},
    {"k", SPMVLAB_OPT_INT, "8", 0, 2147483647.0, NULL, "mean length of the short rows"},
    {"long_rows", SPMVLAB_OPT_INT, "4", 0, 2147483647.0, NULL, "number of long rows"},
    {"long_len", SPMVLAB_OPT_INT, "100000", 0, 2147483647.0, NULL,
     "length of a long row (capped at cols)"},
    GEN_COMMON_PARAMS,
    {0},
};

static double cols_of(const double *v)
{
    return v[P_COLS] > 0 ? v[P_COLS] : v[P_N];
}

static int check(const double *v, spmvlab_err *err)
{
    if (v[P_LROWS] > v[P_N])
        return spmvlab_errf(err, "longrows: long_rows = %.0f exceeds the %.0f rows", v[P_LROWS],
                            v[P_N]), -1;
    double llen = v[P_LLEN] < cols_of(v) ? v[P_LLEN] : cols_of(v);
    double kk = v[P_K] < cols_of(v) ? v[P_K] : cols_of(v);
    return gen_fits("longrows", "non-zeros (expected)",
                    (v[P_N] - v[P_LROWS]) * kk + v[P_LROWS] * llen, err);
}

static int generate(const double *v, spmvlab_csr *A, spmvlab_err *err)
{
    int32_t n = (int32_t)v[P_N], cols = (int32_t)cols_of(v), nl = (int32_t)v[P_LROWS];
    int32_t llen = v[P_LLEN] < cols ? (int32_t)v[P_LLEN] : cols;
    int32_t *len = malloc((size_t)n * sizeof *len), *at = malloc(((size_t)nl + 1) * sizeof *at);
    int rc = -1;
    if (!len || !at) {
        spmvlab_errf(err, "longrows: out of host memory for %d rows", n);
        goto done;
    }
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)v[P_SEED], gen_salt("longrows"));
    gen_sample_sorted(&r, n, nl, at);
    for (int32_t i = 0, q = 0; i < n; i++) {
        if (q < nl && at[q] == i) {
            len[i] = llen;
            q++;
        } else {
            len[i] = gen_jitter_len(&r, (int32_t)v[P_K], cols);
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
    params, 1, check, generate,
};
