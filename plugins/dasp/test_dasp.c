/*
 * dasp: every row class lands where the format says (checked through
 * describe()), and spmv_host meets the error bound for f64 and f16 on
 * matrices that exercise each class, each boundary length and each shape.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testlib_plugin.h"

#define MAX_ROWS 4096

/* The shape / option variants every matrix is checked with. */
static const char *const variant_default[] = {NULL};
static const char *const variant_thr[] = {"threshold=0.5", NULL};
static const char *const variant_k4m16[] = {"f64_shape=m16n8k4", NULL};
static const char *const variant_k8[] = {"f64_shape=m16n8k8", "f16_shape=m16n8k8", "rows_per_warp=16", NULL};
static const char *const variant_k16[] = {"f64_shape=m16n8k16", "rows_per_warp=32", "long_chunk=128", NULL};
static const char *const variant_len64[] = {"max_len=64", "long_chunk=128", NULL};
static const char *const variant_bal[] = {"balance=on", "bal_kernel=merge", NULL};
static const char *const *const variants[] = {variant_default, variant_thr, variant_k4m16, variant_k8,
                                             variant_k16, variant_len64, variant_bal};

/* sets with "balance=off", "threshold_rule=fixed", "len_rule=paper" and
 * "long_chunk=1024" added unless they name them, in out (16): the class
 * tests keep the classes, the threshold set, the paper's max_len = auto
 * (256) and its segments of 1024 values. */
static const char *const *classes(const char *const *sets, const char *out[16])
{
    int n = 0, named = 0, thr = 0, len = 0, chunk = 0;
    for (; sets && sets[n] && n < 11; n++) {
        out[n] = sets[n];
        named |= strncmp(sets[n], "balance=", 8) == 0;
        thr |= strncmp(sets[n], "threshold_rule=", 15) == 0;
        len |= strncmp(sets[n], "len_rule=", 9) == 0;
        chunk |= strncmp(sets[n], "long_chunk=", 11) == 0;
    }
    if (!named)
        out[n++] = "balance=off";
    if (!thr)
        out[n++] = "threshold_rule=fixed";
    if (!len)
        out[n++] = "len_rule=paper";
    if (!chunk)
        out[n++] = "long_chunk=1024";
    out[n] = NULL;
    return out;
}

/* Converts A with sets in dtype and checks spmv_host against the bound. */
static void check_bound(const char *what, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets)
{
    test_instance *t;
    spmvlab_err err = {{0}};
    const char *buf[16];
    spmvlab_status st = test_convert("dasp", A, dtype, classes(sets, buf), &t, &err);
    TEST_CHECK(st == SPMVLAB_OK);
    if (st != SPMVLAB_OK) {
        fprintf(stderr, "%s (%s): %s\n", what, spmvlab_dtype_name(dtype), err.msg);
    } else {
        for (uint64_t seed = 1; seed <= 2; seed++) {
            double r = test_verify_host(t, seed);
            if (!(r <= 1.0))
                fprintf(stderr, "%s (%s, %s): error ratio %g\n", what, spmvlab_dtype_name(dtype),
                        sets[0] ? sets[0] : "default", r);
            TEST_CHECK(r <= 1.0);
        }
    }
    test_instance_free(t);
}

/* Checks A in f64 and f16 with every variant. */
static void check_all(const char *what, const spmvlab_csr *A)
{
    for (size_t v = 0; v < 2 * (sizeof variants / sizeof variants[0]); v++)
        check_bound(what, A, v % 2 ? SPMVLAB_F16 : SPMVLAB_F64, variants[v / 2]);
}

/* Converts A (f64, defaults plus sets) and expects each "key=value" of want
 * in describe(). */
