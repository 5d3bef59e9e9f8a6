/*
 * Statistics for A/B measurements (docs/design.md §6, docs/methodology.md):
 * order statistics, a fixed-seed random stream, bootstrap confidence
 * intervals for ratios of medians and for geometric means, the win / loss /
 * tie rule and the performance profile. Pure C, no allocation beyond
 * scratch copies, deterministic for a seed on every machine.
 */
#ifndef SPMVLAB_STATS_H
#define SPMVLAB_STATS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* xoshiro256** seeded through splitmix64: the same numbers for a seed on
 * every machine and compiler. */
typedef struct spmvlab_rng {
    uint64_t s[4]; /* state; never all zero */
} spmvlab_rng;

void spmvlab_rng_seed(spmvlab_rng *r, uint64_t seed);
uint64_t spmvlab_rng_next(spmvlab_rng *r);
/* Uniform integer in [0, n) without modulo bias; 0 when n == 0. */
uint32_t spmvlab_rng_below(spmvlab_rng *r, uint32_t n);

/* Quantile p in [0, 1] of n values by linear interpolation between the
 * closest ranks (h = (n - 1)·p; Hyndman & Fan type 7, the default of R and
 * NumPy). NaN values are ignored; NaN when none is left. x is not changed. */
double spmvlab_quantile(const double *x, int n, double p);
/* The median (quantile 0.5: the mean of the two middle values when the
 * count is even). */
double spmvlab_median(const double *x, int n);
/* The same on a scratch array the caller owns (reordered in place; no NaN
 * allowed); used inside bootstrap loops. */
double spmvlab_median_inplace(double *x, int n);

/* Geometric mean of n positive values; NaN when n == 0 or any value is not
 * a positive finite number. */
double spmvlab_geomean(const double *x, int n);

/* An estimate with a two-sided confidence interval. */
typedef struct spmvlab_ci {
    double point;   /* the estimate on the full sample */
    double lo, hi;  /* percentile-bootstrap bounds; lo <= point <= hi is not guaranteed */
} spmvlab_ci;

/* Ratio of medians median(num) / median(den) with a percentile-bootstrap
 * interval at level (e.g. 0.95) over iters resamples. paired (requires
 * nnum == nden): sample i of num and den were taken in the same round, and
 * rounds are resampled together, so drift that hits both cancels;
 * otherwise each sample is resampled on its own. Returns 0, or -1 when a
 * sample is empty, holds a value <= 0 or NaN, or memory runs out (out is
 * then all NaN). */
int spmvlab_bootstrap_ratio(const double *num, int nnum, const double *den, int nden, int paired, int iters,
                            double level, uint64_t seed, spmvlab_ci *out);

/* Geometric mean of n positive values with a percentile-bootstrap interval
 * over the values (e.g. per-matrix speedups; resampling matrices). Returns 0
 * or -1 as spmvlab_bootstrap_ratio. n == 1 gives a zero-width interval. */
int spmvlab_bootstrap_geomean(const double *x, int n, int iters, double level, uint64_t seed, spmvlab_ci *out);

/* Outcome of one comparison from the interval of a speedup (baseline time /
 * instance time): a win only when the whole interval lies above 1 and the
 * speedup itself exceeds 1 + noise; a loss only when the whole interval
 * lies below 1 and the speedup is under 1 / (1 + noise); else a tie. noise
 * (a fraction, e.g. 0.01) keeps differences too small to matter from
 * counting, however precisely they were measured; 0 gives the bare
 * interval rule. */
typedef enum spmvlab_outcome {
    SPMVLAB_TIE = 0,
    SPMVLAB_WIN = 1,
    SPMVLAB_LOSS = -1
} spmvlab_outcome;

spmvlab_outcome spmvlab_outcome_of(const spmvlab_ci *speedup, double noise);
/* "win", "loss" or "tie". */
const char *spmvlab_outcome_name(spmvlab_outcome o);

/* Performance profile (Dolan & Moré 2002). times[m·ninst + i] is instance
 * i's time on matrix m; NaN, Inf or <= 0 means it failed there. For every
 * instance i and factor taus[t] >= 1, frac[i·ntau + t] is the fraction of
 * matrices on which i is within taus[t] of the fastest instance on that
 * matrix (time <= tau x fastest). Matrices on which every instance failed
 * are left out; with none left, frac is all zero. */
void spmvlab_profile(const double *times, int nmat, int ninst, const double *taus, int ntau, double *frac);

#ifdef __cplusplus
}
#endif
#endif
