/*
 * vbr: the block finder gives the known block rows and blocks of a small
 * matrix and of mixed blocks 2 to 6, runs longer than 255 columns are cut,
 * long rows (and single rows with min_height 2) go to the CSR remainder, a
 * band converts in single-row block rows while random columns (blocks of
 * width 1, more bytes than CSR) are refused before any allocation, with
 * values = f32 compared against CSR of the run's dtype; the edge cases
 * (empty rows, one row, one column, no entries, rectangular) convert, f32
 * storage is declared and refuses what f32 cannot hold, and the device
 * bytes follow README.md's formula. The remainder path: a few very long
 * remainder rows take the merge pass under auto (by their length, or by
 * the spread of the remainder's row lengths), a uniform remainder the
 * vector kernel, and both forced paths run the edge cases. Every
 * conversion's spmv_host is checked against the bound. CPU only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/gen.h"
#include "testlib_plugin.h"

/* Every matrix converts (no byte rule); and so with single rows in the remainder. */
static const char *const loose[] = {"max_bytes_ratio=4", NULL};
/* the defaults without the structure rule (few block rows, thin blocks) */
static const char *const small[] = {"min_block_rows=0", "min_block_entries=0", NULL};
static const char *const remainder[] = {"min_height=2", "max_bytes_ratio=4", NULL};

/* A generated matrix of kind with its parameters as text. */
static int gen(spmvlab_csr *A, const char *kind, const char *text)
{
    spmvlab_gen_params p = {0};
    spmvlab_err err;
    return spmvlab_gen_params_parse(&p, text, &err) || spmvlab_gen(kind, &p, A, &err) ? -1 : 0;
}

/* A rows x cols matrix from n (row, column) pairs, values 1 + k / 8. */
static int from_pairs(spmvlab_csr *A, int32_t rows, int32_t cols, const int32_t (*rc)[2], size_t n)
{
    spmvlab_triplet *t = malloc((n + 1) * sizeof *t);
    for (size_t k = 0; k < n; k++)
        t[k] = (spmvlab_triplet){rc[k][0], rc[k][1], 1.0 + (double)k / 8};
    spmvlab_err err;
    return spmvlab_csr_from_triplets(A, rows, cols, t, n, &err); /* frees t */
}

/* Rows 0-1: columns {0,1,2, 5, 7,8}, a 2-row block row of three blocks;
 * row 2: {0, 3}, a row of its own (remainder); rows 3-5: {2,3,4,5}, one
 * 3 x 4 block; rows 6-7: empty, a block row without blocks; row 8: {1, 9}
 * (remainder). Lengths 6, 6, 4, 0 in one slice: the ranks of the running
 * lanes change from step to step. */
static void test_known_blocks(void)
{
    static const int32_t rc[][2] = {
        {0, 0}, {0, 1}, {0, 2}, {0, 5}, {0, 7}, {0, 8}, {1, 0}, {1, 1}, {1, 2}, {1, 5}, {1, 7}, {1, 8},
        {2, 0}, {2, 3}, {3, 2}, {3, 3}, {3, 4}, {3, 5}, {4, 2}, {4, 3}, {4, 4}, {4, 5}, {5, 2}, {5, 3},
        {5, 4}, {5, 5}, {8, 1}, {8, 9},
    };
    spmvlab_csr A;
    TEST_CHECK(from_pairs(&A, 9, 10, rc, sizeof rc / sizeof rc[0]) == 0);
    char desc[320] = "";
    size_t bytes = test_convert_both("vbr", &A, remainder, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "block_rows=3 mean_height=2.33 blocks=4 mean_block=6.00 blocked=0.857 rem_rows=2 rem_nnz=4 "
                        "rem_lanes=2 steps=4");
    /* qrow qptr qblk of 7 rows, 4 blocks, 24 values; rrow rptr of 2 rows, 4 entries */
    TEST_CHECK(bytes == 4 * 7 + 4 * 8 + 4 * 7 + 5 * 4 + 8 * 24 + 4 * 2 + 4 * 3 + 12 * 4);
    /* pure 1D-VBL (the default height): rows 2 and 8 become 1-row block rows of 1 x 1 blocks */
    bytes = test_convert_says("vbr", &A, loose, 17, "block_rows=5 mean_height=1.80 blocks=8 mean_block=3.50 "
                                                    "blocked=1.000 rem_rows=0 rem_nnz=0");
    TEST_CHECK(bytes == 4 * 10 + 4 * 9 + 5 * 8 + 8 * 28);
    spmvlab_csr_free(&A);
}

