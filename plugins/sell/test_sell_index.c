/*
 * sell: the index rule (per slice and per matrix), the layouts it gives
 * (describe facts, footprint formula of README.md) and values = f32 with
 * its refusals, on the CPU. sell_index.c is compiled into this test, so the
 * rules are also called directly.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sell_format.h"
#include "testlib_plugin.h"

/* sell converted with sets and checked through spmv_host (seed 42). */
static test_instance *convert_ok(const spmvlab_csr *A, spmvlab_dtype d, const char *const *sets)
{
    return test_convert_ok("sell", A, d, sets, 42);
}

/* A slice compresses when max - min <= 65534 (65535 is the padding
 * offset); a slice without entries always does; no overflow at the ends. */
static void test_slice_rule(void)
{
    TEST_CHECK(sell_slice_compressible(0, 65534));
    TEST_CHECK(!sell_slice_compressible(0, 65535));
    TEST_CHECK(sell_slice_compressible(100000, 165534));
    TEST_CHECK(sell_slice_compressible(INT32_MAX, INT32_MIN)); /* no entries */
    TEST_CHECK(!sell_slice_compressible(0, INT32_MAX));
    TEST_CHECK(sell_slice_compressible(INT32_MAX - 5, INT32_MAX));
}

/* auto is 16 from half the slots up; forced choices ignore the share. */
static void test_matrix_rule(void)
{
    TEST_CHECK(sell_rule_index(SELL_INDEX_AUTO, 50, 100) == 16);
    TEST_CHECK(sell_rule_index(SELL_INDEX_AUTO, 49, 100) == 32);
    TEST_CHECK(sell_rule_index(SELL_INDEX_AUTO, 100, 100) == 16);
    TEST_CHECK(sell_rule_index(SELL_INDEX_AUTO, 0, 0) == 32); /* nothing stored, nothing gained */
    TEST_CHECK(sell_rule_index(SELL_INDEX_16, 0, 100) == 16);
    TEST_CHECK(sell_rule_index(SELL_INDEX_32, 100, 100) == 32);
}

/* index_base = auto: per slot column only when that saves more than a
 * quarter byte a slot; forced choices ignore the counts. */
static void test_base_rule(void)
{
    TEST_CHECK(sell_rule_index_base(SELL_BASE_AUTO, 1000, 500, 10, 1000, 100) == 1);  /* 1040 vs 400 */
    TEST_CHECK(sell_rule_index_base(SELL_BASE_AUTO, 1000, 1000, 10, 1000, 100) == 0); /* 40 vs 400 */
    TEST_CHECK(sell_rule_index_base(SELL_BASE_AUTO, 1000, 800, 10, 1000, 100) == 0);  /* 440 vs 400 + 250 */
    TEST_CHECK(sell_rule_index_base(SELL_BASE_SLICE, 1000, 0, 10, 1000, 100) == 0);
    TEST_CHECK(sell_rule_index_base(SELL_BASE_COLUMN, 1000, 1000, 10, 0, 100) == 1);
}

/* 96 rows x 200,000 columns, C = 32, no sorting, two entries a row:
 * slice 0 spans exactly 65534 columns (rows r: r, r + 65503), slice 1 one
 * more (r, r + 65504), slice 2 lies far out (100000 + r, + 5) and its last
 * row is empty (two padding slots). Values: v, or the one given at (0, 0). */
static int spans_matrix(spmvlab_csr *A, double first)
{
    int32_t ri[192], ci[192];
    double v[192];
    size_t n = 0;
    for (int32_t r = 0; r < 95; r++) {
        int32_t a = r < 64 ? r : 100000 + r, b = r < 32 ? r + 65503 : r < 64 ? r + 65504 : a + 5;
        ri[n] = r, ci[n] = a, v[n] = n == 0 ? first : 0.5 + r / 256.0, n++;
        ri[n] = r, ci[n] = b, v[n] = -0.25 - r / 512.0, n++;
    }
    spmvlab_err err;
    return spmvlab_csr_build(A, 96, 200000, n, ri, ci, v, &err);
}

