/* Power-law row lengths, as in web, social and citation graphs: the length
 * of a non-empty row follows a Pareto law whose density falls as
 * length^-alpha (a smaller alpha: a heavier tail, more very long rows),
 * scaled so the mean non-empty row holds about k entries and capped at
 * max_len. A share `empty` of the rows is empty; columns are distinct and
 * uniformly random. Unlike R-MAT, the exponent, the mean, the empty share
 * and the shape (n x cols) are set independently. */
#include <math.h>
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct powerlaw_params {
    gen_common common;
    int n, cols, max_len;
    double k, alpha, empty;
} powerlaw_params;

static const spmvlab_option params[] = {
    GEN_PARAM(powerlaw_params, n, SPMVLAB_OPT_INT, "10000", 1, 2147483647.0, "rows"),
    GEN_PARAM(powerlaw_params, cols, SPMVLAB_OPT_INT, "0", 0, 2147483647.0, "columns; 0: as many as rows"),
    GEN_PARAM(powerlaw_params, k, SPMVLAB_OPT_FLOAT, "8", 1, 2147483647.0, "mean length of a non-empty row"),
    GEN_PARAM(powerlaw_params, alpha, SPMVLAB_OPT_FLOAT, "2.5", 1.05, 10,
              "exponent of the row-length density (length^-alpha)"),
    GEN_PARAM(powerlaw_params, max_len, SPMVLAB_OPT_INT, "0", 0, 2147483647.0,
              "longest row; 0: the column count"),
    GEN_PARAM(powerlaw_params, empty, SPMVLAB_OPT_FLOAT, "0", 0, 0.99, "share of empty rows"),
    GEN_COMMON_PARAMS(powerlaw_params),
    {0},
};

static int32_t cap_of(const powerlaw_params *p)
{
    return p->max_len > 0 && p->max_len < gen_cols(p->n, p->cols) ? p->max_len : gen_cols(p->n, p->cols);
}

static int check(const void *params_, spmvlab_err *err)
{
    const powerlaw_params *p = params_;
    if (p->k > cap_of(p))
        return spmvlab_errf(err, "powerlaw: k = %g exceeds the longest row allowed (%d)", p->k,
                            cap_of(p)), -1;
    return gen_fits("powerlaw", "non-zeros (expected)", p->n * (1 - p->empty) * p->k, err);
}

static int32_t scaled_len(double raw, double scale, int32_t cap)
{
    double len = floor(raw * scale + 0.5);
    return len < 1 ? 1 : len > cap ? cap : (int32_t)len;
}

/* The scale s for which the capped lengths round(s * raw) sum to about
 * target: the sum grows with s, so bisection finds it. */
static double fit_scale(const double *raw, const unsigned char *empty, int32_t n, int32_t cap,
                        double target)
{
    double lo = 0, hi = cap;
    for (int it = 0; it < 48; it++) {
        double mid = 0.5 * (lo + hi), sum = 0;
        for (int32_t i = 0; i < n; i++)
            sum += empty[i] ? 0 : scaled_len(raw[i], mid, cap);
        if (sum < target)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const powerlaw_params *p = params_;
    int32_t n = p->n, cols = gen_cols(p->n, p->cols), cap = cap_of(p);
    double *raw = malloc((size_t)n * sizeof *raw);
    int32_t *len = malloc((size_t)n * sizeof *len);
    unsigned char *empty = malloc((size_t)n);
    int rc = -1;
    if (!raw || !len || !empty) {
        spmvlab_errf(err, "powerlaw: out of host memory for %d rows", n);
        goto done;
    }
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)p->common.seed, gen_salt("powerlaw"));
    if (gen_pick_empty(&r, n, p->empty, empty, "powerlaw", err))
        goto done;
    /* Inverse transform: u in (0, 1] gives a Pareto draw u^(-1/(alpha-1)) >= 1. */
    double inv = -1.0 / (p->alpha - 1), filled = 0;
    for (int32_t i = 0; i < n; i++) {
        double u = (double)((gen_next(&r) >> 11) + 1) * 0x1p-53;
        raw[i] = pow(u, inv);
        filled += !empty[i];
    }
    double scale = fit_scale(raw, empty, n, cap, p->k * filled);
    for (int32_t i = 0; i < n; i++)
        len[i] = empty[i] ? 0 : scaled_len(raw[i], scale, cap);
    rc = gen_random_rows(A, "powerlaw", n, cols, len, &r, err);
done:
    free(raw);
    free(len);
    free(empty);
    return rc;
}

const spmvlab_gen_kind gen_kind_powerlaw = {
    "powerlaw", "power-law row lengths (exponent alpha, mean k), empty-row share, random columns",
    params, 1, check, generate, sizeof(powerlaw_params),
};
