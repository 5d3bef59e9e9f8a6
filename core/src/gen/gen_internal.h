/*
 * Shared pieces of the matrix generators (gen_*.c): the random number
 * stream, sampling of sorted distinct columns, CSR allocation and the
 * parameter rows every kind carries. Not installed.
 */
#ifndef SPMVLAB_GEN_INTERNAL_H
#define SPMVLAB_GEN_INTERNAL_H

#include <stdint.h>

#include "spmvlab/gen.h"

/* xoshiro256** (Blackman and Vigna): 256 bits of state, seeded through
 * splitmix64 so that any 64-bit seed gives a good state. Integer arithmetic
 * only, hence the same stream on every machine. */
typedef struct gen_rng {
    uint64_t s[4];
} gen_rng;

/* Seeds r from (seed, stream): different streams of one seed are unrelated. */
void gen_rng_seed(gen_rng *r, uint64_t seed, uint64_t stream);

static inline uint64_t gen_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t gen_next(gen_rng *r)
{
    uint64_t *s = r->s, out = gen_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = gen_rotl(s[3], 45);
    return out;
}

/* Uniform integer in [0, n), n <= 2^32 (multiply-shift; bias below n / 2^32). */
static inline uint32_t gen_below(gen_rng *r, uint64_t n)
{
    return (uint32_t)(((gen_next(r) >> 32) * n) >> 32);
}

/* A stable 64-bit salt for a kind name, so kinds do not share streams. */
uint64_t gen_salt(const char *name);

/* Writes k distinct columns of [0, n), sorted ascending, into out (k <= n).
 * Sparse draws sort and top up; dense ones use selection sampling. */
void gen_sample_sorted(gen_rng *r, int32_t n, int32_t k, int32_t *out);

/* Block-columns a block-row of n may draw from: all n, or a window of
 * 2·spread + 1 kept inside the matrix (spread 0: all). */
int64_t gen_block_window(int64_t n, int64_t spread);
/* The bpr block-columns of block-row ib among n, sorted, into bcol: the
 * diagonal plus bpr - 1 distinct others drawn from the w nearest (w == n:
 * anywhere; else a window centred by spread, kept inside [0, n)). */
void gen_pick_block_cols(gen_rng *r, int32_t ib, int32_t n, int32_t w, int32_t spread, int32_t bpr, int32_t *bcol);

/* Sorts n int32 ascending (insertion sort for short runs, else qsort). */
void gen_sort_i32(int32_t *a, int32_t n);

/* The column count of a generator whose cols parameter 0 means square. */
static inline int32_t gen_cols(int32_t n, int32_t cols)
{
    return cols > 0 ? cols : n;
}

/* Allocates A as rows x cols with nnz entries (row_ptr, col_idx and val),
 * general / real. Refuses sizes beyond 32-bit indices with a sentence
 * naming kind. Returns 0 or -1. */
int gen_csr_alloc(spmvlab_csr *A, const char *kind, int64_t rows, int64_t cols, int64_t nnz,
                  spmvlab_err *err);

/* Builds A (rows x cols) whose row i holds len[i] distinct random columns
 * (len[i] <= cols), drawn from r. Returns 0, or -1 with a sentence. */
int gen_random_rows(spmvlab_csr *A, const char *kind, int32_t rows, int32_t cols,
                    const int32_t *len, gen_rng *r, spmvlab_err *err);

/* A row length around mean: uniform in [mean/2, mean/2 + mean], at least 1
 * (0 when mean is 0), at most cols. */
int32_t gen_jitter_len(gen_rng *r, int32_t mean, int32_t cols);

/* -1 with a sentence when a count exceeds the 32-bit index limit. */
int gen_fits(const char *kind, const char *what, double count, spmvlab_err *err);

/* The values choices: random, ones, few:K. */
enum { GEN_VALUES_RANDOM, GEN_VALUES_ONES, GEN_VALUES_FEW };
#define GEN_FEW_MAX 524288 /* the most distinct values few:K draws: K magnitudes apart in 2^-20 steps */

/* Fills the values of A: random ±[1/8, 1] in steps of 2^-20 (exact in
 * binary), all ones, or few: each entry one of `few` distinct values of the
 * random kind, drawn uniformly. */
