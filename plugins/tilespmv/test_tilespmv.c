/*
 * tilespmv: the rule gives each tile the kind its pattern calls for, every
 * kind's layout computes y within the bound (f64 and f32, spmv_host), a
 * forced tile_format stores every tile that way, sparse tiles go to the
 * deferred CSR part (and every lane count sums it), long tile rows are
 * split into chunks, and the device bytes follow README.md's formula. The
 * deferred part summed by the merge pass (deferred = merge) on power-law
 * rows, on runs of empty rows with a very long deferred row (cut between
 * merge tiles) and with PIECE chunks adding onto it; deferred = auto takes
 * fused on even rows and merge on uneven ones. CPU only.
 */
#include <stdlib.h>
#include <string.h>

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

/* README.md's footprint: chunks, split tile rows, tiles, values and index
 * bytes, and the deferred part of a rows x ... matrix in f64. */
static size_t f64_bytes(size_t chunks, size_t split, size_t tiles, size_t nvals, size_t nidx, size_t rows,
                        size_t ndef)
{
    return 16 * chunks + 4 * split + 14 * tiles + 8 + 8 * nvals + nidx + (ndef ? 4 * (rows + 1) + 12 * ndef : 0);
}

static void test_the_rule_picks_each_kind(void)
{
    spmvlab_csr A;
    seven_kinds(&A);
    char desc[512] = "";
    const char *keep[] = {"defer_max=0", "whole_merge=false", NULL};
    size_t bytes = test_convert_both("tilespmv", &A, keep, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "tiles=7 csr=1 coo=1 ell=1 hyb=1 dense=1 dense_row=1 dense_col=1 deferred=0");
    /* values: dense 256, COO 5, dense rows 2x16, dense columns 2x16, ELL
     * 16x2, HYB width 0 (16 slots for 1 entry each never pay) 31, CSR 32;
     * index bytes: 0, 5, 2, 2, 32, 31, 16 row starts + 32; two WHOLE chunks */
    size_t nvals = 256 + 5 + 32 + 32 + 32 + 31 + 32, nidx = 5 + 2 + 2 + 32 + 31 + 48;
    TEST_CHECK(bytes == f64_bytes(2, 0, 7, nvals, nidx, 32, 0));
    /* defer_max 12 (the paper's coo_max) defers the 5-entry tile: CSR rows instead */
    const char *coo_max[] = {"defer_max=12", "whole_merge=false", NULL};
    bytes = test_convert_says("tilespmv", &A, coo_max, 17, "tiles=6 csr=1 coo=0 ell=1");
    test_convert_says("tilespmv", &A, coo_max, 17, "deferred=5 deferred_tiles=1");
    TEST_CHECK(bytes == f64_bytes(2, 0, 6, nvals - 5, nidx - 5, 32, 5));
    spmvlab_csr_free(&A);
}

static void test_forced_kinds_hold_every_tile(void)
{
    spmvlab_csr A;
    seven_kinds(&A);
    char desc[512] = "";
    const char *dense[] = {"tile_format=dense", "defer_max=0", NULL};
    size_t bytes = test_convert_both("tilespmv", &A, dense, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "dense=7 dense_row=0");
    TEST_CHECK(bytes == f64_bytes(2, 0, 7, 7 * 256, 0, 32, 0));
    const char *coo[] = {"tile_format=coo", "defer_max=0", NULL};
    bytes = test_convert_both("tilespmv", &A, coo, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "coo=7 ell=0");
    TEST_CHECK(bytes == f64_bytes(2, 0, 7, (size_t)A.nnz, (size_t)A.nnz, 32, 0));
    const char *ell[] = {"tile_format=ell", "defer_max=0", NULL};
    test_convert_says("tilespmv", &A, ell, 17, "ell=7 hyb=0");
    const char *hyb[] = {"tile_format=hyb", "defer_max=0", NULL};
    test_convert_says("tilespmv", &A, hyb, 17, "hyb=7 dense=0");
    const char *csr[] = {"tile_format=csr", "defer_max=0", NULL};
    bytes = test_convert_says("tilespmv", &A, csr, 17, "csr=7 coo=0");
    TEST_CHECK(bytes == f64_bytes(2, 0, 7, (size_t)A.nnz, (size_t)A.nnz + 16 * 7, 32, 0));
    spmvlab_csr_free(&A);
}

