/*
 * bccoo: the blocks, row-end flags, segment map and column deltas of a
 * small matrix are the documented ones; long column jumps escape and still
 * decode; the shape rule picks the matrix's blocks (and 1x1 on scattered
 * entries); empty block rows come out as zeros; the device bytes follow
 * README.md's formula; an uncompiled shape is refused. CPU only.
 */
#include <stdlib.h>
#include <string.h>

#include "spmvlab/gen.h"
#include "bccoo_format.h"
#include "testlib_plugin.h"

/* spmvlab_csr_from_triplets on a heap copy of the n triplets t (it takes
 * the array it is given). */
static int csr_of(spmvlab_csr *A, int32_t rows, int32_t cols, const spmvlab_triplet *t, size_t n)
{
    spmvlab_triplet *own = malloc(n * sizeof *own);
    spmvlab_err err;
    if (!own)
        return -1;
    memcpy(own, t, n * sizeof *own);
    return spmvlab_csr_from_triplets(A, rows, cols, own, n, &err);
}

/* The matrix as the plugin sees it (f64 values from A). */
static spmvlab_matrix view(const spmvlab_csr *A)
{
    spmvlab_matrix m = {.name = "test", .rows = A->rows, .cols = A->cols, .nnz = A->nnz, .dtype = SPMVLAB_F64,
                        .row_ptr = A->row_ptr, .col_idx = A->col_idx, .val = A->val};
    return m;
}

/* 7 x 9 in 2x2 blocks: block row 0 holds block columns 0 and 3, block row
 * 1 is empty, block row 2 holds block column 4 (column 8, the last, a
 * partial block), block row 3 (row 6 alone) holds block column 1. */
static void test_blocks_flags_and_segment_map(void)
{
    const spmvlab_triplet t[] = {{0, 0, 1}, {1, 1, 2}, {0, 7, 3}, {4, 8, 4}, {5, 8, 5}, {6, 2, 6}, {6, 3, 7}};
    spmvlab_csr A;
    TEST_CHECK(csr_of(&A, 7, 9, t, 7) == 0);
    spmvlab_matrix m = view(&A);
    bccoo_arrays a;
    TEST_CHECK(bccoo_build(&a, &m, 8, 2, 2) == 0);
    TEST_CHECK(a.blocks == 4 && a.chunks == 1 && a.block_rows == 4 && a.segments == 3);
    /* thread 0 holds the 4 blocks: flags after block columns 3, 4 and 1 */
    TEST_CHECK(a.flags[0] == (1u << 1 | 1u << 2 | 1u << 3));
    TEST_CHECK(a.brow && a.brow[0] == 0 && a.brow[1] == 2 && a.brow[2] == 3);
    const int32_t want[] = {0, 3, 4, 1};
    for (int i = 0; i < 4; i++)
        TEST_CHECK(bccoo_block_col(&a, 0, 0, i) == want[i]);
    TEST_CHECK(a.base[0] == 0 && a.delta[bccoo_pos(0, 0, 3)] == -3);
    /* block (0, 3) in slot 1: A(0, 7) is its entry (0, 1) */
    TEST_CHECK(((const double *)a.val)[(1 * 4 + 1) * BCCOO_THREADS] == 3);
    bccoo_arrays_free(&a);
    /* spmv_host writes the empty block row's rows 2 and 3 as zeros */
    char desc[256];
    test_convert_both("bccoo", &A, (const char *[]){"height=2", "width=2", NULL}, 5, desc, sizeof desc);
    TEST_CONTAINS(desc, "row_map=yes");
    spmvlab_csr_free(&A);
}

/* One column jump of 40,000 block columns inside a thread's group (beyond
 * 16 bits): that group escapes and every column still decodes. */
