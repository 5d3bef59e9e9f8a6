/*
 * dasp: irr_gather (early | late | auto). auto takes the early gather when
 * the medium rows average fewer than DASP_IRR_EARLY_MEAN = 6 entries; the
 * f64 m16 shapes have no early kernels and fall back to late. describe()
 * says which (irr_gather=early, late, with (auto) or (shape)); spmv_host,
 * the same FMAs in the same order either way, must meet the bound.
 */
#include <stdlib.h>
#include <string.h>

#include "test_dasp_check.h"

#define ROWS 2400

/* Rows of len, converted in dtype with sets; describe() must hold want. */
static void expect(const char *what, const int32_t *len, int32_t rows, spmvlab_dtype dtype, const char *const *sets,
                   const char *want)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, rows, 3000, len, 31) == 0);
    dasp_check_case(what, &A, dtype, sets, (const char *[]){want, NULL}, 1);
    spmvlab_csr_free(&A);
}

static void fill(int32_t *len, int32_t l)
{
    for (int i = 0; i < ROWS; i++)
        len[i] = l;
}

/* The auto rule's cut at a mean of 6, in both dtypes' default shapes. */
static void test_rule(void)
{
    static int32_t len[ROWS];
    const spmvlab_dtype dt[] = {SPMVLAB_F64, SPMVLAB_F16};
    for (int d = 0; d < 2; d++) {
        fill(len, 5);
        expect("rows of 5", len, ROWS, dt[d], NULL, "irr_gather=early(auto)");
        fill(len, 6);
        expect("rows of 6", len, ROWS, dt[d], NULL, "irr_gather=late(auto)");
        len[17] = 5; /* one entry less: a mean just under 6 */
        expect("rows of 6, one of 5", len, ROWS, dt[d], NULL, "irr_gather=early(auto)");
        fill(len, 7);
        expect("rows of 7", len, ROWS, dt[d], NULL, "irr_gather=late(auto)");
        fill(len, 9);
        expect("rows of 9", len, ROWS, dt[d], NULL, "irr_gather=late(auto)");
        /* Short rows do not count: 5s and 6s among 2-4s (G3_circuit-like). */
        for (int i = 0; i < ROWS; i++)
            len[i] = i % 10 == 0 ? 6 : i % 3 == 0 ? 3 : i % 7 == 0 ? 4 : 5;
        expect("G3-like 5/6", len, ROWS, dt[d], NULL, "irr_gather=early(auto)");
        fill(len, 3);
        expect("no medium rows", len, ROWS, dt[d], NULL, "irr_gather=late(auto)");
    }
}

/* The option overrides the rule; the f64 m16 shapes always gather late. */
static void test_forced(void)
{
    static int32_t len[ROWS];
    fill(len, 9);
    const char *const early[] = {"irr_gather=early", NULL};
    expect("early, rows of 9", len, ROWS, SPMVLAB_F64, early, "irr_gather=early");
    expect("early, rows of 9, f16", len, ROWS, SPMVLAB_F16, early, "irr_gather=early");
    expect("early, k4_batch 8", len, ROWS, SPMVLAB_F64,
           (const char *[]){"irr_gather=early", "k4_batch=8", "rows_per_warp=32", NULL}, "irr_gather=early");
    expect("early, f16 k16", len, ROWS, SPMVLAB_F16,
           (const char *[]){"irr_gather=early", "f16_shape=m16n8k16", "rows_per_warp=16", NULL},
           "irr_gather=early");
    fill(len, 5);
    expect("late, rows of 5", len, ROWS, SPMVLAB_F64, (const char *[]){"irr_gather=late", NULL}, "irr_gather=late");
    const char *const m16[] = {"m16n8k4", "m16n8k8", "m16n8k16"};
    for (int k = 0; k < 3; k++) {
        char shape[32];
        snprintf(shape, sizeof shape, "f64_shape=%s", m16[k]);
        expect("auto, m16", len, ROWS, SPMVLAB_F64, (const char *[]){shape, NULL}, "irr_gather=late(shape)");
        expect("early, m16", len, ROWS, SPMVLAB_F64, (const char *[]){shape, "irr_gather=early", NULL},
               "irr_gather=late(shape)");
        expect("late, m16", len, ROWS, SPMVLAB_F64, (const char *[]){shape, "irr_gather=late", NULL},
               "irr_gather=late");
    }
}

int main(void)
{
    test_rule();
    test_forced();
    return test_done("dasp irr_gather");
}
