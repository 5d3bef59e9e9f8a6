/*
 * The value table of a matrix (spmvlab/value_table.h): +0.0 at code 0 and
 * the other distinct bit patterns in ascending order, 1-byte codes up to
 * 256 entries and 2-byte codes up to 65,536, every code naming its entry's
 * value bit for bit; more values refused with the count (exact when asked),
 * and a table built once per matrix.
 */
#include <stdlib.h>
#include <string.h>

#include "spmvlab/value_table.h"
#include "testlib.h"

/* A 1 x n view of the n f64 values (no columns needed by the table). */
static spmvlab_matrix view_of(const double *val, int32_t n)
{
    return (spmvlab_matrix){.name = "v", .rows = 1, .cols = n, .nnz = n, .dtype = SPMVLAB_F64, .val = val};
}

/* Every code of t decodes to its entry's bits; the table ascends by bits
 * from +0.0. */
static void expect_codes_decode(const spmvlab_value_table *t, const double *val, int32_t n)
{
    const double *tv = t->values;
    uint64_t prev = 0, bits;
    TEST_CHECK(memcmp(&tv[0], &(double){0.0}, 8) == 0);
    for (int32_t i = 1; i < t->count; i++) {
        memcpy(&bits, &tv[i], 8);
        TEST_CHECK(bits > prev);
        prev = bits;
    }
    int bad = 0;
    for (int32_t k = 0; k < n; k++) {
        uint32_t code = t->code_bytes == 1 ? ((const uint8_t *)t->codes)[k] : ((const uint16_t *)t->codes)[k];
        bad += code >= (uint32_t)t->count || memcmp(&tv[code], &val[k], 8) != 0;
    }
    TEST_CHECK(bad == 0);
}

/* Builds the table of n values, expecting st; returns the table. */
static const spmvlab_value_table *table_of(spmvlab_value_cache *c, const double *val, int32_t n, int count_all,
                                           spmvlab_status st, char *why, size_t len)
{
    spmvlab_matrix A = view_of(val, n);
    const spmvlab_value_table *t = NULL;
    TEST_CHECK(spmvlab_value_cache_get(c, &A, count_all, &t, why, len) == st);
    TEST_CHECK(t != NULL);
    return t;
}

/* Five values with both zeros: -0.0 keeps its own code, +0.0 is code 0. */
static void test_small_table_one_byte_codes(void)
{
    const double val[] = {3.0, -1.0, 3.0, 0.5, -0.0, 0.0, -1.0, 3.0};
    spmvlab_value_cache c = {0};
    char why[256];
    const spmvlab_value_table *t = table_of(&c, val, 8, 0, SPMVLAB_OK, why, sizeof why);
    TEST_CHECK(t->distinct == 5 && t->count == 5 && t->code_bytes == 1);
    expect_codes_decode(t, val, 8);
    TEST_CHECK(((const uint8_t *)t->codes)[5] == 0);
    TEST_CHECK(((const uint8_t *)t->codes)[0] == ((const uint8_t *)t->codes)[7]);
    /* built once: the second request hands the same table */
    spmvlab_matrix A = view_of(val, 8);
    const spmvlab_value_table *again = NULL;
    TEST_CHECK(spmvlab_value_cache_get(&c, &A, 1, &again, why, sizeof why) == SPMVLAB_OK && again == t);
    spmvlab_value_cache_free(&c);
}

/* Without +0.0 among the values the table adds it at code 0. */
static void test_padding_zero_is_added(void)
{
    const double val[] = {2.0, 2.0, 2.0};
    spmvlab_value_cache c = {0};
    char why[256];
    const spmvlab_value_table *t = table_of(&c, val, 3, 0, SPMVLAB_OK, why, sizeof why);
    TEST_CHECK(t->distinct == 1 && t->count == 2 && t->code_bytes == 1);
    TEST_CHECK(((const double *)t->values)[1] == 2.0 && ((const uint8_t *)t->codes)[2] == 1);
    spmvlab_value_cache_free(&c);
    /* no entries: the table is +0.0 alone */
    t = table_of(&c, val, 0, 0, SPMVLAB_OK, why, sizeof why);
    TEST_CHECK(t->distinct == 0 && t->count == 1 && t->code_bytes == 1);
    spmvlab_value_cache_free(&c);
}