static void test_layouts(void)
{
    spmvlab_csr A;
    if (spans_matrix(&A, 1.0)) {
        test_failures++;
        return;
    }
    const char *aut[] = {"sigma=1", "index_base=slice", NULL};
    const char *i32[] = {"sigma=1", "index=32", NULL};
    const char *f32[] = {"sigma=1", "values=f32", "index_base=slice", NULL};
    const char *t4[] = {"sigma=1", "index=16", "threads_per_row=4", NULL};
    const char *col[] = {"sigma=1", NULL};
    /* 192 slots (3 slices of width 2), 128 of them in compressible slices:
     * share 0.667, so auto takes 16 bits with slice 1 in 32-bit halves. */
    test_instance *t = convert_ok(&A, SPMVLAB_F64, aut);
    if (t) {
        test_describe_says(t, (const char *const[]){"index=16", "compressed_slices=2", "stored=192", "index_auto=yes",
                                                    "compressed_share=0.6667", NULL});
        /* slice_ptr 4 * 4, offsets 2 * 192, high halves 2 * 64, bases
         * 4 * 3, values 8 * 192; index bytes (384 + 128 + 12) / 190 */
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 16 + 384 + 128 + 12 + 8 * 192);
        TEST_CONTAINS(test_describe(t), "index_bytes_per_nnz=2.758");
        test_instance_free(t);
    }
    t = convert_ok(&A, SPMVLAB_F32, aut);
    if (t) {
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 16 + 384 + 128 + 12 + 4 * 192);
        test_instance_free(t);
    }
    t = convert_ok(&A, SPMVLAB_F64, i32);
    if (t) {
        /* compressed slices counted, not used */
        test_describe_says(t, (const char *const[]){"index=32", "index_auto=no", "compressed_slices=2", NULL});
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 16 + 12 * 192);
        test_instance_free(t);
    }
    t = convert_ok(&A, SPMVLAB_F64, f32);
    if (t) {
        TEST_CONTAINS(test_describe(t), "values=f32");
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 16 + 384 + 128 + 12 + 4 * 192);
        test_instance_free(t);
    }
    t = convert_ok(&A, SPMVLAB_F32, f32); /* an f32 run stores f32 anyway */
    if (t) {
        TEST_CONTAINS(test_describe(t), "values=native");
        test_instance_free(t);
    }
    t = convert_ok(&A, SPMVLAB_F64, t4);
    test_instance_free(t);
    /* By slot column every group fits (slice 1: columns 32..63, then
     * 65536..65567): 4 * 6 bases against 2 * 64 + 4 * 3, so auto takes a
     * base per slot column and stores no high halves. */
    t = convert_ok(&A, SPMVLAB_F64, col);
    if (t) {
        /* compressed slices: whole slices, as before */
        test_describe_says(t, (const char *const[]){"index_base=column", "compressed_share=1.0000",
                                                    "compressed_slices=2", NULL});
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 16 + 384 + 24 + 8 * 192);
        TEST_CONTAINS(test_describe(t), "index_bytes_per_nnz=2.147");
        test_instance_free(t);
    }
    const char *col_t2[] = {"sigma=1", "index_base=column", "threads_per_row=2", NULL};
    test_instance_free(convert_ok(&A, SPMVLAB_F32, col_t2));
    spmvlab_csr_free(&A);
}

/* Only slice 0 (one local entry a row) compresses; rows 32..95 hold two
 * columns 100,000 apart, scattered over the matrix (by slice and by slot
 * column): 32 of 160 slots, below half, so auto keeps 32 bits and index =
 * 16 still mixes. */
static void test_auto_keeps_32(void)
{
    int32_t ri[160], ci[160];
    double v[160];
    int32_t n = 0;
    for (int32_t r = 0; r < 96; r++) {
        int32_t a = r < 32 ? r : (r * 6151) % 100000; /* scattered over [0, 100000) */
        ri[n] = r, ci[n] = a, v[n] = 1.0 + r, n++;
        if (r >= 32)
            ri[n] = r, ci[n] = a + 100000, v[n] = -1.0 - r, n++;
    }
    spmvlab_csr A;
    spmvlab_err err;
    if (spmvlab_csr_build(&A, 96, 200000, (size_t)n, ri, ci, v, &err)) {
        test_failures++;
        return;
    }
    const char *aut[] = {"sigma=1", NULL};
    const char *i16[] = {"sigma=1", "index=16", "index_base=slice", NULL};
    test_instance *t = convert_ok(&A, SPMVLAB_F64, aut);
    if (t) {
        test_describe_says(t, (const char *const[]){"index=32", "compressed_slices=1", "compressed_share=0.2000", NULL});
        test_instance_free(t);
    }
    t = convert_ok(&A, SPMVLAB_F64, i16);
    if (t) {
        TEST_CHECK(test_describe_value(t, "index") == 16);
        /* 4 * 4 + 2 * 160 + 2 * 128 + 4 * 3 + 8 * 160 */
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 16 + 320 + 256 + 12 + 1280);
        test_instance_free(t);
    }
    /* By slot column: slice 0's one and slices 1 and 2's two slot columns
     * spread over 100,000 columns each: 4 * 5 bases, 128 high halves. */
    const char *col[] = {"sigma=1", "index=16", "index_base=column", NULL};
    t = convert_ok(&A, SPMVLAB_F64, col);
    if (t) {
        TEST_CONTAINS(test_describe(t), "compressed_share=0.2000");
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 16 + 320 + 256 + 20 + 1280);
        test_instance_free(t);
    }
    spmvlab_csr_free(&A);
}

/* values = f32 refuses what f32 cannot hold honestly, naming the value and
 * its place; an f32 run and values = native accept the same matrix. */
static void test_f32_refusals(void)
{
    static const struct { double v; const char *why; } bad[] = {
        {1e39, "overflows f32"}, {-3e-39, "below the smallest normal f32"}};
    const char *f32[] = {"values=f32", NULL};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        spmvlab_csr A;
        if (spans_matrix(&A, bad[i].v)) {
            test_failures++;
            continue;
        }
        spmvlab_err err = {{0}};
        test_refuses("sell", &A, SPMVLAB_F64, f32, SPMVLAB_LIMIT, &err);
        TEST_CONTAINS(err.msg, bad[i].why);
        TEST_CONTAINS(err.msg, "at row 0, column 0");
        test_instance *t = convert_ok(&A, SPMVLAB_F64, NULL);
        if (t)
            TEST_CONTAINS(test_describe(t), "values=native");
        test_instance_free(t);
        spmvlab_csr_free(&A);
    }
}

int main(void)
{
    test_slice_rule();
    test_matrix_rule();
    test_base_rule();
    test_layouts();
    test_auto_keeps_32();
    test_f32_refusals();
    return test_done("sell.unit.index");
}
