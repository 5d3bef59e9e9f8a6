/*
 * dasp, balanced path, stream kernel (bal_kernel = stream): tiles of 256
 * non-zeros, 8 a lane (and of 512, stream_k = 16). The warp and crossing-row counts describe() prints,
 * and spmv_host against the reference bound in f64 and f16, on the cases
 * the kernel's walk and pieces must get right: rows ending on lane and
 * warp edges, lanes closing many rows (runs of empty rows inside a lane's
 * items, at its end, before the first non-zero and after the last), rows
 * crossing many warps, and matrices without non-zeros.
 */
#include <stdlib.h>
#include <string.h>

#include "test_dasp_check.h"

static const char *const sets_k8[] = {"balance=on", "bal_kernel=stream", NULL};
static const char *const sets_k16[] = {"balance=on", "bal_kernel=stream", "stream_k=16", NULL};
/* The pass being run: 8 a lane with the counts checked, then 16 a lane
 * (other warp counts) against the bound only. */
static const char *const *stream_sets = sets_k8;

/* Converts A in dtype with the stream kernel and checks spmv_host against
 * the bound; want (f64, 8 a lane only) are "key=value" words of describe(). */
static void check(const char *what, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *want)
{
    dasp_check_case(what, A, dtype, stream_sets, stream_sets == sets_k8 ? want : NULL, 3);
}

/* Rows of the given lengths, cols columns, checked in both dtypes. */
static void rows_case(const char *what, const int32_t *len, int32_t rows, int32_t cols, const char *const *want)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, rows, cols, len, 41) == 0);
    check(what, &A, SPMVLAB_F64, want);
    check(what, &A, SPMVLAB_F16, NULL);
    spmvlab_csr_free(&A);
}

static void test_edges(void)
{
    /* 8 a row: every lane closes exactly its own row at its last item. */
    int32_t eight[64];
    for (int i = 0; i < 64; i++)
        eight[i] = 8;
    rows_case("rows on lane edges", eight, 64, 100,
              (const char *[]){"bal_kernel=stream", "warps=2", "crossing_rows=0", NULL});
    /* 256 a row: each warp holds one row whole. */
    int32_t tile[3] = {256, 256, 256};
    rows_case("rows on warp edges", tile, 3, 300, (const char *[]){"warps=3", "crossing_rows=0", NULL});
    /* 257 then 255: row 0 leaves one entry to warp 1 (a head piece of one
     * entry), row 1 ends on warp 1's edge. */
    int32_t past[2] = {257, 255};
    rows_case("row one past a warp", past, 2, 300, (const char *[]){"warps=2", "crossing_rows=1", NULL});
    /* 255, 2, 255: row 1 crosses the edge by one entry each side (tail of
     * lane 31, head in lane 0), row 2 ends on the last warp's edge. */
    int32_t before[3] = {255, 2, 255};
    rows_case("row across a warp edge", before, 3, 300, (const char *[]){"warps=2", "crossing_rows=1", NULL});
}

static void test_empty_rows(void)
{
    /* Leading, inner and trailing runs of empty rows, runs that end on a
     * lane's last item and inside a lane's items. */
    static int32_t len[2000];
    memset(len, 0, sizeof len);
    for (int i = 0; i < 2000; i++)
        len[i] = i < 37 || i > 1900 ? 0 : i % 7 == 0 ? 8 : i % 5 == 0 ? 3 : i % 3 == 0 ? 1 : 0;
    rows_case("runs of empty rows", len, 2000, 500, NULL);
    /* A lane closing a run of 300 empty rows after one entry. */
    static int32_t lone[600];
    memset(lone, 0, sizeof lone);
    lone[0] = 1, lone[301] = 20, lone[599] = 600;
    rows_case("long empty run in a lane", lone, 600, 700, NULL);
    int32_t none[700] = {0};
    rows_case("no non-zeros", none, 700, 10, (const char *[]){"warps=1", "crossing_rows=0", NULL});
}

static void test_long_rows(void)
{
    /* A row of 20000 entries over 79 warps among short rows, and two long
     * rows back to back. */
    int32_t len[7] = {3, 20000, 1, 0, 5000, 5000, 2};
    rows_case("long rows", len, 7, 21000, NULL);
    int32_t one[1] = {100000};
    rows_case("one row of 100000", one, 1, 100000, (const char *[]){"crossing_rows=1", NULL});
}

/* cage10 (values fit binary16) in both dtypes; bcsstk16 and the power-law
 * PGPgiantcompo in f64. */
static void test_real_matrices(void)
{
    const char *names[] = {"cage10.mtx.gz", "bcsstk16.mtx.gz", "PGPgiantcompo.mtx.gz"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        spmvlab_csr A;
        if (test_load_csr(names[i], &A) != 0)
            continue;
        check(names[i], &A, SPMVLAB_F64, NULL);
        if (i == 0)
            check(names[i], &A, SPMVLAB_F16, NULL);
        spmvlab_csr_free(&A);
    }
}

int main(void)
{
    for (int pass = 0; pass < 2; pass++) {
        stream_sets = pass ? sets_k16 : sets_k8;
        test_edges();
        test_empty_rows();
        test_long_rows();
        test_real_matrices();
    }
    return test_done("dasp stream");
}