/* n distinct values k * 0.25 + first, repeated rep times each. */
static double *distinct_values(int32_t n, int rep, double first)
{
    double *v = malloc((size_t)n * (size_t)rep * sizeof *v);
    for (int32_t k = 0; k < n * rep; k++)
        v[k] = first + 0.25 * (double)(k % n);
    return v;
}

/* 256 entries fit one byte with +0.0 among them, need two without; 65,536
 * fit two bytes. */
static void test_code_widths_at_the_limits(void)
{
    char why[256];
    spmvlab_value_cache c = {0};
    double *v = distinct_values(256, 2, 0.0); /* holds +0.0 */
    const spmvlab_value_table *t = table_of(&c, v, 512, 0, SPMVLAB_OK, why, sizeof why);
    TEST_CHECK(t->count == 256 && t->code_bytes == 1);
    expect_codes_decode(t, v, 512);
    spmvlab_value_cache_free(&c);
    free(v);
    v = distinct_values(256, 2, 1.0); /* no +0.0: 257 entries */
    t = table_of(&c, v, 512, 0, SPMVLAB_OK, why, sizeof why);
    TEST_CHECK(t->count == 257 && t->code_bytes == 2);
    expect_codes_decode(t, v, 512);
    spmvlab_value_cache_free(&c);
    free(v);
    v = distinct_values(65536, 1, 0.0);
    t = table_of(&c, v, 65536, 0, SPMVLAB_OK, why, sizeof why);
    TEST_CHECK(t->count == 65536 && t->code_bytes == 2);
    expect_codes_decode(t, v, 65536);
    spmvlab_value_cache_free(&c);
    free(v);
}

/* More than 65,536 values: refused with the count, counted in full only
 * when asked; 65,536 without +0.0 is refused for the padding zero. */
static void test_refusal_above_65536_values(void)
{
    char why[256];
    spmvlab_value_cache c = {0};
    double *v = distinct_values(70000, 2, 1.0);
    const spmvlab_value_table *t = table_of(&c, v, 140000, 0, SPMVLAB_LIMIT, why, sizeof why);
    TEST_CHECK(t->code_bytes == 0 && t->count == 0);
    TEST_CONTAINS(why, "more than 65536 distinct values (counting stopped at 65537)");
    t = table_of(&c, v, 140000, 1, SPMVLAB_LIMIT, why, sizeof why);
    TEST_CHECK(t->distinct == 70000);
    TEST_CONTAINS(why, "the matrix has 70000 distinct values, more than the 65536 a 2-byte code names");
    spmvlab_value_cache_free(&c);
    free(v);
    v = distinct_values(65536, 1, 1.0);
    t = table_of(&c, v, 65536, 1, SPMVLAB_LIMIT, why, sizeof why);
    TEST_CONTAINS(why, "65536 distinct values and no +0.0 among them");
    spmvlab_value_cache_free(&c);
    free(v);
}

/* f32 values: the table holds floats, bit for bit. */
static void test_f32_table(void)
{
    const float val[] = {1.5f, -2.0f, 1.5f, 7.0f};
    spmvlab_matrix A = {.name = "f", .rows = 1, .cols = 4, .nnz = 4, .dtype = SPMVLAB_F32, .val = val};
    spmvlab_value_cache c = {0};
    const spmvlab_value_table *t = NULL;
    char why[256];
    TEST_CHECK(spmvlab_value_cache_get(&c, &A, 0, &t, why, sizeof why) == SPMVLAB_OK);
    TEST_CHECK(t->dtype == SPMVLAB_F32 && t->count == 4 && t->code_bytes == 1);
    const float *tv = t->values;
    for (int k = 0; k < 4; k++)
        TEST_CHECK(tv[((const uint8_t *)t->codes)[k]] == val[k]);
    spmvlab_value_cache_free(&c);
}

int main(void)
{
    test_small_table_one_byte_codes();
    test_padding_zero_is_added();
    test_code_widths_at_the_limits();
    test_refusal_above_65536_values();
    test_f32_table();
    return test_done("test_value_table");
}
