/*
 * sell: option refusals, the three rules (long_row, sigma, threads_per_row),
 * the long-row split and the footprint formula, all on the CPU. The rules
 * are also called directly (sell_build.c is compiled into this test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sell_format.h"
#include "testlib_plugin.h"

/* sell converted with sets and checked through spmv_host (seed 42). */
static test_instance *convert_ok(const spmvlab_csr *A, spmvlab_dtype d, const char *const *sets)
{
    return test_convert_ok("sell", A, d, sets, 42);
}

static void refuses(const spmvlab_csr *A, const char *const *sets, const char *needle)
{
    test_refuses_saying("sell", A, SPMVLAB_F64, sets, SPMVLAB_INVALID_OPTION, needle);
}

static void test_check_options_refuses_bad_combinations(const spmvlab_csr *A)
{
    const char *c24[] = {"C=24", NULL};
    refuses(A, c24, "C = 24 must divide the warp size");
    const char *s100[] = {"sigma=100", NULL};
    refuses(A, s100, "sigma = 100 must be 1 (no sorting) or a multiple of C = 32");
    const char *s32c64[] = {"C=64", "sigma=32", NULL};
    refuses(A, s32c64, "multiple of C = 64");
    const char *t3[] = {"threads_per_row=3", NULL};
    refuses(A, t3, "threads_per_row = 3 must be a power of two");
    const char *ok1[] = {"C=64", "sigma=1", NULL};
    const char *ok2[] = {"C=96", "sigma=1073741824", "threads_per_row=32", NULL};
    const char *ok3[] = {"C=1", "sigma=7", NULL};
    test_instance_free(convert_ok(A, SPMVLAB_F64, ok1));
    test_instance_free(convert_ok(A, SPMVLAB_F64, ok2));
    test_instance_free(convert_ok(A, SPMVLAB_F64, ok3));
}

/* long_row = auto is max(64, 4 ceil(nnz / rows)). */
static void test_long_row_rule(void)
{
    TEST_CHECK(sell_rule_long_row(1000, 5000) == 64);    /* mean 5: the floor */
    TEST_CHECK(sell_rule_long_row(1000, 120000) == 480); /* mean 120 */
    TEST_CHECK(sell_rule_long_row(3, 10) == 64);
    TEST_CHECK(sell_rule_long_row(0, 0) == 64);
}

/* threads_per_row = auto: T doubles while each lane keeps >= 8 slots and
 * the rows * 2T / 32 warps of the doubled launch fit in the resident warps;
 * then at least 4 lanes where 4 still fit one wave (launch-bound). */
static void test_tpr_rule(void)
{
    TEST_CHECK(sell_rule_tpr(5.0, 5, 100, 8448) == 4);    /* launch-bound: 4 lanes */
    TEST_CHECK(sell_rule_tpr(16.0, 16, 100, 8448) == 4);
    TEST_CHECK(sell_rule_tpr(1.5, 2, 100, 8448) == 1);    /* rows of one or two entries */
    TEST_CHECK(sell_rule_tpr(5.0, 5, 67584, 8448) == 4);  /* 8448 warps at T = 4: one wave */
    TEST_CHECK(sell_rule_tpr(5.0, 5, 67585, 8448) == 1);  /* one more row: the GPU is full */
    TEST_CHECK(sell_rule_tpr(63.0, 63, 4884, 8448) == 4);  /* bcsstk16: few rows, wide slices */
    TEST_CHECK(sell_rule_tpr(300.0, 300, 100, 8448) == 32);
    TEST_CHECK(sell_rule_tpr(4.3, 14, 5300, 8448) == 8);  /* bcspwr10: uneven slices, 8 lanes */
    TEST_CHECK(sell_rule_tpr(6.6, 17, 65536, 8448) == 4); /* delaunay_n16: 8 lanes overfill a wave */
    TEST_CHECK(sell_rule_tpr(120.0, 120, 120000, 8448) == 2); /* 7500 warps at T=2, 15000 at T=4 */
    TEST_CHECK(sell_rule_tpr(120.0, 120, 2000000, 8448) == 1); /* the GPU is full with one lane */
}

