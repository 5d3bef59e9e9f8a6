/*
 * csr5 layouts at their edges, on the CPU (spmv_host from the format's own
 * arrays): many empty rows (tiles that map slots through empty_offset), a
 * single row, one very long row among short ones, fewer non-zeros than one
 * tile (all tail), an exact multiple of a tile (no tail), and rows that
 * cross every tile boundary. Each case, in f64 and f32, must be within the
 * error bound for two random x, and two calls must write every row of y
 * with identical results whatever y held before.
 */
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

/* Runs spmv_host twice, into NaN-poisoned y and into y full of another
 * pattern; both results must be bitwise equal. */
static void check_twice(test_instance *t, const char *name)
{
    const spmvlab_matrix *m = &t->pm.view;
    size_t vs = spmvlab_dtype_size(m->dtype), ny = (size_t)m->rows * vs;
    void *x = malloc((size_t)m->cols * vs + 1), *y1 = malloc(ny + 1), *y2 = malloc(ny + 1);
    spmvlab_random_x(x, (size_t)m->cols, m->dtype, 7);
    spmvlab_poison_host(y1, (size_t)m->rows, m->dtype);
    memset(y2, 0x5a, ny);
    spmvlab_err err;
    TEST_CHECK(t->in.plugin->desc->spmv_host(t->in.fmt, x, y1, &err) == SPMVLAB_OK);
    TEST_CHECK(t->in.plugin->desc->spmv_host(t->in.fmt, x, y2, &err) == SPMVLAB_OK);
    if (memcmp(y1, y2, ny) != 0) {
        fprintf(stderr, "%s (%s): two calls gave different y\n", name, spmvlab_dtype_name(m->dtype));
        test_failures++;
    }
    free(x);
    free(y1);
    free(y2);
}

/* Converts A with sets in f64 and f32 and checks it; describe() must contain
 * `expect` when not NULL. */
static void check_case(const char *name, spmvlab_csr *A, const char *const *sets, const char *expect)
{
    const spmvlab_dtype dtypes[] = {SPMVLAB_F64, SPMVLAB_F32};
    for (int k = 0; k < 2; k++) {
        test_instance *t = NULL;
        spmvlab_err err = {{0}};
        spmvlab_status st = test_convert("csr5", A, dtypes[k], sets, &t, &err);
        if (st != SPMVLAB_OK) {
            fprintf(stderr, "%s: convert failed: %s\n", name, err.msg);
            test_failures++;
            test_instance_free(t);
            continue;
        }
        double r1 = test_verify_host(t, 1), r2 = test_verify_host(t, 2);
        if (!(r1 <= 1.0 && r2 <= 1.0)) {
            fprintf(stderr, "%s (%s): error ratio %g, %g [%s]\n", name, spmvlab_dtype_name(dtypes[k]), r1, r2,
                    test_describe(t));
            test_failures++;
        }
        check_twice(t, name);
        if (expect)
            TEST_CONTAINS(test_describe(t), expect);
        test_instance_free(t);
    }
}

/* Rows with the lengths len(i) given by a pattern; returns 0 or -1. */
static int gen(spmvlab_csr *A, int32_t rows, int32_t cols, int32_t (*len)(int32_t), uint64_t seed)
{
    int32_t *lengths = malloc((size_t)rows * sizeof *lengths);
    for (int32_t i = 0; i < rows; i++)
        lengths[i] = len(i);
    int rc = test_gen_rows(A, rows, cols, lengths, seed);
    free(lengths);
    return rc;
}

/* Runs of empty rows of many sizes between short rows. */
static int32_t len_gappy(int32_t i) { return (i % 7 == 0 || (i / 50) % 3 == 1 || i % 11 == 3) ? 0 : 1 + i % 9; }
/* A short block, 5000 empty rows inside one tile, another short block. */
static int32_t len_hole(int32_t i) { return (i < 20 || i >= 5020) ? 2 : 0; }
/* Short rows and one row of 20000 entries in the middle. */
static int32_t len_one_long(int32_t i) { return i == 250 ? 20000 : 3; }
/* Every other row empty, the others of 12 entries (mean 6 over all rows). */
static int32_t len_halves(int32_t i) { return i % 2 ? 12 : 0; }
/* Leading and trailing empty rows around short rows. */
static int32_t len_edges(int32_t i) { return (i < 40 || i >= 900) ? 0 : 1 + i % 5; }

