/*
 * dasp: the empty-row modes (empty_rows = list, bitmap, memset, stage and
 * the auto rule at 1/8 empty rows) and the runs of equally shaped medium
 * row-blocks taken from the kernel parameters (med_ranges). describe()
 * says which mode and how many runs were kept; spmv_host, which takes a
 * row-block's offsets from its run as the kernel does, must meet the bound
 * in f64 and f16 (y is NaN-poisoned by the check, so a row left unwritten
 * fails).
 */
#include <stdlib.h>
#include <string.h>

#include "dasp_format.h"
#include "test_dasp_check.h"
#include "testlib_plugin.h"

#define ROWS 2500

/* Converts A in dtype with sets and balance = off (the empty-row modes are
 * the row classes'; the uneven rows here would take the balanced path under
 * auto); want (f64 only) are "key=value" words of describe(). */
static void check(const char *what, const spmvlab_csr *A, spmvlab_dtype dtype, const char *const *sets,
                  const char *const *want)
{
    const char *all[16] = {"balance=off"};
    size_t n = 1;
    for (size_t i = 0; sets && sets[i] && n < 15; i++)
        all[n++] = sets[i];
    dasp_check_case(what, A, dtype, all, dtype == SPMVLAB_F64 ? want : NULL, 2);
}

/* Rows of the given lengths, checked in both dtypes. */
static void both(const char *what, const int32_t *len, int32_t rows, int32_t cols, const char *const *sets,
                 const char *const *want)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, rows, cols, len, 29) == 0);
    check(what, &A, SPMVLAB_F64, sets, want);
    check(what, &A, SPMVLAB_F16, sets, NULL);
    spmvlab_csr_free(&A);
}

/* Lengths like a power-law graph: share empty rows in 1000 (scattered),
 * the rest 1-4, medium and a few long rows. */
static void power_law(int32_t *len, int32_t rows, int share)
{
    uint64_t s = 88172645463325252ull;
    for (int32_t i = 0; i < rows; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        const int u = (int)(s % 1000), v = (int)((s >> 20) % 1000);
        len[i] = u < share ? 0 : v < 500 ? 1 + v % 4 : v < 990 ? 5 + v % 40 : 300 + v;
    }
}

static void test_modes(void)
{
    static int32_t len[ROWS];
    power_law(len, ROWS, 700);
    const char *const modes[][2] = {{"empty_rows=list", NULL}, {"empty_rows=bitmap", NULL},
                                    {"empty_rows=memset", NULL}, {"empty_rows=stage", NULL}};
    const char *const names[] = {"empty_rows=list", "empty_rows=bitmap", "empty_rows=memset", "empty_rows=stage"};
    for (int m = 0; m < 4; m++)
        both(names[m], len, ROWS, 3000, modes[m], (const char *[]){names[m], NULL});
    both("70 % empty, auto", len, ROWS, 3000, NULL, (const char *[]){"empty_rows=bitmap(auto)", NULL});
    /* empty_runs = 1 overrides the rule. */
    both("empty_runs", len, ROWS, 3000, (const char *[]){"empty_runs=1", NULL},
         (const char *[]){"empty_rows=runs", NULL});
    /* The modes on the other kernels' shapes. */
    both("bitmap, k16", len, ROWS, 3000, (const char *[]){"empty_rows=bitmap", "f64_shape=m16n8k16", NULL}, NULL);
    both("memset, k8", len, ROWS, 3000,
         (const char *[]){"empty_rows=memset", "f64_shape=m16n8k8", "f16_shape=m16n8k16", NULL}, NULL);
    both("stage, k16, rpw 32", len, ROWS, 3000,
         (const char *[]){"empty_rows=stage", "f64_shape=m16n8k16", "rows_per_warp=32", "max_len=64", NULL}, NULL);
    power_law(len, ROWS, 50);
    both("5 % empty, auto", len, ROWS, 3000, NULL, (const char *[]){"empty_rows=list(auto)", NULL});
    /* The rule's cut: 100 of 800 rows empty (1/8) and 99. */
    static int32_t cut[800];
    for (int i = 0; i < 800; i++)
        cut[i] = i % 8 == 3 ? 0 : 1 + i % 6;
    both("1/8 empty", cut, 800, 900, NULL, (const char *[]){"empty=100", "empty_rows=bitmap(auto)", NULL});
    cut[3] = 2;
    both("99/800 empty", cut, 800, 900, NULL, (const char *[]){"empty=99", "empty_rows=list(auto)", NULL});
    /* The staged y from 2^20 non-zeros with half the rows empty; a non-zero
     * fewer leaves the bitmap. */
    enum { big = 1 << 17 };
    int32_t *half = malloc(big * sizeof *half);
    TEST_CHECK(half != NULL);
    if (!half)
        return;
    for (int i = 0; i < big; i++)
        half[i] = i % 2 ? 16 : 0;
    both("half empty, 2^20 non-zeros", half, big, big, NULL, (const char *[]){"empty_rows=stage(auto)", NULL});
    half[1] = 15;
    both("half empty, 2^20 - 1", half, big, big, NULL, (const char *[]){"empty_rows=bitmap(auto)", NULL});
    free(half);
}