/* The loads rule: streaming only with one lane a row; auto from 3/4 of
 * the L2's bytes moved; forced either way otherwise. */
static void test_loads_rule(void)
{
    const double l2 = 60.0 * 1024 * 1024;
    TEST_CHECK(sell_rule_loads(SELL_LOADS_AUTO, 1, 0.75 * l2, l2) == 1);
    TEST_CHECK(sell_rule_loads(SELL_LOADS_AUTO, 1, 0.75 * l2 - 1, l2) == 0);
    TEST_CHECK(sell_rule_loads(SELL_LOADS_AUTO, 2, 4 * l2, l2) == 0); /* built for one lane a row */
    TEST_CHECK(sell_rule_loads(SELL_LOADS_STREAMING, 1, 1000, l2) == 1);
    TEST_CHECK(sell_rule_loads(SELL_LOADS_STREAMING, 4, 4 * l2, l2) == 0);
    TEST_CHECK(sell_rule_loads(SELL_LOADS_CACHED, 1, 4 * l2, l2) == 0);
}

/* Through the plugin without a GPU (an H100's 50 MiB of L2 assumed): a
 * matrix of 20,000 rows of one random entry stays cached under auto and
 * streams when asked; four lanes a row never stream; spmv_host's sums are
 * the reference's either way. */
static void test_loads_through_the_plugin(void)
{
    spmvlab_csr A;
    if (test_gen_uniform(&A, 20000, 20000, 1, 5)) {
        test_failures++;
        return;
    }
    const char *one[] = {"threads_per_row=1", NULL};
    const char *stream[] = {"threads_per_row=1", "loads=streaming", NULL};
    const char *stream4[] = {"threads_per_row=4", "loads=streaming", NULL};
    test_instance *t = convert_ok(&A, SPMVLAB_F64, one);
    if (t) {
        TEST_CONTAINS(test_describe(t), "loads=cached loads_auto=yes");
        test_instance_free(t);
    }
    if ((t = convert_ok(&A, SPMVLAB_F64, stream))) {
        TEST_CONTAINS(test_describe(t), "loads=streaming loads_auto=no");
        test_instance_free(t);
    }
    if ((t = convert_ok(&A, SPMVLAB_F64, stream4))) {
        TEST_CONTAINS(test_describe(t), "loads=cached loads_auto=no");
        test_instance_free(t);
    }
    spmvlab_csr_free(&A);
}

/* auto on small uniform matrices through the plugin (no GPU: an H100's
 * 8448 resident warps): T from the mean width, sigma 1, no long rows. */
static void test_auto_through_the_plugin(void)
{
    static const struct { int32_t len; int tpr; } cases[] = {{3, 4}, {16, 4}, {40, 4}, {64, 8}, {300, 32}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        spmvlab_csr A;
        if (test_gen_uniform(&A, 100, 400, cases[i].len, 3)) {
            test_failures++;
            continue;
        }
        test_instance *t = convert_ok(&A, SPMVLAB_F32, NULL);
        if (t) {
            TEST_CHECK(test_describe_value(t, "threads_per_row") == cases[i].tpr);
            TEST_CHECK(test_describe_value(t, "sigma") == 1);
            TEST_CHECK(test_describe_value(t, "long_rows") == 0);
            TEST_CONTAINS(test_describe(t), "tpr_auto=yes");
            TEST_CONTAINS(test_describe(t), "perm=no");
            test_instance_free(t);
        }
        spmvlab_csr_free(&A);
    }
}

/* Rows of lengths 10, 1, 10, 1, ... with C = 8: unsorted every slice is 10
 * wide (fill 640 / 352 > 1.1), so sigma = auto sorts in windows of 8C = 64
 * rows, which pads nothing. The footprint is the formula of README.md. */
