/*
 * Statistics of the A/B harness (core/src/stats.c): quantiles on known
 * samples, the fixed-seed random stream, bootstrap intervals that bracket a
 * known ratio, their false-alarm rate on equal samples, the win / loss /
 * tie rule, geometric means and the performance profile.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "spmvlab/stats.h"
#include "testlib.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) <= 1e-12 * (1 + fabs((double)(b))))

static void quantiles_match_type7_on_known_samples(void)
{
    double odd[] = {3, 1, 2, 5, 4};
    TEST_CHECK(NEAR(spmvlab_median(odd, 5), 3));
    TEST_CHECK(NEAR(spmvlab_quantile(odd, 5, 0.1), 1.4));
    TEST_CHECK(NEAR(spmvlab_quantile(odd, 5, 0.9), 4.6));
    TEST_CHECK(NEAR(spmvlab_quantile(odd, 5, 0), 1) && NEAR(spmvlab_quantile(odd, 5, 1), 5));
    TEST_CHECK(odd[0] == 3 && odd[4] == 4); /* the input is not reordered */
    double even[] = {4, 1, 3, 2};
    TEST_CHECK(NEAR(spmvlab_median(even, 4), 2.5));
    double hundred[100];
    for (int i = 0; i < 100; i++)
        hundred[i] = 100 - i; /* 100 .. 1 */
    TEST_CHECK(NEAR(spmvlab_median(hundred, 100), 50.5));
    TEST_CHECK(NEAR(spmvlab_quantile(hundred, 100, 0.1), 10.9));
    TEST_CHECK(NEAR(spmvlab_quantile(hundred, 100, 0.9), 90.1));
    double one = 7;
    TEST_CHECK(spmvlab_median(&one, 1) == 7 && spmvlab_quantile(&one, 1, 0.9) == 7);
    TEST_CHECK(isnan(spmvlab_median(NULL, 0)));
    double with_nan[] = {NAN, 2, NAN, 4};
    TEST_CHECK(NEAR(spmvlab_median(with_nan, 4), 3));
    double ties[] = {2, 2, 2, 1, 2, 2};
    TEST_CHECK(spmvlab_median(ties, 6) == 2);
    double scratch[] = {9, 8, 7, 6};
    TEST_CHECK(NEAR(spmvlab_median_inplace(scratch, 4), 7.5));
}

static void random_stream_is_fixed_by_its_seed(void)
{
    spmvlab_rng a, b, c;
    spmvlab_rng_seed(&a, 42);
    spmvlab_rng_seed(&b, 42);
    spmvlab_rng_seed(&c, 43);
    int same = 1, differ = 0;
    for (int i = 0; i < 100; i++) {
        uint64_t x = spmvlab_rng_next(&a), y = spmvlab_rng_next(&b), z = spmvlab_rng_next(&c);
        same &= x == y;
        differ |= x != z;
    }
    TEST_CHECK(same && differ);
    /* below(n) stays in range and is close to uniform */
    int counts[7] = {0};
    for (int i = 0; i < 70000; i++) {
        uint32_t v = spmvlab_rng_below(&a, 7);
        TEST_CHECK(v < 7);
        if (v < 7)
            counts[v]++;
    }
    for (int k = 0; k < 7; k++)
        TEST_CHECK(counts[k] > 9500 && counts[k] < 10500);
    TEST_CHECK(spmvlab_rng_below(&a, 0) == 0 && spmvlab_rng_below(&a, 1) == 0);
}

/* n times around a centre with +-spread relative noise. */
static void noisy(double *x, int n, double centre, double spread, spmvlab_rng *r)
{
    for (int i = 0; i < n; i++) {
        double u = (double)(spmvlab_rng_next(r) >> 11) / 9007199254740992.0;
        x[i] = centre * (1 + spread * (2 * u - 1));
    }
}

