/*
 * dia: a diagonal is stored from its first to its last entry (nothing at
 * the band's ends), the fill guard and the diagonal guard refuse with the
 * numbers before anything is allocated, x_reuse = shared refuses a window
 * beyond 48 KiB and auto falls back to L1 there (or, with codes and
 * consecutive offsets, to shuffles), and the device bytes
 * follow README.md's formula (16 per diagonal + the stored values; with
 * codes, whole chunks of 128 rows and the table). CPU
 * only; every accepted case is checked through spmv_host in f64 and f32.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib_plugin.h"

/* Expects LIMIT with the given parts of the sentence and no allocation. */
static void expect_refusal(const spmvlab_csr *A, const char *const *sets, const char *part1, const char *part2)
{
    spmvlab_err err = {{0}};
    TEST_CHECK(test_refuses("dia", A, SPMVLAB_F64, sets, SPMVLAB_LIMIT, &err));
    TEST_CONTAINS(err.msg, part1);
    TEST_CONTAINS(err.msg, part2);
}

/* n x m with the given diagonals: offsets[d] holds entries in rows
 * [lo[d], hi[d]) (clipped to the matrix). */
static int gen_diagonals(spmvlab_csr *A, int32_t n, int32_t m, int nd, const int32_t *offsets, const int32_t *lo,
                         const int32_t *hi)
{
    size_t cap = (size_t)nd * (size_t)n + 1, k = 0;
    spmvlab_triplet *t = malloc(cap * sizeof *t);
    for (int d = 0; d < nd; d++)
        for (int32_t i = lo[d]; i < hi[d] && i < n; i++)
            if (i + offsets[d] >= 0 && i + offsets[d] < m)
                t[k++] = (spmvlab_triplet){i, i + offsets[d], 1.0 + 0.25 * (double)((i * 7 + d) % 9)};
    spmvlab_err err;
    return spmvlab_csr_from_triplets(A, n, m, t, k, &err);
}

/* n x n of the nd consecutive diagonals from offset first (at most 256),
 * each over every row: gen_diagonals of a band. */
static int gen_band(spmvlab_csr *A, int32_t n, int32_t first, int nd)
{
    int32_t off[256], lo[256], hi[256];
    if (nd > 256)
        return -1;
    for (int d = 0; d < nd; d++)
        off[d] = first + d, lo[d] = 0, hi[d] = n;
    return gen_diagonals(A, n, n, nd, off, lo, hi);
}

/* A 1000 x 1000 band of nd diagonals (gen_diagonals) holding nnz entries,
 * converted with the defaults: describe() holds want, the footprint is bytes. */
static void expect_band(int nd, const int32_t *off, const int32_t *lo, const int32_t *hi, int32_t nnz,
                        const char *want, size_t bytes)
{
    spmvlab_csr A;
    TEST_CHECK(gen_diagonals(&A, 1000, 1000, nd, off, lo, hi) == 0);
    TEST_CHECK(A.nnz == nnz);
    TEST_CHECK(test_convert_says("dia", &A, NULL, 23, want) == bytes);
    spmvlab_csr_free(&A);
}

static void test_tridiagonal_stores_no_padding(void)
{
    const int32_t off[] = {-1, 0, 1}, lo[] = {0, 0, 0}, hi[] = {1000, 1000, 1000};
    expect_band(3, off, lo, hi, 2998, "diagonals=3 offsets=-1..1 stored=2998 fill=1.000 x_reuse=shared(auto) runs=1",
                16 * 3 + 8 * 2998);
}

/* Diagonal +5 holds entries in rows 100..199 only: 100 values stored. */
static void test_a_diagonal_is_stored_between_its_first_and_last_entry(void)
{
    const int32_t off[] = {0, 5}, lo[] = {0, 100}, hi[] = {1000, 200};
    expect_band(2, off, lo, hi, 1100, "diagonals=2 offsets=0..5 stored=1100 fill=1.000", 16 * 2 + 8 * 1100);
}

