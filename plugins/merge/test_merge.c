/*
 * merge: the merge-path search, by one thread and by a warp's rounds of 32
 * probes, lands on the path a sequential merge walks (empty rows and long
 * rows included); rows that span threads and tiles come out right in f64
 * and f32 for every tile shape, place of the search and way of making the
 * products; edge shapes (one row, one column, no entries, rectangular, a
 * row over many tiles, runs of empty rows); the fix-up is dropped only when
 * no tile leaves a row half done; the device bytes follow README.md's
 * formula; auto picks products and items from the column locality; a tile
 * shape that is not compiled is refused. CPU only.
 */
#include <stdlib.h>

#include "merge.h"
#include "testlib_plugin.h"

/* The warp's search (merge_path_search_warp) replayed lane by lane; the
 * lanes whose row end goes first must be a prefix (the ballot's count
 * stands for them), else the point is (-1, -1). */
static merge_coord warp_search(int64_t d, const int32_t *row_end, int32_t rows, int32_t nnz)
{
    const merge_coord broken = {-1, -1};
    int64_t lo = d > nnz ? d - nnz : 0, hi = d < rows ? d : rows;
    while (lo < hi) {
        int below = 0;
        for (int lane = 0; lane < 32; lane++) {
            int64_t probe = merge_warp_probe(lo, hi, lane);
            if (probe < lo || probe >= hi)
                return broken;
            if ((int64_t)row_end[probe] <= d - probe - 1) {
                if (lane != below)
                    return broken;
                below++;
            }
        }
        if (!merge_warp_narrow(&lo, &hi, below))
            break;
    }
    merge_coord c = {(int32_t)lo, (int32_t)(d - lo)};
    return c;
}

/* Walks the merge of row ends and non-zero indices step by step and
 * compares every point with both searches on its diagonal; returns
 * mismatches. */
static int path_mismatches(const int32_t *row_ptr, int32_t rows, int32_t nnz)
{
    int bad = 0;
    merge_coord p = {0, 0};
    for (int64_t d = 0; d <= (int64_t)rows + nnz; d++) {
        merge_coord s = merge_path_search(d, row_ptr + 1, rows, 0, nnz);
        merge_coord w = warp_search(d, row_ptr + 1, rows, nnz);
        bad += s.row != p.row || s.nz != p.nz || w.row != p.row || w.nz != p.nz;
        if (p.row < rows && row_ptr[p.row + 1] <= p.nz)
            p.row++; /* a row end at or below the next non-zero goes first */
        else
            p.nz++;
    }
    return bad;
}

static void test_search_follows_the_sequential_merge(void)
{
    /* empty rows first, between and last; a row of 9; a single entry */
    const int32_t row_ptr[] = {0, 0, 0, 3, 3, 12, 13, 13, 13};
    TEST_CHECK(path_mismatches(row_ptr, 8, 13) == 0);
    const int32_t empty[] = {0, 0, 0, 0};
    TEST_CHECK(path_mismatches(empty, 3, 0) == 0);
    const int32_t one_row[] = {0, 40};
    TEST_CHECK(path_mismatches(one_row, 1, 40) == 0);
    /* the end of the path is the end of both lists */
    merge_coord end = merge_path_search(8 + 13, row_ptr + 1, 8, 0, 13);
    TEST_CHECK(end.row == 8 && end.nz == 13);
}

/* The device bytes of README.md's formula for f64. */
static size_t footprint(const spmvlab_csr *A, int items, int keeps_starts)
{
    size_t tiles = ((size_t)A->rows + (size_t)A->nnz + 128 * (size_t)items - 1) / (128 * (size_t)items);
    return 4 * ((size_t)A->rows + 1) + 12 * (size_t)A->nnz + (keeps_starts ? 8 * (tiles + 1) : 0) + 12 * tiles;
}

/* 3000 rows: runs of empty rows, short rows, and rows of 700 and 5000
 * entries that span several threads and tiles (a tile holds 512 to 1792
 * path items); every tile shape, every place of the search and both ways
 * of making the products. The warp's search on the same rows. */
static void test_rows_across_threads_and_tiles(void)
{
    enum { ROWS = 3000 };
    int32_t *len = malloc(ROWS * sizeof *len);
    for (int32_t i = 0; i < ROWS; i++)
        len[i] = i % 97 < 20 ? 0 : 1 + i % 7;
    len[5] = 700;
    len[1234] = 5000;
    len[ROWS - 1] = 900;
    spmvlab_csr A;
    test_need_rows(&A, ROWS, 6000, len, 3);
    TEST_CHECK(path_mismatches(A.row_ptr, A.rows, A.nnz) == 0);
    const char *const items[] = {"items=4", "items=6", "items=7", "items=10", "items=14"};
    const char *const search[] = {"search=block", "search=launch", "search=convert"};
    const char *const products[] = {"products=staged", "products=direct"};
    for (int i = 0; i < 5; i++)
        for (int p = 0; p < 2; p++) {
            const int s = (2 * i + p) % 3;
            const char *sets[] = {items[i], search[s], products[p], NULL};
            char desc[256] = "";
            size_t bytes = test_convert_both("merge", &A, sets, 11, desc, sizeof desc);
            TEST_CHECK(bytes == footprint(&A, atoi(items[i] + 6), s != 0));
            TEST_CONTAINS(desc, items[i]);
            TEST_CONTAINS(desc, search[s]);
            TEST_CONTAINS(desc, products[p]);
            TEST_CONTAINS(desc, "fixup=1");
        }
    free(len);
    spmvlab_csr_free(&A);
}