static void expect_describe(const char *what, const spmvlab_csr *A, const char *const *sets,
                            const char *const *want)
{
    test_instance *t;
    spmvlab_err err = {{0}};
    const char *buf[16];
    spmvlab_status st = test_convert("dasp", A, SPMVLAB_F64, classes(sets, buf), &t, &err);
    TEST_CHECK(st == SPMVLAB_OK);
    if (st == SPMVLAB_OK) {
        char text[600];
        snprintf(text, sizeof text, "%s ", test_describe(t));
        for (int i = 0; want[i]; i++) {
            char key[96], padded[610];
            snprintf(key, sizeof key, " %s ", want[i]);
            snprintf(padded, sizeof padded, " %s", text);
            if (!strstr(padded, key))
                fprintf(stderr, "%s: ", what);
            TEST_CONTAINS(padded, key);
        }
    } else {
        fprintf(stderr, "%s: %s\n", what, err.msg);
    }
    test_instance_free(t);
}

/* A matrix of rows given by their lengths, cols columns. */
static spmvlab_csr make(int32_t cols, const int32_t *len, int32_t rows, uint64_t seed)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, rows, cols, len, seed) == 0);
    return A;
}

/* n rows of length l. */
static spmvlab_csr uniform(int32_t n, int32_t l, int32_t cols)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen_uniform(&A, n, cols, l, 7) == 0);
    return A;
}

/* expect_describe with the defaults, then check_all; frees A. */
static void expect_then_check(const char *what, spmvlab_csr *A, const char *const *want)
{
    expect_describe(what, A, NULL, want);
    check_all(what, A);
    spmvlab_csr_free(A);
}

static void test_short_lengths_each(void)
{
    spmvlab_csr A = uniform(37, 1, 100);
    expect_then_check("all length 1", &A,
                      (const char *[]){"short1=37", "singles=37", "tiles13=0", "tiles4=0", "medium=0", NULL});

    A = uniform(17, 2, 100); /* 8 pairs in one 2&2 tile, the odd row in a 4-tile */
    expect_then_check("all length 2", &A, (const char *[]){"short2=17", "tiles22=1", "tiles4=1", NULL});

    A = uniform(9, 3, 100); /* no 1s to pair with: 4-tiles with one padding slot */
    expect_then_check("all length 3", &A, (const char *[]){"short3=9", "tiles13=0", "tiles4=2", NULL});

    A = uniform(16, 4, 100);
    expect_then_check("all length 4", &A, (const char *[]){"short4=16", "tiles4=2", "singles=0", NULL});
}

static void test_short_pairs_1_and_3(void)
{
    int32_t len[17];
    for (int i = 0; i < 17; i++)
        len[i] = i < 10 ? 1 : 3; /* 10 ones, 7 threes: 7 pairs, 3 singles */
    spmvlab_csr A = make(50, len, 17, 3);
    expect_then_check("1&3 pairs", &A,
                      (const char *[]){"short1=10", "short3=7", "tiles13=1", "singles=3", "tiles4=0", NULL});

    for (int i = 0; i < 17; i++)
        len[i] = i < 4 ? 1 : 3; /* 4 ones, 13 threes: 4 pairs, 9 threes alone */
    A = make(50, len, 17, 4);
    expect_then_check("1&3 leftover 3s", &A, (const char *[]){"tiles13=1", "singles=0", "tiles4=2", NULL});
}

static void test_medium_only(void)
{
    int32_t len[203];
    for (int i = 0; i < 203; i++)
        len[i] = 5 + (i * 37) % 120;
    spmvlab_csr A = make(400, len, 203, 5);
    expect_then_check("all medium", &A, (const char *[]){"medium=203", "row_blocks=26", "long=0", NULL});
}

/* One row-block of 8 rows: one of 40 and seven of 5 entries. With 8 x 4
 * blocks only the first is 75% full; at threshold 0.25 the second is kept. */
