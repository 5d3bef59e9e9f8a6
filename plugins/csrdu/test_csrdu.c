/*
 * csrdu: the chunk compression decodes every column back, escaped chunks
 * included (jumps beyond 65535, columns beyond 2^24); delta_bits 8 refuses
 * columns its escape cannot hold; f32 value storage refuses values that
 * overflow f32 or would lose their precision, and declares its storage when
 * it converts; rows longer than a piece are split and combined. CPU only.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csrdu_format.h"
#include "testlib_plugin.h"

/* Every column decodes back; returns the number of mismatches. */
static int64_t round_trip_errors(const csrdu_index *ix, const int32_t *col, int64_t nnz)
{
    int64_t bad = 0;
    for (int64_t k = 0; k < nnz; k++)
        bad += csrdu_index_col(ix, k) != col[k];
    return bad;
}

/* Chunk 0 spans 31 columns (kept as offsets), chunk 1 jumps by 70,000
 * (escaped, 8 high bits), chunk 2 reaches 2^24 + 5 (16 high bits). */
static void test_escape_encoding_round_trip(void)
{
    int32_t col[80];
    for (int k = 0; k < 32; k++)
        col[k] = 1000 + k;
    for (int k = 32; k < 64; k++)
        col[k] = k % 2 ? 70000 + k : k;
    for (int k = 64; k < 80; k++)
        col[k] = k == 79 ? (1 << 24) + 5 : 3 * k;
    csrdu_index ix;
    int32_t bad_col = 0;
    TEST_CHECK(csrdu_index_build(&ix, col, 80, 16, &bad_col) == 0);
    TEST_CHECK(ix.nchunks == 3);
    TEST_CHECK(ix.base[0] == 1000);
    TEST_CHECK(ix.base[1] == ~0 && ix.base[2] == ~1);
    TEST_CHECK(ix.nesc == 2);
    TEST_CHECK(ix.hi_bytes == 2);
    TEST_CHECK(round_trip_errors(&ix, col, 80) == 0);
    TEST_CHECK(csrdu_index_bytes(&ix) == 3 * 4 + 80 * 2 + 2 * 32 * 2);
    csrdu_index_free(&ix);

    /* Without chunk 2, 8 high bits hold every escaped column. */
    TEST_CHECK(csrdu_index_build(&ix, col, 64, 16, &bad_col) == 0);
    TEST_CHECK(ix.nesc == 1 && ix.hi_bytes == 1);
    TEST_CHECK(round_trip_errors(&ix, col, 64) == 0);
    csrdu_index_free(&ix);

    /* delta_bits 8: chunk 0 spans 31 (kept); column 2^24 + 5 needs 17 high bits. */
    TEST_CHECK(csrdu_index_build(&ix, col, 64, 8, &bad_col) == 0);
    TEST_CHECK(ix.base[0] == 1000 && ix.nesc == 1 && ix.hi_bytes == 2);
    TEST_CHECK(round_trip_errors(&ix, col, 64) == 0);
    csrdu_index_free(&ix);
    TEST_CHECK(csrdu_index_build(&ix, col, 80, 8, &bad_col) == -2);
    TEST_CHECK(bad_col == (1 << 24) + 5);
    csrdu_index_free(&ix);
}

/* Random walks of columns with short steps and, now and then, jumps of
 * 65,536 and more, backwards too (a new row), over the whole int32 range. */
