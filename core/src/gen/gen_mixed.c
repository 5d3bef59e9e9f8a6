/* A mix of short, medium and long rows: each row is short, medium or long
 * with the given fractions (long takes the rest), and its length is drawn
 * uniformly in [L/2, 3L/2] around the class length L; columns are distinct
 * and uniformly random. Exercises formats whose padding or work split
 * assumes similar row lengths (ELL, SELL, vector-per-row CSR). */
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct mixed_params {
    gen_common common;
    int n, cols, short_len, medium_len, long_len;
    double short_frac, medium_frac;
} mixed_params;

static const spmvlab_option params[] = {
    GEN_PARAM(mixed_params, n, SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, "rows"),
    GEN_PARAM(mixed_params, cols, SPMVLAB_OPT_INT, "0", 0, 2147483647.0, "columns; 0: as many as rows"),
    GEN_PARAM(mixed_params, short_len, SPMVLAB_OPT_INT, "4", 0, 2147483647.0, "mean length of short rows"),
    GEN_PARAM(mixed_params, medium_len, SPMVLAB_OPT_INT, "64", 0, 2147483647.0, "mean length of medium rows"),
    GEN_PARAM(mixed_params, long_len, SPMVLAB_OPT_INT, "1024", 0, 2147483647.0, "mean length of long rows"),
    GEN_PARAM(mixed_params, short_frac, SPMVLAB_OPT_FLOAT, "0.9", 0, 1, "fraction of short rows"),
    GEN_PARAM(mixed_params, medium_frac, SPMVLAB_OPT_FLOAT, "0.09", 0, 1,
              "fraction of medium rows (long rows: the rest)"),
    GEN_COMMON_PARAMS(mixed_params),
    {0},
};

static int check(const void *params_, spmvlab_err *err)
{
    const mixed_params *p = params_;
    if (p->short_frac + p->medium_frac > 1 + 1e-12)
        return spmvlab_errf(err, "mixed: short_frac + medium_frac = %.6g exceeds 1",
                            p->short_frac + p->medium_frac), -1;
    double lfrac = 1 - p->short_frac - p->medium_frac;
    lfrac = lfrac < 0 ? 0 : lfrac;
    double mean = p->short_frac * p->short_len + p->medium_frac * p->medium_len + lfrac * p->long_len;
    return gen_fits("mixed", "non-zeros (expected)", p->n * mean, err);
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const mixed_params *p = params_;
    int32_t n = p->n, cols = (int32_t)gen_cols(p->n, p->cols);
    int32_t *len = malloc((size_t)n * sizeof *len);
    if (!len)
        return spmvlab_errf(err, "mixed: out of host memory for %d rows", n), -1;
    /* Class thresholds on 32-bit uniforms. */
    uint64_t ts = (uint64_t)(p->short_frac * 4294967296.0),
             tm = (uint64_t)((p->short_frac + p->medium_frac) * 4294967296.0);
    int32_t lens[3] = {p->short_len, p->medium_len, p->long_len};
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)p->common.seed, gen_salt("mixed"));
    for (int32_t i = 0; i < n; i++) {
        uint64_t u = gen_next(&r) >> 32;
        len[i] = gen_jitter_len(&r, lens[u < ts ? 0 : u < tm ? 1 : 2], cols);
    }
    int rc = gen_random_rows(A, "mixed", n, cols, len, &r, err);
    free(len);
    return rc;
}

const spmvlab_gen_kind gen_kind_mixed = {
    "mixed", "short, medium and long random rows in given fractions (n x cols)",
    params, 1, check, generate, sizeof(mixed_params),
};