static void test_block_threshold(void)
{
    int32_t len[8] = {5, 5, 40, 5, 5, 5, 5, 5};
    spmvlab_csr A = make(100, len, 8, 6);
    expect_describe("threshold 0.75", &A, NULL,
                    (const char *[]){"row_blocks=1", "mma_blocks=1", "irregular_nnz=43", NULL});
    expect_describe("threshold 0.25", &A, (const char *[]){"threshold=0.25", NULL},
                    (const char *[]){"mma_blocks=2", "irregular_nnz=32", NULL});
    expect_describe("threshold 0.25, 8 x 16 blocks", &A,
                    (const char *[]){"threshold=0.25", "f64_shape=m16n8k16", NULL},
                    (const char *[]){"mma_blocks=1", "irregular_nnz=24", NULL});
    check_all("block threshold", &A);
    spmvlab_csr_free(&A);
}

static void test_long_rows(void)
{
    int32_t one[1] = {300};
    spmvlab_csr A = make(1000, one, 1, 8);
    expect_then_check("one long row", &A, (const char *[]){"long=1", "long_segments=1", "medium=0", NULL});

    int32_t big[3] = {5000, 0, 2};
    A = make(6000, big, 3, 9); /* 157 tiles of 32, 32 tiles per segment */
    expect_then_check("long row over segments", &A,
                      (const char *[]){"long=1", "long_segments=5", "empty=1", "short2=1", NULL});

    int32_t many[40];
    for (int i = 0; i < 40; i++)
        many[i] = 256 + 1000 * (i % 7) + i; /* 33 segments on the long side at most */
    A = make(8000, many, 40, 10);
    expect_then_check("many long rows", &A, (const char *[]){"long=40", NULL});
}

/* Lengths 4, 5, max_len - 1 and max_len fall in short, medium, medium, long. */
static void test_class_boundaries(void)
{
    int32_t len[4] = {4, 5, 255, 256};
    spmvlab_csr A = make(600, len, 4, 11);
    expect_then_check("boundaries 256", &A, (const char *[]){"short4=1", "medium=2", "long=1", NULL});

    int32_t len64[4] = {4, 5, 63, 64};
    A = make(600, len64, 4, 12);
    expect_describe("boundaries 64", &A, (const char *[]){"max_len=64", NULL},
                    (const char *[]){"short4=1", "medium=2", "long=1", NULL});
    check_all("boundaries 64", &A);
    spmvlab_csr_free(&A);
}

static void test_empty_rows(void)
{
    int32_t len[12] = {0, 3, 0, 0, 7, 0, 1, 0, 0, 0, 300, 0};
    spmvlab_csr A = make(400, len, 12, 13);
    expect_then_check("empty rows", &A,
                      (const char *[]){"empty=8", "short1=1", "short3=1", "tiles13=1", "medium=1", "long=1", NULL});

    int32_t none[5] = {0, 0, 0, 0, 0};
    A = make(10, none, 5, 14);
    expect_then_check("no entries", &A, (const char *[]){"empty=5", "medium=0", NULL});
}

/* empty_runs = 1: runs of consecutive empty rows, a run longer than 1024
 * split; y still all written (NaN-poisoned by the check). */
static void test_empty_runs(void)
{
    static int32_t len[2510];
    int32_t head[7] = {0, 0, 0, 5, 0, 3, 2};
    memcpy(len, head, sizeof head);
    for (int i = 7; i < 2507; i++)
        len[i] = 0;
    len[2507] = 1, len[2508] = 0, len[2509] = 300;
    spmvlab_csr A = make(400, len, 2510, 21);
    const char *const runs[] = {"empty_runs=1", NULL};
    expect_describe("empty runs off", &A, NULL, (const char *[]){"empty=2505", "empty_runs=0", NULL});
    expect_describe("empty runs", &A, runs, (const char *[]){"empty=2505", "empty_runs=6", NULL});
    const char *const runs_k16[] = {"empty_runs=1", "f64_shape=m16n8k16", "rpw_rule=length", NULL};
    check_bound("empty runs", &A, SPMVLAB_F64, runs);
    check_bound("empty runs", &A, SPMVLAB_F16, runs);
    check_bound("empty runs k16", &A, SPMVLAB_F64, runs_k16);
    spmvlab_csr_free(&A);

    int32_t none[5] = {0, 0, 0, 0, 0};
    A = make(10, none, 5, 14);
    expect_describe("no entries, runs", &A, runs, (const char *[]){"empty=5", "empty_runs=1", NULL});
    check_bound("no entries, runs", &A, SPMVLAB_F64, runs);
    spmvlab_csr_free(&A);
}

