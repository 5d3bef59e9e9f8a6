/*
 * sell: option refusals, the sigma trade-off in the fill ratio, the
 * threads_per_row auto rule and the footprint formula, all on the CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

/* A number that follows "key=" in a describe() text; -1 when absent. */
static double describe_value(test_instance *t, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    char text[1024];
    snprintf(text, sizeof text, " %s", test_describe(t));
    const char *at = strstr(text, pat);
    return at ? atof(at + strlen(pat)) : -1.0;
}

/* Converts A with sets and checks that spmv_host meets the bound; returns
 * the instance (free it) or NULL after counting a failure. */
static test_instance *convert_ok(const spmvlab_csr *A, spmvlab_dtype d, const char *const *sets)
{
    test_instance *t;
    spmvlab_err err = {{0}};
    spmvlab_status st = test_convert("sell", A, d, sets, &t, &err);
    if (st != SPMVLAB_OK) {
        fprintf(stderr, "convert failed: %s\n", err.msg);
        test_failures++;
        test_instance_free(t);
        return NULL;
    }
    TEST_CHECK(test_verify_host(t, 42) <= 1.0);
    return t;
}

static void refuses(const spmvlab_csr *A, const char *const *sets, const char *needle)
{
    test_instance *t;
    spmvlab_err err = {{0}};
    spmvlab_status st = test_convert("sell", A, SPMVLAB_F64, sets, &t, &err);
    TEST_CHECK(st == SPMVLAB_INVALID_OPTION);
    TEST_CONTAINS(err.msg, needle);
    test_instance_free(t);
}

static void test_check_options_refuses_bad_combinations(const spmvlab_csr *A)
{
    const char *c24[] = {"C=24", NULL};
    refuses(A, c24, "C = 24 must divide the warp size");
    const char *s100[] = {"sigma=100", NULL};
    refuses(A, s100, "sigma = 100 must be 1 (no sorting) or a multiple of C = 32");
    const char *s32c64[] = {"C=64", "sigma=32", NULL};
    refuses(A, s32c64, "multiple of C = 64");
    const char *t3[] = {"threads_per_row=3", NULL};
    refuses(A, t3, "threads_per_row = 3 must be a power of two");

    const char *ok1[] = {"C=64", "sigma=1", NULL};
    const char *ok2[] = {"C=96", "sigma=1073741824", "threads_per_row=32", NULL};
    const char *ok3[] = {"C=1", "sigma=7", NULL};
    test_instance_free(convert_ok(A, SPMVLAB_F64, ok1));
    test_instance_free(convert_ok(A, SPMVLAB_F64, ok2));
    test_instance_free(convert_ok(A, SPMVLAB_F64, ok3));
}

/* On a real matrix, sorting in larger windows never pads more when the
 * windows nest (each sigma divides the next), so fill(sigma = 1) >= fill
 * of the global sort. */
static void test_fill_shrinks_as_sigma_grows(const spmvlab_csr *A)
{
    const char *sigmas[] = {"sigma=1", "sigma=16", "sigma=64", "sigma=1024", "sigma=1073741824"};
    double prev = 0.0, first = 0.0;
    for (int d = 0; d < 2; d++) {
        for (size_t i = 0; i < sizeof sigmas / sizeof *sigmas; i++) {
            const char *sets[] = {"C=8", sigmas[i], "threads_per_row=auto", NULL};
            test_instance *t = convert_ok(A, d ? SPMVLAB_F32 : SPMVLAB_F64, sets);
            if (!t)
                continue;
            double fill = describe_value(t, "fill");
            TEST_CHECK(fill >= 1.0);
            if (i > 0)
                TEST_CHECK(fill <= prev);
            if (i == sizeof sigmas / sizeof *sigmas - 1)
                TEST_CHECK(fill < first); /* bcspwr10: 1.0025 against 1.2545 */
            if (i == 0)
                first = fill;
            prev = fill;
            test_instance_free(t);
        }
    }
}

/* Rows of lengths 10, 1, 10, 1, ... with C = 8: unsorted every slice is 10
 * wide (fill 640 / 352); a global sort puts the long rows together and pads
 * nothing (fill 1). The footprint is the formula of README.md. */
static void test_global_sort_removes_padding(void)
{
    int32_t len[64];
    for (int i = 0; i < 64; i++)
        len[i] = i % 2 ? 1 : 10;
    spmvlab_csr A;
    if (test_gen_rows(&A, 64, 40, len, 7)) {
        test_failures++;
        return;
    }
    const char *none[] = {"C=8", "sigma=1", NULL};
    const char *global[] = {"C=8", "sigma=1073741824", NULL};
    test_instance *t = convert_ok(&A, SPMVLAB_F64, none);
    if (t) {
        TEST_CHECK(describe_value(t, "stored") == 640);
        TEST_CONTAINS(test_describe(t), "perm=no");
        /* slice_ptr 8 * 9 + widths 4 * 8 + (col 4 + val 8) * 640, no perm */
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 72 + 32 + 12 * 640);
        test_instance_free(t);
    }
    t = convert_ok(&A, SPMVLAB_F64, global);
    if (t) {
        TEST_CHECK(describe_value(t, "stored") == 352);
        TEST_CHECK(describe_value(t, "fill") == 1.0);
        TEST_CONTAINS(test_describe(t), "perm=yes");
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == 72 + 32 + 4 * 64 + 12 * 352);
        test_instance_free(t);
    }
    spmvlab_csr_free(&A);
}

/* auto: the largest power of two T <= 32 with 8 * T <= mean slice width. */
static void test_auto_threads_per_row(void)
{
    static const struct { int32_t len; int tpr; } cases[] = {{3, 1}, {16, 2}, {40, 4}, {64, 8}, {300, 32}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        spmvlab_csr A;
        if (test_gen_uniform(&A, 100, 400, cases[i].len, 3)) {
            test_failures++;
            continue;
        }
        const char *sets[] = {"threads_per_row=auto", NULL};
        test_instance *t = convert_ok(&A, SPMVLAB_F32, sets);
        if (t) {
            TEST_CHECK(describe_value(t, "threads_per_row") == cases[i].tpr);
            TEST_CONTAINS(test_describe(t), "tpr_auto=yes");
            test_instance_free(t);
        }
        spmvlab_csr_free(&A);
    }
}

int main(void)
{
    spmvlab_csr A; /* bcspwr10: 5300 rows of 2 to 14 entries, a bundled real matrix */
    if (test_load_csr("bcspwr10.mtx.gz", &A)) {
        fprintf(stderr, "the bundled matrix bcspwr10.mtx.gz is missing from data/\n");
        return 1;
    }
    test_check_options_refuses_bad_combinations(&A);
    test_fill_shrinks_as_sigma_grows(&A);
    test_global_sort_removes_padding();
    test_auto_threads_per_row();
    spmvlab_csr_free(&A);
    return test_done("sell.unit.options_and_fill");
}