static void test_ragged_edges_and_uniform_rows(void)
{
    /* 1000 x 997: the last tile row and column are partial */
    spmvlab_csr A = test_uniform(1000, 997, 9, 5);
    char desc[512] = "";
    test_convert_both("tilespmv", &A, NULL, 17, desc, sizeof desc);
    const char *dense[] = {"tile_format=dense", "defer_max=0", NULL};
    test_convert_both("tilespmv", &A, dense, 17, desc, sizeof desc);
    spmvlab_csr_free(&A);
}

/* Everything deferred: the plugin is a CSR kernel of `lanes` lanes a row,
 * and every lane count sums the rows right. */
static void test_everything_deferred(void)
{
    spmvlab_csr A = test_uniform(1000, 5000, 9, 3); /* 9 random columns of 5000: tiles of 1 or 2 */
    const char *all[] = {"defer_max=256", "whole_merge=false", NULL};
    size_t bytes = test_convert_says("tilespmv", &A, all, 17, "tiles=0 csr=0");
    test_convert_says("tilespmv", &A, all, 17, "deferred=9000 deferred_tiles="); /* mean 9: */
    test_convert_says("tilespmv", &A, all, 17, "deferred_share=1.000 lanes=16 chunks=63 split=0");
    TEST_CHECK(bytes == f64_bytes(63, 0, 0, 0, 0, 1000, 9000));
    static const char *const lanes[] = {"defer_lanes=2", "defer_lanes=4", "defer_lanes=8", "defer_lanes=16",
                                        "defer_lanes=32"};
    for (int k = 0; k < 5; k++) {
        const char *sets[] = {"defer_max=256", lanes[k], "deferred=fused", NULL};
        char desc[512] = "";
        test_convert_both("tilespmv", &A, sets, 17, desc, sizeof desc);
    }
    spmvlab_csr_free(&A);
}

/* Appends count entries of row r at columns first, first + step, ...,
 * with values in [0.25, 1]. */
static void put_row(spmvlab_triplet *t, size_t *n, int r, int first, int step, int count)
{
    for (int k = 0; k < count; k++)
        t[(*n)++] = (spmvlab_triplet){r, first + step * k, 0.25 + 0.125 * (double)((r + k) % 7)};
}

/* 64 x 16384: tile row 0 holds 1000 ELL tiles (rows 0..15 on one diagonal
 * of each), too many for a warp; row 20 defers 3000 entries (tiles of 3 or
 * 4), the other rows 2 entries each. */
static void long_tile_rows(spmvlab_csr *A)
{
    size_t cap = 16 * 1000 + 3000 + 2 * 64, n = 0;
    spmvlab_triplet *t = malloc(cap * sizeof *t);
    for (int i = 0; i < 16; i++)
        put_row(t, &n, i, i, 16, 1000);
    put_row(t, &n, 20, 0, 5, 3000);
    for (int r = 16; r < 64; r++)
        if (r != 20)
            put_row(t, &n, r, (r * 37) % 16000, 1, 2);
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(A, 64, 16384, t, n, &err) == 0); /* frees t */
}