void gen_fill_values(spmvlab_csr *A, int mode, int few, uint64_t seed);

/* The parameters every kind takes: the first member of each kind's
 * parameter struct, so the dispatcher finds them in any of them. */
typedef struct gen_common {
    int64_t seed;   /* seed of the structure and the values */
    int values;     /* GEN_VALUES_*: the choice index */
    int few;        /* K of values = few:K, else 0 */
} gen_common;

/* The rows of gen_common, ending every kind's table; T is the kind's
 * parameter struct, whose first member is `gen_common common`. */
#define GEN_MAX_SEED 9007199254740991.0 /* 2^53 - 1: exact in a double */
#define GEN_COMMON_PARAMS(T)                                                                   \
    {"seed", SPMVLAB_OPT_INT, "1", 0, GEN_MAX_SEED, NULL, "random seed (structure and values)", \
     SPMVLAB_FIELD(T, common.seed), NULL, 0, 0, NULL},                                               \
    {"values", SPMVLAB_OPT_ENUM, "random", 0, 0, "random|ones|few",                             \
     "random: uniform sign and magnitude in [1/8, 1]; ones: every value 1; few:K: K distinct random values", \
     SPMVLAB_FIELD(T, common.values), NULL, 0, 0, NULL}

/* A row of a kind's table: key, type, default, range, help, and member. */
#define GEN_PARAM(T, key, type, def, min, max, help) {#key, type, def, min, max, NULL, help, SPMVLAB_FIELD(T, key), NULL, 0, 0, NULL}

/* Checks one key = value against kind's table (no cross-parameter rules)
 * and stores it into the parameter struct p (NULL: check only). Returns the
 * table row, or -1 with a sentence. */
int gen_check_key(const spmvlab_gen_kind *kind, const char *key, const char *value, void *p,
                  spmvlab_err *err);

/* snprintf without the compiler's truncation guesses; returns -1 when the
 * text did not fit (it is then cut). */
int gen_textf(char *out, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* 1 when s is a matrix name of a set: [A-Za-z0-9_.+-]+. */
int gen_name_ok(const char *s);
int gen_ends_with(const char *s, const char *suffix);

/* Set paths (gen_set_paths.c): relative paths resolved against root (itself
 * relative to the set file's folder), and the folder entries (is_dir[i])
 * expanded into their matrix files. Return 0, or -1 naming file and line. */
int gen_set_resolve_paths(spmvlab_set *s, const char *file, const char *root, spmvlab_err *err);
int gen_set_expand_folders(spmvlab_set *s, const char *file, const unsigned char *is_dir, spmvlab_err *err);

/* Marks round(frac * n) rows, at random positions, in empty[0..n) (1:
 * empty). Returns 0, or -1 with a sentence naming kind. */
int gen_pick_empty(gen_rng *r, int32_t n, double frac, unsigned char *empty, const char *kind,
                   spmvlab_err *err);

/* The columns a row may draw from: all of them (spread 0), or 2*spread + 1
 * around the row's place on the diagonal (row * cols / rows), widened to
 * need and kept inside the matrix. */
typedef struct gen_window {
    int32_t lo, width;
} gen_window;
gen_window gen_row_window(int32_t row, int32_t rows, int32_t cols, int64_t spread, int32_t need);

/* Writes len sorted distinct columns of window w into out as `runs`
 * contiguous runs (lengths differing by at most one) at random,
 * non-overlapping places; gap holds runs ints of scratch. len <= w.width. */
void gen_place_runs(gen_rng *r, gen_window w, int32_t len, int32_t runs, int32_t *gap, int32_t *out);

/* The kinds, defined in their gen_<family>.c files. */
extern const spmvlab_gen_kind gen_kind_stencil2d5, gen_kind_stencil3d7, gen_kind_stencil3d27,
    gen_kind_banded, gen_kind_uniform, gen_kind_rmat, gen_kind_blocks, gen_kind_mixed,
    gen_kind_longrows, gen_kind_vblocks, gen_kind_powerlaw, gen_kind_clustered, gen_kind_blockmix;

#endif
