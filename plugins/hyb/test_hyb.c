/*
 * hyb: the Bell-Garland auto width on known row lengths (row fraction and
 * min_rows), the guard that sends a non-paying ELL part to COO, the lanes
 * rule, the width clamp, the ELL / COO split and its layout, the footprint
 * formula, and a COO part made of one very long row, all on the CPU.
 */
#include <stdlib.h>
#include <string.h>

#include "hyb.h"
#include "testlib_plugin.h"

/* Nine rows whose lengths make the auto width easy to count by hand:
 * rows with >= K entries: K=1: 6, K=2: 4, K=3..7: 3, K=8..30: 1. */
static const int32_t known_lengths[] = {0, 0, 0, 1, 1, 2, 7, 7, 30};
#define KNOWN_ROWS 9
#define KNOWN_COLS 40

/* hyb converted with sets and checked through spmv_host (seed 7). */
static test_instance *convert_ok(const spmvlab_csr *A, spmvlab_dtype d, const char *const *sets)
{
    return test_convert_ok("hyb", A, d, sets, 7);
}

/* The ELL width chosen for A with one row_fraction (auto width, no
 * min_rows, no guard). */
static int auto_width(const spmvlab_csr *A, const char *fraction)
{
    const char *sets[] = {fraction, "min_rows=0", "ell_guard=0", NULL};
    test_instance *t = convert_ok(A, SPMVLAB_F64, sets);
    int width = t ? (int)test_describe_value(t, "ell_width") : -1;
    test_instance_free(t);
    return width;
}

static void test_auto_width_is_the_largest_k_held_by_the_row_fraction(const spmvlab_csr *A)
{
    TEST_CHECK(auto_width(A, "row_fraction=0.333333") == 7); /* 3 of 9 rows have >= 7 */
    TEST_CHECK(auto_width(A, "row_fraction=0.34") == 2);     /* 4 rows needed: K = 2 */
    TEST_CHECK(auto_width(A, "row_fraction=0.5") == 1);      /* 5 rows needed: K = 1 */
    TEST_CHECK(auto_width(A, "row_fraction=1") == 0);        /* empty rows: K = 0 */
    TEST_CHECK(auto_width(A, "row_fraction=0") == 30);       /* pure ELL */
}

/* min_rows: K is held by at least that many rows, so fewer rows than
 * min_rows give K = 0 (pure COO); the default 4096 does so for 9 rows. */
static void test_min_rows_raises_the_rows_that_must_reach_k(const spmvlab_csr *A)
{
    const char *sets4[] = {"min_rows=4", "ell_guard=0", NULL}; /* a third is 3 < 4 rows */
    test_instance *t = convert_ok(A, SPMVLAB_F64, sets4);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == 2);      /* 4 rows have >= 2 */
    test_instance_free(t);
    t = convert_ok(A, SPMVLAB_F64, NULL);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == 0 && test_describe_value(t, "guarded") == 0);
    TEST_CHECK(t && test_describe_value(t, "coo_entries") == 48);
    test_instance_free(t);
}

/* K = 7 keeps 25 entries in 63 slots: 63 x 12 bytes against 25 x 16 in
 * COO (f64), so ELL does not pay and the guard makes it pure COO; with
 * ell_guard = 2 (756 <= 800 bytes) the byte guard passes, but 23 of the 48
 * non-zeros (0.48) would stay in COO, above coo_share = 0.25: pure COO
 * again (guarded=2); with coo_share = 0.5 the ELL part stays. */
static void test_guard_sends_a_non_paying_ell_part_to_coo(const spmvlab_csr *A)
{
    const char *off[] = {"min_rows=0", NULL};
    test_instance *t = convert_ok(A, SPMVLAB_F64, off);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == 0 && test_describe_value(t, "guarded") == 1);
    test_instance_free(t);
    const char *share[] = {"min_rows=0", "ell_guard=2", "small_nnz=0", NULL};
    t = convert_ok(A, SPMVLAB_F64, share);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == 0 && test_describe_value(t, "guarded") == 2);
    test_instance_free(t);
    const char *loose[] = {"min_rows=0", "ell_guard=2", "coo_share=0.5", "small_nnz=0", NULL};
    t = convert_ok(A, SPMVLAB_F64, (const char *[]){"min_rows=0", "ell_guard=2", "coo_share=0.5", NULL});
    TEST_CHECK(t && test_describe_value(t, "ell_width") == 0 && test_describe_value(t, "guarded") == 3);
    test_instance_free(t);
    t = convert_ok(A, SPMVLAB_F64, loose);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == 7 && test_describe_value(t, "guarded") == 0);
    test_instance_free(t);
}

/* Lanes: auto takes more lanes per row while the rows are too few to fill
 * the device (9 rows: as many as K and the value size allow); every lane
 * count meets the bound in f64 and f32. */
