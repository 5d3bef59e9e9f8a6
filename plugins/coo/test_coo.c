/*
 * coo: runs of one row that start, end or straddle the 32-entry warp tiles
 * of the segmented kernel and the 8-entry lanes and 256-entry tiles of the
 * blocked kernel give the reference result with every kernel; rows without
 * entries end as 0; the footprint is nnz * (8 + value size) (plus the
 * carry slots of zero=owner and the chunk edges of edges=rows). The chunked
 * algorithms are also run directly with plans of several tiles per chunk
 * and several blocks (what a GPU plan gives on large matrices). The auto
 * rules of coo_rule.h and coo_owner.h are checked at their boundaries.
 * CPU only.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "coo_blocked.h"
#include "coo_rule.h"
#include "coo_owner.h"
#include "coo_segmented.h"
#include "testlib_plugin.h"

COO_SEG_DEFINE_HOST(double, f64)
COO_BLK_DEFINE_HOST(double, fma, f64)
COO_OWN_DEFINE_HOST(double, f64)

/* Row lengths chosen against tiles of 32 non-zeros: a run that fills a tile
 * exactly, runs that cross one and two tile boundaries, single entries
 * between them, and empty rows at the start, middle and end. */
static const int32_t coo_lengths[] = {0, 1, 31, 33, 0, 64, 1, 1, 30, 0, 0, 97, 2, 32, 5, 0};
#define COO_ROWS ((int32_t)(sizeof coo_lengths / sizeof coo_lengths[0]))

/* The sets a conversion was given (NULL-ended), each expected in describe(). */
static void check_tiles(test_instance *t, spmvlab_dtype dtype, void *ctx)
{
    const char *const *sets = ctx;
    for (uint64_t seed = 2; seed <= 3; seed++) /* seed 1: test_each_dtype's own check */
        TEST_CHECK(test_verify_host(t, seed) <= 1.0);
    size_t vs = spmvlab_dtype_size(dtype);
    /* zero=owner with carries adds a carry slot per warp (row and value) */
    double carries = test_describe_value(t, "carries"), warps = test_describe_value(t, "warps");
    size_t slots = carries > 0 ? (size_t)warps * (4 + vs) : 0;
    /* chunk edges at row starts: one per warp of the grid and the end */
    if (strstr(test_describe(t), "edges=rows"))
        slots += coo_seg_starts_len((int32_t)warps) * sizeof(int32_t);
    TEST_CHECK(spmvlab_instance_footprint(&t->in) == (size_t)t->pm.csr->nnz * (8 + vs) + slots);
    for (int i = 0; sets[i]; i++)
        TEST_CONTAINS(test_describe(t), sets[i]);
}

/* extra: a second "key=value" set (NULL for none), also expected in describe(). */
static void test_runs_across_warp_tiles(const spmvlab_csr *A, const char *kernel, const char *extra)
{
    char set[64];
    snprintf(set, sizeof set, "kernel=%s", kernel);
    const char *sets[] = {set, extra, NULL};
    test_each_dtype("coo", A, sets, 1, check_tiles, (void *)sets);
}

/* Row lengths 0 to 700 (a third empty, some runs longer than a tile), the
 * kernels' host algorithms with chunks of 1, 2, 3 and 7 tiles against a
 * plain sum per row; |error| within 64 u times the sum of |products|. */
