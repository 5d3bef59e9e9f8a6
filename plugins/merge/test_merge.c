/*
 * merge: the merge-path search lands on the path a sequential merge walks
 * (empty rows and long rows included); rows that span threads and tiles
 * come out right in f64 and f32 for every tile shape and both places of
 * the search; the device bytes follow README.md's formula; a tile shape
 * that is not compiled is refused. CPU only.
 */
#include <stdlib.h>

#include "merge.h"
#include "testlib_plugin.h"

/* Walks the merge of row ends and non-zero indices step by step and
 * compares every point with the search on its diagonal; returns mismatches. */
static int path_mismatches(const int32_t *row_ptr, int32_t rows, int32_t nnz)
{
    int bad = 0;
    merge_coord p = {0, 0};
    for (int64_t d = 0; d <= (int64_t)rows + nnz; d++) {
        merge_coord s = merge_path_search(d, row_ptr + 1, rows, 0, nnz);
        bad += s.row != p.row || s.nz != p.nz;
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

/* 3000 rows: runs of empty rows, short rows, and rows of 700 and 5000
 * entries that span several threads and tiles (a tile holds 512 to 1792
 * path items). */
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
    const char *const shapes[][3] = {{"items=4", "search=launch", NULL},  {"items=7", "search=convert", NULL},
                                     {"items=10", "search=launch", NULL}, {"items=14", "search=convert", NULL}};
    const int items[] = {4, 7, 10, 14};
    for (int s = 0; s < 4; s++) {
        char desc[256] = "";
        size_t bytes = test_convert_both("merge", &A, shapes[s], 11, desc, sizeof desc);
        size_t tiles = ((size_t)A.rows + (size_t)A.nnz + 128 * (size_t)items[s] - 1) / (128 * (size_t)items[s]);
        TEST_CHECK(tiles > 4);
        TEST_CHECK(bytes == 4 * ((size_t)A.rows + 1) + 12 * (size_t)A.nnz + 8 * (tiles + 1) + 12 * tiles);
        TEST_CONTAINS(desc, shapes[s][0]);
    }
    free(len);
    spmvlab_csr_free(&A);
}

/* auto: 7 items for f64, 10 for f32; a matrix without entries writes zeros. */
static void test_auto_items_and_empty_matrix(void)
{
    spmvlab_csr A = test_uniform(100, 80, 3, 5);
    test_instance *t = test_convert_ok("merge", &A, SPMVLAB_F64, NULL, 2);
    if (t) {
        TEST_CHECK(test_describe_value(t, "items") == 7);
        test_instance_free(t);
    }
    t = test_convert_ok("merge", &A, SPMVLAB_F32, NULL, 2);
    if (t) {
        TEST_CHECK(test_describe_value(t, "items") == 10);
        test_instance_free(t);
    }
    char desc[256];
    test_convert_empty("merge", 4, desc, sizeof desc);
    TEST_CONTAINS(desc, "tiles=1");
    spmvlab_csr_free(&A);
}

static void test_uncompiled_tile_shape_is_refused(void)
{
    spmvlab_csr A = test_uniform(10, 10, 2, 1);
    test_refuses_saying("merge", &A, SPMVLAB_F64, (const char *[]){"items=5", NULL}, SPMVLAB_INVALID_OPTION,
                        "must be 4, 7, 10 or 14");
    spmvlab_csr_free(&A);
}

int main(void)
{
    test_search_follows_the_sequential_merge();
    test_rows_across_threads_and_tiles();
    test_auto_items_and_empty_matrix();
    test_uncompiled_tile_shape_is_refused();
    return test_done("merge");
}