static void test_long_tile_rows_split(void)
{
    spmvlab_csr A;
    long_tile_rows(&A);
    /* lanes: (47 x 2 + 32, row 20 counted as 32) / 48 rows = 2.6: 4;
     * tile row 0: 32 PIECE chunks of 31 or 32 tiles; tile row 1 (row 20:
     * 3000 / 4 lanes = 750 trips > 32): 3 DEFERRED chunks for row 20, one
     * for each other row; tile rows 2 and 3 WHOLE (chunk_tiles 32, defer_max 12) */
    const char *c32[] = {"chunk_tiles=32", "defer_max=12", "deferred=fused", NULL};
    size_t bytes = test_convert_says("tilespmv", &A, c32, 17, "ell=1000");
    test_convert_says("tilespmv", &A, c32, 17, "lanes=4 chunks=52 split=2");
    TEST_CHECK(bytes == f64_bytes(52, 2, 1000, 16000, 16000, 64, 3000 + 47 * 2));
    /* no split: one warp a tile row, still right */
    const char *whole[] = {"chunk_tiles=65536", "defer_max=12", "deferred=fused", NULL};
    test_convert_says("tilespmv", &A, whole, 17, "chunks=4 split=0");
    /* a PIECE chunk a tile, DEFERRED chunks of 32 entries (row 20: 94);
     * the rows of 2 entries are one trip of 2 lanes, so tile rows 2, 3 stay */
    const char *tiny[] = {"chunk_tiles=1", "defer_lanes=2", "defer_max=12", "deferred=fused", NULL};
    test_convert_says("tilespmv", &A, tiny, 17, "chunks=1111 split=2");
    spmvlab_csr_free(&A);
    /* the seven kinds' tile row split into a PIECE chunk a tile */
    seven_kinds(&A);
    const char *one[] = {"chunk_tiles=1", "defer_max=0", "whole_merge=false", NULL};
    test_convert_says("tilespmv", &A, one, 17, "chunks=8 split=1");
    spmvlab_csr_free(&A);
}

static void test_one_row_one_column_and_wide(void)
{
    const char *keep[] = {"defer_max=0", NULL};
    const char *tiny[] = {"chunk_tiles=1", NULL};
    const char *const *sets[] = {NULL, keep, tiny};
    spmvlab_csr row = test_uniform(1, 3000, 700, 7), col = test_uniform(3000, 1, 1, 7),
                wide = test_uniform(3, 50000, 40, 7);
    int32_t lengths[40];
    for (int r = 0; r < 40; r++)
        lengths[r] = r % 3 == 0 ? 0 : r % 5; /* runs of empty rows, in tiles and deferred */
    spmvlab_csr holes;
    TEST_CHECK(test_gen_rows(&holes, 40, 33, lengths, 9) == 0);
    for (int k = 0; k < 3; k++) {
        char desc[512] = "";
        test_convert_both("tilespmv", &row, sets[k], 17, desc, sizeof desc);
        test_convert_both("tilespmv", &col, sets[k], 17, desc, sizeof desc);
        test_convert_both("tilespmv", &wide, sets[k], 17, desc, sizeof desc);
        test_convert_both("tilespmv", &holes, sets[k], 17, desc, sizeof desc);
    }
    spmvlab_csr_free(&row);
    spmvlab_csr_free(&col);
    spmvlab_csr_free(&wide);
    spmvlab_csr_free(&holes);
}

/* The number after "key=" in a describe() text (at its start or after a
 * space); -1 when absent. */
static double fact(const char *desc, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, " %s=", key);
    if (strncmp(desc, k + 1, strlen(k + 1)) == 0)
        return atof(desc + strlen(k + 1));
    const char *at = strstr(desc, k);
    return at ? atof(at + strlen(k)) : -1;
}

/* README.md's footprint of an f64 instance on the merge path from its
 * facts: no split list, the merge pass's carries and tile starts (none
 * only when the tile blocks search them). */
static size_t merge_bytes_of(const char *desc, size_t rows, size_t nvals, size_t nidx)
{
    const size_t mtiles = (size_t)fact(desc, "merge_tiles");
    const size_t starts = strstr(desc, "merge_pass=") && strstr(desc, "/block ") ? 0 : 8 * (mtiles + 1);
    return f64_bytes((size_t)fact(desc, "chunks"), 0, (size_t)fact(desc, "tiles"), nvals, nidx, rows,
                     (size_t)fact(desc, "deferred")) +
           starts + 12 * mtiles;
}