/* One edge shape (rows x cols, row lengths len) under every way of making
 * the products and every place of the search, with the smallest tiles. */
static void check_shape(int32_t rows, int32_t cols, const int32_t *len)
{
    spmvlab_csr A;
    test_need_rows(&A, rows, cols, len, 7);
    const char *const variants[][4] = {
        {"items=4", "search=block", "products=direct", NULL}, {"items=4", "search=launch", "products=staged", NULL},
        {"items=4", "search=convert", "products=direct", NULL}, {"items=14", "search=block", "products=staged", NULL}};
    for (int v = 0; v < 4; v++) {
        char desc[256] = "";
        TEST_CHECK(test_convert_both("merge", &A, variants[v], 5, desc, sizeof desc) > 0);
    }
    spmvlab_csr_free(&A);
}

/* One row over many tiles, one column, no entries, rectangular both ways,
 * a long row among runs of empty rows, mostly empty rows. */
static void test_edge_shapes(void)
{
    enum { N = 20000 };
    int32_t *len = calloc(N, sizeof *len);
    len[0] = 6000; /* 1 x 6000, full: a row over a dozen tiles */
    check_shape(1, 6000, len);
    for (int32_t i = 0; i < N; i++)
        len[i] = i % 3 != 0; /* N x 1 */
    check_shape(N, 1, len);
    for (int32_t i = 0; i < N; i++)
        len[i] = 0; /* N x 9 without entries */
    check_shape(N, 9, len);
    for (int32_t i = 0; i < 40; i++)
        len[i] = 1000 + i; /* 40 x 3000: wide */
    check_shape(40, 3000, len);
    for (int32_t i = 0; i < N; i++)
        len[i] = i % 5; /* N x 4: tall */
    check_shape(N, 4, len);
    for (int32_t i = 0; i < N; i++)
        len[i] = i == N / 2 ? 9000 : i % 1000 == 0; /* a row of 9000 among empty rows */
    check_shape(N, 12000, len);
    free(len);
}

/* A tile boundary on an even diagonal of the identity falls between two
 * rows: no tile leaves a row open, so the fix-up is not launched. One row
 * of two entries shifts the boundaries into rows. */
static void test_fixup_only_when_a_row_is_cut(void)
{
    enum { N = 2000 };
    int32_t len[N];
    for (int32_t i = 0; i < N; i++)
        len[i] = 1;
    spmvlab_csr A;
    test_need_rows(&A, N, N, len, 2);
    for (int32_t i = 0; i < N; i++)
        A.col_idx[i] = i; /* the identity's pattern */
    const char *sets[] = {"items=4", NULL};
    test_convert_says("merge", &A, sets, 3, "fixup=0");
    spmvlab_csr_free(&A);
    len[0] = 2;
    test_need_rows(&A, N, N, len, 2);
    test_convert_says("merge", &A, sets, 3, "fixup=1");
    spmvlab_csr_free(&A);
}

/* auto's items as a function of the part's size and column locality:
 * 10 from 2^20 non-zeros with a share of new sectors below 0.34 (f64) or
 * 0.5 (f32), else 4 (f64) or 6 (f32); products direct throughout. Each
 * feature is flipped across its threshold with the other held. */