/* Diagonal +3 with entries in rows 0 and 996 only: 997 stored for 2. */
static void test_fill_guard_refuses_with_the_numbers(void)
{
    spmvlab_csr A;
    const int32_t off[] = {0, 3, 3}, lo[] = {0, 0, 996}, hi[] = {1000, 1, 997};
    TEST_CHECK(gen_diagonals(&A, 1000, 1000, 3, off, lo, hi) == 0);
    TEST_CHECK(A.nnz == 1002);
    expect_refusal(&A, NULL, "dia's 2 diagonals store 1997 entries for 1002 non-zeros",
                   "fill 1.993 exceeds max_fill 1.50");
    const char *looser[] = {"max_fill=2", NULL};
    test_convert_says("dia", &A, looser, 23, "stored=1997 fill=1.993");
    spmvlab_csr_free(&A);
}

static void test_diagonal_guard_refuses_a_random_matrix(void)
{
    spmvlab_csr A = test_uniform(200, 200, 3, 4);
    const char *sets[] = {"max_fill=1e6", "max_diags=10", NULL};
    expect_refusal(&A, sets, "diagonals, more than max_diags 10", "for 600 non-zeros");
    spmvlab_csr_free(&A);
}

/* Offsets 0 and +10000: the window of 256 + 10000 f64 values is 82048 bytes. */
static void test_wide_band_reads_x_through_l1(void)
{
    spmvlab_csr A;
    const int32_t off[] = {0, 10000}, lo[] = {0, 0}, hi[] = {20000, 20000};
    TEST_CHECK(gen_diagonals(&A, 20000, 20000, 2, off, lo, hi) == 0);
    const char *shared[] = {"x_reuse=shared", NULL};
    expect_refusal(&A, shared, "x window of 82048 bytes (offsets 0 to 10000)", "x_reuse = shared may use");
    test_convert_says("dia", &A, NULL, 23, "x_reuse=l1(auto) runs=2");
    spmvlab_csr_free(&A);
}

/* 1000 x 1000: diagonal 0 in every row, +5 in rows 100..199 (1100
 * entries, 9 distinct values). */
static int gen_two_diagonals(spmvlab_csr *A)
{
    const int32_t off[] = {0, 5}, lo[] = {0, 100}, hi[] = {1000, 200};
    return gen_diagonals(A, 1000, 1000, 2, off, lo, hi);
}

/* The footprint of gen_two_diagonals' matrix with codes in f64: the two
 * diagonals' metadata, code_bytes of codes and the table's values. */
static size_t two_diagonals_bytes(size_t code_bytes, size_t table)
{
    return 16 * 2 + code_bytes + 8 * table;
}

/* With codes each diagonal keeps the whole chunks of 128 rows its range
 * touches: diagonal 0 (rows 0..999) 8 chunks, +5 (rows 100..199) chunks 0
 * and 1, so 1280 slots, plus the table of the 9 distinct values and +0.0
 * (code 0). Ten values take 4-bit codes, two a byte (640 bytes), through
 * L1 or when code_bits = 4 asks; with the x window in shared memory (auto
 * here) and 4 rows a thread, or with code_bits = 8, one byte each
 * (dia_code4_pays). spmv_host (checked against the reference by
 * test_convert_says) finds every code at its lane-interleaved position, in
 * either half of its byte. */
static void test_codes_keep_whole_chunks(void)
{
    spmvlab_csr A;
    TEST_CHECK(gen_two_diagonals(&A) == 0);
    const char *indexed[] = {"values=indexed", NULL}, *l1[] = {"values=indexed", "x_reuse=l1", NULL},
               *bytes[] = {"values=indexed", "x_reuse=l1", "code_bits=8", NULL};
    TEST_CHECK(test_convert_says("dia", &A, indexed, 23,
                                 "stored=1100 fill=1.000 x_reuse=shared(auto) runs=2 values=indexed8 table=10 slots=1280") ==
               two_diagonals_bytes(1280, 10));
    TEST_CHECK(test_convert_says("dia", &A, l1, 23, "x_reuse=l1 runs=2 values=indexed4 table=10 slots=1280") ==
               two_diagonals_bytes(1280 / 2, 10));
    TEST_CHECK(test_convert_says("dia", &A, bytes, 23, "x_reuse=l1 runs=2 values=indexed8 table=10 slots=1280") ==
               two_diagonals_bytes(1280, 10));
    const char *four[] = {"values=indexed", "code_bits=4", NULL};
    TEST_CHECK(test_convert_says("dia", &A, four, 23, "x_reuse=shared(auto) runs=2 values=indexed4 table=10") ==
               two_diagonals_bytes(1280 / 2, 10));
    spmvlab_csr_free(&A);
}

