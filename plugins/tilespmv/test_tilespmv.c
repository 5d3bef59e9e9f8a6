/*
 * tilespmv: the rule gives each tile the kind its pattern calls for, every
 * kind's layout computes y within the bound (f64 and f32, spmv_host), a
 * forced tile_format stores every tile that way, and the device bytes follow
 * README.md's formula. CPU only.
 */
#include <stdlib.h>

#include "testlib_plugin.h"

#define TILE_MATRIX_MAX 1024

/* Adds entry (row, col) of tile column tc of tile row 0 to t[*n]. */
static void put(spmvlab_triplet *t, size_t *n, int row, int tc, int col)
{
    t[(*n)++] = (spmvlab_triplet){row, 16 * tc + col, 0.25 + 0.125 * (double)((row * 7 + col) % 9)};
}

/* A 32 x 112 matrix whose tile row 0 holds one tile of each kind (tile
 * columns 0..6: dense, COO, dense rows, dense columns, ELL, HYB, CSR) and
 * whose tile row 1 is empty. */
static void seven_kinds(spmvlab_csr *A)
{
    spmvlab_triplet *t = malloc(TILE_MATRIX_MAX * sizeof *t);
    size_t n = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            put(t, &n, i, 0, j);          /* 256 entries: dense */
    for (int e = 0; e < 5; e++)
        put(t, &n, 3 * e, 1, 2 * e + 1); /* 5 entries: COO */
    for (int j = 0; j < 16; j++) {
        put(t, &n, 3, 2, j);              /* rows 3 and 7 full: dense rows */
        put(t, &n, 7, 2, j);
    }
    for (int i = 0; i < 16; i++) {
        put(t, &n, i, 3, 2);              /* columns 2 and 5 full: dense columns */
        put(t, &n, i, 3, 5);
        put(t, &n, i, 4, i);              /* two a row, no full column: ELL */
        put(t, &n, i, 4, (i + 1) % 16);
        if (i > 0)
            put(t, &n, i, 5, i);          /* row 0 full, one entry elsewhere: HYB */
        put(t, &n, i, 6, i);              /* rows of 1 and 3 entries: CSR */
        if (i % 2) {
            put(t, &n, i, 6, (i + 3) % 16);
            put(t, &n, i, 6, (i + 9) % 16);
        }
    }
    for (int j = 0; j < 16; j++)
        put(t, &n, 0, 5, j);
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(A, 32, 112, t, n, &err) == 0); /* frees t */
}

static void test_the_rule_picks_each_kind(void)
{
    spmvlab_csr A;
    seven_kinds(&A);
    char desc[256] = "";
    size_t bytes = test_convert_both("tilespmv", &A, NULL, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "tiles=7 csr=1 coo=1 ell=1 hyb=1 dense=1 dense_row=1 dense_col=1");
    /* values: dense 256, COO 5, dense rows 2x16, dense columns 2x16, ELL
     * 16x2, HYB width 0 (16 slots for 1 entry each never pay) 31, CSR 32;
     * index bytes: 0, 5, 2, 2, 32, 31, 16 row starts + 32 */
    size_t nvals = 256 + 5 + 32 + 32 + 32 + 31 + 32, nidx = 5 + 2 + 2 + 32 + 31 + 48;
    TEST_CHECK(bytes == 4 * 3 + 14 * 7 + 8 + 8 * nvals + nidx);
    spmvlab_csr_free(&A);
}

static void test_forced_kinds_hold_every_tile(void)
{
    spmvlab_csr A;
    seven_kinds(&A);
    char desc[256] = "";
    const char *dense[] = {"tile_format=dense", NULL};
    size_t bytes = test_convert_both("tilespmv", &A, dense, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "dense=7 dense_row=0");
    TEST_CHECK(bytes == 4 * 3 + 14 * 7 + 8 + 8 * 7 * 256);
    const char *coo[] = {"tile_format=coo", NULL};
    bytes = test_convert_both("tilespmv", &A, coo, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "coo=7 ell=0");
    TEST_CHECK(bytes == 4 * 3 + 14 * 7 + 8 + 9 * (size_t)A.nnz);
    const char *ell[] = {"tile_format=ell", NULL};
    test_convert_says("tilespmv", &A, ell, 17, "ell=7 hyb=0");
    const char *hyb[] = {"tile_format=hyb", NULL};
    test_convert_says("tilespmv", &A, hyb, 17, "hyb=7 dense=0");
    const char *csr[] = {"tile_format=csr", NULL};
    bytes = test_convert_says("tilespmv", &A, csr, 17, "csr=7 coo=0");
    TEST_CHECK(bytes == 4 * 3 + 14 * 7 + 8 + 9 * (size_t)A.nnz + 16 * 7);
    spmvlab_csr_free(&A);
}

static void test_ragged_edges_and_uniform_rows(void)
{
    /* 1000 x 997: the last tile row and column are partial */
    spmvlab_csr A = test_uniform(1000, 997, 9, 5);
    char desc[256] = "";
    test_convert_both("tilespmv", &A, NULL, 17, desc, sizeof desc);
    const char *dense[] = {"tile_format=dense", NULL};
    test_convert_both("tilespmv", &A, dense, 17, desc, sizeof desc);
    spmvlab_csr_free(&A);
}

static void test_no_nonzeros_converts(void)
{
    char desc[256] = "";
    size_t bytes = test_convert_empty("tilespmv", 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "tiles=0");
    TEST_CHECK(bytes == 4 * 2 + 8); /* tile-row pointers, the tiles' closing offsets; y written as 0 */
}

int main(void)
{
    test_the_rule_picks_each_kind();
    test_forced_kinds_hold_every_tile();
    test_ragged_edges_and_uniform_rows();
    test_no_nonzeros_converts();
    return test_done("tilespmv rule");
}