static void bootstrap_brackets_a_known_ratio(void)
{
    spmvlab_rng r;
    spmvlab_rng_seed(&r, 7);
    double base[100], slow[100];
    noisy(base, 100, 1.0, 0.03, &r);
    noisy(slow, 100, 1.2, 0.03, &r);
    for (int paired = 0; paired < 2; paired++) {
        spmvlab_ci ci;
        /* speedup of slow over base = median(base) / median(slow) ~ 1 / 1.2 */
        TEST_CHECK(spmvlab_bootstrap_ratio(base, 100, slow, 100, paired, 2000, 0.95, 99, &ci) == 0);
        TEST_CHECK(ci.lo <= ci.point && ci.point <= ci.hi);
        TEST_CHECK(ci.lo < 1 / 1.2 * 1.01 && ci.hi > 1 / 1.2 * 0.99);
        TEST_CHECK(ci.hi < 1);
        TEST_CHECK(spmvlab_outcome_of(&ci, 0) == SPMVLAB_LOSS);
        spmvlab_ci again;
        spmvlab_bootstrap_ratio(base, 100, slow, 100, paired, 2000, 0.95, 99, &again);
        TEST_CHECK(again.lo == ci.lo && again.hi == ci.hi); /* fixed seed: same interval */
    }
    /* a 5% difference in 100 samples of 1% noise is found */
    double a[100], b[100];
    noisy(a, 100, 1.00, 0.01, &r);
    noisy(b, 100, 1.05, 0.01, &r);
    spmvlab_ci ci;
    spmvlab_bootstrap_ratio(b, 100, a, 100, 0, 2000, 0.95, 3, &ci);
    TEST_CHECK(spmvlab_outcome_of(&ci, 0) == SPMVLAB_WIN);
    TEST_CHECK(ci.lo < 1.05 && ci.hi > 1.05 * 0.995);
    /* unequal counts work unpaired and are refused paired */
    TEST_CHECK(spmvlab_bootstrap_ratio(a, 100, b, 60, 0, 500, 0.95, 3, &ci) == 0);
    TEST_CHECK(spmvlab_bootstrap_ratio(a, 100, b, 60, 1, 500, 0.95, 3, &ci) == -1 && isnan(ci.point));
    double bad[] = {1, 0, 2};
    TEST_CHECK(spmvlab_bootstrap_ratio(bad, 3, a, 100, 0, 100, 0.95, 1, &ci) == -1);
    TEST_CHECK(spmvlab_bootstrap_ratio(a, 0, b, 100, 0, 100, 0.95, 1, &ci) == -1);
}

/* Equal distributions (A/A): the 95% interval contains 1 in about 95% of
 * experiments, so at most a few in a hundred are called wins or losses. */
static void equal_samples_rarely_differ(void)
{
    spmvlab_rng r;
    spmvlab_rng_seed(&r, 2024);
    int alarms = 0, trials = 200;
    for (int t = 0; t < trials; t++) {
        double a[50], b[50];
        noisy(a, 50, 1.0, 0.05, &r);
        noisy(b, 50, 1.0, 0.05, &r);
        spmvlab_ci ci;
        spmvlab_bootstrap_ratio(a, 50, b, 50, 1, 1000, 0.95, (uint64_t)t, &ci);
        alarms += spmvlab_outcome_of(&ci, 0) != SPMVLAB_TIE;
    }
    TEST_CHECK(alarms <= trials / 10);
}