static void test_auto_items_flip_on_size_and_locality(void)
{
    struct {
        int f64;
        double share;
        int64_t nnz;
        int items;
    } cases[] = {
        {1, 0.33, 1 << 20, 10},       {1, 0.35, 1 << 20, 4},  {1, 0.33, (1 << 20) - 1, 4},
        {0, 0.49, 1 << 20, 10},       {0, 0.51, 1 << 20, 6},  {0, 0.49, (1 << 20) - 1, 6},
        {1, 0.0, 30000000, 10},       {0, 1.0, 30000000, 6},  {1, 1.0, 30000000, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int products = -1, items = -1;
        merge_auto_choice(cases[i].f64, cases[i].share, cases[i].nnz, &products, &items);
        TEST_CHECK(products == MERGE_PRODUCTS_DIRECT);
        TEST_CHECK(items == cases[i].items);
    }
    TEST_CHECK(merge_auto_search() == MERGE_SEARCH_CONVERT);
}

/* auto on whole matrices: below 2^20 non-zeros direct products with 4
 * items in f64 and 6 in f32 whether the columns are random (uniform,
 * 70,000 rows: the share is taken on 65,536 of them) or local (a band);
 * from 2^20 the band (share 0.33 in f64, 0.22 in f32) takes 10 items in
 * both, the random columns keep 4 and 6. The search is at convert on
 * every size. Each set option overrides its part alone. */
static void test_auto_on_random_and_local_columns(void)
{
    spmvlab_csr rnd, band, big_rnd, big_band;
    if (test_gen("uniform", "n=70000 k=8", &rnd) || test_gen("banded", "n=70000 bandwidth=4", &band) ||
        test_gen("uniform", "n=140000 k=8", &big_rnd) || test_gen("banded", "n=120000 bandwidth=4", &big_band))
        return;
    TEST_CHECK(band.nnz < (1 << 20) && big_band.nnz >= (1 << 20) && big_rnd.nnz >= (1 << 20));
    test_expect_facts("merge", &rnd, SPMVLAB_F64, NULL, 2,
                      (const char *[]){"items=4", "products=direct", "auto=direct/4", "search=convert", NULL});
    test_expect_facts("merge", &band, SPMVLAB_F64, NULL, 2,
                      (const char *[]){"items=4", "products=direct", "auto=direct/4", "search=convert", NULL});
    test_expect_facts("merge", &rnd, SPMVLAB_F32, NULL, 2,
                      (const char *[]){"items=6", "products=direct", "auto=direct/6", NULL});
    test_expect_facts("merge", &band, SPMVLAB_F32, NULL, 2,
                      (const char *[]){"items=6", "products=direct", "auto=direct/6", NULL});
    test_expect_facts("merge", &big_band, SPMVLAB_F64, NULL, 0,
                      (const char *[]){"items=10", "products=direct", "auto=direct/10", "search=convert", NULL});
    test_expect_facts("merge", &big_band, SPMVLAB_F32, NULL, 0,
                      (const char *[]){"items=10", "products=direct", "auto=direct/10", NULL});
    test_expect_facts("merge", &big_rnd, SPMVLAB_F64, NULL, 0,
                      (const char *[]){"items=4", "products=direct", "auto=direct/4", NULL});
    test_expect_facts("merge", &big_rnd, SPMVLAB_F32, NULL, 0,
                      (const char *[]){"items=6", "products=direct", "auto=direct/6", NULL});
    test_expect_facts("merge", &rnd, SPMVLAB_F64, (const char *[]){"items=10", NULL}, 2,
                      (const char *[]){"items=10", "products=direct", "auto=direct/4", NULL});
    test_expect_facts("merge", &band, SPMVLAB_F64, (const char *[]){"products=staged", "search=block", NULL}, 2,
                      (const char *[]){"items=4", "products=staged", "auto=direct/4", "search=block", NULL});
    /* the shares: 8 random columns of 70,000 fall in 8 sectors nearly
     * always; 9 consecutive columns span 3 sectors of 4 wherever they start */
    test_instance *t = test_convert_ok("merge", &rnd, SPMVLAB_F64, NULL, 2);
    if (t) {
        TEST_CHECK(test_describe_value(t, "new_sector_share") > 0.99);
        test_instance_free(t);
    }
    t = test_convert_ok("merge", &band, SPMVLAB_F64, NULL, 2);
    if (t) {
        double share = test_describe_value(t, "new_sector_share");
        TEST_CHECK(share > 0.3 && share < 0.4);
        test_instance_free(t);
    }
    spmvlab_csr_free(&rnd);
    spmvlab_csr_free(&band);
    spmvlab_csr_free(&big_rnd);
    spmvlab_csr_free(&big_band);
}

/* A matrix without entries writes zeros; its share is 0 (auto: direct/4),
 * its one tile's two starts are kept (search at convert). */
static void test_empty_matrix(void)
{
    char desc[256];
    size_t bytes = test_convert_empty("merge", 4, desc, sizeof desc);
    TEST_CONTAINS(desc, "tiles=1");
    TEST_CONTAINS(desc, "fixup=0");
    TEST_CONTAINS(desc, "new_sector_share=0.000 auto=direct/4");
    TEST_CHECK(bytes == 4 * 6 + 12 + 16); /* row_ptr, one tile's carry, its two starts */
}

static void test_uncompiled_tile_shape_is_refused(void)
{
    spmvlab_csr A = test_uniform(10, 10, 2, 1);
    test_refuses_saying("merge", &A, SPMVLAB_F64, (const char *[]){"items=5", NULL}, SPMVLAB_INVALID_OPTION,
                        "must be 4, 6, 7, 10 or 14");
    spmvlab_csr_free(&A);
}

int main(void)
{
    test_search_follows_the_sequential_merge();
    test_rows_across_threads_and_tiles();
    test_edge_shapes();
    test_fixup_only_when_a_row_is_cut();
    test_auto_items_flip_on_size_and_locality();
    test_auto_on_random_and_local_columns();
    test_empty_matrix();
    test_uncompiled_tile_shape_is_refused();
    return test_done("merge");
}