static void test_lanes_per_row_of_the_ell_kernel(const spmvlab_csr *A)
{
    const char *sets[] = {"ell_width=7", NULL};
    test_instance *t = convert_ok(A, SPMVLAB_F64, sets);
    TEST_CHECK(t && test_describe_value(t, "ell_lanes") == 4); /* 2G <= K = 7 */
    test_instance_free(t);
    const char *wide[] = {"ell_width=30", NULL};
    t = convert_ok(A, SPMVLAB_F64, wide);
    TEST_CHECK(t && test_describe_value(t, "ell_lanes") == 8);
    test_instance_free(t);
    t = convert_ok(A, SPMVLAB_F32, wide);
    TEST_CHECK(t && test_describe_value(t, "ell_lanes") == 4); /* f32: whole sectors */
    test_instance_free(t);
    const char *lanes[][3] = {{"ell_width=30", "ell_lanes=1", NULL},
                              {"ell_width=30", "ell_lanes=2", NULL},
                              {"ell_width=5", "ell_lanes=8", NULL}};
    for (int k = 0; k < 3; k++)
        for (int d = SPMVLAB_F64; d <= SPMVLAB_F32; d++)
            test_instance_free(convert_ok(A, (spmvlab_dtype)d, lanes[k]));
}

/* Lanes on a matrix of 2^20 non-zeros, 2^15 rows of 32 (the thread-count
 * rule alone takes 8): at most 2, and 1 where the columns are random; a
 * row fewer leaves the rule its 8. */
static void test_lanes_on_large_and_random_matrices(void)
{
    enum { rows = 1 << 15, len = 32 };
    const char *none[] = {NULL};
    spmvlab_csr A = test_uniform(rows, rows, len, 5); /* random columns */
    test_instance *t = convert_ok(&A, SPMVLAB_F64, none);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == len && test_describe_value(t, "ell_lanes") == 1);
    test_instance_free(t);
    for (int32_t i = 0; i < rows; i++) /* consecutive columns: one x sector serves four */
        for (int32_t j = 0; j < len; j++)
            A.col_idx[A.row_ptr[i] + j] = (i < rows - len ? i : rows - len) + j;
    t = convert_ok(&A, SPMVLAB_F64, none);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == len && test_describe_value(t, "ell_lanes") == 2);
    test_instance_free(t);
    A.rows--; /* 2^20 - 32 non-zeros */
    A.nnz -= len;
    t = convert_ok(&A, SPMVLAB_F64, none);
    TEST_CHECK(t && test_describe_value(t, "ell_lanes") == 8);
    test_instance_free(t);
    A.rows++;
    spmvlab_csr_free(&A);
}

/* The thin-ELL guard: 5000 rows of 240 random columns (1.2 M non-zeros:
 * one lane) would give 5000 threads of 240 slots each, so the matrix runs
 * as pure COO (guarded=4); rows of 64 (not more than 64 slots a lane) keep
 * their ELL part, and an explicit width is never guarded. */
static void test_thin_ell_part_goes_to_coo(void)
{
    const char *none[] = {NULL}, *fixed[] = {"ell_width=240", NULL};
    spmvlab_csr A = test_uniform(5000, 200000, 240, 5);
    test_instance *t = convert_ok(&A, SPMVLAB_F64, none);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == 0 && test_describe_value(t, "guarded") == 4);
    TEST_CHECK(t && test_describe_value(t, "coo_entries") == 5000 * 240);
    test_instance_free(t);
    t = convert_ok(&A, SPMVLAB_F64, fixed);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == 240 && test_describe_value(t, "guarded") == 0);
    test_instance_free(t);
    spmvlab_csr_free(&A);
    A = test_uniform(20000, 200000, 64, 5);
    t = convert_ok(&A, SPMVLAB_F64, none);
    TEST_CHECK(t && test_describe_value(t, "ell_width") == 64 && test_describe_value(t, "ell_lanes") == 1 &&
               test_describe_value(t, "guarded") == 0);
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

static void test_default_splits_rows_at_the_auto_width(const spmvlab_csr *A)
{
    const char *sets[] = {"min_rows=0", "ell_guard=0", NULL};
    /* ell_entries 0+0+0+1+1+2+7+7+7; coo_entries: the long row's tail */
    const char *facts[] = {"ell_width=7", "ell_entries=25", "coo_entries=23", "ell_slots=63", NULL};
    test_expect_facts("hyb", A, SPMVLAB_F64, sets, 7, facts);
}

static void test_width_beyond_the_longest_row_is_reduced_to_it(const spmvlab_csr *A)
{
    const char *sets[] = {"ell_width=1000", NULL};
    test_expect_facts("hyb", A, SPMVLAB_F64, sets, 7, (const char *const[]){"ell_width=30", "coo_entries=0", NULL});
}

/* ELL slot (i, k) at k*rows + i holds entry k of row i, padding is column
 * -1 value 0, and COO holds the rest in row order. */