/* 3000 x 200000, power-law rows (1 + 3000 / k for the k-th, scattered):
 * random columns put nearly every entry in a tile of its own, so the
 * deferred part is a power-law CSR. */
static void power_law(spmvlab_csr *A)
{
    enum { ROWS = 3000 };
    int32_t *len = malloc(ROWS * sizeof *len);
    for (int32_t i = 0; i < ROWS; i++)
        len[i] = 1 + 3000 / (1 + (int32_t)(((int64_t)i * 7919) % ROWS));
    test_need_rows(A, ROWS, 200000, len, 21);
    free(len);
}

static void test_merge_path_on_power_law_rows(void)
{
    spmvlab_csr A;
    power_law(&A);
    char desc[512] = "";
    const char *merge[] = {"deferred=merge", NULL};
    size_t bytes = test_convert_both("tilespmv", &A, merge, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "deferred_path=merge");
    TEST_CONTAINS(desc, "merge_pass=direct/4/convert"); /* f64: the merge plugin's rule, direct/4, starts at convert */
    TEST_CONTAINS(desc, "chunks=0 split=0"); /* no tiles: the merge pass alone */
    TEST_CHECK(fact(desc, "defer_cv") > 1.0 && fact(desc, "merge_tiles") > 1);
    TEST_CHECK((int)fact(desc, "deferred") == A.nnz && (int)fact(desc, "tiles") == 0);
    TEST_CHECK(bytes == merge_bytes_of(desc, 3000, 0, 0));
    /* auto: uneven deferred rows take the merge pass */
    test_convert_says("tilespmv", &A, NULL, 17, "deferred_path=merge");
    /* every tile row split into PIECE chunks of one tile, added onto it */
    const char *split[] = {"deferred=merge", "chunk_tiles=1", "defer_max=1", NULL};
    test_convert_both("tilespmv", &A, split, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "deferred_path=merge");
    spmvlab_csr_free(&A);
}

/* 5000 x 400000: a 64 x 64 dense corner (16 kept dense tiles), row 100
 * alone with 100000 entries over every fourth column (tiles of 4: all
 * deferred, a row over many merge tiles), rows 200 .. 2999 of 0 or 3
 * entries in runs, rows 3000 .. 4999 empty (the last one included). */
static void long_deferred_row(spmvlab_csr *A)
{
    size_t cap = 64 * 64 + 100000 + 3 * 2800, n = 0;
    spmvlab_triplet *t = malloc(cap * sizeof *t);
    for (int i = 0; i < 64; i++)
        put_row(t, &n, i, 0, 1, 64);
    put_row(t, &n, 100, 1, 4, 100000);
    for (int r = 200; r < 3000; r++)
        if ((r / 50) % 2)
            for (int d = 0; d < 3; d++)
                t[n++] = (spmvlab_triplet){r, (r * 131 + d * 9973) % 400000, 1.0 - 0.125 * (double)(d + r % 5)};
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(A, 5000, 400000, t, n, &err) == 0); /* frees t */
}

static void test_merge_path_with_empty_rows_and_a_long_row(void)
{
    spmvlab_csr A;
    long_deferred_row(&A);
    char desc[512] = "";
    const char *merge[] = {"deferred=merge", NULL};
    size_t bytes = test_convert_both("tilespmv", &A, merge, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "tiles=16 csr=0 coo=0 ell=0 hyb=0 dense=16");
    TEST_CONTAINS(desc, "deferred=104200 "); /* row 100 and 1400 rows of 3 */
    TEST_CONTAINS(desc, "chunks=4 split=0"); /* the dense tile rows only */
    TEST_CONTAINS(desc, "deferred_path=merge");
    TEST_CHECK(fact(desc, "merge_tiles") > 100); /* row 100 spans them: carries to fix up */
    TEST_CHECK(bytes == merge_bytes_of(desc, 5000, 16 * 256, 0));
    /* the dense tile rows split into a PIECE chunk a tile, added atomically */
    const char *split[] = {"deferred=merge", "chunk_tiles=1", NULL};
    test_convert_both("tilespmv", &A, split, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "split=4 deferred_path=merge");
    TEST_CHECK((int)fact(desc, "chunks") == 16); /* 16 PIECE; the other tile rows have no tiles: no chunk */
    /* fused on the same matrix: the long row in DEFERRED chunks */
    const char *fused[] = {"deferred=fused", NULL};
    test_convert_says("tilespmv", &A, fused, 17, "deferred_path=fused");
    spmvlab_csr_free(&A);
}