/* A table of 17 values (16 distinct and +0.0 of the fill) is one too many
 * for 4-bit codes: 1 byte each (x through L1, where 16 take 4 bits), and
 * code_bits = 4 refuses it with the count. */
static void test_seventeen_values_take_bytes(void)
{
    spmvlab_csr A;
    TEST_CHECK(gen_two_diagonals(&A) == 0);
    for (int32_t k = 0; k < A.nnz; k++)
        A.val[k] = 1.0 + k % 16;
    const char *indexed[] = {"values=indexed", "x_reuse=l1", NULL};
    TEST_CHECK(test_convert_says("dia", &A, indexed, 23, "values=indexed8 table=17 slots=1280") ==
               two_diagonals_bytes(1280, 17));
    const char *four[] = {"values=indexed", "code_bits=4", NULL};
    expect_refusal(&A, four, "code_bits = 4 codes a table of at most 16 values", "this matrix's holds 17");
    for (int32_t k = 0; k < A.nnz; k++)
        A.val[k] = 1.0 + k % 15;
    TEST_CHECK(test_convert_says("dia", &A, indexed, 23, "values=indexed4 table=16 slots=1280") ==
               two_diagonals_bytes(1280 / 2, 16));
    spmvlab_csr_free(&A);
}

/* Rows a thread (rows_per_thread) set the chunk: with 2, chunks of 64
 * rows, diagonal 0 (rows 0..999) 16 chunks and +5 (rows 100..199) chunks
 * 1 to 3, 1216 slots; with 8, chunks of 256, 1024 + 256 slots; shuffles
 * take 4 (1280 slots, as above). With the x window in shared memory, 2
 * rows keep 1-byte codes and 8 take 4-bit ones (dia_code4_pays); through
 * L1, 8 rows take 4 bits as well. spmv_host finds every code at its
 * lane-interleaved position in each layout, in f64 and f32. */
static void test_rows_per_thread_set_the_chunks(void)
{
    spmvlab_csr A;
    TEST_CHECK(gen_two_diagonals(&A) == 0);
    const char *two[] = {"values=indexed", "rows_per_thread=2", NULL},
               *eight[] = {"values=indexed", "rows_per_thread=8", NULL},
               *eight_l1[] = {"values=indexed", "rows_per_thread=8", "x_reuse=l1", NULL},
               *shuffle[] = {"values=indexed", "rows_per_thread=8", "x_reuse=shuffle", NULL};
    TEST_CHECK(test_convert_says("dia", &A, two, 23, "values=indexed8 table=10 slots=1216 batch=2 rows_per_thread=2") ==
               two_diagonals_bytes(1216, 10));
    TEST_CHECK(test_convert_says("dia", &A, eight, 23, "values=indexed4 table=10 slots=1280 batch=2 rows_per_thread=8") ==
               two_diagonals_bytes(1280 / 2, 10));
    test_convert_says("dia", &A, eight_l1, 23, "x_reuse=l1 runs=2 values=indexed4 table=10 slots=1280 batch=1 rows_per_thread=8");
    test_convert_says("dia", &A, shuffle, 23, "slots=1280 batch=2 rows_per_thread=4");
    spmvlab_csr_free(&A);
}

/* The coded kernel's window spans its block's rows (256 threads of 4 rows
 * here; of 8 with rows_per_thread = 8), not 256, beside the table of
 * 1-byte codes (256 entries): offsets 0 and +5200 fit x_reuse = shared
 * natively ((256 + 5200) x 8 = 43648 bytes) and not with codes
 * ((1024 + 256 + 5200) x 8 = 51840 > 49152; with 8 rows a thread
 * (2048 + 256 + 5200) x 8 = 60032). */
