/*
 * bcsr: the shape rule picks the blocks a matrix is made of, stray entries
 * go to the CSR remainder instead of costing a refusal, a matrix without
 * blocks is refused under auto with the measured numbers, a fixed shape
 * converts anything (but a block wider than the matrix), x windows fit or
 * fall back to L1, and the device bytes follow README.md's formula. CPU
 * only.
 */
#include <stdlib.h>
#include <string.h>

#include "spmvlab/gen.h"
#include "testlib_plugin.h"

/* A generated block matrix: block_rows x bpr blocks of r x c. */
static int gen_blocks(spmvlab_csr *A, int block_rows, int bpr, int r, int c, int spread)
{
    char text[128];
    snprintf(text, sizeof text, "block_rows=%d bpr=%d r=%d c=%d spread=%d", block_rows, bpr, r, c, spread);
    spmvlab_gen_params p = {0};
    spmvlab_err err;
    return spmvlab_gen_params_parse(&p, text, &err) || spmvlab_gen("blocks", &p, A, &err) ? -1 : 0;
}

static void test_auto_picks_the_matrix_blocks(int r, int c, const char *shape)
{
    spmvlab_csr A;
    TEST_CHECK(gen_blocks(&A, 200, 6, r, c, 30) == 0);
    char desc[256] = "";
    size_t bytes = test_convert_both("bcsr", &A, NULL, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, shape);
    TEST_CONTAINS(desc, "blocks=1200 fill=1.000 rem_nnz=0");
    /* auto runs equal block rows as slices of 32 / r block rows, the last
     * one narrower: no padding, one slice pointer more per slice */
    TEST_CONTAINS(desc, "kernel=slice");
    size_t h = (size_t)(32 / r), slices = (200 + h - 1) / h;
    TEST_CHECK(bytes == 4 * (200 + 1) + 4 * (slices + 1) + 1200 * (size_t)(4 + 8 * r * c));
    /* the warp kernel's layout: block pointers + one index and r*c f64
     * values per block, no remainder */
    const char *warp[] = {"kernel=warp", NULL};
    bytes = test_convert_both("bcsr", &A, warp, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "kernel=warp");
    TEST_CHECK(bytes == 4 * (200 + 1) + 1200 * (size_t)(4 + 8 * r * c));
    spmvlab_csr_free(&A);
}

/* 3x3 blocks plus 5 isolated entries: still 3x3, the 5 in the remainder. */
static void test_stray_entries_go_to_the_remainder(void)
{
    spmvlab_csr B;
    TEST_CHECK(gen_blocks(&B, 100, 4, 3, 3, 0) == 0);
    size_t n = (size_t)B.nnz + 5;
    spmvlab_triplet *t = malloc(n * sizeof *t);
    size_t k = 0;
    for (int32_t i = 0; i < B.rows; i++)
        for (int32_t q = B.row_ptr[i]; q < B.row_ptr[i + 1]; q++)
            t[k++] = (spmvlab_triplet){i, B.col_idx[q], B.val[q]};
    /* Row 3j + 1 of block row j gets an entry in a block column it may not
     * touch; a duplicate would be summed, so only count new positions. */
    int added = 0;
    for (int j = 0; j < 5; j++) {
        int32_t row = 3 * (20 * j) + 1, col = (int32_t)((7 * j + 50) % B.cols);
        int dup = 0;
        for (int32_t q = B.row_ptr[row]; q < B.row_ptr[row + 1]; q++)
            dup |= B.col_idx[q] / 3 == col / 3;
        if (!dup) {
            t[k++] = (spmvlab_triplet){row, col, 0.5 + j};
            added++;
        }
    }
    spmvlab_csr A;
    spmvlab_err err;
    TEST_CHECK(spmvlab_csr_from_triplets(&A, B.rows, B.cols, t, k, &err) == 0);
    TEST_CHECK(added >= 3);
    char desc[256] = "", want[64];
    size_t bytes = test_convert_both("bcsr", &A, NULL, 17, desc, sizeof desc);
    snprintf(want, sizeof want, "shape=3x3(auto) blocks=400 fill=1.000 rem_nnz=%d", added);
    TEST_CONTAINS(desc, want);
    TEST_CONTAINS(desc, "kernel=slice"); /* 5 short remainder rows: the lanes walk them */
    TEST_CHECK(bytes == 4 * 101 + 4 * (10 + 1) + 400 * (4 + 72) + 4 * (300 + 1) + (size_t)added * 12);
    spmvlab_csr_free(&A);
    spmvlab_csr_free(&B);
}