static void outcome_needs_the_whole_interval_beyond_one(void)
{
    spmvlab_ci win = {1.1, 1.05, 1.2}, loss = {0.9, 0.8, 0.95}, tie = {1.0, 0.98, 1.03}, edge = {1.02, 1.0, 1.04},
               edge_low = {0.98, 0.96, 1.0};
    TEST_CHECK(spmvlab_outcome_of(&win, 0) == SPMVLAB_WIN);
    TEST_CHECK(spmvlab_outcome_of(&loss, 0) == SPMVLAB_LOSS);
    TEST_CHECK(spmvlab_outcome_of(&tie, 0) == SPMVLAB_TIE);
    TEST_CHECK(spmvlab_outcome_of(&edge, 0) == SPMVLAB_TIE);     /* touching 1 is not excluding it */
    TEST_CHECK(spmvlab_outcome_of(&edge_low, 0) == SPMVLAB_TIE);
    spmvlab_ci none = {NAN, NAN, NAN};
    TEST_CHECK(spmvlab_outcome_of(&none, 0) == SPMVLAB_TIE);
    /* a 0.5% difference, however sure, is a tie under a 1% noise threshold; 5% is not */
    spmvlab_ci tiny = {1.005, 1.003, 1.007}, tiny_slow = {1 / 1.005, 1 / 1.007, 1 / 1.003}, five = {0.95, 0.94, 0.96};
    TEST_CHECK(spmvlab_outcome_of(&tiny, 0) == SPMVLAB_WIN && spmvlab_outcome_of(&tiny, 0.01) == SPMVLAB_TIE);
    TEST_CHECK(spmvlab_outcome_of(&tiny_slow, 0.01) == SPMVLAB_TIE);
    TEST_CHECK(spmvlab_outcome_of(&five, 0.01) == SPMVLAB_LOSS);
    spmvlab_ci wide = {1.2, 0.9, 1.5}; /* a large but uncertain speedup */
    TEST_CHECK(spmvlab_outcome_of(&wide, 0.01) == SPMVLAB_TIE);
    TEST_CHECK(!strcmp(spmvlab_outcome_name(SPMVLAB_WIN), "win") && !strcmp(spmvlab_outcome_name(SPMVLAB_LOSS), "loss") &&
               !strcmp(spmvlab_outcome_name(SPMVLAB_TIE), "tie"));
}

static void geometric_means(void)
{
    double x[] = {1, 4, 16};
    TEST_CHECK(NEAR(spmvlab_geomean(x, 3), 4));
    double z[] = {1, 0, 2};
    TEST_CHECK(isnan(spmvlab_geomean(z, 3)) && isnan(spmvlab_geomean(x, 0)));
    spmvlab_ci ci;
    double twos[] = {2, 2, 2, 2};
    TEST_CHECK(spmvlab_bootstrap_geomean(twos, 4, 500, 0.95, 1, &ci) == 0);
    TEST_CHECK(NEAR(ci.point, 2) && NEAR(ci.lo, 2) && NEAR(ci.hi, 2));
    TEST_CHECK(spmvlab_bootstrap_geomean(x, 3, 2000, 0.95, 1, &ci) == 0);
    TEST_CHECK(NEAR(ci.point, 4) && ci.lo >= 1 && ci.hi <= 16 && ci.lo < 4 && ci.hi > 4);
    TEST_CHECK(spmvlab_bootstrap_geomean(z, 3, 100, 0.95, 1, &ci) == -1);
}

static void profile_counts_matrices_within_tau(void)
{
    /* 4 matrices x 3 instances; instance 2 fails on matrix 1; matrix 3 fails everywhere */
    double t[] = {1.0, 1.2, 2.0,   /* best 0 */
                  3.0, 2.0, NAN,   /* best 1 */
                  5.0, 5.0, 5.4,   /* 0 and 1 tie */
                  NAN, -1, INFINITY};
    double taus[] = {1, 1.1, 1.25, 2};
    double f[12];
    spmvlab_profile(t, 4, 3, taus, 4, f);
    /* three matrices count (the fourth failed for everyone) */
    TEST_CHECK(NEAR(f[0 * 4 + 0], 2 / 3.0) && NEAR(f[0 * 4 + 1], 2 / 3.0) && NEAR(f[0 * 4 + 2], 2 / 3.0) &&
               NEAR(f[0 * 4 + 3], 1.0)); /* 3.0 is within 2 x of 2.0 */
    TEST_CHECK(NEAR(f[1 * 4 + 0], 2 / 3.0) && NEAR(f[1 * 4 + 2], 1.0));
    TEST_CHECK(NEAR(f[2 * 4 + 0], 0) && NEAR(f[2 * 4 + 1], 1 / 3.0) && NEAR(f[2 * 4 + 3], 2 / 3.0));
    double none[] = {NAN, NAN};
    spmvlab_profile(none, 1, 2, taus, 1, f);
    TEST_CHECK(f[0] == 0 && f[1] == 0);
}

int main(void)
{
    quantiles_match_type7_on_known_samples();
    random_stream_is_fixed_by_its_seed();
    bootstrap_brackets_a_known_ratio();
    equal_samples_rarely_differ();
    outcome_needs_the_whole_interval_beyond_one();
    geometric_means();
    profile_counts_matrices_within_tau();
    return test_done("stats");
}