/* rpw_rule = length: 8 rows a warp when medium rows average >= 16 entries,
 * else the count rule (16 from 59990 medium rows). */
static void test_rpw_rule(void)
{
    const char *const len_rule[] = {"rpw_rule=length", NULL};
    spmvlab_csr A = uniform(60000, 16, 2000);
    expect_describe("rpw count, len 16", &A, (const char *[]){"rpw_rule=count", NULL},
                    (const char *[]){"rows_per_warp=16", NULL});
    expect_describe("rpw default, len 16", &A, NULL, (const char *[]){"rows_per_warp=8", NULL});
    expect_describe("rpw length, len 16", &A, len_rule, (const char *[]){"rows_per_warp=8", NULL});
    spmvlab_csr_free(&A);
    A = uniform(60000, 15, 2000);
    expect_describe("rpw length, len 15", &A, len_rule, (const char *[]){"rows_per_warp=16", NULL});
    spmvlab_csr_free(&A);
}

/* threshold_rule = fill: 7-entry rows keep 4 + 3 of 8 slots at 0.75
 * (fill 0.875 < 0.9), built again at 1; 8-entry rows keep full blocks. */
static void test_threshold_rule(void)
{
    const char *const fill[] = {"threshold_rule=fill", NULL};
    spmvlab_csr A = uniform(64, 7, 100);
    expect_describe("fixed, len 7", &A, NULL, (const char *[]){"threshold=0.75", "block_fill=0.875", NULL});
    expect_describe("fill, len 7", &A, fill,
                    (const char *[]){"threshold=1", "block_fill=1.000", "irregular_nnz=192", NULL});
    check_bound("fill, len 7", &A, SPMVLAB_F64, fill);
    check_bound("fill, len 7", &A, SPMVLAB_F16, fill);
    spmvlab_csr_free(&A);
    A = uniform(64, 8, 100);
    expect_describe("fill, len 8", &A, fill, (const char *[]){"threshold=0.75", "block_fill=1.000", NULL});
    spmvlab_csr_free(&A);
}

/* Every class at once, in random order, with power-law-like lengths. */
static void test_mixture(void)
{
    static int32_t len[MAX_ROWS];
    uint64_t s = 99;
    int64_t counts[6] = {0};
    for (int i = 0; i < MAX_ROWS; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned r = (unsigned)(s >> 33) % 1000;
        len[i] = r < 60 ? 0
                 : r < 400 ? 1 + (int32_t)(r % 4)
                 : r < 990 ? 5 + (int32_t)(r % 90)
                           : 256 + 37 * (int32_t)(r % 50);
        counts[len[i] == 0 ? 0 : len[i] <= 4 ? 1 : len[i] < 256 ? 2 : 3]++;
    }
    spmvlab_csr A = make(4000, len, MAX_ROWS, 15);
    char e[32], m[32], l[32];
    snprintf(e, sizeof e, "empty=%lld", (long long)counts[0]);
    snprintf(m, sizeof m, "medium=%lld", (long long)counts[2]);
    snprintf(l, sizeof l, "long=%lld", (long long)counts[3]);
    expect_then_check("mixture", &A, (const char *[]){e, m, l, NULL});
}

/* Real matrices: cage10 (values fit binary16) in both dtypes, bcsstk16
 * (values beyond the binary16 range) in f64 with every variant. */