static void test_sigma_rule_and_footprint(void)
{
    int32_t len[64];
    for (int i = 0; i < 64; i++)
        len[i] = i % 2 ? 1 : 10;
    spmvlab_csr A;
    if (test_gen_rows(&A, 64, 40, len, 7)) {
        test_failures++;
        return;
    }
    /* 32-bit columns: the 16-bit layout's footprint is test_sell_index.c's */
    const char *none[] = {"C=8", "sigma=1", "index=32", NULL};
    const char *aut[] = {"C=8", "index=32", NULL};
    test_instance *t = convert_ok(&A, SPMVLAB_F64, none);
    if (t) {
        TEST_CHECK(test_describe_value(t, "stored") == 640);
        TEST_CONTAINS(test_describe(t), "perm=no");
        /* slice_ptr 4 * 9 + (col 4 + val 8) * 640, no perm */
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 36 + 12 * 640);
        test_instance_free(t);
    }
    t = convert_ok(&A, SPMVLAB_F64, aut);
    if (t) {
        TEST_CHECK(test_describe_value(t, "sigma") == 64);
        TEST_CHECK(test_describe_value(t, "stored") == 352);
        TEST_CHECK(test_describe_value(t, "fill") == 1.0);
        TEST_CONTAINS(test_describe(t), "perm=yes");
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 36 + 4 * 64 + 12 * 352);
        test_instance_free(t);
    }
    spmvlab_csr_free(&A);
}

/* Rows of 4 entries and two of 1500: the two leave the slices (long_row =
 * 64) as 3 pieces of <= 512 entries each, and the result meets the bound
 * (partial sums added by the warp finishing a row's last piece). The
 * device's row order marks the two long rows (~row), so that the slices,
 * in the same kernel, leave them to the pieces; without long rows there
 * is none. */