static void test_mixed_blocks_are_found_whole(void)
{
    spmvlab_csr A;
    TEST_CHECK(gen(&A, "vblocks", "nodes=200 bpr=5 min_size=2 max_size=6 spread=10") == 0);
    test_instance *t = test_convert_ok("vbr", &A, SPMVLAB_F64, small, 17);
    /* one block row per node, every entry in blocks, no row map */
    const char *facts[] = {"block_rows=200", "blocked=1.000", "rem_rows=0", "rem_nnz=0", NULL};
    test_describe_says(t, facts);
    double blocks = test_describe_value(t, "blocks");
    TEST_CHECK(blocks >= 200 && blocks <= 1000); /* neighbouring node columns join into one run */
    double bytes = 4.0 * (A.rows + 1) + 4.0 * A.rows + 5 * blocks + 8.0 * A.nnz;
    TEST_CHECK(test_describe_value(t, "bytes_per_nnz") > bytes / A.nnz - 0.006 &&
               test_describe_value(t, "bytes_per_nnz") < bytes / A.nnz + 0.006);
    test_instance_free(t);
    /* f32 storage of the f64 run: 4 bytes a value, declared */
    const char *f32[] = {"values=f32", "min_block_rows=0", NULL};
    test_convert_says("vbr", &A, f32, 17, "values=f32");
    spmvlab_csr_free(&A);
}

/* Two rows of 600 consecutive columns: one block row, the run cut into
 * blocks of 255, 255 and 90 columns (a width is one byte). */
static void test_a_long_run_is_cut(void)
{
    int32_t (*rc)[2] = malloc(1200 * sizeof *rc);
    for (int32_t k = 0; k < 1200; k++) {
        rc[k][0] = k / 600;
        rc[k][1] = 50 + k % 600;
    }
    spmvlab_csr A;
    TEST_CHECK(from_pairs(&A, 2, 700, (const int32_t(*)[2])rc, 1200) == 0);
    free(rc);
    size_t bytes = test_convert_says("vbr", &A, small, 17, "block_rows=1 mean_height=2.00 blocks=3 mean_block=400.00 "
                                                        "blocked=1.000 rem_rows=0");
    TEST_CHECK(bytes == 4 * 3 + 4 * 2 + 5 * 3 + 8 * 1200);
    spmvlab_csr_free(&A);
}

/* Rows longer than max(64, 4 x the mean) go to the remainder even when
 * they repeat: three equal rows of 300 among 100 rows of 2 equal entries. */
static void test_long_rows_go_to_the_remainder(void)
{
    int32_t (*rc)[2] = malloc(1100 * sizeof *rc);
    size_t n = 0;
    for (int32_t r = 0; r < 103; r++) {
        int32_t len = r >= 50 && r < 53 ? 300 : 2;
        for (int32_t j = 0; j < len; j++)
            rc[n][0] = r, rc[n++][1] = len == 2 ? 2 * j : j;
    }
    spmvlab_csr A;
    TEST_CHECK(from_pairs(&A, 103, 400, (const int32_t(*)[2])rc, n) == 0);
    free(rc);
    test_convert_says("vbr", &A, loose, 17, "block_rows=2 mean_height=50.00 blocks=4 mean_block=50.00 "
                                               "blocked=0.182 rem_rows=3 rem_nnz=900 rem_lanes=32");
    spmvlab_csr_free(&A);
}

/* A band converts at the defaults: every row a block row of one run, 4 + 4
 * + 5 bytes per row instead of 4 per entry. With min_height 2 (and no byte
 * rule) all of it is remainder, 8 lanes for rows of 5. */
static void test_a_band_converts_in_single_rows(void)
{
    spmvlab_csr A;
    TEST_CHECK(gen(&A, "banded", "n=500 bandwidth=2") == 0);
    size_t bytes = test_convert_says("vbr", &A, small, 17, "block_rows=500 mean_height=1.00 blocks=500 mean_block=4.99 "
                                                        "blocked=1.000 rem_rows=0");
    TEST_CHECK(bytes == 4 * 501 + 4 * 500 + 5 * 500 + 8 * 2494);
    bytes = test_convert_says("vbr", &A, remainder, 17, "block_rows=0 mean_height=0.00 blocks=0 mean_block=0.00 "
                                                       "blocked=0.000 rem_rows=500 rem_nnz=2494 rem_lanes=8");
    TEST_CHECK(bytes == 4 * 501 + 12 * 2494);
    const char *lanes[] = {"min_height=2", "max_bytes_ratio=4", "rem_lanes=1", NULL};
    test_convert_says("vbr", &A, lanes, 17, "rem_lanes=1");
    spmvlab_csr_free(&A);
}