static void test_real_matrices(void)
{
    spmvlab_csr A;
    if (test_load_csr("cage10.mtx.gz", &A) == 0) {
        check_all("cage10", &A);
        spmvlab_csr_free(&A);
    }
    if (test_load_csr("bcsstk16.mtx.gz", &A) == 0) {
        for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++)
            check_bound("bcsstk16", &A, SPMVLAB_F64, variants[v]);
        spmvlab_csr_free(&A);
    }
}

/* balance = auto: the coefficient of variation of the row lengths against
 * DASP_AUTO_BALANCE_CV = 1.2, checked by the value describe() prints and
 * the path taken on either side of the cut. */
static void test_balance_rule(void)
{
    spmvlab_csr A = uniform(64, 9, 100);
    expect_describe("equal rows", &A, (const char *[]){"balance=auto", NULL},
                    (const char *[]){"path=classes(auto)", "row_cv=0.000", NULL});
    spmvlab_csr_free(&A);
    /* {a, 1, 1, 1}: mean (a + 3) / 4, CV^2 = 4 (a^2 + 3) / (a + 3)^2 - 1:
     * a = 10 gives 1.438 (CV 1.199, classes), a = 11 gives 1.531 (CV 1.237,
     * balanced). Under the cut of 2 before, both took the classes. */
    int32_t four[4] = {10, 1, 1, 1};
    A = make(50, four, 4, 21);
    expect_describe("cv 1.199", &A, (const char *[]){"balance=auto", NULL},
                    (const char *[]){"path=classes(auto)", "row_cv=1.199", NULL});
    spmvlab_csr_free(&A);
    four[0] = 11;
    A = make(50, four, 4, 22);
    expect_describe("cv 1.237", &A, (const char *[]){"balance=auto", NULL},
                    (const char *[]){"path=balanced(auto)", "row_cv=1.237", NULL});
    check_all("cv 1.237", &A);
    spmvlab_csr_free(&A);
    /* Forced either way, whatever the rule says. */
    A = uniform(64, 9, 100);
    expect_describe("forced on", &A, (const char *[]){"balance=on", "bal_kernel=merge", NULL},
                    (const char *[]){"path=balanced", "warps=3", NULL});
    spmvlab_csr_free(&A);
}

/* balance = auto's exceptions: uneven rows stay on the classes when at
 * least DASP_CLASSES_EMPTY_SHARE = 0.75 of them are empty, or from
 * DASP_CLASSES_SKEW_NNZ = 2^22 non-zeros with a CV of 16 or more. */
static void test_balance_rule_exceptions(void)
{
    /* {8, 0, 0, 0, 0}: 0.8 empty, CV 2.000; {8, 1, 0, 0, 0}: 0.6 empty, CV 1.736. */
    int32_t five[5] = {8, 0, 0, 0, 0};
    spmvlab_csr A = make(50, five, 5, 24);
    expect_describe("mostly empty", &A, (const char *[]){"balance=auto", NULL},
                    (const char *[]){"path=classes(auto)", "row_cv=2.000", NULL});
    spmvlab_csr_free(&A);
    five[1] = 1;
    A = make(50, five, 5, 25);
    expect_describe("0.6 empty", &A, (const char *[]){"balance=auto", NULL},
                    (const char *[]){"path=balanced(auto)", "row_cv=1.736", NULL});
    spmvlab_csr_free(&A);
    /* 65,536 rows of 1 entry but every 1024th, which holds 65,536 (CV about
     * 31): 2^22 + 65,472 non-zeros take the classes; with one long row
     * fewer, 2^22 - 63 non-zeros, the balanced path. */
    int32_t n = 1 << 16, *len = malloc((size_t)n * sizeof *len);
    for (int32_t i = 0; i < n; i++)
        len[i] = i % 1024 == 0 ? n : 1;
    A = make(n, len, n, 26);
    TEST_CHECK(A.nnz == (1 << 22) + 65472);
    expect_describe("2^22 skewed", &A, (const char *[]){"balance=auto", NULL},
                    (const char *[]){"path=classes(auto)", NULL});
    spmvlab_csr_free(&A);
    len[0] = 1;
    A = make(n, len, n, 27);
    TEST_CHECK(A.nnz == (1 << 22) - 63);
    expect_describe("below 2^22 skewed", &A, (const char *[]){"balance=auto", NULL},
                    (const char *[]){"path=balanced(auto)", NULL});
    spmvlab_csr_free(&A);
    free(len);
}