static void test_layout_is_column_major_ell_plus_row_sorted_coo(const spmvlab_csr *A)
{
    const char *sets[] = {"ell_width=2", NULL};
    test_instance *t = convert_ok(A, SPMVLAB_F64, sets);
    if (!t)
        return;
    const hyb_format *f = t->in.fmt;
    const double *ev = f->ell_val, *cv = f->coo_val;
    TEST_CHECK(f->width == 2 && f->rows == KNOWN_ROWS);
    int32_t c = 0;
    for (int32_t i = 0; i < A->rows; i++) {
        int32_t b = A->row_ptr[i], len = A->row_ptr[i + 1] - b;
        for (int32_t k = 0; k < 2; k++) {
            size_t slot = (size_t)k * KNOWN_ROWS + (size_t)i;
            if (k < len) {
                TEST_CHECK(f->ell_col[slot] == A->col_idx[b + k]);
                TEST_CHECK(ev[slot] == A->val[b + k]);
            } else {
                TEST_CHECK(f->ell_col[slot] == -1 && ev[slot] == 0.0);
            }
        }
        for (int32_t k = 2; k < len; k++, c++) {
            TEST_CHECK(f->coo_row[c] == i);
            TEST_CHECK(f->coo_col[c] == A->col_idx[b + k]);
            TEST_CHECK(cv[c] == A->val[b + k]);
        }
    }
    TEST_CHECK(c == f->coo_entries && c == 5 + 5 + 28);
    test_instance_free(t);
}

/* bytes = rows*K*(4 + s) + M*(8 + s), s the value size. */
static void test_footprint_follows_the_formula(const spmvlab_csr *A)
{
    const char *sets[] = {"ell_width=3", NULL};
    for (int d = SPMVLAB_F64; d <= SPMVLAB_F32; d++) {
        test_instance *t = convert_ok(A, (spmvlab_dtype)d, sets);
        if (!t)
            continue;
        size_t s = spmvlab_dtype_size((spmvlab_dtype)d), m = 4 + 4 + 27;
        TEST_CHECK(test_describe_value(t, "coo_entries") == (double)m);
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == KNOWN_ROWS * 3 * (4 + s) + m * (8 + s));
        test_instance_free(t);
    }
}

/* One full row of 4000 entries among rows of one: its 3999 overflow entries
 * are the whole COO part, which the warp plan covers with whole tiles (256
 * entries for the blocked kernel, 32 for the segmented one), and the sums
 * stay within the bound with both. */
static void test_one_long_overflow_row_is_summed_within_the_bound(void)
{
    enum { rows = 4000 };
    int32_t *lengths = malloc(rows * sizeof *lengths);
    for (int32_t i = 0; i < rows; i++)
        lengths[i] = i == 17 ? rows : 1;
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, rows, rows, lengths, 3) == 0);
    free(lengths);
    /* 4000 rows: the default would be all COO; half the non-zeros overflow */
    const char *blocked[] = {"min_rows=0", "coo_share=1", "small_nnz=0", "coo_kernel=blocked", NULL};
    const char *segmented[] = {"min_rows=0", "coo_share=1", "small_nnz=0", "coo_kernel=segmented", NULL};
    const char *const *sets[] = {blocked, segmented};
    for (int d = SPMVLAB_F64; d <= SPMVLAB_F32; d++)
        for (int k = 0; k < 2; k++) {
            test_instance *t = convert_ok(&A, (spmvlab_dtype)d, sets[k]);
            if (!t)
                continue;
            const hyb_format *f = t->in.fmt;
            const int32_t tile = k == 0 ? COO_BLK_TILE : COO_SEG_WARP;
            TEST_CHECK(f->width == 1);
            TEST_CHECK(f->coo_entries == rows - 1);
            TEST_CHECK(f->plan.interval > 0 && f->plan.interval % tile == 0);
            TEST_CHECK((long long)f->plan.warps * f->plan.interval >= f->coo_entries);
            TEST_CHECK((long long)(f->plan.warps - 1) * f->plan.interval < f->coo_entries);
            test_instance_free(t);
        }
    spmvlab_csr_free(&A);
}

int main(void)
{
    spmvlab_csr A;
    test_need_rows(&A, KNOWN_ROWS, KNOWN_COLS, known_lengths, 11);
    test_auto_width_is_the_largest_k_held_by_the_row_fraction(&A);
    test_min_rows_raises_the_rows_that_must_reach_k(&A);
    test_guard_sends_a_non_paying_ell_part_to_coo(&A);
    test_lanes_per_row_of_the_ell_kernel(&A);
    test_thin_ell_part_goes_to_coo();
    test_lanes_on_large_and_random_matrices();
    test_default_splits_rows_at_the_auto_width(&A);
    test_width_beyond_the_longest_row_is_reduced_to_it(&A);
    test_layout_is_column_major_ell_plus_row_sorted_coo(&A);
    test_footprint_follows_the_formula(&A);
    test_one_long_overflow_row_is_summed_within_the_bound();
    spmvlab_csr_free(&A);
    return test_done("hyb");
}
