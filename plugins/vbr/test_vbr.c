/*
 * vbr: the partitions find the dense blocks of a matrix with blocks of
 * mixed sizes and leave nothing to the remainder, a matrix without blocks
 * goes to the remainder whole, f32 storage is declared and refuses values
 * f32 cannot hold, block rows stop at max_height, and the device bytes
 * follow README.md's formula. CPU only.
 */
#include <stdlib.h>

#include "spmvlab/gen.h"
#include "testlib_plugin.h"

/* A generated matrix with dense blocks of min_size .. max_size. */
static int gen_vblocks(spmvlab_csr *A, int nodes, int bpr, int min_size, int max_size)
{
    char text[128];
    snprintf(text, sizeof text, "nodes=%d bpr=%d min_size=%d max_size=%d spread=10", nodes, bpr, min_size, max_size);
    spmvlab_gen_params p = {0};
    spmvlab_err err;
    return spmvlab_gen_params_parse(&p, text, &err) || spmvlab_gen("vblocks", &p, A, &err) ? -1 : 0;
}

static void test_mixed_blocks_are_found_whole(void)
{
    spmvlab_csr A;
    TEST_CHECK(gen_vblocks(&A, 200, 5, 2, 6) == 0);
    char desc[256] = "";
    size_t bytes = test_convert_both("vbr", &A, NULL, 17, desc, sizeof desc);
    /* one block row and one column partition per node, every block kept */
    TEST_CONTAINS(desc, "block_rows=200 col_parts=200 blocks=1000 blocked=1.000 rem_nnz=0");
    TEST_CHECK(bytes == 8 * 201 + 4 * 201 + 8 * 1000 + 4 + 8 * (size_t)A.nnz);
    /* f32 storage of the f64 run: 4 bytes a value, declared */
    const char *f32[] = {"values=f32", NULL};
    bytes = test_convert_both("vbr", &A, f32, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "values=f32");
    TEST_CHECK(bytes == 8 * 201 + 4 * 201 + 8 * 1000 + 4 + 4 * (size_t)A.nnz);
    spmvlab_csr_free(&A);
}

static void test_block_rows_stop_at_max_height(void)
{
    spmvlab_csr A;
    TEST_CHECK(gen_vblocks(&A, 100, 4, 4, 7) == 0);
    const char *two[] = {"max_height=2", NULL};
    /* 2 x w and 1 x w blocks of at least 4 entries: every entry still blocked */
    test_convert_says("vbr", &A, two, 17, "blocked=1.000 rem_nnz=0 max_height=2 ");
    spmvlab_csr_free(&A);
}

static void test_a_diagonal_has_no_blocks(void)
{
    spmvlab_triplet *t = malloc(10 * sizeof *t);
    for (int i = 0; i < 10; i++)
        t[i] = (spmvlab_triplet){i, i, 1.0 + i};
    spmvlab_csr A;
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(&A, 10, 10, t, 10, &err) == 0); /* frees t */
    char desc[256] = "";
    size_t bytes = test_convert_both("vbr", &A, NULL, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "block_rows=10 col_parts=10 blocks=0 blocked=0.000 rem_nnz=10");
    TEST_CHECK(bytes == 8 * 11 + 4 * 11 + 4 + 4 * 11 + 12 * 10);
    const char *ones[] = {"min_entries=1", NULL};
    bytes = test_convert_says("vbr", &A, ones, 17, "blocks=10 blocked=1.000 rem_nnz=0");
    TEST_CHECK(bytes == 8 * 11 + 4 * 11 + 8 * 10 + 4 + 8 * 10);
    spmvlab_csr_free(&A);
}

static void test_f32_storage_refuses_what_it_cannot_hold(void)
{
    spmvlab_triplet *t = malloc(3 * sizeof *t);
    t[0] = (spmvlab_triplet){0, 0, 1.0};
    t[1] = (spmvlab_triplet){1, 2, 1e300};
    t[2] = (spmvlab_triplet){2, 1, 2.0};
    spmvlab_csr A;
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(&A, 3, 3, t, 3, &err) == 0); /* frees t */
    const char *f32[] = {"values=f32", NULL};
    TEST_CHECK(test_refuses_saying("vbr", &A, SPMVLAB_F64, f32, SPMVLAB_LIMIT,
                                   "cannot store the value 1.0000000000000001e+300 at row 1, column 2: it overflows f32"));
    spmvlab_csr_free(&A);
}

static void test_no_nonzeros_converts(void)
{
    char desc[256] = "";
    size_t bytes = test_convert_empty("vbr", 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "block_rows=1 col_parts=1 blocks=0");
    TEST_CHECK(bytes == 8 * 2 + 4 * 2 + 4); /* partitions and block pointers; y written as 0 */
}

int main(void)
{
    test_mixed_blocks_are_found_whole();
    test_block_rows_stop_at_max_height();
    test_a_diagonal_has_no_blocks();
    test_f32_storage_refuses_what_it_cannot_hold();
    test_no_nonzeros_converts();
    return test_done("vbr partitions");
}