static void test_edges(void)
{
    /* Every row empty, a row count past one zero warp (1024 rows). */
    static int32_t none[1025];
    for (int m = 0; m < 4; m++) {
        const char *sets[] = {m == 0   ? "empty_rows=bitmap"
                              : m == 1 ? "empty_rows=memset"
                              : m == 2 ? "empty_rows=list"
                                       : "empty_rows=stage",
                              NULL};
        both("all empty", none, 1025, 10, sets, (const char *[]){"empty=1025", NULL});
    }
    /* No empty row under the bitmap and the memset. */
    static int32_t full[67];
    for (int i = 0; i < 67; i++)
        full[i] = 1 + i % 9;
    both("no empty row, bitmap", full, 67, 80, (const char *[]){"empty_rows=bitmap", NULL},
         (const char *[]){"empty=0", NULL});
    both("no empty row, memset", full, 67, 80, (const char *[]){"empty_rows=memset", NULL}, NULL);
    both("no empty row, stage", full, 67, 80, (const char *[]){"empty_rows=stage", NULL}, NULL);
}

/* empty_rows = stage: every row with entries has one slot, the slots are
 * 0 .. staged - 1 in the row classes' order, the empty rows none; the
 * medium row-blocks then all hold consecutive slots (runs). */
static void test_stage_slots(void)
{
    static int32_t len[ROWS];
    power_law(len, ROWS, 700);
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, ROWS, 3000, len, 29) == 0);
    test_instance *t = test_convert_ok("dasp", &A, SPMVLAB_F64, (const char *[]){"empty_rows=stage", "balance=off", NULL}, 3);
    if (t) {
        const dasp_format *f = t->in.fmt;
        const int32_t *pos = f->a[DASP_A_STAGE_POS].host;
        char *seen = calloc((size_t)ROWS, 1);
        int64_t empty = 0, bad = 0;
        for (int32_t r = 0; r < ROWS; r++) {
            if (len[r] == 0) {
                empty++;
                bad += pos[r] != -1;
            } else if (pos[r] < 0 || pos[r] >= ROWS - f->n.empty || seen[pos[r]]++) {
                bad++;
            }
        }
        TEST_CHECK(bad == 0 && empty == f->n.empty && f->n.staged == ROWS - f->n.empty);
        TEST_CHECK(f->n.rb > 1 && f->n.rb_runs >= f->n.rb - 1); /* the last may be partial */
        free(seen);
        test_instance_free(t);
    }
    spmvlab_csr_free(&A);
}

/* Medium rows of the given lengths, repeated: runs of row-blocks of one
 * shape, for every shape's levels and 8, 16, 32 rows a warp. */
static void test_ranges(void)
{
    static int32_t len[4000];
    for (int i = 0; i < 4000; i++)
        len[i] = 9;
    both("banded-like 9", len, 4000, 5000, NULL, (const char *[]){"med_ranges=1", NULL});
    both("9, off", len, 4000, 5000, (const char *[]){"med_ranges=off", NULL},
         (const char *[]){"med_ranges=0", NULL});
    /* G3_circuit-like: rows of 6 and 5 among shorter ones; the row-block
     * where the 6s end has unequal irregular counts (no run). */
    for (int i = 0; i < 4000; i++)
        len[i] = i % 10 == 0 ? 6 : i % 3 == 0 ? 3 : i % 7 == 0 ? 4 : 5;
    const char *const *sets[] = {
        NULL,
        (const char *[]){"rows_per_warp=16", NULL},
        (const char *[]){"rows_per_warp=32", NULL},
        (const char *[]){"f64_shape=m16n8k16", "f16_shape=m16n8k16", "rows_per_warp=32", NULL},
        (const char *[]){"f64_shape=m16n8k8", "rows_per_warp=16", "threshold=0.5", NULL},
        (const char *[]){"f64_shape=m16n8k4", "rows_per_warp=32", "med_rows=index", NULL},
    };
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++)
        both("G3-like 5/6", len, 4000, 5000, sets[k], k == 0 ? (const char *[]){"med_ranges=2", NULL} : NULL);
    /* More runs than kept: lengths 5 .. 40, 64 rows each (8 row-blocks). */
    for (int i = 0; i < 36 * 64; i++)
        len[i] = 5 + i / 64;
    both("36 runs", len, 36 * 64, 3000, NULL, (const char *[]){"med_ranges=8", NULL});
    both("36 runs, rpw 32", len, 36 * 64, 3000, (const char *[]){"rows_per_warp=32", NULL}, NULL);
    /* A partial last row-block and rows past max_len (long) around them. */
    for (int i = 0; i < 203; i++)
        len[i] = i == 7 || i == 100 ? 400 : 12;
    both("partial row-block", len, 203, 1000, NULL, (const char *[]){"med_ranges=1", NULL});
}

int main(void)
{
    test_modes();
    test_edges();
    test_stage_slots();
    test_ranges();
    return test_done("dasp empty rows and ranges");
}