static void test_auto_refuses_a_matrix_without_blocks(void)
{
    spmvlab_csr A = test_uniform(500, 500, 5, 3);
    spmvlab_err err = {{0}};
    TEST_CHECK(test_refuses("bcsr", &A, SPMVLAB_F64, NULL, SPMVLAB_LIMIT, &err)); /* before any allocation */
    TEST_CONTAINS(err.msg, "no bcsr block shape saves min_saving 10% of plain CSR's 12.80 bytes per non-zero");
    TEST_CONTAINS(err.msg, "of 2500 non-zeros in");
    TEST_CONTAINS(err.msg, "(max_fill 1.50)");

    /* A fixed shape converts it anyway: no 3x3 block holds 6 entries, so
     * everything is remainder. */
    const char *fixed[] = {"r=3", "c=3", NULL};
    char desc[256] = "";
    size_t bytes = test_convert_both("bcsr", &A, fixed, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "shape=3x3 blocks=0 fill=0.000 rem_nnz=2500");
    TEST_CHECK(bytes == 4 * (167 + 1) + 4 * 501 + 2500 * 12);
    spmvlab_csr_free(&A);
}

/* 7 x 7 dense in 3x3 blocks kept at any fill: the last block row and column
 * stick out; the column is shifted left, the rows are padding. */
static void test_partial_blocks_at_the_edges(void)
{
    spmvlab_csr A = test_uniform(7, 7, 7, 5);
    const char *sets[] = {"r=3", "c=3", "max_fill=64", NULL};
    char desc[256] = "";
    size_t bytes = test_convert_both("bcsr", &A, sets, 17, desc, sizeof desc);
    TEST_CONTAINS(desc, "shape=3x3 blocks=9 fill=1.653 rem_nnz=0");
    TEST_CHECK(bytes == 4 * 4 + 4 * 2 + 9 * (4 + 72)); /* one slice of 3 block rows */
    spmvlab_csr_free(&A);
}

/* Block rows of unequal length in slices: each slice is padded to its
 * longest block row, the padding is counted, and spmv_host (the kernel's
 * lanes) still skips it; under auto the padding sends it to the warp kernel. */
static void test_slices_pad_to_their_longest_block_row(void)
{
    spmvlab_csr A;
    int32_t lengths[64];
    for (int i = 0; i < 64; i++)
        lengths[i] = i % 16 == 0 ? 40 : 1; /* one long block row a slice */
    TEST_CHECK(test_gen_rows(&A, 64, 190, lengths, 11) == 0);
    const char *sets[] = {"r=2", "c=2", "max_fill=64", "kernel=slice", NULL};
    char desc[256] = "";
    size_t bytes = test_convert_both("bcsr", &A, sets, 17, desc, sizeof desc);
    int blocks = 0, slots = 0;
    const char *b = strstr(desc, "blocks="), *q = strstr(desc, "slots=");
    TEST_CHECK(b && q && sscanf(b, "blocks=%d", &blocks) == 1 && sscanf(q, "slots=%d", &slots) == 1);
    TEST_CHECK(slots > blocks && blocks > 0);
    TEST_CONTAINS(desc, "kernel=slice slice_rows=32");
    TEST_CHECK(slots > 4 * blocks);
    /* 32 block rows in 2 slices of 16 */
    TEST_CHECK(bytes == 4 * (32 + 1) + 4 * (2 + 1) + (size_t)slots * (4 + 32));
    const char *autok[] = {"r=2", "c=2", "max_fill=64", NULL};
    test_convert_says("bcsr", &A, autok, 17, "kernel=warp");
    spmvlab_csr_free(&A);
}