static void test_decode_random_columns_with_long_jumps(void)
{
    const int64_t nnz = 100003; /* the last chunk is partial */
    int32_t *col = malloc(nnz * sizeof *col);
    uint64_t s = 12345;
    int64_t c = 0;
    for (int64_t k = 0; k < nnz; k++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(s >> 33);
        if (r % 97 == 0)
            c = (int64_t)(r % 2147483647u); /* a jump anywhere */
        else if (r % 13 == 0)
            c += 65536 + r % 5000; /* just beyond 16 bits */
        else
            c += 1 + r % 40;
        if (c > INT32_MAX)
            c %= 1000;
        col[k] = (int32_t)c;
    }
    for (int d = 8; d <= 16; d += 8) {
        csrdu_index ix;
        int32_t bad_col = 0;
        int rc = csrdu_index_build(&ix, col, nnz, d, &bad_col);
        if (d == 16) {
            TEST_CHECK(rc == 0);
            TEST_CHECK(ix.nesc > 0 && ix.nesc < ix.nchunks);
            TEST_CHECK(round_trip_errors(&ix, col, nnz) == 0);
        } else {
            TEST_CHECK(rc == -2); /* columns beyond 2^24 */
            TEST_CHECK(bad_col >= (1 << 24));
        }
        csrdu_index_free(&ix);
    }
    /* Columns below 2^24: delta_bits 8 holds them with 16 high bits. */
    for (int64_t k = 0; k < nnz; k++)
        col[k] &= (1 << 24) - 1;
    csrdu_index ix;
    int32_t bad_col = 0;
    TEST_CHECK(csrdu_index_build(&ix, col, nnz, 8, &bad_col) == 0);
    TEST_CHECK(ix.hi_bytes == 2);
    TEST_CHECK(round_trip_errors(&ix, col, nnz) == 0);
    csrdu_index_free(&ix);
    free(col);
}

/* One value of a 4 x 4 matrix set to v; converted with values = f32. */
static spmvlab_status convert_f32_with(double v, spmvlab_err *err, test_instance **t, spmvlab_csr *A)
{
    const int32_t lengths[] = {2, 3, 1, 4};
    TEST_CHECK(test_gen_rows(A, 4, 4, lengths, 9) == 0);
    A->val[4] = v; /* row 1 */
    const char *sets[] = {"values=f32", NULL};
    return test_convert("csrdu", A, SPMVLAB_F64, sets, t, err);
}

static void test_f32_storage_refusals(void)
{
    const double unsafe[] = {1e39, -1e300, 1e-39, -1e-320};
    const char *why[] = {"overflows f32", "overflows f32", "smallest normal f32", "smallest normal f32"};
    for (int i = 0; i < 4; i++) {
        spmvlab_csr A;
        test_instance *t;
        spmvlab_err err = {{0}};
        TEST_CHECK(convert_f32_with(unsafe[i], &err, &t, &A) == SPMVLAB_LIMIT);
        TEST_CONTAINS(err.msg, why[i]);
        TEST_CONTAINS(err.msg, "at row 1");
        TEST_CONTAINS(err.msg, "use values = native");
        TEST_CHECK(t->in.live_allocs == 0);
        test_instance_free(t);
        spmvlab_csr_free(&A);
    }
    TEST_CHECK(csrdu_f32_unsafe((const double[]){0.0, FLT_MIN, -FLT_MAX, INFINITY}, 4) == -1);
    TEST_CHECK(csrdu_f32_unsafe((const double[]){1.0, FLT_MIN / 2}, 2) == 1);

    /* A safe matrix converts, declares f32 storage and meets the stored bound. */
    spmvlab_csr A;
    test_instance *t;
    spmvlab_err err = {{0}};
    TEST_CHECK(convert_f32_with(0.1, &err, &t, &A) == SPMVLAB_OK);
    TEST_CHECK(t->in.storage == SPMVLAB_F32);
    TEST_CHECK(test_verify_host(t, 3) <= 1.0);
    TEST_CONTAINS(test_describe(t), "values=f32");
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* Rows of 0, 5, 3000, 10000, 1 and 129 entries, piece 512: two split rows
 * (6 and 20 pieces) and the row of 129 one piece of its own when it is
 * long for the kernel (tiles of 128; vector with long = 64), a row of a
 * row group or a tile when it is not (auto: vector with 32 lanes, batch 4,
 * long 256; stream: long 256).
 * Every row right, the footprint the core's count. */
static void test_long_rows_split_and_combined(void)
{
    const int32_t lengths[] = {0, 5, 3000, 10000, 1, 129};
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 6, 20000, lengths, 4) == 0);
    const char *tiles[] = {"kernel=tiles", "tile=128", "piece=512", NULL};
    const char *vec64[] = {"kernel=vector", "long=64", "piece=512", NULL};
    const char *vec[] = {"kernel=vector", "piece=512", NULL}; /* auto's shape: the cover length is 256 */
    const char *stream[] = {"kernel=stream", "piece=512", NULL};
    const char **sets[] = {tiles, vec64, vec, stream};
    const char *want[] = {"tiles=2 pieces=27 split_rows=2", "lanes=32 batch=4 long=64 steps=4 pieces=27 split_rows=2",
                          "kernel=vector", "tile=256 tile_rows=8 cover=256 long=256 tiles=2 pieces=26 split_rows=2"};
    const spmvlab_dtype dtypes[] = {SPMVLAB_F64, SPMVLAB_F32};
    for (int v = 0; v < 4; v++)
        for (int d = 0; d < 2; d++) {
            test_instance *t;
            spmvlab_err err = {{0}};
            TEST_CHECK(test_convert("csrdu", &A, dtypes[d], sets[v], &t, &err) == SPMVLAB_OK);
            TEST_CHECK(test_verify_host(t, 21) <= 1.0);
            TEST_CONTAINS(test_describe(t), want[v]);
            TEST_CHECK(spmvlab_instance_footprint(&t->in) == t->in.cur_bytes);
            test_instance_free(t);
        }
    spmvlab_csr_free(&A);
}