static void test_auto_path_follows_the_rows_variation(void)
{
    /* even deferred rows (9 each): fused, whatever their count */
    spmvlab_csr U = test_uniform(1000, 5000, 9, 3);
    const char *all[] = {"defer_max=256", "whole_merge=false", NULL};
    test_convert_says("tilespmv", &U, all, 17, "deferred_path=fused defer_cv=0.000 idle_rows=0.000 merge_pass=none");
    spmvlab_csr_free(&U);
    /* the same rows with every 10th empty (idle_rows 0.1): merge; every
     * 25th (0.04): fused */
    int32_t *len = malloc(1000 * sizeof *len);
    for (int every = 10; every <= 25; every += 15) {
        for (int i = 0; i < 1000; i++)
            len[i] = i % every == 0 ? 0 : 9;
        TEST_CHECK(test_gen_rows(&U, 1000, 5000, len, 4) == 0);
        test_convert_says("tilespmv", &U, all, 17, every == 10 ? "deferred_path=merge defer_cv=0.000 idle_rows=0.100"
                                                               : "deferred_path=fused defer_cv=0.000 idle_rows=0.040");
        spmvlab_csr_free(&U);
    }
    free(len);
    /* nothing deferred: fused even when merge is asked for */
    spmvlab_csr A;
    seven_kinds(&A);
    const char *none[] = {"defer_max=0", "deferred=merge", NULL};
    test_convert_says("tilespmv", &A, none, 17, "deferred=0 ");
    test_convert_says("tilespmv", &A, none, 17, "deferred_path=fused");
    spmvlab_csr_free(&A);
    /* uneven: rows of 2 and one of 3000 (long_tile_rows, row 20) */
    long_tile_rows(&A);
    const char *d12[] = {"defer_max=12", NULL};
    test_convert_says("tilespmv", &A, d12, 17, "deferred_path=merge");
    spmvlab_csr_free(&A);
}

/* The whole-matrix rule: rows of 8 random columns (short, every tile
 * deferred) keep the fused path; rows of 9 go whole to the merge pass, as
 * do rows of 8 from 2^21 non-zeros and rows of 9 among 90 % empty rows
 * (the mean is over the rows with entries); rows of 8 among them take the
 * merge pass too, by the deferred path's idle rows; a band of half-width 16
 * keeps its dense tiles from 2^20 non-zeros and goes whole to the merge pass
 * below; a 7-point stencil (short rows in stored ELL tiles) keeps its tiles
 * below 2^19 non-zeros, not from it; tiles beside an uneven deferred part go
 * whole to the merge pass; whole_merge = false keeps the built format. */
