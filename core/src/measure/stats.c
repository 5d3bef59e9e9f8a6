/* Order statistics, bootstrap intervals, outcomes and profiles; see stats.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/stats.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void spmvlab_rng_seed(spmvlab_rng *r, uint64_t seed)
{
    for (int k = 0; k < 4; k++)
        r->s[k] = splitmix64(&seed);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
        r->s[0] = 1;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t spmvlab_rng_next(spmvlab_rng *r)
{
    uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

uint32_t spmvlab_rng_below(spmvlab_rng *r, uint32_t n)
{
    if (n == 0)
        return 0;
    /* Lemire's multiply-shift with rejection of the biased low range. */
    uint64_t m = (uint64_t)(uint32_t)(spmvlab_rng_next(r) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (uint64_t)(uint32_t)(spmvlab_rng_next(r) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* k-th smallest of x[0..n) (0-based), reordering x (Hoare selection with
 * the median of three as pivot). */
static double select_kth(double *x, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        double a = x[lo], b = x[mid], c = x[hi];
        double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        int i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i <= j) {
                double t = x[i];
                x[i++] = x[j];
                x[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return x[k];
    }
    return x[k];
}

/* Smallest value of x[from..n). */
static double min_from(const double *x, int from, int n)
{
    double m = x[from];
    for (int i = from + 1; i < n; i++)
        if (x[i] < m)
            m = x[i];
    return m;
}

/* Type-7 quantile of x[0..n) without NaN, reordering x. */
static double quantile_inplace(double *x, int n, double p)
{
    if (n <= 0)
        return NAN;
    p = p < 0 ? 0 : p > 1 ? 1 : p;
    double h = (n - 1) * p;
    int k = (int)floor(h);
    double frac = h - k;
    double lo = select_kth(x, n, k);
    if (frac == 0 || k + 1 >= n)
        return lo;
    /* After selection every element past k is >= x[k]: the next order
     * statistic is the smallest of them. */
    double hi = min_from(x, k + 1, n);
    return lo + frac * (hi - lo);
}

double spmvlab_median_inplace(double *x, int n) { return quantile_inplace(x, n, 0.5); }

double spmvlab_quantile(const double *x, int n, double p)
{
    if (n <= 0)
        return NAN;
    double *c = malloc((size_t)n * sizeof *c);
    if (!c)
        return NAN;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(x[i]))
            c[m++] = x[i];
    double q = quantile_inplace(c, m, p);
    free(c);
    return q;
}

double spmvlab_median(const double *x, int n) { return spmvlab_quantile(x, n, 0.5); }

double spmvlab_geomean(const double *x, int n)
{
    if (n <= 0)
        return NAN;
    double s = 0;
    for (int i = 0; i < n; i++) {
        if (!(x[i] > 0) || isinf(x[i]))
            return NAN;
        s += log(x[i]);
    }
    return exp(s / n);
}

static int all_positive(const double *x, int n)
{
    if (n <= 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (!(x[i] > 0) || isinf(x[i]))
            return 0;
    return 1;
}

static void set_nan(spmvlab_ci *out) { out->point = out->lo = out->hi = NAN; }

/* Percentile interval of the iters statistics in stat (reordered). */
static void percentile_interval(double *stat, int iters, double level, spmvlab_ci *out)
{
    double alpha = (1 - level) / 2;
    out->lo = quantile_inplace(stat, iters, alpha);
    out->hi = quantile_inplace(stat, iters, 1 - alpha);
}

int spmvlab_bootstrap_ratio(const double *num, int nnum, const double *den, int nden, int paired, int iters,
                            double level, uint64_t seed, spmvlab_ci *out)
{
    set_nan(out);
    if (!all_positive(num, nnum) || !all_positive(den, nden) || iters < 1 || (paired && nnum != nden))
        return -1;
    double *a = malloc((size_t)nnum * sizeof *a), *b = malloc((size_t)nden * sizeof *b),
           *stat = malloc((size_t)iters * sizeof *stat);
    if (!a || !b || !stat) {
        free(a), free(b), free(stat);
        return -1;
    }
    memcpy(a, num, (size_t)nnum * sizeof *a);
    memcpy(b, den, (size_t)nden * sizeof *b);
    out->point = spmvlab_median_inplace(a, nnum) / spmvlab_median_inplace(b, nden);
    spmvlab_rng rng;
    spmvlab_rng_seed(&rng, seed);
    for (int it = 0; it < iters; it++) {
        if (paired) {
            for (int i = 0; i < nnum; i++) {
                uint32_t k = spmvlab_rng_below(&rng, (uint32_t)nnum);
                a[i] = num[k];
                b[i] = den[k];
            }
        } else {
            for (int i = 0; i < nnum; i++)
                a[i] = num[spmvlab_rng_below(&rng, (uint32_t)nnum)];
            for (int i = 0; i < nden; i++)
                b[i] = den[spmvlab_rng_below(&rng, (uint32_t)nden)];
        }
        stat[it] = spmvlab_median_inplace(a, nnum) / spmvlab_median_inplace(b, nden);
    }
    percentile_interval(stat, iters, level, out);
    free(a), free(b), free(stat);
    return 0;
}

int spmvlab_bootstrap_geomean(const double *x, int n, int iters, double level, uint64_t seed, spmvlab_ci *out)
{
    set_nan(out);
    if (!all_positive(x, n) || iters < 1)
        return -1;
    double *logs = malloc((size_t)n * sizeof *logs), *stat = malloc((size_t)iters * sizeof *stat);
    if (!logs || !stat) {
        free(logs), free(stat);
        return -1;
    }
    double s = 0;
    for (int i = 0; i < n; i++)
        s += (logs[i] = log(x[i]));
    out->point = exp(s / n);
    spmvlab_rng rng;
    spmvlab_rng_seed(&rng, seed);
    for (int it = 0; it < iters; it++) {
        double t = 0;
        for (int i = 0; i < n; i++)
            t += logs[spmvlab_rng_below(&rng, (uint32_t)n)];
        stat[it] = exp(t / n);
    }
    percentile_interval(stat, iters, level, out);
    free(logs), free(stat);
    return 0;
}

spmvlab_outcome spmvlab_outcome_of(const spmvlab_ci *speedup, double noise)
{
    if (!(noise >= 0))
        noise = 0;
    if (speedup->lo > 1 && speedup->point > 1 + noise)
        return SPMVLAB_WIN;
    if (speedup->hi < 1 && speedup->point < 1 / (1 + noise))
        return SPMVLAB_LOSS;
    return SPMVLAB_TIE;
}

const char *spmvlab_outcome_name(spmvlab_outcome o)
{
    return o == SPMVLAB_WIN ? "win" : o == SPMVLAB_LOSS ? "loss" : "tie";
}

static int failed(double t) { return !(t > 0) || isinf(t); }

void spmvlab_profile(const double *times, int nmat, int ninst, const double *taus, int ntau, double *frac)
{
    for (int k = 0; k < ninst * ntau; k++)
        frac[k] = 0;
    int counted = 0;
    for (int m = 0; m < nmat; m++) {
        const double *t = times + (size_t)m * ninst;
        double best = INFINITY;
        for (int i = 0; i < ninst; i++)
            if (!failed(t[i]) && t[i] < best)
                best = t[i];
        if (isinf(best))
            continue;
        counted++;
        for (int i = 0; i < ninst; i++)
            for (int k = 0; k < ntau; k++)
                if (!failed(t[i]) && t[i] <= taus[k] * best)
                    frac[i * ntau + k] += 1;
    }
    for (int k = 0; counted && k < ninst * ntau; k++)
        frac[k] /= counted;
}