/* The structure rule at its defaults: a band of 16,384 rows (one block row
 * each, blocks of about 5 entries) converts; one row fewer is refused as
 * few block rows. Blocks of at most min_block_entries are refused as no
 * dense blocks; max_bytes_ratio = 4 turns both off. */
static void test_few_block_rows_and_thin_blocks_are_refused(void)
{
    spmvlab_csr A;
    TEST_CHECK(gen(&A, "banded", "n=16384 bandwidth=2") == 0);
    test_convert_says("vbr", &A, NULL, 17, "block_rows=16384");
    const char *thin[] = {"min_block_entries=5", NULL}, *thinner[] = {"min_block_entries=4.99", NULL};
    TEST_CHECK(test_refuses_saying("vbr", &A, SPMVLAB_F64, thin, SPMVLAB_LIMIT,
                                   "no dense blocks: 16384 blocks of 5.00 entries on average"));
    test_convert_says("vbr", &A, thinner, 17, "blocks=16384");
    spmvlab_csr_free(&A);
    TEST_CHECK(gen(&A, "banded", "n=16383 bandwidth=2") == 0);
    TEST_CHECK(test_refuses_saying("vbr", &A, SPMVLAB_F64, NULL, SPMVLAB_LIMIT,
                                   "few block rows: 16383 block rows (of 16383 rows) are fewer than "
                                   "min_block_rows = 16384"));
    test_convert_says("vbr", &A, loose, 17, "block_rows=16383");
    spmvlab_csr_free(&A);
}

/* 8 random columns a row: blocks of width 1, 14 bytes per non-zero against
 * CSR's 12 + 4 x 501 / 4000, refused before any allocation. values = f32
 * moves 10, under 0.9 x f64 CSR's: taken; an f32 run compares with f32
 * CSR (8.50) and is refused. */
static void test_random_columns_are_refused(void)
{
    spmvlab_csr A = test_uniform(500, 4000, 8, 7);
    TEST_CHECK(test_refuses_saying("vbr", &A, SPMVLAB_F64, NULL, SPMVLAB_LIMIT,
                                   "vbr would move 14.00 bytes per non-zero, CSR 12.50: more than max_bytes_ratio = "
                                   "0.9 times CSR's, too small a saving for its index work (4000 blocks of 1.00 "
                                   "entries on average hold 100.0% of the entries, 0 rows are CSR remainder)"));
    const char *f32[] = {"values=f32", "min_block_rows=0", "min_block_entries=0", NULL};
    test_instance *t = test_convert_ok("vbr", &A, SPMVLAB_F64, f32, 17);
    const char *facts[] = {"bytes_per_nnz=10.00", "values=f32", NULL};
    test_describe_says(t, facts);
    test_instance_free(t);
    TEST_CHECK(test_refuses_saying("vbr", &A, SPMVLAB_F32, NULL, SPMVLAB_LIMIT,
                                   "vbr would move 10.00 bytes per non-zero, CSR 8.50"));
    /* a looser ratio takes it */
    const char *ratio[] = {"max_bytes_ratio=1.2", "min_block_rows=0", "min_block_entries=0", NULL};
    test_convert_says("vbr", &A, ratio, 17, "blocks=4000 mean_block=1.00");
    spmvlab_csr_free(&A);
}

static void test_edge_cases_convert(void)
{
    /* empty rows between rows of their own, and a rectangular shape */
    const int32_t lengths[] = {0, 3, 0, 0, 7, 1, 0};
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 7, 40, lengths, 5) == 0);
    test_convert_says("vbr", &A, remainder, 17, "block_rows=1 mean_height=2.00 blocks=0");
    spmvlab_csr_free(&A);
    /* one row: with min_height 2 a row of its own, the remainder; else blocks */
    A = test_uniform(1, 30, 12, 7);
    test_convert_says("vbr", &A, remainder, 17, "blocked=0.000 rem_rows=1 rem_nnz=12 rem_lanes=16");
    test_convert_says("vbr", &A, loose, 17, "block_rows=1 mean_height=1.00");
    spmvlab_csr_free(&A);
    /* one column: every row the same pattern, one block of 50 x 1 (8 bytes
     * a row for qptr and qblk: more than CSR, so only without the rule) */
    A = test_uniform(50, 1, 1, 7);
    TEST_CHECK(test_refuses_saying("vbr", &A, SPMVLAB_F64, NULL, SPMVLAB_LIMIT, "vbr would move 16.18 bytes"));
    size_t bytes = test_convert_says("vbr", &A, loose, 17,
                                     "block_rows=1 mean_height=50.00 blocks=1 mean_block=50.00 blocked=1.000");
    TEST_CHECK(bytes == 4 * 51 + 4 * 50 + 5 + 8 * 50);
    spmvlab_csr_free(&A);
    /* no entries: one block row of 5 empty rows, every y written as 0 */
    char desc[320] = "";
    bytes = test_convert_empty("vbr", 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "block_rows=1 mean_height=5.00 blocks=0");
    TEST_CHECK(bytes == 4 * 6 + 4 * 5);
}

