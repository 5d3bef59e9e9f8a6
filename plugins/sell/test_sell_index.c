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
#include "testlib.h"

/* A number that follows "key=" in a describe() text; -1 when absent. */
static double fact(test_instance *t, const char *key)
{
    char pat[64], text[1024];
    snprintf(pat, sizeof pat, " %s=", key);
    snprintf(text, sizeof text, " %s", test_describe(t));
    const char *at = strstr(text, pat);
    return at ? atof(at + strlen(pat)) : -1.0;
}

/* Converts A with sets, checks spmv_host against the bound; returns the
 * instance (free it) or NULL after counting a failure. */
static test_instance *convert_ok(const spmvlab_csr *A, spmvlab_dtype d, const char *const *sets)
{
    test_instance *t;
    spmvlab_err err = {{0}};
    if (test_convert("sell", A, d, sets, &t, &err) != SPMVLAB_OK) {
        fprintf(stderr, "convert failed: %s\n", err.msg);
        test_failures++;
        test_instance_free(t);
        return NULL;
    }
    TEST_CHECK(test_verify_host(t, 42) <= 1.0);
    return t;
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
    const char *aut[] = {"sigma=1", NULL};
    const char *i32[] = {"sigma=1", "index=32", NULL};
    const char *f32[] = {"sigma=1", "values=f32", NULL};
    const char *t4[] = {"sigma=1", "index=16", "threads_per_row=4", NULL};
    /* 192 slots (3 slices of width 2), 128 of them in compressible slices:
     * share 0.667, so auto takes 16 bits with slice 1 in 32-bit halves. */
    test_instance *t = convert_ok(&A, SPMVLAB_F64, aut);
    if (t) {
        TEST_CHECK(fact(t, "index") == 16);
        TEST_CHECK(fact(t, "compressed_slices") == 2);
        TEST_CHECK(fact(t, "stored") == 192);
        TEST_CONTAINS(test_describe(t), "index_auto=yes");
        TEST_CONTAINS(test_describe(t), "compressed_share=0.6667");
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
        TEST_CHECK(fact(t, "index") == 32);
        TEST_CONTAINS(test_describe(t), "index_auto=no");
        TEST_CHECK(fact(t, "compressed_slices") == 2); /* counted, not used */
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
    spmvlab_csr_free(&A);
}

/* Only slice 0 (one local entry a row) compresses; rows 32..95 hold
 * columns 0 and 199999: 32 of 160 slots, below half, so auto keeps 32
 * bits and index = 16 still mixes. */
static void test_auto_keeps_32(void)
{
    int32_t ri[160], ci[160];
    double v[160];
    int32_t n = 0;
    for (int32_t r = 0; r < 96; r++) {
        ri[n] = r, ci[n] = r < 32 ? r : 0, v[n] = 1.0 + r, n++;
        if (r >= 32)
            ri[n] = r, ci[n] = 199999, v[n] = -1.0 - r, n++;
    }
    spmvlab_csr A;
    spmvlab_err err;
    if (spmvlab_csr_build(&A, 96, 200000, (size_t)n, ri, ci, v, &err)) {
        test_failures++;
        return;
    }
    const char *aut[] = {"sigma=1", NULL};
    const char *i16[] = {"sigma=1", "index=16", NULL};
    test_instance *t = convert_ok(&A, SPMVLAB_F64, aut);
    if (t) {
        TEST_CHECK(fact(t, "index") == 32);
        TEST_CHECK(fact(t, "compressed_slices") == 1);
        TEST_CONTAINS(test_describe(t), "compressed_share=0.2000");
        test_instance_free(t);
    }
    t = convert_ok(&A, SPMVLAB_F64, i16);
    if (t) {
        TEST_CHECK(fact(t, "index") == 16);
        /* 4 * 4 + 2 * 160 + 2 * 128 + 4 * 3 + 8 * 160 */
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 16 + 320 + 256 + 12 + 1280);
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
        test_instance *t;
        spmvlab_err err = {{0}};
        TEST_CHECK(test_convert("sell", &A, SPMVLAB_F64, f32, &t, &err) == SPMVLAB_LIMIT);
        TEST_CONTAINS(err.msg, bad[i].why);
        TEST_CONTAINS(err.msg, "at row 0, column 0");
        test_instance_free(t);
        t = convert_ok(&A, SPMVLAB_F64, NULL);
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
    test_layouts();
    test_auto_keeps_32();
    test_f32_refusals();
    return test_done("sell.unit.index");
}
