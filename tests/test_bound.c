/* Gather sectors counted on small matrices with known answers, the bound's
 * choice of limit, and the ceilings' cache entry read back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spmvlab/bound.h"
#include "spmvlab/matrix.h"
#include "testlib.h"

/* A matrix from (row, col) pairs, every value 1. */
static spmvlab_csr pattern(int32_t rows, int32_t cols, const int32_t (*rc)[2], size_t n)
{
    spmvlab_triplet *t = malloc((n ? n : 1) * sizeof *t);
    for (size_t i = 0; i < n; i++)
        t[i] = (spmvlab_triplet){rc[i][0], rc[i][1], 1.0};
    spmvlab_csr A;
    spmvlab_err err;
    if (spmvlab_csr_from_triplets(&A, rows, cols, t, n, &err)) {
        fprintf(stderr, "building a test matrix: %s\n", err.msg);
        exit(1);
    }
    return A;
}

static void test_diagonal_counts_one_sector_per_four_rows_in_f64(void)
{
    /* 64 rows: two groups of 32; each group's 32 f64 columns fill 8 sectors */
    int32_t rc[64][2];
    for (int i = 0; i < 64; i++)
        rc[i][0] = rc[i][1] = i;
    spmvlab_csr A = pattern(64, 64, rc, 64);
    TEST_CHECK(spmvlab_gather_sectors(&A, 8) == 16);
    TEST_CHECK(spmvlab_gather_sectors(&A, 4) == 8);  /* 8 floats a sector */
    TEST_CHECK(spmvlab_gather_sectors(&A, 2) == 4);  /* 16 halves a sector */
    spmvlab_csr_free(&A);
}

static void test_shared_column_counts_once_per_group(void)
{
    /* every one of 40 rows reads column 0: one sector in the first group
     * (rows 0-31), one in the second (rows 32-39) */
    int32_t rc[40][2];
    for (int i = 0; i < 40; i++)
        rc[i][0] = i, rc[i][1] = 0;
    spmvlab_csr A = pattern(40, 100, rc, 40);
    TEST_CHECK(spmvlab_gather_sectors(&A, 8) == 2);
    spmvlab_csr_free(&A);
}

static void test_scattered_columns_count_a_sector_each(void)
{
    /* one row, columns 0, 3 (same sector as 0), 4, 100, 103 (same as 100) */
    const int32_t rc[][2] = {{0, 0}, {0, 3}, {0, 4}, {0, 100}, {0, 103}};
    spmvlab_csr A = pattern(1, 128, rc, 5);
    TEST_CHECK(spmvlab_gather_sectors(&A, 8) == 3);
    TEST_CHECK(spmvlab_gather_sectors(&A, 4) == 2); /* 0-7 and 96-103 */
    TEST_CHECK(spmvlab_gather_sectors(&A, 3) == -1);
    spmvlab_csr_free(&A);
}

static void test_empty_matrix_has_no_sectors(void)
{
    spmvlab_csr A = pattern(5, 5, NULL, 0);
    TEST_CHECK(spmvlab_gather_sectors(&A, 8) == 0);
    spmvlab_csr_free(&A);
}

static spmvlab_ceilings ceilings(void)
{
    spmvlab_ceilings c;
    spmvlab_ceilings_clear(&c);
    c.dram_gbs = 2000, c.l2_gbs = 6000, c.gather_l2_gps = 100, c.gather_dram_gps = 20;
    c.launch_us = 5, c.replay_us = 2, c.l2_bytes = 50e6;
    return c;
}