/* The number after " key=" in a describe() text; -1 when absent. */
static double fact(const char *desc, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, " %s=", key);
    const char *at = strstr(desc, k);
    return at ? atof(at + strlen(k)) : -1;
}

/* 2000 rows in pairs of one 4-column run (block rows of 2), and rows 500,
 * 1001 and 1502 of 10000, 15000 and 20000 columns in steps of 2: the
 * remainder, each row over VBR_REMAINDER_MERGE_LEN. */
static int long_remainder_rows(spmvlab_csr *A)
{
    int32_t (*rc)[2] = malloc(60000 * sizeof *rc);
    size_t n = 0;
    for (int32_t r = 0; r < 2000; r++) {
        const int32_t len = r == 500 ? 10000 : r == 1001 ? 15000 : r == 1502 ? 20000 : 4;
        for (int32_t j = 0; j < len; j++)
            rc[n][0] = r, rc[n++][1] = len == 4 ? 8 * (r / 2) + j : 2 * j;
    }
    const int rc_ok = from_pairs(A, 2000, 40000, (const int32_t(*)[2])rc, n);
    free(rc);
    return rc_ok;
}

/* The merge path's remainder bytes minus the vector path's: a row pointer
 * of all rows instead of a map and a pointer of nr rows, and the pass's
 * scratch, its carries in the run's dtype (README.md, "Footprint"). */
static double merge_minus_vector(const char *desc, double rows, double nr, double run)
{
    const double mt = fact(desc, "merge_tiles");
    const double starts = strstr(desc, "/block ") ? 0 : 8 * (mt + 1);
    return 4 * (rows + 1) - (nr < rows ? 4 * nr : 0) - 4 * (nr + 1) + starts + (4 + run) * mt;
}

static void test_long_remainder_rows_take_the_merge_pass(void)
{
    spmvlab_csr A;
    TEST_CHECK(long_remainder_rows(&A) == 0);
    char desc[512] = "", vdesc[512] = "";
    /* auto: a row past 8192 entries takes the merge pass, though the rows'
     * spread is small (the remainder costs about CSR's bytes: no byte rule) */
    size_t bytes = test_convert_both("vbr", &A, loose, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "rem_rows=3 rem_nnz=45000");
    TEST_CONTAINS(desc, "remainder=merge rem_cv=0.272 merge_pass=direct/4/convert"); /* f64: the merge plugin's rule */
    TEST_CHECK(fact(desc, "merge_tiles") == 92); /* 47000 path items over tiles of 512 */
    const char *vector[] = {"max_bytes_ratio=4", "remainder=vector", NULL};
    size_t vbytes = test_convert_both("vbr", &A, vector, 17, vdesc, sizeof vdesc);
    TEST_CONTAINS(vdesc, "remainder=vector rem_cv=0.272 merge_pass=none merge_tiles=0");
    TEST_CHECK((double)bytes - (double)vbytes == merge_minus_vector(desc, 2000, 3, 8));
    /* values = f32: the pass reads the remainder's f32 values, its carries f64 */
    const char *f32[] = {"max_bytes_ratio=4", "values=f32", NULL};
    const char *f32v[] = {"max_bytes_ratio=4", "values=f32", "remainder=vector", NULL};
    bytes = test_convert_says("vbr", &A, f32, 17, "values=f32 remainder=merge");
    vbytes = test_convert_says("vbr", &A, f32v, 17, "values=f32 remainder=vector");
    TEST_CHECK((double)bytes - (double)vbytes == merge_minus_vector(desc, 2000, 3, 8));
    spmvlab_csr_free(&A);
}

/* Remainder rows of very different lengths (std / mean over 1) take the
 * merge pass under auto; a band's even rows the vector kernel. */