static void test_coded_window_counts_its_rows(void)
{
    const int32_t off[] = {0, 5200}, lo[] = {0, 0}, hi[] = {8000, 8000};
    spmvlab_csr A;
    TEST_CHECK(gen_diagonals(&A, 8000, 8000, 2, off, lo, hi) == 0);
    const char *native[] = {"x_reuse=shared", NULL}, *coded[] = {"x_reuse=shared", "values=indexed", NULL};
    test_convert_says("dia", &A, native, 23, "x_reuse=shared runs=2 values=native");
    expect_refusal(&A, coded, "x window of 51840 bytes (offsets 0 to 5200)", "x_reuse = shared may use");
    const char *coded8[] = {"x_reuse=shared", "values=indexed", "rows_per_thread=8", NULL};
    expect_refusal(&A, coded8, "x window of 60032 bytes (offsets 0 to 5200)", "x_reuse = shared may use");
    spmvlab_csr_free(&A);
}

/* The coded kernel's rows a thread and batch, auto (dia_choose_rows,
 * dia_choose_batch), each case flipping one feature. Below 2^19 rows, 4
 * rows: more than 16 diagonals with the x window in shared memory (a wide
 * band) batch 4, 16 there batch 2, through L1 (offsets spanning more than
 * 256 columns) batch 2 for 3 diagonals and for 27. From 2^19 rows, 8 rows
 * and through L1 batch 1 (3 diagonals) or 4 (27). Rows set by hand stay,
 * and the batch through L1 keeps 8 x loads a thread (2 rows: 4, 8 rows:
 * 1); a batch set by hand stays. */
static void test_coded_shape_rule(void)
{
    const char *indexed[] = {"values=indexed", NULL}, *one[] = {"values=indexed", "batch=1", NULL},
               *eight[] = {"values=indexed", "rows_per_thread=8", NULL},
               *two[] = {"values=indexed", "rows_per_thread=2", NULL};
    spmvlab_csr A;
    TEST_CHECK(gen_band(&A, 1000, -8, 17) == 0);
    test_convert_says_all("dia", &A, indexed, 23,
                          (const char *const[]){"x_reuse=shared(auto) runs=1 values=indexed8",
                                                "batch=4 rows_per_thread=4", NULL});
    test_convert_says("dia", &A, one, 23, "batch=1 rows_per_thread=4");
    spmvlab_csr_free(&A);
    TEST_CHECK(gen_band(&A, 1000, -8, 16) == 0);
    test_convert_says("dia", &A, indexed, 23, "batch=2 rows_per_thread=4");
    spmvlab_csr_free(&A);
    const int32_t wide[] = {-600, 0, 600}, lo[27] = {0};
    for (int32_t n = (1 << 19) - 1; n <= (1 << 19); n++) {
        const int32_t hi[] = {n, n, n};
        TEST_CHECK(gen_diagonals(&A, n, n, 3, wide, lo, hi) == 0);
        test_convert_says_all("dia", &A, indexed, 23,
                              (const char *const[]){"x_reuse=l1(auto) runs=3 values=indexed4",
                                                    n < (1 << 19) ? "batch=2 rows_per_thread=4"
                                                                  : "batch=1 rows_per_thread=8",
                                                    NULL});
        test_convert_says("dia", &A, two, 23, "batch=4 rows_per_thread=2");

        spmvlab_csr_free(&A);
    }
    int32_t many[27], all[27];
    for (int d = 0; d < 27; d++)
        many[d] = (d / 9 - 1) * 600 + (d % 9 / 3 - 1) * 30 + d % 3 - 1, all[d] = 1 << 19; /* a 27-point stencil */
    TEST_CHECK(gen_diagonals(&A, 1 << 19, 1 << 19, 27, many, lo, all) == 0);
    test_convert_says_all("dia", &A, indexed, 23,
                          (const char *const[]){"diagonals=27", "x_reuse=l1(auto)", "batch=4 rows_per_thread=8", NULL});
    spmvlab_csr_free(&A);
    for (int d = 0; d < 27; d++)
        all[d] = 2000;
    TEST_CHECK(gen_diagonals(&A, 2000, 2000, 27, many, lo, all) == 0);
    test_convert_says("dia", &A, indexed, 23, "batch=2 rows_per_thread=4");
    test_convert_says("dia", &A, eight, 23, "batch=4 rows_per_thread=8");
    spmvlab_csr_free(&A);
}