static void test_bound_takes_the_largest_limit(void)
{
    spmvlab_ceilings c = ceilings();
    spmvlab_bound b;
    /* 1 GB streamed at 2000 GB/s: 500 us; 1e6 sectors at 100 G/s: 10 us */
    spmvlab_bound_work w = {1e9, 1e6, 1e6, 0};
    TEST_CHECK(spmvlab_bound_of(&c, &w, &b) == 0);
    TEST_CHECK(b.kind == SPMVLAB_BOUND_DRAM && fabs(b.us - 500) < 1e-9 && fabs(b.gather_us - 10) < 1e-9);
    /* 1e9 sectors from an x larger than L2, at 20 G/s: 50000 us */
    w = (spmvlab_bound_work){1e9, 1e8, 1e9, 0};
    TEST_CHECK(spmvlab_bound_of(&c, &w, &b) == 0);
    TEST_CHECK(b.kind == SPMVLAB_BOUND_GATHER && fabs(b.us - 50000) < 1e-6);
    TEST_CHECK(strcmp(spmvlab_bound_kind_name(b.kind), "gather") == 0);
    /* a tiny matrix: 6 KB in L2 at 6000 GB/s is 1 ns; the replay floor wins,
     * and the single-launch floor when timed alone */
    w = (spmvlab_bound_work){6e3, 1e3, 10, 0};
    TEST_CHECK(spmvlab_bound_of(&c, &w, &b) == 0);
    TEST_CHECK(b.kind == SPMVLAB_BOUND_LAUNCH && b.us == 2);
    w.single = 1;
    TEST_CHECK(spmvlab_bound_of(&c, &w, &b) == 0 && b.us == 5);
    /* bytes that fit L2 stream at the L2 rate: 30 MB at 6000 GB/s = 5 us */
    w = (spmvlab_bound_work){30e6, 1e3, 10, 0};
    TEST_CHECK(spmvlab_bound_of(&c, &w, &b) == 0);
    TEST_CHECK(b.kind == SPMVLAB_BOUND_L2 && fabs(b.us - 5) < 1e-9);
}

static void test_bound_needs_known_ceilings(void)
{
    spmvlab_ceilings c;
    spmvlab_ceilings_clear(&c);
    spmvlab_bound_work w = {1e9, 1e6, 1e6, 0};
    spmvlab_bound b;
    TEST_CHECK(spmvlab_bound_of(&c, &w, &b) == -1 && isnan(b.us));
}

static void test_ceilings_entry_reads_back_for_its_key_only(void)
{
    char dir[] = "/tmp/spmvlab-ceilings-XXXXXX";
    TEST_CHECK(mkdtemp(dir) != NULL);
    setenv("SPMVLAB_CACHE_DIR", dir, 1);
    spmvlab_ceilings c = ceilings(), back;
    snprintf(c.key, sizeof c.key, "Test GPU sm1980 mem2619 drv12080");
    snprintf(c.source, sizeof c.source, "measured 2026-01-01T00:00:00Z");
    char path[4400];
    spmvlab_err err;
    TEST_CHECK(spmvlab_ceilings_path(c.key, path, sizeof path, 1, &err) == 0);
    TEST_CONTAINS(path, "/ceilings/Test_GPU_sm1980_mem2619_drv12080.txt");
    TEST_CHECK(spmvlab_ceilings_write(path, &c, &err) == 0);
    TEST_CHECK(spmvlab_ceilings_read(path, c.key, &back, &err) == 0);
    TEST_CHECK(back.dram_gbs == 2000 && back.gather_dram_gps == 20 && back.replay_us == 2 && back.l2_bytes == 50e6);
    TEST_CHECK(spmvlab_ceilings_read(path, "Other GPU sm1 mem1 drv1", &back, &err) == -1);
    TEST_CONTAINS(err.msg, "is for \"Test GPU");
    unlink(path);
    snprintf(path, sizeof path, "%s/ceilings", dir);
    rmdir(path);
    rmdir(dir);
}

static void test_ceilings_without_a_gpu_say_so(void)
{
    spmvlab_runtime rt;
    spmvlab_err err;
    TEST_CHECK(spmvlab_runtime_open(&rt, 0, 0, &err) == 0);
    spmvlab_ceilings c;
    TEST_CHECK(spmvlab_ceilings_get(&rt, 0, &c, &err) == -1);
    TEST_CONTAINS(err.msg, "no GPU");
    spmvlab_runtime_close(&rt);
}

int main(void)
{
    test_diagonal_counts_one_sector_per_four_rows_in_f64();
    test_shared_column_counts_once_per_group();
    test_scattered_columns_count_a_sector_each();
    test_empty_matrix_has_no_sectors();
    test_bound_takes_the_largest_limit();
    test_bound_needs_known_ceilings();
    test_ceilings_entry_reads_back_for_its_key_only();
    test_ceilings_without_a_gpu_say_so();
    return test_done("test_bound");
}