static void test_auto_follows_the_remainder_spread(void)
{
    const int32_t lengths[] = {0, 3, 0, 0, 7, 1, 0, 40, 1, 2};
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 10, 60, lengths, 5) == 0);
    size_t bytes = test_convert_says("vbr", &A, remainder, 17, "rem_rows=8 rem_nnz=54");
    test_instance *t = test_convert_ok("vbr", &A, SPMVLAB_F64, remainder, 17);
    const char *facts[] = {"remainder=merge", "merge_tiles=1", NULL};
    test_describe_says(t, facts);
    TEST_CHECK(test_describe_value(t, "rem_cv") > 1.0); /* MERGE_UNEVEN_ROWS_CV */
    test_instance_free(t);
    TEST_CHECK(bytes > 0);
    spmvlab_csr_free(&A);
    TEST_CHECK(gen(&A, "banded", "n=500 bandwidth=2") == 0);
    t = test_convert_ok("vbr", &A, SPMVLAB_F64, remainder, 17);
    const char *band[] = {"rem_rows=500", "remainder=vector", "merge_pass=none", NULL};
    test_describe_says(t, band);
    TEST_CHECK(test_describe_value(t, "rem_cv") < 0.1);
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* Both forced paths on the edge cases, every row in the remainder
 * (min_height 1024) or some (min_height 2): empty rows, one row, one
 * column, rectangular both ways, no entries (nothing to balance: vector). */
static void test_forced_paths_on_edge_cases(void)
{
    static const char *const paths[] = {"merge", "vector"};
    for (int p = 0; p < 2; p++) {
        char path[32], want[48];
        snprintf(path, sizeof path, "remainder=%s", paths[p]);
        snprintf(want, sizeof want, "remainder=%s", paths[p]);
        const char *some[] = {path, "min_height=2", "max_bytes_ratio=4", NULL};
        const char *all[] = {path, "min_height=1024", "max_bytes_ratio=4", NULL};
        const int32_t lengths[] = {0, 3, 0, 0, 7, 1, 0};
        spmvlab_csr A;
        TEST_CHECK(test_gen_rows(&A, 7, 40, lengths, 5) == 0);
        test_convert_says("vbr", &A, some, 17, want);
        test_convert_says("vbr", &A, all, 17, want);
        spmvlab_csr_free(&A);
        A = test_uniform(1, 30, 12, 7);
        test_convert_says("vbr", &A, some, 17, want);
        spmvlab_csr_free(&A);
        A = test_uniform(50, 1, 1, 7);
        test_convert_says("vbr", &A, all, 17, want);
        spmvlab_csr_free(&A);
        A = test_uniform(60, 5, 3, 7);
        test_convert_says("vbr", &A, all, 17, want);
        spmvlab_csr_free(&A);
        const int32_t none[] = {0, 0, 0, 0, 0};
        TEST_CHECK(test_gen_rows(&A, 5, 4, none, 1) == 0);
        test_convert_says("vbr", &A, all, 17, "rem_rows=5 rem_nnz=0 rem_lanes=1 steps=4");
        test_convert_says("vbr", &A, all, 17, "remainder=vector rem_cv=0.000 merge_pass=none");
        spmvlab_csr_free(&A);
    }
}

static void test_f32_storage_refuses_what_it_cannot_hold(void)
{
    static const int32_t rc[][2] = {{0, 0}, {1, 2}, {2, 1}};
    spmvlab_csr A;
    TEST_CHECK(from_pairs(&A, 3, 3, rc, 3) == 0);
    ((double *)A.val)[1] = 1e300;
    const char *f32[] = {"values=f32", NULL};
    TEST_CHECK(test_refuses_saying("vbr", &A, SPMVLAB_F64, f32, SPMVLAB_LIMIT,
                                   "cannot store the value 1.0000000000000001e+300 at row 1, column 2: it overflows f32"));
    spmvlab_csr_free(&A);
}

int main(void)
{
    test_few_block_rows_and_thin_blocks_are_refused();
    test_known_blocks();
    test_mixed_blocks_are_found_whole();
    test_a_long_run_is_cut();
    test_long_rows_go_to_the_remainder();
    test_a_band_converts_in_single_rows();
    test_random_columns_are_refused();
    test_edge_cases_convert();
    test_f32_storage_refuses_what_it_cannot_hold();
    test_long_remainder_rows_take_the_merge_pass();
    test_auto_follows_the_remainder_spread();
    test_forced_paths_on_edge_cases();
    return test_done("vbr blocks");
}