/* kernel = auto: rows of 128 take the vector kernel from 2^17 non-zeros
 * (1024 rows) and the stream kernel below (1023 rows). */
static void test_auto_kernel_by_size(void)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen_uniform(&A, 1023, 4096, 128, 6) == 0);
    test_convert_says("csrdu", &A, NULL, 7, "kernel=stream");
    spmvlab_csr_free(&A);
    TEST_CHECK(test_gen_uniform(&A, 1024, 4096, 128, 6) == 0);
    test_convert_says("csrdu", &A, NULL, 7, "kernel=vector");
    spmvlab_csr_free(&A);
}

/* The default piece is 512 entries (fitted on the corpus's tune part,
 * README.md): with no options (the stream kernel here, long 256) the rows
 * of 3000 and 10000 are split into 6 and 20 pieces (with 4096: 1 and 3). */
static void test_default_piece(void)
{
    const int32_t lengths[] = {0, 5, 3000, 10000, 1, 129};
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 6, 20000, lengths, 4) == 0);
    test_instance *t;
    spmvlab_err err = {{0}};
    TEST_CHECK(test_convert("csrdu", &A, SPMVLAB_F64, NULL, &t, &err) == SPMVLAB_OK);
    TEST_CONTAINS(test_describe(t), "pieces=26 split_rows=2");
    TEST_CHECK(test_verify_host(t, 21) <= 1.0);
    test_instance_free(t);
    spmvlab_csr_free(&A);
}

/* The vector kernel's auto shape follows the 90th-percentile row: rows of
 * 5 take 8 lanes; rows of 60 take 32 lanes and a batch of 2; explicit
 * lanes below 32 with a batch above 1 are refused, as are lanes = 1.
 * kernel = auto streams rows that short. */
