/*
 * coo: runs of one row that start, end or straddle the 32-entry warp tiles
 * of the segmented kernel give the reference result with both kernels; rows
 * without entries end as 0; the footprint is nnz * (8 + value size). CPU only.
 */
#include <stdlib.h>

#include "testlib.h"

/* Row lengths chosen against tiles of 32 non-zeros: a run that fills a tile
 * exactly, runs that cross one and two tile boundaries, single entries
 * between them, and empty rows at the start, middle and end. */
static const int32_t coo_lengths[] = {0, 1, 31, 33, 0, 64, 1, 1, 30, 0, 0, 97, 2, 32, 5, 0};
#define COO_ROWS ((int32_t)(sizeof coo_lengths / sizeof coo_lengths[0]))

static void test_runs_across_warp_tiles(const spmvlab_csr *A, const char *kernel)
{
    char set[64];
    snprintf(set, sizeof set, "kernel=%s", kernel);
    const char *sets[] = {set, NULL};
    const spmvlab_dtype dtypes[] = {SPMVLAB_F64, SPMVLAB_F32};
    for (int d = 0; d < 2; d++) {
        test_instance *t;
        spmvlab_err err = {{0}};
        spmvlab_status st = test_convert("coo", A, dtypes[d], sets, &t, &err);
        TEST_CHECK(st == SPMVLAB_OK);
        if (st != SPMVLAB_OK) {
            fprintf(stderr, "convert failed: %s\n", err.msg);
        } else {
            for (uint64_t seed = 1; seed <= 3; seed++)
                TEST_CHECK(test_verify_host(t, seed) <= 1.0);
            size_t vs = spmvlab_dtype_size(dtypes[d]);
            TEST_CHECK(spmvlab_instance_footprint(&t->in) == (size_t)A->nnz * (8 + vs));
            TEST_CONTAINS(test_describe(t), set);
        }
        test_instance_free(t);
    }
}

int main(void)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, COO_ROWS, 128, coo_lengths, 9) == 0);
    TEST_CHECK(A.nnz == 297);
    test_runs_across_warp_tiles(&A, "segmented");
    test_runs_across_warp_tiles(&A, "atomic");
    spmvlab_csr_free(&A);
    return test_done("coo warp_tiles");
}
