/* A mix of short, medium and long rows: each row is short, medium or long
 * with the given fractions (long takes the rest), and its length is drawn
 * uniformly in [L/2, 3L/2] around the class length L; columns are distinct
 * and uniformly random. Exercises formats whose padding or work split
 * assumes similar row lengths (ELL, SELL, vector-per-row CSR). */
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

enum { P_N, P_COLS, P_SLEN, P_MLEN, P_LLEN, P_SFRAC, P_MFRAC, P_SEED, P_VALUES };

static const spmvlab_option params[] = {
    {"n", SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, NULL, "rows"},
    {"cols", SPMVLAB_OPT_INT, "0", 0, 2147483647.0, NULL, "columns; 0: as many as rows"},
    {"short_len", SPMVLAB_OPT_INT, "4", 0, 2147483647.0, NULL, "mean length of short rows"},
    {"medium_len", SPMVLAB_OPT_INT, "64", 0, 2147483647.0, NULL, "mean length of medium rows"},
    {"long_len", SPMVLAB_OPT_INT, "1024", 0, 2147483647.0, NULL, "mean length of long rows"},
    {"short_frac", SPMVLAB_OPT_FLOAT, "0.9", 0, 1, NULL, "fraction of short rows"},
    {"medium_frac", SPMVLAB_OPT_FLOAT, "0.09", 0, 1, NULL,
     "fraction of medium rows (long rows: the rest)"},
    GEN_COMMON_PARAMS,
    {0},
};

static double cols_of(const double *v)
{
    return v[P_COLS] > 0 ? v[P_COLS] : v[P_N];
}

static int check(const double *v, spmvlab_err *err)
{
    if (v[P_SFRAC] + v[P_MFRAC] > 1 + 1e-12)
        return spmvlab_errf(err, "mixed: short_frac + medium_frac = %.6g exceeds 1",
                            v[P_SFRAC] + v[P_MFRAC]), -1;
    double lfrac = 1 - v[P_SFRAC] - v[P_MFRAC];
    lfrac = lfrac < 0 ? 0 : lfrac;
    double mean = v[P_SFRAC] * v[P_SLEN] + v[P_MFRAC] * v[P_MLEN] + lfrac * v[P_LLEN];
    return gen_fits("mixed", "non-zeros (expected)", v[P_N] * mean, err);
}

static int generate(const double *v, spmvlab_csr *A, spmvlab_err *err)
{
    int32_t n = (int32_t)v[P_N], cols = (int32_t)cols_of(v);
    int32_t *len = malloc((size_t)n * sizeof *len);
    if (!len)
        return spmvlab_errf(err, "mixed: out of host memory for %d rows", n), -1;
    /* Class thresholds on 32-bit uniforms. */
    uint64_t ts = (uint64_t)(v[P_SFRAC] * 4294967296.0),
             tm = (uint64_t)((v[P_SFRAC] + v[P_MFRAC]) * 4294967296.0);
    int32_t lens[3] = {(int32_t)v[P_SLEN], (int32_t)v[P_MLEN], (int32_t)v[P_LLEN]};
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)v[P_SEED], gen_salt("mixed"));
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
    params, 1, check, generate,
};
