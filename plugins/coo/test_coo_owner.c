/*
 * coo, zero = owner (coo_owner.h): a model of the chunk plan checks that
 * every y row is written exactly once (by the chunk of its first entry, or
 * as 0 by the chunk whose row range holds it) and that every carry belongs
 * to a row owned by an earlier chunk; then the plugin's spmv_host with the
 * owner write (and the memset one) meets the bound on the same edge cases:
 * empty rows at the start, the end and in long runs, a row over 3+ chunks,
 * a single entry, no entry at all. CPU only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coo_blocked.h"
#include "coo_owner.h"
#include "coo_segmented.h"
#include "testlib_plugin.h"

/* The writes of the owner plan p over entries row-sorted rows, as the
 * kernels make them: per chunk the gap before its first entry (from
 * row[begin-1], or from row -1 for chunk 0), the gaps between consecutive
 * entries, a store per run except a first run continued from the previous
 * chunk (a carry), and after the last entry the rows up to rows-1. Counts a
 * failure unless each row is written once; returns the carries. */
static int32_t check_written_once(coo_seg_plan p, int32_t entries, const int32_t *row,
                                  int32_t rows)
{
    int32_t *writes = calloc((size_t)rows + 1, sizeof *writes);
    int32_t *owner = malloc(((size_t)rows + 1) * sizeof *owner);
    for (int32_t i = 0; i < rows; i++)
        owner[i] = -1;
    int32_t carries = 0, carry_rows = 0, orphans = 0;
    for (int32_t w = 0; w < p.warps; w++) {
        long long begin = coo_seg_begin(p, entries, w);
        long long end = coo_seg_begin(p, entries, w + 1);
        if (begin >= end)
            continue;
        int32_t prev = begin > 0 ? row[begin - 1] : -1;
        for (long long k = begin; k < end; k++) {
            int32_t before = k == begin ? prev : row[k - 1];
            for (int32_t g = before + 1; g < row[k]; g++)
                writes[g]++;
            if (k > begin && row[k] == row[k - 1])
                continue;
            if (k == begin && prev == row[k]) { /* the first run continues: a carry */
                carries++;
                orphans += owner[row[k]] < 0 || owner[row[k]] >= w;
            } else {
                writes[row[k]]++;
                owner[row[k]] = w;
            }
        }
        if (end == entries)
            for (int32_t g = row[entries - 1] + 1; g < rows; g++)
                writes[g]++;
    }
    for (int32_t w = 0; w < p.warps; w++)
        carry_rows += coo_own_carry_row(p, entries, row, w) >= 0;
    int32_t bad = 0;
    for (int32_t i = 0; i < rows; i++)
        bad += writes[i] != 1;
    if (bad || orphans)
        fprintf(stderr, "chunk of %d: %d rows not written once, %d carries without an owner\n",
                p.interval, bad, orphans);
    TEST_CHECK(bad == 0);
    TEST_CHECK(orphans == 0);
    TEST_CHECK(carries == carry_rows); /* the slots coo_own_prepare makes */
    free(writes);
    free(owner);
    return carries;
}

/* The segmented plan p with its edges moved to row starts (coo_seg_snap):
 * edges non-decreasing, each a row start, none more than a row past its
 * even place, every row written once and no carry; or no snap at all when
 * a row is longer than COO_SNAP_MAX_ROW or than a chunk. */
static void check_snapped(coo_seg_plan p, const spmvlab_csr *A, const int32_t *row)
{
    int32_t longest = 0;
    for (int32_t i = 0; i < A->rows; i++)
        if (A->row_ptr[i + 1] - A->row_ptr[i] > longest)
            longest = A->row_ptr[i + 1] - A->row_ptr[i];
    int32_t *starts = coo_seg_snap(p, row, A->nnz);
    TEST_CHECK((starts != NULL) == coo_seg_can_snap(p, longest));
    if (!starts)
        return;
    size_t n = coo_seg_starts_len(p.warps);
    TEST_CHECK(starts[0] == 0 && starts[n - 1] == A->nnz);
    for (size_t w = 1; w < n; w++) {
        long long even = (long long)w * p.interval < A->nnz ? (long long)w * p.interval : A->nnz;
        TEST_CHECK(starts[w] >= starts[w - 1] && starts[w] >= even &&
                   starts[w] < even + longest + (even == A->nnz));
        TEST_CHECK(starts[w] == 0 || starts[w] == A->nnz || row[starts[w]] != row[starts[w] - 1]);
    }
    p.starts = starts;
    TEST_CHECK(check_written_once(p, A->nnz, row, A->rows) == 0);
    free(starts);
}