static void test_vector_shape(void)
{
    int32_t lengths[40];
    for (int i = 0; i < 40; i++)
        lengths[i] = i < 37 ? 5 : 300; /* 3 long rows: beyond the 90th percentile */
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 40, 4000, lengths, 5) == 0);
    test_instance *t;
    spmvlab_err err = {{0}};
    TEST_CHECK(test_convert("csrdu", &A, SPMVLAB_F64, (const char *[]){"kernel=vector", NULL}, &t, &err) == SPMVLAB_OK);
    TEST_CONTAINS(test_describe(t), "kernel=vector");
    TEST_CONTAINS(test_describe(t), "lanes=8 batch=1 long=32 steps=4 pieces=3 split_rows=0");
    TEST_CHECK(test_verify_host(t, 7) <= 1.0);
    test_instance_free(t);
    /* auto: rows this short stream; the 3 rows of 300 are pieces (longer
     * than the tile's 256 entries); a matrix this small has tiles of at
     * most 8 rows. */
    TEST_CHECK(test_convert("csrdu", &A, SPMVLAB_F64, (const char *[]){NULL}, &t, &err) == SPMVLAB_OK);
    TEST_CONTAINS(test_describe(t), "kernel=stream");
    TEST_CONTAINS(test_describe(t), "tile=256 tile_rows=8 cover=5 long=256 tiles=5 pieces=3 split_rows=0");
    TEST_CHECK(test_verify_host(t, 7) <= 1.0);
    test_instance_free(t);
    spmvlab_csr_free(&A);

    for (int i = 0; i < 40; i++)
        lengths[i] = 60;
    TEST_CHECK(test_gen_rows(&A, 40, 4000, lengths, 6) == 0);
    TEST_CHECK(test_convert("csrdu", &A, SPMVLAB_F64, (const char *[]){"kernel=vector", NULL}, &t, &err) == SPMVLAB_OK);
    TEST_CONTAINS(test_describe(t), "lanes=32 batch=2 long=128");
    TEST_CONTAINS(test_describe(t), "cover=60");
    TEST_CHECK(test_verify_host(t, 8) <= 1.0);
    test_instance_free(t);
    /* Two batches a row and more: 4 lanes over rows of 60. */
    TEST_CHECK(test_convert("csrdu", &A, SPMVLAB_F32, (const char *[]){"kernel=vector", "lanes=4", "long=64", NULL}, &t,
                            &err) == SPMVLAB_OK);
    TEST_CONTAINS(test_describe(t), "lanes=4 batch=1 long=64 steps=4 pieces=0");
    TEST_CHECK(test_verify_host(t, 9) <= 1.0);
    test_instance_free(t);
    test_refuses_saying("csrdu", &A, SPMVLAB_F64, (const char *[]){"lanes=8", "batch=2", NULL}, SPMVLAB_INVALID_OPTION,
                        "needs lanes = 32");
    test_refuses_saying("csrdu", &A, SPMVLAB_F64, (const char *[]){"lanes=1", NULL}, SPMVLAB_INVALID_OPTION,
                        "kernel = tiles");
    spmvlab_csr_free(&A);
}

/* Converts A with the stream kernel, `shape` and `extra` options; checks
 * the description names `want` and that spmv_host meets the bound. */
static void check_stream(const spmvlab_csr *A, const char *shape, const char *extra, const char *want, uint64_t seed)
{
    const char *sets[] = {"kernel=stream", shape, extra, NULL};
    test_instance *t;
    spmvlab_err err = {{0}};
    const spmvlab_dtype dtypes[] = {SPMVLAB_F64, SPMVLAB_F32};
    for (int d = 0; d < 2; d++) {
        TEST_CHECK(test_convert("csrdu", A, dtypes[d], sets, &t, &err) == SPMVLAB_OK);
        TEST_CONTAINS(test_describe(t), want);
        TEST_CHECK(test_verify_host(t, seed) <= 1.0);
        TEST_CHECK(spmvlab_instance_footprint(&t->in) == t->in.cur_bytes);
        test_instance_free(t);
    }
}