static void test_chunks_of_several_tiles(void)
{
    enum { rows = 3000 };
    int32_t *len = malloc(rows * sizeof *len);
    uint64_t s = 12345;
    for (int32_t i = 0; i < rows; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t h = (uint32_t)(s >> 33);
        len[i] = h % 3 == 0 ? 0 : h % 17 == 0 ? (int32_t)(h % 700) : (int32_t)(h % 9);
    }
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, rows, 4000, len, 5) == 0);
    free(len);
    int32_t *row = malloc((size_t)A.nnz * sizeof *row);
    double *x = malloc(4000 * sizeof *x), *y = malloc(rows * sizeof *y);
    double *ref = calloc(rows, sizeof *ref), *mag = calloc(rows, sizeof *mag);
    for (int32_t i = 0; i < 4000; i++)
        x[i] = 1.0 + (double)((i * 7919) % 1000) / 1000.0 * ((i & 1) ? -1 : 1);
    for (int32_t i = 0; i < rows; i++)
        for (int32_t k = A.row_ptr[i]; k < A.row_ptr[i + 1]; k++) {
            row[k] = i;
            ref[i] += A.val[k] * x[A.col_idx[k]];
            mag[i] += fabs(A.val[k] * x[A.col_idx[k]]);
        }
    const int32_t tiles[] = {1, 2, 3, 7};
    const char *names[] = {"segmented", "blocked, 8 a lane", "blocked, 4 a lane"};
    for (int t = 0; t < 4; t++)
        for (int kind = 0; kind < 6; kind++) { /* kinds 3-5: the same with the owner write */
            const int32_t tile = kind % 3 ? COO_BLK_TILE : COO_SEG_WARP;
            coo_seg_plan p = {tiles[t] * tile, 0, 0, NULL, NULL};
            p.warps = (A.nnz + p.interval - 1) / p.interval;
            coo_own own = {0};
            double *carries = NULL;
            if (kind >= 3) {
                own.rows = malloc((size_t)p.warps * sizeof *own.rows);
                own.vals = carries = calloc((size_t)p.warps, sizeof *carries);
                for (int32_t w = 0; w < p.warps; w++) {
                    own.rows[w] = coo_own_carry_row(p, A.nnz, row, w);
                    own.carries += own.rows[w] >= 0;
                }
                TEST_CHECK(own.carries > 0); /* rows up to 700 long cross chunks */
            }
            memset(y, 0, rows * sizeof *y);
            if (kind % 3)
                coo_blk_host_f64(p, kind % 3 == 1 ? 8 : 4, A.nnz, row, A.col_idx, A.val, x, y,
                                 carries);
            else
                coo_seg_host_f64(p, A.nnz, row, A.col_idx, A.val, x, y, carries);
            if (kind >= 3)
                coo_own_add_f64(&own, p.warps, y);
            int bad = 0;
            for (int32_t i = 0; i < rows; i++)
                bad += fabs(y[i] - ref[i]) > 64 * 1.1e-16 * mag[i] + 1e-300;
            if (bad)
                fprintf(stderr, "%s%s, chunk of %d tiles: %d rows off\n", names[kind % 3],
                        kind >= 3 ? ", owner" : "", tiles[t], bad);
            TEST_CHECK(bad == 0);
            free(own.rows);
            free(carries);
        }
    free(row);
    free(x);
    free(y);
    free(ref);
    free(mag);
    spmvlab_csr_free(&A);
}

/* A square CSR matrix of `rows` rows of k entries each, the columns of row
 * i at i * stride + j * step (mod rows), values 1. */
static void regular(spmvlab_csr *A, int32_t rows, int32_t k, int32_t stride, int32_t step)
{
    A->rows = A->cols = rows;
    A->nnz = rows * k;
    A->row_ptr = malloc(((size_t)rows + 1) * sizeof *A->row_ptr);
    A->col_idx = malloc((size_t)A->nnz * sizeof *A->col_idx);
    for (int32_t i = 0; i <= rows; i++)
        A->row_ptr[i] = i * k;
    for (int32_t i = 0; i < rows; i++)
        for (int32_t j = 0; j < k; j++)
            A->col_idx[i * k + j] = (int32_t)(((long long)i * stride + (long long)j * step) % rows);
}

/* The random-column rule, the small-y owner rule and the two edge rules at
 * their boundaries. */