/* The model over chunks of 1, 2 and 5 tiles of both kernels; returns the
 * most carries a plan had (0 without entries: no plan). */
static int32_t check_plans(const spmvlab_csr *A)
{
    if (A->nnz == 0) /* no kernel runs: coo_launch zeroes y (the plugin check below) */
        return 0;
    int32_t *row = malloc(((size_t)A->nnz + 1) * sizeof *row);
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            row[k] = i;
    const int32_t tiles[] = {1, 2, 5}, granule[] = {COO_SEG_WARP, COO_BLK_TILE};
    int32_t most = 0;
    for (int t = 0; t < 3; t++)
        for (int g = 0; g < 2; g++) {
            coo_seg_plan p = {tiles[t] * granule[g], 0, 0, NULL, NULL};
            p.warps = (A->nnz + p.interval - 1) / p.interval;
            int32_t c = check_written_once(p, A->nnz, row, A->rows);
            most = c > most ? c : most;
            if (g == 0)
                check_snapped(p, A, row);
        }
    free(row);
    return most;
}

/* spmv_host of both kernels with zero = owner and zero = memset meets the
 * bound; describe says which write ran (owner needs an entry). */
static void check_plugin(const spmvlab_csr *A, int snaps)
{
    const char *kernels[] = {"kernel=blocked", "kernel=segmented"};
    for (int k = 0; k < 2; k++) {
        const char *owner[] = {kernels[k], "zero=owner", "edges=even", NULL};
        const char *memset_sets[] = {kernels[k], "zero=memset", NULL};
        test_convert_says("coo", A, owner, 3, A->nnz > 0 ? "zero=owner" : "zero=memset");
        test_convert_says("coo", A, memset_sets, 3, "zero=memset carries=0");
    }
    /* edges at row starts: the owner write without carries, by default */
    const char *rows[] = {"kernel=segmented", NULL};
    test_convert_says("coo", A, rows, 3,
                      snaps ? "zero=owner carries=0 loads=cached edges=rows" : "edges=even");
}

static void check_case(const char *name, int32_t rows, const int32_t *len, int32_t want_carries)
{
    spmvlab_csr A;
    TEST_CHECK(test_gen_rows(&A, rows, 1000, len, 7) == 0);
    int32_t most = check_plans(&A), longest = 0;
    if (want_carries && most == 0)
        fprintf(stderr, "%s: no plan had a carry\n", name);
    TEST_CHECK(!want_carries || most > 0);
    for (int32_t i = 0; i < rows; i++)
        longest = len[i] > longest ? len[i] : longest;
    /* the cases' rows are at most 4 entries long, or longer than any chunk */
    check_plugin(&A, A.nnz > 0 && longest <= COO_SEG_WARP);
    spmvlab_csr_free(&A);
}

int main(void)
{
    enum { rows = 4000 };
    int32_t *len = calloc(rows, sizeof *len);

    /* empty rows at the start (100), in a run of 2000, and at the end (500),
     * short rows and gaps around them */
    for (int32_t i = 100; i < rows - 500; i++)
        len[i] = i >= 1000 && i < 3000 ? 0 : (int32_t)(i % 5 == 0 ? 0 : 1 + i % 4);
    check_case("gaps", rows, len, 1);

    /* one row of 1500 entries over 3+ chunks of every plan, between short rows */
    memset(len, 0, rows * sizeof *len);
    for (int32_t i = 0; i < 50; i++)
        len[i] = 3;
    len[50] = 1500;
    len[51] = 1;
    check_case("long row", 60, len, 1);

    /* a single entry, in the middle of empty rows */
    memset(len, 0, rows * sizeof *len);
    len[17] = 1;
    check_case("single entry", 40, len, 0);

    /* no entry at all: the memset write (the kernel never runs) */
    memset(len, 0, rows * sizeof *len);
    check_case("all empty", 30, len, 0);

    free(len);
    return test_done("coo owner_rows");
}