static void test_whole_matrix_rule(void)
{
    const char *off[] = {"whole_merge=false", NULL};
    spmvlab_csr A = test_uniform(1000, 5000, 8, 3);
    test_convert_says("tilespmv", &A, NULL, 17, "deferred_share=1.000 lanes=8");
    test_convert_says("tilespmv", &A, NULL, 17, "deferred_path=fused");
    spmvlab_csr_free(&A);
    A = test_uniform(1000, 5000, 9, 3);
    test_convert_says("tilespmv", &A, NULL, 17, "tiles=0 ");
    test_convert_says("tilespmv", &A, NULL, 17, "deferred_share=1.000");
    test_convert_says("tilespmv", &A, NULL, 17, "deferred_path=merge");
    test_convert_says("tilespmv", &A, off, 17, "deferred_path=fused");
    spmvlab_csr_free(&A);
    A = test_uniform(1 << 18, 1 << 18, 8, 3); /* 2^21 non-zeros */
    test_convert_says("tilespmv", &A, NULL, 17, "deferred_path=merge");
    spmvlab_csr_free(&A);
    /* 9 of 10 rows empty: 1000 rows of 9 entries (mean 0.9 over all 10000
     * rows) are long rows for the rule and go to the merge pass; rows of 8
     * are not, but 90 % idle rows take the deferred part to the merge pass
     * (test_auto_path_follows_the_rows_variation) */
    int32_t len[10000];
    for (int32_t i = 0; i < 10000; i++)
        len[i] = i % 10 == 0 ? 9 : 0;
    test_need_rows(&A, 10000, 5000, len, 3);
    test_convert_says("tilespmv", &A, NULL, 17, "deferred_path=merge");
    spmvlab_csr_free(&A);
    for (int32_t i = 0; i < 10000; i += 10)
        len[i] = 8;
    test_need_rows(&A, 10000, 5000, len, 3);
    test_convert_says("tilespmv", &A, NULL, 17, "deferred_path=merge defer_cv=0.000 idle_rows=0.900");
    spmvlab_csr_free(&A);
    TEST_CHECK(test_gen("banded", "n=33000 bandwidth=16", &A) == 0); /* 1.09e6 non-zeros */
    test_instance *t = test_convert_ok("tilespmv", &A, SPMVLAB_F64, NULL, 17);
    TEST_CHECK(t && test_describe_value(t, "tiles") > 0 && test_describe_value(t, "dense") > 0);
    test_instance_free(t);
    spmvlab_csr_free(&A);
    TEST_CHECK(test_gen("banded", "n=30000 bandwidth=16", &A) == 0); /* 9.9e5 */
    test_convert_says("tilespmv", &A, NULL, 17, "tiles=0 ");
    t = test_convert_ok("tilespmv", &A, SPMVLAB_F64, off, 17);
    TEST_CHECK(t && test_describe_value(t, "dense") > 0);
    test_instance_free(t);
    spmvlab_csr_free(&A);
    TEST_CHECK(test_gen("stencil3d7", "n=40", &A) == 0); /* 4.4e5 non-zeros */
    t = test_convert_ok("tilespmv", &A, SPMVLAB_F64, NULL, 17);
    TEST_CHECK(t && test_describe_value(t, "tiles") > 0 && test_describe_value(t, "ell") > 0);
    test_instance_free(t);
    spmvlab_csr_free(&A);
    TEST_CHECK(test_gen("stencil3d7", "n=44", &A) == 0); /* 5.8e5 */
    test_convert_says("tilespmv", &A, NULL, 17, "tiles=0 ");
    spmvlab_csr_free(&A);
    long_tile_rows(&A);
    const char *d12[] = {"defer_max=12", NULL}, *d12_off[] = {"defer_max=12", "whole_merge=false", NULL};
    test_convert_says("tilespmv", &A, d12, 17, "tiles=0 ");
    t = test_convert_ok("tilespmv", &A, SPMVLAB_F64, d12_off, 17);
    TEST_CHECK(t && test_describe_value(t, "tiles") > 0);
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

static void test_no_nonzeros_converts(void)
{
    char desc[512] = "";
    size_t bytes = test_convert_empty("tilespmv", 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "tiles=0");
    TEST_CONTAINS(desc, "deferred=0");
    TEST_CHECK(bytes == 16 + 8); /* one WHOLE chunk, the tiles' closing offsets; y written as 0 */
}

int main(void)
{
    test_the_rule_picks_each_kind();
    test_forced_kinds_hold_every_tile();
    test_ragged_edges_and_uniform_rows();
    test_everything_deferred();
    test_long_tile_rows_split();
    test_one_row_one_column_and_wide();
    test_merge_path_on_power_law_rows();
    test_merge_path_with_empty_rows_and_a_long_row();
    test_auto_path_follows_the_rows_variation();
    test_no_nonzeros_converts();
    test_whole_matrix_rule();
    return test_done("tilespmv rule");
}