/* 1000 x 1000 of the given diagonals, all rows, converted with sets: the
 * describe() text holds want (spmv_host checked against the reference). */
static void expect_diagonals_say(int nd, const int32_t *off, const char *const *sets, const char *want)
{
    int32_t lo[8], hi[8];
    for (int d = 0; d < nd; d++)
        lo[d] = 0, hi[d] = 1000;
    spmvlab_csr A;
    TEST_CHECK(gen_diagonals(&A, 1000, 1000, nd, off, lo, hi) == 0);
    test_convert_says("dia", &A, sets, 23, want);
    spmvlab_csr_free(&A);
}

/* x_reuse's rule (dia_choose_x_path), each case flipping one feature. With
 * codes and offsets spanning more than 256 columns, auto takes l1 whether
 * or not a diagonal's offset follows its predecessor's by 1 (-600, -1, 0,
 * 1, 600: 3 runs; -600, 0, 600); a span of at most 256 keeps the shared
 * window; native values keep l1 under auto and read
 * through L1 when shuffle is asked (the native kernel has no shuffles),
 * while codes take shuffle when asked whatever the span and runs. Runs
 * count gaps: 0, 2, 3, 5 are 3 runs. */
static void test_x_reuse_rule(void)
{
    const int32_t stencil[] = {-600, -1, 0, 1, 600}, apart[] = {-600, 0, 600}, narrow[] = {-1, 0, 1},
                  gaps[] = {0, 2, 3, 5};
    const char *indexed[] = {"values=indexed", NULL}, *shuffle[] = {"values=indexed", "x_reuse=shuffle", NULL},
               *native_shuffle[] = {"x_reuse=shuffle", NULL};
    expect_diagonals_say(5, stencil, indexed, "x_reuse=l1(auto) runs=3 values=indexed4");
    expect_diagonals_say(3, apart, indexed, "x_reuse=l1(auto) runs=3 values=indexed4");
    expect_diagonals_say(3, narrow, indexed, "x_reuse=shared(auto) runs=1 values=indexed8");
    expect_diagonals_say(5, stencil, NULL, "x_reuse=l1(auto) runs=3 values=native");
    expect_diagonals_say(5, stencil, native_shuffle, "x_reuse=l1 runs=3 values=native");
    expect_diagonals_say(3, apart, shuffle, "x_reuse=shuffle runs=3 values=indexed4");
    expect_diagonals_say(3, narrow, shuffle, "x_reuse=shuffle runs=1 values=indexed4");
    expect_diagonals_say(4, gaps, shuffle, "offsets=0..5 stored=3990 fill=1.000 x_reuse=shuffle runs=3");
}

/* A band of half width 40 (81 diagonals, one run longer than a warp's 32
 * lanes) with codes and x_reuse = shuffle: one run, batch 2 as with L1.
 * 1296 rows are 16 a diagonal, the fewest dia takes by default; 1295 are
 * refused, and taken with min_rows_per_diag = 0. */
static void test_shuffle_band_longer_than_a_warp(void)
{
    const char *shuffle[] = {"values=indexed", "x_reuse=shuffle", NULL};
    spmvlab_csr A;
    TEST_CHECK(gen_band(&A, 1296, -40, 81) == 0);
    test_convert_says_all("dia", &A, shuffle, 23,
                          (const char *const[]){"diagonals=81 offsets=-40..40",
                                                "x_reuse=shuffle runs=1 values=indexed4", "batch=2", NULL});
    spmvlab_csr_free(&A);
    TEST_CHECK(gen_band(&A, 1295, -40, 81) == 0);
    expect_refusal(&A, NULL, "dia's 81 diagonals for 1295 rows", "fewer than min_rows_per_diag 16 rows a diagonal");
    const char *off_guard[] = {"min_rows_per_diag=0", NULL};
    test_convert_says("dia", &A, off_guard, 23, "diagonals=81 offsets=-40..40");
    spmvlab_csr_free(&A);
}