static void test_block_wider_than_the_matrix_is_refused(void)
{
    spmvlab_csr A = test_uniform(10, 2, 1, 9);
    const char *sets[] = {"r=1", "c=3", NULL};
    test_refuses_saying("bcsr", &A, SPMVLAB_F64, sets, SPMVLAB_LIMIT,
                        "bcsr block width c = 3 exceeds the matrix's 2 columns");
    test_instance *t;
    spmvlab_err err = {{0}};
    /* auto only measures shapes that fit: 1 column, rows paired or not */
    const char *auto_c[] = {"max_fill=2", NULL};
    TEST_CHECK(test_convert("bcsr", &A, SPMVLAB_F64, auto_c, &t, &err) == SPMVLAB_OK ||
               strstr(err.msg, "no bcsr block shape") != NULL);
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* Rows of 32 columns in one run near the diagonal (the corpus's clustered
 * members): 1xN blocks whose block rows the slice layout does not take, so
 * auto runs the warp kernel below 2^19 non-zeros and refuses from there,
 * naming the structure; a forced kernel still converts. */
static void test_auto_refuses_large_matrices_for_the_warp_kernel(void)
{
    spmvlab_csr small, large;
    if (test_gen("clustered", "n=16383 k=32 runs=1 spread=256", &small) ||
        test_gen("clustered", "n=16384 k=32 runs=1 spread=256", &large))
        return;
    TEST_CHECK(large.nnz == 1 << 19);
    test_convert_says("bcsr", &small, NULL, 17, "kernel=warp");
    test_refuses_saying("bcsr", &large, SPMVLAB_F64, NULL, SPMVLAB_LIMIT, "uneven block rows");
    const char *warp[] = {"kernel=warp", NULL};
    test_convert_says("bcsr", &large, warp, 17, "kernel=warp");
    spmvlab_csr_free(&small);
    spmvlab_csr_free(&large);
}

/* Rows of 5 entries with 4 full rows (the corpus's
 * longrows members): in f32 1x8 blocks save CSR's bytes, but the warp
 * kernel would sum each long row with one warp, so auto refuses a row of
 * more than 1024 entries and takes one of 1024; a forced kernel still
 * converts. */
static void test_auto_refuses_long_rows_for_the_warp_kernel(void)
{
    spmvlab_csr longer, shorter;
    TEST_CHECK(test_gen("longrows", "n=1025 k=5 long_rows=4 long_len=1025 seed=1", &longer) == 0);
    TEST_CHECK(test_gen("longrows", "n=1024 k=5 long_rows=4 long_len=1024 seed=1", &shorter) == 0);
    test_refuses_saying("bcsr", &longer, SPMVLAB_F32, NULL, SPMVLAB_LIMIT, "(the longest here: 1025)");
    const char *warp[] = {"kernel=warp", NULL};
    test_instance *t = test_convert_ok("bcsr", &longer, SPMVLAB_F32, warp, 17);
    TEST_CHECK(t != NULL);
    test_instance_free(t);
    t = test_convert_ok("bcsr", &shorter, SPMVLAB_F32, NULL, 17);
    TEST_CHECK(t != NULL);
    test_instance_free(t);
    spmvlab_csr_free(&longer);
    spmvlab_csr_free(&shorter);
}

/* x_window: each thread block of 4 slices (of 10 block rows of 3x3) gets
 * its window, 2 int32 of device bytes, and describe() says x=window; a
 * matrix whose blocks spread over more than 48 KiB of x in one thread
 * block (6000 block rows, blocks up to 3000 block columns away: 18,000
 * columns, over 12,288 in f32 too) reads x through L1 (x=load) and keeps
 * no windows. spmv_host runs either way (checked by test_convert_says). */
static void test_x_windows_fit_or_fall_back(void)
{
    spmvlab_csr A;
    const char *window[] = {"x_window=true", NULL};
    TEST_CHECK(gen_blocks(&A, 200, 6, 3, 3, 30) == 0);
    size_t plain = test_convert_says("bcsr", &A, NULL, 17, "x=load");
    size_t slices = (200 + 9) / 10, blocks = (slices + 3) / 4;
    TEST_CHECK(test_convert_says("bcsr", &A, window, 17, "x=window") == plain + 8 * blocks);
    spmvlab_csr_free(&A);
    TEST_CHECK(gen_blocks(&A, 6000, 6, 3, 3, 3000) == 0);
    plain = test_convert_says("bcsr", &A, NULL, 17, "x=load");
    TEST_CHECK(test_convert_says("bcsr", &A, window, 17, "x=load") == plain);
    spmvlab_csr_free(&A);
}

static void test_no_nonzeros_converts(void)
{
    /* block-row pointers only; y written as 0 */
    TEST_CHECK(test_convert_empty_says("bcsr", 17, "shape=1x1(auto) blocks=0") == 4 * 6);
}

int main(void)
{
    test_auto_picks_the_matrix_blocks(3, 3, "shape=3x3(auto)");
    test_auto_picks_the_matrix_blocks(6, 6, "shape=6x6(auto)");
    test_auto_picks_the_matrix_blocks(2, 5, "shape=2x5(auto)");
    test_stray_entries_go_to_the_remainder();
    test_auto_refuses_a_matrix_without_blocks();
    test_partial_blocks_at_the_edges();
    test_slices_pad_to_their_longest_block_row();
    test_block_wider_than_the_matrix_is_refused();
    test_x_windows_fit_or_fall_back();
    test_no_nonzeros_converts();
    test_auto_refuses_large_matrices_for_the_warp_kernel();
    test_auto_refuses_long_rows_for_the_warp_kernel();
    return test_done("bcsr shape_rule");
}