static void test_long_jumps_escape(void)
{
    spmvlab_triplet t[40];
    for (int k = 0; k < 40; k++)
        t[k] = (spmvlab_triplet){k / 4, (k % 4) * 40000 + k / 4, 1.0 + k};
    spmvlab_csr A;
    TEST_CHECK(csr_of(&A, 10, 160000, t, 40) == 0);
    spmvlab_matrix m = view(&A);
    bccoo_arrays a;
    TEST_CHECK(bccoo_build(&a, &m, 8, 1, 1) == 0);
    TEST_CHECK(a.escaped == 5); /* 40 blocks, 8 a thread, every group jumps */
    for (int k = 0; k < 40; k++)
        TEST_CHECK(bccoo_block_col(&a, 0, k / BCCOO_PER_THREAD, k % BCCOO_PER_THREAD) == A.col_idx[k]);
    bccoo_arrays_free(&a);
    test_convert_says("bccoo", &A, (const char *[]){"height=1", "width=1", NULL}, 6, "escaped_groups=5");
    spmvlab_csr_free(&A);
}

/* The chunk floor: 2x2 blocks that fill 64 chunks (16,384 block rows of 4
 * blocks: 65,536) keep their shape; one block row fewer gives way to 1x1,
 * as does the small matrix of test_rule_picks_the_blocks (6 chunks). */
static void test_few_chunks_give_way_to_1x1(void)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen("blocks", "block_rows=16384 bpr=4 r=2 c=2 spread=30", &A) == 0);
    test_convert_says("bccoo", &A, NULL, 7, "shape=2x2(auto) blocks=65536 fill=1.000 chunks=64");
    spmvlab_csr_free(&A);
    TEST_CHECK(test_gen("blocks", "block_rows=16383 bpr=4 r=2 c=2 spread=30", &A) == 0);
    test_convert_says("bccoo", &A, NULL, 7, "shape=1x1(auto)");
    spmvlab_csr_free(&A);
    TEST_CHECK(test_gen("blocks", "block_rows=1500 bpr=4 r=2 c=2 spread=30", &A) == 0);
    test_convert_says("bccoo", &A, NULL, 7, "shape=1x1(auto) blocks=24000");
    spmvlab_csr_free(&A);
}

/* A block matrix: auto picks its 2x2 (fill 1); the bytes follow the formula. */
static void test_rule_picks_the_blocks(void)
{
    spmvlab_gen_params p = {0};
    spmvlab_err err;
    spmvlab_csr A;
    TEST_CHECK(spmvlab_gen_params_parse(&p, "block_rows=1500 bpr=4 r=2 c=2 spread=30", &err) == 0);
    TEST_CHECK(spmvlab_gen("blocks", &p, &A, &err) == 0);
    char desc[256] = "";
    const char *any_chunks[] = {"min_chunks=0", NULL};
    size_t bytes = test_convert_both("bccoo", &A, any_chunks, 7, desc, sizeof desc);
    TEST_CONTAINS(desc, "shape=2x2(auto) blocks=6000 fill=1.000 chunks=6");
    size_t chunks = 6, slots = chunks * BCCOO_CHUNK, threads = chunks * BCCOO_THREADS;
    TEST_CHECK(bytes == slots * 4 * 8 + slots * 2 + threads * 5 + chunks * 4 + chunks * (4 + 2 * 8));
    spmvlab_csr_free(&A);
    /* scattered entries: no block saves bytes over 1x1 */
    A = test_uniform(3000, 100000, 5, 8);
    test_convert_says("bccoo", &A, NULL, 8, "shape=1x1(auto)");
    spmvlab_csr_free(&A);
}

static void test_uncompiled_shape_is_refused(void)
{
    spmvlab_csr A = test_uniform(10, 10, 2, 1);
    test_refuses_saying("bccoo", &A, SPMVLAB_F64, (const char *[]){"height=3", NULL}, SPMVLAB_INVALID_OPTION,
                        "must be 1, 2 or 4");
    spmvlab_csr_free(&A);
}

int main(void)
{
    test_blocks_flags_and_segment_map();
    test_long_jumps_escape();
    test_rule_picks_the_blocks();
    test_uncompiled_shape_is_refused();
    test_few_chunks_give_way_to_1x1();
    return test_done("bccoo layout");
}