/* values = auto under f64 or f32 on an n-row band of the given diagonals
 * from offset lo (5 from -2: 5n - 6 entries; 9 distinct values): its
 * describe() holds want. */
static void expect_auto_values(int32_t n, int32_t lo, int32_t diagonals, spmvlab_dtype dtype, const char *want)
{
    const char *vauto[] = {"values=auto", NULL};
    spmvlab_csr A;
    TEST_CHECK(gen_band(&A, n, lo, diagonals) == 0);
    test_instance *t = test_convert_ok("dia", &A, dtype, vauto, 23);
    if (t) {
        TEST_CONTAINS(test_describe(t), want);
        test_instance_free(t);
    }
    spmvlab_csr_free(&A);
}

/* values = auto's codes (dia_codes_pay): from 2^22 non-zeros (5
 * diagonals, 838,862 rows: 4,194,304 entries; one row fewer: native), in
 * f32 from 2^19 rows as well (9 diagonals, 9n - 20 entries: 2^19 rows
 * codes, 2^19 - 1 native in f32 and codes in f64); 1000 rows native. */
static void test_codes_pay_rule(void)
{
    expect_auto_values(1000, -2, 5, SPMVLAB_F64, "values=native");
    expect_auto_values(838862, -2, 5, SPMVLAB_F64, "values=indexed4");
    expect_auto_values(838861, -2, 5, SPMVLAB_F64, "values=native");
    expect_auto_values(838862, -2, 5, SPMVLAB_F32, "values=indexed4");
    expect_auto_values(1 << 19, -4, 9, SPMVLAB_F32, "values=indexed4");
    expect_auto_values((1 << 19) - 1, -4, 9, SPMVLAB_F32, "values=native");
    expect_auto_values((1 << 19) - 1, -4, 9, SPMVLAB_F64, "values=indexed");
}

static void test_no_nonzeros_converts(void)
{
    /* nothing stored; the kernel writes 0 to every row */
    TEST_CHECK(test_convert_empty_says("dia", 23, "diagonals=0") == 0);
}

/* 50 x 80 with offsets -10, 0 and +30: rows and columns both clip. */
static void test_rectangular_band(void)
{
    spmvlab_csr A;
    const int32_t off[] = {-10, 0, 30}, lo[] = {0, 0, 0}, hi[] = {50, 50, 50};
    TEST_CHECK(gen_diagonals(&A, 50, 80, 3, off, lo, hi) == 0);
    TEST_CHECK(A.nnz == 40 + 50 + 50);
    const char *l1[] = {"x_reuse=l1", NULL};
    test_convert_says("dia", &A, NULL, 23, "diagonals=3 offsets=-10..30 stored=140 fill=1.000 x_reuse=shared(auto) runs=3");
    test_convert_says("dia", &A, l1, 23, "x_reuse=l1 runs=3");
    spmvlab_csr_free(&A);
}

int main(void)
{
    test_tridiagonal_stores_no_padding();
    test_a_diagonal_is_stored_between_its_first_and_last_entry();
    test_fill_guard_refuses_with_the_numbers();
    test_diagonal_guard_refuses_a_random_matrix();
    test_wide_band_reads_x_through_l1();
    test_rectangular_band();
    test_no_nonzeros_converts();
    test_codes_keep_whole_chunks();
    test_seventeen_values_take_bytes();
    test_rows_per_thread_set_the_chunks();
    test_coded_window_counts_its_rows();
    test_coded_shape_rule();
    test_x_reuse_rule();
    test_shuffle_band_longer_than_a_warp();
    test_codes_pay_rule();
    return test_done("dia guards");
}