/* The stream kernel's long-row limit, auto: 256, at most the tile's
 * entries. Uneven short rows (36 rows of 4, 4 of 100) keep their rows of
 * 100 in the tile, and `long = 32` makes them warp pieces; rows of 60
 * stay in their tiles, `long = 32` makes all 40 pieces; a row of 300
 * beside rows of 10 and 190 is a piece; an explicit long is bounded by a
 * tile's 1024 entries. Tiles of 256 rows throughout (the shape these
 * matrices would get is test_stream_shape's). */
static void test_stream_long_rule(void)
{
    int32_t lengths[40];
    spmvlab_csr A;
    for (int i = 0; i < 40; i++)
        lengths[i] = i % 10 == 3 ? 100 : 4;
    TEST_CHECK(test_gen_rows(&A, 40, 4000, lengths, 11) == 0);
    check_stream(&A, "tile_rows=256", NULL, "long=256 tiles=1 pieces=0 split_rows=0", 31);
    check_stream(&A, "tile_rows=256", "long=32", "long=32 tiles=5 pieces=4 split_rows=0", 32);
    spmvlab_csr_free(&A);

    for (int i = 0; i < 40; i++)
        lengths[i] = 60;
    TEST_CHECK(test_gen_rows(&A, 40, 4000, lengths, 12) == 0);
    check_stream(&A, "tile_rows=256", NULL, "long=256 tiles=3 pieces=0", 34);
    check_stream(&A, "tile_rows=256", "long=32", "long=32 tiles=0 pieces=40", 35);
    spmvlab_csr_free(&A);

    for (int i = 0; i < 40; i++)
        lengths[i] = i == 7 ? 300 : i % 2 ? 190 : 10;
    TEST_CHECK(test_gen_rows(&A, 40, 4000, lengths, 13) == 0);
    check_stream(&A, "tile_rows=256", NULL, "long=256 tiles=5 pieces=1 split_rows=0", 36);
    check_stream(&A, "tile_rows=256", "long=5000", "long=1024 tiles=5 pieces=0", 37);
    spmvlab_csr_free(&A);
}

/* The stream kernel's tile shape, auto: 256 rows and 1024 entries while
 * the matrix gives two tiles a multiprocessor (132 without a device);
 * 140,000 rows of 4 do (547 tiles), 5,000 rows of 4 do not: their rows a
 * tile halve to 16 (entries 256, 313 tiles), where tile_rows = 256 keeps
 * 20 tiles of 1024 entries; tile_rows must be a power of two. */
static void test_stream_shape(void)
{
    int32_t *lengths = malloc(140000 * sizeof *lengths);
    for (int i = 0; i < 140000; i++)
        lengths[i] = 4;
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, 140000, 140000, lengths, 14) == 0);
    check_stream(&A, NULL, NULL, "tile=1024 tile_rows=256 cover=4 long=256 tiles=547 pieces=0", 41);
    spmvlab_csr_free(&A);
    TEST_CHECK(test_gen_rows(&A, 5000, 5000, lengths, 15) == 0);
    check_stream(&A, NULL, NULL, "tile=256 tile_rows=16 cover=4 long=256 tiles=313 pieces=0", 42);
    check_stream(&A, "tile_rows=256", NULL, "tile=1024 tile_rows=256 cover=4 long=256 tiles=20 pieces=0", 43);
    check_stream(&A, "tile_rows=8", "long=1024", "tile=256 tile_rows=8 cover=4 long=256 tiles=625 pieces=0", 44);
    test_refuses_saying("csrdu", &A, SPMVLAB_F64, (const char *[]){"tile_rows=24", NULL}, SPMVLAB_INVALID_OPTION,
                        "power of two");
    spmvlab_csr_free(&A);
    free(lengths);
}

int main(void)
{
    test_escape_encoding_round_trip();
    test_decode_random_columns_with_long_jumps();
    test_f32_storage_refusals();
    test_long_rows_split_and_combined();
    test_default_piece();
    test_auto_kernel_by_size();
    test_vector_shape();
    test_stream_long_rule();
    test_stream_shape();
    return test_done("csrdu layout");
}