/* One check_case on a matrix: its name, the sets, the describe() text it
 * must contain (NULL: none). */
typedef struct csr5_case {
    const char *name;
    const char *const *sets;
    const char *expect;
} csr5_case;

/* check_case for each of cases (ended by one without a name) on A, when A
 * was built (rc 0); then frees A. */
static void check_cases(int rc, spmvlab_csr *A, const csr5_case *cases)
{
    if (rc != 0)
        return;
    for (const csr5_case *c = cases; c->name; c++)
        check_case(c->name, A, c->sets, c->expect);
    spmvlab_csr_free(A);
}

int main(void)
{
    spmvlab_csr A;
    const char *s1k[] = {"sigma=1", "calibrate=kernel", NULL}, *s4[] = {"sigma=4", NULL},
               *s16[] = {"sigma=16", NULL}, *s32[] = {"sigma=32", NULL}, *s7[] = {"sigma=7", NULL};
    /* empty = compress: tiles over the non-empty rows, the row map, runs. */
    const char *c4[] = {"sigma=4", "empty=compress", NULL}, *c32[] = {"sigma=32", "empty=compress", NULL},
               *c16k[] = {"sigma=16", "empty=compress", "calibrate=kernel", NULL};
    /* sigma = auto from the mean row length alone (these matrices fill fewer
     * than min_tiles tiles, where auto takes 4). */
    const char *m0[] = {"min_tiles=0", NULL};

    check_cases(gen(&A, 3000, 500, len_gappy, 1), &A, (const csr5_case[]){
        {"many_empty_rows", NULL, NULL},
        {"many_empty_rows sigma=4", s4, "empty_row_tiles="},
        {"many_empty_rows sigma=1", s1k, NULL},
        {"many_empty_rows compress", c4, "empty_row_tiles=0 "},
        {"many_empty_rows stores", s4, "stores=direct(auto)"}, /* empty rows: no stage */
        {NULL}});
    /* 5000 empty rows: 157 runs of at most 32 */
    check_cases(gen(&A, 5040, 300, len_hole, 2), &A, (const csr5_case[]){
        {"empty_run_inside_tile compress", c16k, "empty=compress zero_runs=157"},
        {"empty_run_inside_tile compress sigma=4", c4, "empty=compress zero_runs=157"},
        {"empty_run_inside_tile", s16, NULL},
        {"empty_run_inside_tile sigma=4", s4, NULL},
        {NULL}});
    check_cases(gen(&A, 1000, 200, len_edges, 3), &A, (const csr5_case[]){
        {"leading_trailing_empty", s4, NULL},
        {"leading_trailing_empty sigma=32", s32, NULL},
        {"leading_trailing_empty compress", c4, "empty=compress"},
        {"leading_trailing_empty compress sigma=32", c32, "empty=compress"},
        {NULL}});
    check_cases(test_gen_uniform(&A, 1, 3000, 3000, 4), &A, (const csr5_case[]){
        {"single_row", m0, "sigma=32(auto)"},
        {"single_row few tiles", NULL, "sigma=4(auto) tiles=23 "},
        {"single_row sigma=4", s4, NULL},
        {"single_row sigma=1", s1k, NULL},
        {NULL}});
    check_cases(gen(&A, 500, 40000, len_one_long, 5), &A, (const csr5_case[]){
        {"one_long_row", NULL, NULL},
        {"one_long_row sigma=32", s32, NULL},
        {"one_long_row sigma=1", s1k, NULL},
        {NULL}});
    /* 30 entries: less than one tile */
    check_cases(test_gen_uniform(&A, 10, 50, 3, 6), &A, (const csr5_case[]){
        {"below_one_tile", s4, "tiles=0 tail_nnz=30"},
        {"below_one_tile sigma=1", s1k, "tiles=0 tail_nnz=30"},
        {NULL}});
    /* 512 entries */
    check_cases(test_gen_uniform(&A, 64, 100, 8, 7), &A, (const csr5_case[]){
        {"exact_tiles sigma=4", s4, "tiles=4 tail_nnz=0"},
        {"exact_tiles stores", s4, "stores=staged(auto)"},
        {"exact_tiles sigma=16", s16, "tiles=1 tail_nnz=0"},
        {"exact_tiles sigma=1", s1k, "tiles=16 tail_nnz=0"},
        {NULL}});
    /* every row crosses a boundary */
    check_cases(test_gen_uniform(&A, 300, 1000, 33, 8), &A, (const csr5_case[]){
        {"crossing_rows sigma=1", s1k, NULL},
        {"crossing_rows sigma=7", s7, NULL},
        {"crossing_rows auto", m0, "sigma=32(auto)"},
        {"crossing_rows stores", m0, "stores=direct(auto)"}, /* sigma above 12 */
        {"crossing_rows compress", c4, "empty=offsets"}, /* no empty row: the same format */
        {NULL}});
    check_cases(test_gen_uniform(&A, 2000, 2000, 10, 9), &A, (const csr5_case[]){
        {"mean_row_10", m0, "sigma=10(auto)"},
        {"mean_row_10 few tiles", NULL, "sigma=4(auto)"},
        {NULL}});
    /* rows of 10: at sigma 10, 16384 rows fill 512 tiles and keep it;
     * 16383 fill 511 (fewer than min_tiles = 512) and take 4 */
    check_cases(test_gen_uniform(&A, 16384, 20000, 10, 12), &A, (const csr5_case[]){
        {"512 tiles", NULL, "sigma=10(auto) tiles=512 "},
        {NULL}});
    check_cases(test_gen_uniform(&A, 16383, 20000, 10, 13), &A, (const csr5_case[]){
        {"511 tiles", NULL, "sigma=4(auto) tiles=1279 "},
        {"511 tiles min_tiles=511", (const char *[]){"min_tiles=511", NULL}, "sigma=10(auto) tiles=511 "},
        {NULL}});
    /* sigma = auto over all rows or the stored ones */
    const char *cs[] = {"empty=compress", "sigma_mean=stored", "min_tiles=0", NULL},
               *ca[] = {"empty=compress", "min_tiles=0", NULL};
    check_cases(gen(&A, 2000, 2000, len_halves, 11), &A, (const csr5_case[]){
        {"halves compress stored", cs, "sigma=12(auto)"},
        {"halves compress all", ca, "sigma=6(auto)"},
        {"halves offsets stored", (const char *[]){"sigma_mean=stored", "min_tiles=0", NULL}, "sigma=6(auto)"},
        {NULL}});
    check_cases(test_gen_uniform(&A, 2000, 2000, 2, 10), &A, (const csr5_case[]){
        {"mean_row_2", NULL, "sigma=4(auto)"},
        {NULL}});
    /* fewer than 3 tiles of sigma 4 (384 entries): sigma 16, the tail alone;
     * 384 entries fill 3 tiles of 4 */
    check_cases(test_gen_uniform(&A, 95, 100, 4, 14), &A, (const csr5_case[]){
        {"380 entries", NULL, "sigma=16(auto) tiles=0 tail_nnz=380 "},
        {"380 entries min_tiles=0", m0, "sigma=4(auto) tiles=2 "}, /* the mean rule alone */
        {NULL}});
    check_cases(test_gen_uniform(&A, 96, 100, 4, 15), &A, (const csr5_case[]){
        {"384 entries", NULL, "sigma=4(auto) tiles=3 "},
        {NULL}});
    return test_done("csr5.unit.edge_layouts");
}