static void test_auto_rules(void)
{
    /* sectors of x: f64 holds 4 a sector, f32 8 */
    const int32_t rp[] = {0, 5, 8}, ci[] = {0, 1, 2, 3, 4, 0, 8, 16};
    TEST_CHECK(coo_x_sector_share(rp, ci, 2, 8) == 5.0 / 8);
    TEST_CHECK(coo_x_sector_share(rp, ci, 2, 4) == 4.0 / 8);

    /* 2^20 entries in rows of 32: consecutive columns are local, columns 33
     * apart random; random rows of 32 go to the segmented kernel, of 16 to 4
     * entries a lane */
    spmvlab_csr A = {0};
    regular(&A, 1 << 15, 32, 1, 1);
    TEST_CHECK(!coo_auto_random(A.row_ptr, A.col_idx, A.rows, A.nnz, 8));
    TEST_CHECK(coo_auto_blocked(A.row_ptr, A.rows, A.nnz, 0) == 1);
    free(A.row_ptr);
    free(A.col_idx);
    regular(&A, 1 << 15, 32, 7, 33);
    TEST_CHECK(coo_auto_random(A.row_ptr, A.col_idx, A.rows, A.nnz, 8));
    TEST_CHECK(coo_auto_blocked(A.row_ptr, A.rows, A.nnz, 1) == 0);
    TEST_CHECK(!coo_auto_random(A.row_ptr, A.col_idx, A.rows, A.nnz - 1, 8)); /* below 2^20 */
    free(A.row_ptr);
    free(A.col_idx);
    regular(&A, 1 << 16, 16, 7, 33);
    TEST_CHECK(coo_auto_random(A.row_ptr, A.col_idx, A.rows, A.nnz, 8));
    TEST_CHECK(coo_auto_blocked(A.row_ptr, A.rows, A.nnz, 1) == 1);
    TEST_CHECK(coo_auto_items(A.rows, A.nnz, 1) == 4 && coo_auto_items(A.rows, A.nnz, 0) == 8);
    free(A.row_ptr);
    free(A.col_idx);

    /* below 2^20 the blocked kernel from 2^18 entries in rows of more than 12 */
    regular(&A, 1 << 14, 16, 1, 1);
    TEST_CHECK(coo_auto_blocked(A.row_ptr, A.rows, A.nnz, 0) == 1);
    TEST_CHECK(coo_auto_blocked(A.row_ptr, A.rows - 1, A.nnz - 16, 0) == 0);
    free(A.row_ptr);
    free(A.col_idx);
    regular(&A, 1 << 15, 12, 1, 1);
    TEST_CHECK(coo_auto_blocked(A.row_ptr, A.rows, A.nnz, 0) == 0);
    free(A.row_ptr);
    free(A.col_idx);

    /* the owner write where y has at most 4 KB, carries and all */
    TEST_CHECK(coo_auto_owner(1000, 512, 8, 0) && !coo_auto_owner(1000, 513, 8, 0));
    TEST_CHECK(coo_auto_owner(1000, 1024, 4, 0) && !coo_auto_owner(1000, 1025, 4, 0));
    TEST_CHECK(coo_auto_owner(1000, 513, 8, 1));

    /* edges: auto moves them below 2^20 entries only; rows always */
    coo_seg_plan p = coo_seg_fixed_plan(1 << 20, 256, COO_SEG_WARP);
    TEST_CHECK(!coo_snappable(1, COO_EDGES_AUTO, p, 1 << 20, 40));
    TEST_CHECK(coo_snappable(1, COO_EDGES_ROWS, p, 1 << 20, 40));
    p = coo_seg_fixed_plan(100000, 32, COO_SEG_WARP);
    TEST_CHECK(coo_snappable(1, COO_EDGES_AUTO, p, 100000, 32));
    TEST_CHECK(!coo_snappable(1, COO_EDGES_AUTO, p, 100000, 33));

    /* a row up to twice the interval widens it to whole tiles over the row */
    coo_seg_plan w = coo_snap_plan(1, COO_EDGES_AUTO, p, 100000, 45);
    TEST_CHECK(w.interval == 64 && w.warps == (100000 + 63) / 64);
    TEST_CHECK(coo_snappable(1, COO_EDGES_AUTO, w, 100000, 45));
    TEST_CHECK(coo_snap_plan(1, COO_EDGES_AUTO, p, 100000, 65).interval == 32);
    TEST_CHECK(coo_snap_plan(1, COO_EDGES_EVEN, p, 100000, 45).interval == 32);
    TEST_CHECK(coo_snap_plan(0, COO_EDGES_AUTO, p, 100000, 45).interval == 32);
    TEST_CHECK(coo_snap_plan(1, COO_EDGES_AUTO, p, 100000, 20).interval == 32); /* snaps as it is */
}

int main(void)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, COO_ROWS, 128, coo_lengths, 9) == 0);
    TEST_CHECK(A.nnz == 297);
    test_runs_across_warp_tiles(&A, "blocked", "items=8");
    test_runs_across_warp_tiles(&A, "blocked", "items=4");
    test_runs_across_warp_tiles(&A, "segmented", NULL);
    test_runs_across_warp_tiles(&A, "blocked", "zero=owner");
    test_runs_across_warp_tiles(&A, "segmented", "zero=owner");
    test_runs_across_warp_tiles(&A, "atomic", NULL);
    spmvlab_csr_free(&A);
    test_chunks_of_several_tiles();
    /* the auto rules of coo_rule.h: chunks of 512 and 4 entries a lane on
     * large matrices of short rows, chunks of 256 for the segmented kernel;
     * one chunk per resident warp below 2^20 */
    TEST_CHECK(coo_auto_chunk(1, 1 << 20) == COO_BLK_CHUNK && coo_auto_chunk(1, (1 << 20) - 1) == 0);
    TEST_CHECK(coo_auto_chunk(0, 1 << 20) == COO_SEG_CHUNK && coo_auto_chunk(0, (1 << 20) - 1) == 0);
    TEST_CHECK(coo_auto_items(1000, 12000, 0) == 4 && coo_auto_items(1000, 12001, 0) == 8);
    test_auto_rules();
    coo_seg_plan p = coo_seg_fixed_plan(100000, 512, COO_BLK_TILE);
    TEST_CHECK(p.interval == 512 && p.warps == 196);
    p = coo_seg_fixed_plan(300, 512, COO_BLK_TILE); /* a chunk longer than the matrix */
    TEST_CHECK(p.interval == 512 && p.warps == 1);
    p = coo_seg_fixed_plan(1000, 40, COO_SEG_WARP); /* rounded up to whole tiles */
    TEST_CHECK(p.interval == 64 && p.warps == 16);
    return test_done("coo warp_tiles");
}