static void test_long_rows_split(void)
{
    int32_t len[300];
    for (int i = 0; i < 300; i++)
        len[i] = i == 17 || i == 250 ? 1500 : 4;
    spmvlab_csr A;
    if (test_gen_rows(&A, 300, 2000, len, 11)) {
        test_failures++;
        return;
    }
    const char *i32[] = {"index=32", "C=32", NULL}; /* C = 32 kept by hand: auto takes 1 at 8 lanes a row */
    test_instance *t = convert_ok(&A, SPMVLAB_F64, i32);
    if (t) {
        test_describe_says(t, (const char *const[]){"long_row=64", "long_rows=2", "long_nnz=3000", "pieces=6",
                                                    "max_width=4", NULL});
        /* slices: ptr 4 * 11 + 12 * 1280 slots (10 slices of 4, no host perm)
         * + the device's order 4 * 300; long: row 8 + ptrs 2 * 12 + piece_of
         * 24 + 12 * 3000 + partial 48 + counters 8 */
        TEST_CHECK(spmvlab_instance_footprint(&t->in) ==
                   44 + 12 * 1280 + 4 * 300 + 8 + 24 + 24 + 12 * 3000 + 48 + 8);
        const sell_fmt *f = t->in.fmt;
        int32_t *dp = sell_device_perm(f);
        TEST_CHECK(f->perm == NULL && dp != NULL);
        if (dp) {
            TEST_CHECK(dp[17] == ~17 && dp[250] == ~250 && dp[0] == 0 && dp[18] == 18 && dp[299] == 299);
            free(dp);
        }
        test_instance_free(t);
    }
    /* sorted globally, the emptied long rows go last: the marks follow them */
    const char *sorted[] = {"sigma=1073741824", NULL};
    t = convert_ok(&A, SPMVLAB_F64, sorted);
    if (t) {
        const sell_fmt *f = t->in.fmt;
        int32_t *dp = sell_device_perm(f);
        TEST_CHECK(f->perm != NULL && dp != NULL);
        if (f->perm && dp) {
            int marked = 0;
            for (int32_t p = 0; p < f->rows; p++) {
                const int32_t row = f->perm[p];
                TEST_CHECK(dp[p] == (row == 17 || row == 250 ? ~row : row));
                marked += dp[p] < 0;
            }
            TEST_CHECK(marked == 2 && f->perm[298] == 17 && f->perm[299] == 250);
        }
        free(dp);
    }
    test_instance_free(t);
    const char *off[] = {"long_row=2147483647", NULL};
    t = convert_ok(&A, SPMVLAB_F32, off);
    if (t) {
        test_describe_says(t, (const char *const[]){"long_rows=0", "max_width=1500", NULL});
        TEST_CHECK(sell_device_perm(t->in.fmt) == NULL);
    }
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* The uneven-rows rule of ../common/long_rows.h: a mean of 10 or more
 * entries and a row-length CV from 1 to below 100 take 8 lanes a row,
 * overriding the rule above, while the rows fit 12 waves at 8 lanes; even
 * rows, short rows and a few huge rows do not. */
static void test_uneven_rows_rule(void)
{
    /* {100, 4 x 9}: mean 13.6, CV 2.12; {50, 2 x 9}: mean 6.8, CV 2.12;
     * 10 rows of 14: CV 0 */
    int32_t uneven[11], short_rows[11], even[11];
    uneven[0] = short_rows[0] = even[0] = 0;
    for (int i = 0; i < 10; i++) {
        uneven[i + 1] = uneven[i] + (i == 0 ? 100 : 4);
        short_rows[i + 1] = short_rows[i] + (i == 0 ? 50 : 2);
        even[i + 1] = even[i] + 14;
    }
    TEST_CHECK(long_rows_uneven_wide(10, uneven) == 1);
    TEST_CHECK(long_rows_uneven_wide(10, short_rows) == 0);
    TEST_CHECK(long_rows_uneven_wide(10, even) == 0);
    TEST_CHECK(long_rows_uneven_wide(0, even) == 0);
    /* 40,000 rows of 10 and one of 10^5 (CV 40.0) or 2 x 10^6 (CV 166.7) */
    int32_t n = 40001, *rp = malloc(((size_t)n + 1) * sizeof *rp);
    rp[0] = 0;
    for (int32_t i = 0; i < n; i++)
        rp[i + 1] = rp[i] + (i == 0 ? 100000 : 10);
    TEST_CHECK(long_rows_uneven_wide(n, rp) == 1);
    for (int32_t i = 0; i < n; i++)
        rp[i + 1] = rp[i] + (i == 0 ? 2000000 : 10);
    TEST_CHECK(long_rows_uneven_wide(n, rp) == 0);
    free(rp);
    /* the rule holds while the rows fit 12 waves at 8 lanes: 405,504 rows
     * of 132 x 64 resident warps do, one more does not */
    TEST_CHECK(long_rows_waves_fit(405504, LONG_ROWS_UNEVEN_WAVES, 132 * 64) == 1);
    TEST_CHECK(long_rows_waves_fit(405505, LONG_ROWS_UNEVEN_WAVES, 132 * 64) == 0);
    TEST_CHECK(long_rows_waves_fit(168960, LONG_ROWS_CHAIN_WAVES, 132 * 64) == 1);
    TEST_CHECK(long_rows_waves_fit(168961, LONG_ROWS_CHAIN_WAVES, 132 * 64) == 0);
    /* through the plugin: {100, 4 x 9} repeated over 100 rows takes 8
     * lanes; the same rows with threads_per_row set keep it */
    int32_t len[100];
    for (int i = 0; i < 100; i++)
        len[i] = i % 10 == 0 ? 100 : 4;
    spmvlab_csr A;
    if (test_gen_rows(&A, 100, 400, len, 5) == 0) {
        test_convert_says("sell", &A, NULL, 5, "threads_per_row=8 tpr_auto=yes");
        test_convert_says("sell", &A, (const char *[]){"threads_per_row=2", NULL}, 5,
                          "threads_per_row=2 tpr_auto=no");
        spmvlab_csr_free(&A);
    }
}

/* The short-chain rule of ../common/long_rows.h: a widest row of 32 or
 * more, 2.5 times the mean or more, and rows that fit 5 waves of resident
 * warps at 8 lanes take 8 lanes; one entry less, a mean a little higher or
 * one row more do not. Through the plugin (no GPU: 132 x 64 resident
 * warps): 100,000 rows of 1 with every 100th of 40 (mean slice width
 * below 2, three waves at 8 lanes: the launch-bound rule kept 1 lane)
 * take 8; 200,000 such rows (six waves), or rows of 31 instead of 40, keep
 * 1. */
static void test_short_chains_rule(void)
{
    const int64_t warps = 132 * 64, fit = 5 * warps * 32 / LONG_ROWS_UNEVEN_TPR; /* 168,960 rows */
    TEST_CHECK(long_rows_short_chains(32, 12.8, 1000, warps) == 1);
    TEST_CHECK(long_rows_short_chains(31, 2.0, 1000, warps) == 0);
    TEST_CHECK(long_rows_short_chains(32, 12.9, 1000, warps) == 0);
    TEST_CHECK(long_rows_short_chains(64, 2.0, fit, warps) == 1);
    TEST_CHECK(long_rows_short_chains(64, 2.0, fit + 1, warps) == 0);
    const int32_t sizes[] = {100000, 200000, 100000}, widest[] = {40, 40, 31};
    const char *want[] = {"threads_per_row=8 tpr_auto=yes", "threads_per_row=1 tpr_auto=yes",
                          "threads_per_row=1 tpr_auto=yes"};
    for (int c = 0; c < 3; c++) {
        int32_t *len = malloc((size_t)sizes[c] * sizeof *len);
        spmvlab_csr A;
        if (!len)
            continue;
        for (int32_t i = 0; i < sizes[c]; i++)
            len[i] = i % 100 == 0 ? widest[c] : 1;
        if (test_gen_rows(&A, sizes[c], 4000, len, 7) == 0) {
            test_convert_says("sell", &A, NULL, 7, want[c]);
            spmvlab_csr_free(&A);
        }
        free(len);
    }
}

/* C's rule: 4000 rows of 48 entries take 4 lanes a row and keep C = 32;
 * rows of 64 take 8 lanes, and auto C then takes 1 (the lanes of a row
 * read consecutive slots); C set by hand stays, and 8 lanes asked by hand
 * bring C = 1 on rows of 48 too. Each case through spmv_host in f64. */
static void test_c_rule(void)
{
    int32_t len[4000];
    const char *c32[] = {"C=32", NULL}, *t8[] = {"threads_per_row=8", NULL};
    for (int k = 48; k <= 64; k += 16) {
        for (int i = 0; i < 4000; i++)
            len[i] = k;
        spmvlab_csr A;
        if (test_gen_rows(&A, 4000, 4000, len, 5)) {
            test_failures++;
            return;
        }
        test_instance *t = convert_ok(&A, SPMVLAB_F64, NULL);
        if (t) {
            test_describe_says(t, (const char *const[]){k == 48 ? "C=32" : "C=1", "C_auto=yes",
                                                        k == 48 ? "threads_per_row=4" : "threads_per_row=8", NULL});
            test_instance_free(t);
        }
        t = convert_ok(&A, SPMVLAB_F64, k == 48 ? t8 : c32);
        if (t) {
            test_describe_says(t, (const char *const[]){k == 48 ? "C=1" : "C=32", k == 48 ? "C_auto=yes" : "C_auto=no",
                                                        "threads_per_row=8", NULL});
            test_instance_free(t);
        }
        spmvlab_csr_free(&A);
    }
}

int main(void)
{
    spmvlab_csr A; /* bcspwr10: 5300 rows of 2 to 14 entries, a bundled real matrix */
    if (test_load_csr("bcspwr10.mtx.gz", &A)) {
        fprintf(stderr, "the bundled matrix bcspwr10.mtx.gz is missing from data/\n");
        return 1;
    }
    test_check_options_refuses_bad_combinations(&A);
    test_long_row_rule();
    test_tpr_rule();
    test_loads_rule();
    test_loads_through_the_plugin();
    test_uneven_rows_rule();
    test_short_chains_rule();
    test_auto_through_the_plugin();
    test_sigma_rule_and_footprint();
    test_long_rows_split();
    test_c_rule();
    spmvlab_csr_free(&A);
    return test_done("sell.unit.rules_and_layout");
}