/* max_len = auto, len_rule = wide: rows of 64 entries or more are long rows
 * at every size (2^22 non-zeros too); len_rule = paper keeps the paper's
 * cut: 512 from 2^20, else 256. */
static void test_len_rule(void)
{
    /* Rows of 63, 64 and 129 entries (the last like a band of width 64). */
    int32_t three[3] = {63, 64, 129};
    spmvlab_csr A = make(300, three, 3, 41);
    expect_describe("wide, small", &A, (const char *[]){"len_rule=wide", NULL},
                    (const char *[]){"max_len=64", "medium=1", "long=2", "long_segments=2", NULL});
    expect_describe("paper, small", &A, (const char *[]){"len_rule=paper", NULL},
                    (const char *[]){"max_len=256", "medium=3", "long=0", NULL});
    expect_describe("wide, max_len set", &A, (const char *[]){"len_rule=wide", "max_len=100", NULL},
                    (const char *[]){"max_len=100", "medium=2", "long=1", NULL});
    for (int d = 0; d < 2; d++)
        check_bound("wide, small", &A, d ? SPMVLAB_F16 : SPMVLAB_F64, (const char *[]){"len_rule=wide", NULL});
    spmvlab_csr_free(&A);
    /* 2^22 / 64 rows of 64 entries: long under wide, medium under the
     * paper's 512. */
    int32_t n = (1 << 22) / 64;
    A = uniform(n, 64, 4096);
    TEST_CHECK(A.nnz == (1 << 22));
    expect_describe("wide, 2^22", &A, (const char *[]){"len_rule=wide", NULL},
                    (const char *[]){"max_len=64", "medium=0", NULL});
    expect_describe("paper, 2^22", &A, (const char *[]){"len_rule=paper", NULL},
                    (const char *[]){"max_len=512", "long=0", NULL});
    spmvlab_csr_free(&A);
}

/* len_rule is wide by default: a small matrix's rows of 64 entries are
 * long, its rows of 40 medium. */
static void test_len_rule_default(void)
{
    spmvlab_csr A = uniform(64, 64, 100);
    test_instance *t;
    spmvlab_err err = {{0}};
    TEST_CHECK(test_convert("dasp", &A, SPMVLAB_F64, NULL, &t, &err) == SPMVLAB_OK);
    TEST_CONTAINS(test_describe(t), "max_len=64 ");
    TEST_CONTAINS(test_describe(t), "long=64 ");
    test_instance_free(t);
    spmvlab_csr_free(&A);
    A = uniform(64, 40, 100);
    TEST_CHECK(test_convert("dasp", &A, SPMVLAB_F64, NULL, &t, &err) == SPMVLAB_OK);
    TEST_CONTAINS(test_describe(t), "medium=64 ");
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* long_chunk = auto: segments of 256 values below 2^22 non-zeros (4 rows
 * of 600: 3 segments each), 1024 from 2^22 (describe() names long_chunk
 * only when it is not 1024); a value set by hand stays. */
static void test_long_chunk_rule(void)
{
    spmvlab_csr A = uniform(4, 600, 4096);
    expect_describe("auto, small", &A, (const char *[]){"long_chunk=auto", "len_rule=wide", NULL},
                    (const char *[]){"long=4", "long_segments=12", "long_chunk=256", NULL});
    expect_describe("1024 by hand", &A, (const char *[]){"long_chunk=1024", "len_rule=wide", NULL},
                    (const char *[]){"long=4", "long_segments=4", NULL});
    check_bound("auto, small", &A, SPMVLAB_F64, (const char *[]){"long_chunk=auto", NULL});
    spmvlab_csr_free(&A);
    A = uniform((1 << 22) / 32, 32, 4096);
    test_instance *t;
    spmvlab_err err = {{0}};
    TEST_CHECK(test_convert("dasp", &A, SPMVLAB_F64, NULL, &t, &err) == SPMVLAB_OK);
    TEST_CHECK(strstr(test_describe(t), "long_chunk=") == NULL);
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* The describe() text of A converted in f64 with sets (as expect_describe),
 * in text (600); 0 when the conversion failed. */
static int describe_text(const spmvlab_csr *A, const char *const *sets, char *text)
{
    test_instance *t;
    spmvlab_err err = {{0}};
    const char *buf[16];
    spmvlab_status st = test_convert("dasp", A, SPMVLAB_F64, classes(sets, buf), &t, &err);
    TEST_CHECK(st == SPMVLAB_OK);
    if (st == SPMVLAB_OK)
        snprintf(text, 600, "%s", test_describe(t));
    test_instance_free(t);
    return st == SPMVLAB_OK;
}

/* block_warps = auto, bw_rule = spread: blocks of 8 warps while the kernel
 * has at least DASP_SPREAD_BLOCKS = 264 of them (2105 warps or more), else
 * halved until it has or the blocks are of 1 warp; the row classes print
 * block_warps only when it is not 8. */
static void test_block_warps_rule(void)
{
    char text[600];
    /* 16840 rows of 9: 2105 row-blocks, one warp each (8 rows a warp). */
    spmvlab_csr A = uniform(16840, 9, 100);
    if (describe_text(&A, NULL, text)) {
        TEST_CONTAINS(text, "rows_per_warp=8 ");
        TEST_CHECK(strstr(text, "block_warps=") == NULL);
    }
    spmvlab_csr_free(&A);
    A = uniform(16832, 9, 100); /* 2104 warps: 263 blocks of 8, 526 of 4 */
    expect_describe("2104 warps", &A, NULL, (const char *[]){"block_warps=4", NULL});
    spmvlab_csr_free(&A);
    A = uniform(64, 9, 100); /* 8 warps: blocks of 1 */
    expect_describe("8 warps", &A, NULL, (const char *[]){"block_warps=1", NULL});
    expect_describe("8 warps, set", &A, (const char *[]){"block_warps=2", NULL},
                    (const char *[]){"block_warps=2", NULL});
    if (describe_text(&A, (const char *[]){"bw_rule=size", NULL}, text))
        TEST_CHECK(strstr(text, "block_warps=") == NULL);
    /* The stream kernel: 3 warps of 256 non-zeros. */
    expect_describe("stream, 3 warps", &A, (const char *[]){"balance=on", NULL},
                    (const char *[]){"warps=3", "block_warps=1", NULL});
    expect_describe("stream, size rule", &A, (const char *[]){"balance=on", "bw_rule=size", NULL},
                    (const char *[]){"block_warps=8", NULL});
    expect_describe("merge", &A, (const char *[]){"balance=on", "bal_kernel=merge", NULL},
                    (const char *[]){"block_warps=8", NULL});
    spmvlab_csr_free(&A);
    A = uniform(2105, 256, 300);
    expect_describe("stream, 2105 warps", &A, (const char *[]){"balance=on", NULL},
                    (const char *[]){"warps=2105", "block_warps=8", NULL});
    spmvlab_csr_free(&A);
    A = uniform(2104, 256, 300);
    expect_describe("stream, 2104 warps", &A, (const char *[]){"balance=on", NULL},
                    (const char *[]){"warps=2104", "block_warps=4", NULL});
    spmvlab_csr_free(&A);
}

/* balance is off by default: uneven rows the auto rule would balance stay
 * on the row classes unless balance is named. */
static void test_balance_default(void)
{
    int32_t four[4] = {11, 1, 1, 1};
    spmvlab_csr A = make(50, four, 4, 28);
    test_instance *t;
    spmvlab_err err = {{0}};
    TEST_CHECK(test_convert("dasp", &A, SPMVLAB_F64, NULL, &t, &err) == SPMVLAB_OK);
    TEST_CONTAINS(test_describe(t), "path=classes");
    test_instance_free(t);
    TEST_CHECK(test_convert("dasp", &A, SPMVLAB_F64, (const char *[]){"balance=auto", NULL}, &t, &err) == SPMVLAB_OK);
    TEST_CONTAINS(test_describe(t), "path=balanced(auto)");
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* The balanced path's pieces: rows crossing 1, 2 and 22 warps of 224 items,
 * empty rows around them, rows ending on warp edges, only empty rows. */
static void test_balanced_pieces(void)
{
    int32_t len[9] = {0, 500, 0, 0, 215, 7, 5000, 1, 0};
    spmvlab_csr A = make(6000, len, 9, 31);
    /* rows + nnz = 5732 items: 26 warps. */
    expect_describe("crossing rows", &A, (const char *[]){"balance=on", "bal_kernel=merge", NULL},
                    (const char *[]){"path=balanced", "warps=26", NULL});
    check_all("crossing rows", &A);
    spmvlab_csr_free(&A);
    int32_t exact[2] = {223, 223}; /* 224 items a row: each warp closes exactly one row */
    A = make(300, exact, 2, 32);
    expect_describe("rows ending on warp edges", &A, (const char *[]){"balance=on", "bal_kernel=merge", NULL},
                    (const char *[]){"warps=2", "crossing_rows=0", NULL});
    check_all("rows ending on warp edges", &A);
    spmvlab_csr_free(&A);
    /* A warp takes all 224 entries of row 0; the next closes it with an
     * empty head piece, and so again for row 1. */
    int32_t past[2] = {224, 223};
    A = make(300, past, 2, 34);
    expect_describe("row ends one item past a warp", &A, (const char *[]){"balance=on", "bal_kernel=merge", NULL},
                    (const char *[]){"warps=3", "crossing_rows=2", NULL});
    check_all("row ends one item past a warp", &A);
    spmvlab_csr_free(&A);
    int32_t none[300] = {0};
    A = make(10, none, 300, 33);
    expect_describe("empty rows only", &A, (const char *[]){"balance=on", "bal_kernel=merge", NULL},
                    (const char *[]){"warps=2", "crossing_rows=0", NULL});
    check_all("empty rows only", &A);
    spmvlab_csr_free(&A);
}

static void test_refusals(void)
{
    spmvlab_csr A = uniform(16, 4, 20);
    spmvlab_err err = {{0}};
    test_refuses("dasp", &A, SPMVLAB_F32, NULL, SPMVLAB_UNSUPPORTED, &err);
    test_refuses_saying("dasp", &A, SPMVLAB_F64, (const char *[]){"rows_per_warp=12", NULL}, SPMVLAB_INVALID_OPTION,
                        "8, 16 or 32");
    test_refuses_saying("dasp", &A, SPMVLAB_F64, (const char *[]){"long_chunk=200", NULL}, SPMVLAB_INVALID_OPTION,
                        "multiple of 128");
    spmvlab_csr_free(&A);
}

int main(void)
{
    test_short_lengths_each();
    test_short_pairs_1_and_3();
    test_medium_only();
    test_block_threshold();
    test_long_rows();
    test_class_boundaries();
    test_empty_rows();
    test_empty_runs();
    test_rpw_rule();
    test_threshold_rule();
    test_mixture();
    test_real_matrices();
    test_balance_rule();
    test_balance_rule_exceptions();
    test_balance_default();
    test_len_rule();
    test_len_rule_default();
    test_long_chunk_rule();
    test_block_warps_rule();
    test_balanced_pieces();
    test_refusals();
    return test_done("dasp");
}
