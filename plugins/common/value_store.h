/* The lossless value storage of the in-tree plugins (C and CUDA host side):
 * a plugin's `values` option resolved against the core's value table
 * (plugin.h, ctx->value_table) into native values, 1- or 2-byte codes into
 * the table (4-bit codes, two a byte, where a format packs them), or one
 * value for all entries (pattern); the table's device
 * copy; the host decode for spmv_host. value_store.cuh decodes on the
 * device. The decoded value is the stored one bit for bit, so every sum is
 * the native storage's sum in the same order. */
#ifndef SPMVLAB_PLUGINS_COMMON_VALUE_STORE_H
#define SPMVLAB_PLUGINS_COMMON_VALUE_STORE_H

#include <spmvlab/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The choices of a `values` option this storage adds; a plugin's own
 * native (0) and f32 (1) keep their values. */
enum { SPMVLAB_VALUES_NATIVE = 0, SPMVLAB_VALUES_INDEXED = 2, SPMVLAB_VALUES_PATTERN = 3, SPMVLAB_VALUES_AUTO = 4 };
/* What auto means for a kernel whose coded path runs slower than native
 * values (a format passes it to spmvlab_value_store_choose for its auto
 * choice; no option row offers it): pattern, else native. */
enum { SPMVLAB_VALUES_AUTO_NO_CODES = 5 };

/* The help texts of the three choice rows, one per choice. */
#define SPMVLAB_VALUES_INDEXED_HELP "a table of the distinct values and 1-byte (<= 256) or 2-byte (<= 65,536) codes"
#define SPMVLAB_VALUES_PATTERN_HELP "all values equal: the value kept once"
#define SPMVLAB_VALUES_AUTO_HELP "pattern, else indexed (tables of at most 4,096 values), else native"
#define SPMVLAB_VALUES_AUTO_NO_CODES_HELP "pattern, else native (this kernel runs codes slower than native values)"

/* auto's largest table for 2-byte codes: 4,096 values (32 KiB in f64) stay
 * in L1 beside x; a larger table is read from L2 a sector per entry, more
 * traffic than the 6 bytes a code saves, so auto keeps native values there
 * (values = indexed still takes up to 65,536). */
#define SPMVLAB_VALUES_AUTO_TABLE_MAX 4096

/* How the values are stored. */
typedef enum spmvlab_value_kind {
    SPMVLAB_STORE_NATIVE = 0,  /* the run's dtype, one per entry */
    SPMVLAB_STORE_CODES8 = 1,  /* uint8_t codes into the table */
    SPMVLAB_STORE_CODES16 = 2, /* uint16_t codes into the table */
    SPMVLAB_STORE_PATTERN = 3, /* nothing per entry: one value */
    SPMVLAB_STORE_CODES4 = 4   /* 4-bit codes, two a byte (entry p: byte p / 2, low half when p is even) */
} spmvlab_value_kind;

/* Entries a table may hold for 4-bit codes. */
#define SPMVLAB_CODES4_MAX 16

/* A format's value storage: what a layout copies per entry and the table. */
typedef struct spmvlab_value_store {
    int kind;                          /* spmvlab_value_kind */
    size_t elem;                       /* bytes per entry of src: the dtype's size, 1, 2 or 0 (CODES4: 1, packed by the format) */
    const void *src;                   /* entry k of A is elem bytes at src + k * elem (A's values or codes) */
    const spmvlab_value_table *table;  /* the core's table (codes only; host, shared) */
    int32_t count;                     /* values in the device table (codes only) */
    size_t table_bytes;                /* count * the dtype's size */
    unsigned char pattern[8];          /* the one value's bytes (pattern) */
    void *d_table;                     /* device copy of the table's values (codes only) */
} spmvlab_value_store;

/* Native storage of A: elem the dtype's size, src A's values. */
static inline void spmvlab_value_store_native(spmvlab_value_store *s, const spmvlab_matrix *A)
{
    memset(s, 0, sizeof *s);
    s->kind = SPMVLAB_STORE_NATIVE;
    s->elem = spmvlab_dtype_size(A->dtype);
    s->src = A->val;
}

/* The storage's name for describe(): native, indexed8, indexed16, pattern,
 * indexed4. */
static inline const char *spmvlab_value_store_name(const spmvlab_value_store *s)
{
    static const char *const names[] = {"native", "indexed8", "indexed16", "pattern", "indexed4"};
    return names[s->kind];
}

/* 1 when s holds codes into the table (of any width). */
static inline int spmvlab_value_store_coded(const spmvlab_value_store *s)
{
    return s->kind == SPMVLAB_STORE_CODES8 || s->kind == SPMVLAB_STORE_CODES16 || s->kind == SPMVLAB_STORE_CODES4;
}

/* Bytes of n stored entries of s (4-bit codes: two a byte, rounded up). */
static inline size_t spmvlab_value_store_bytes(const spmvlab_value_store *s, size_t n)
{
    return s->kind == SPMVLAB_STORE_CODES4 ? (n + 1) / 2 : n * s->elem;
}

/* The choices of a code_bits option (the width of a code), for a format
 * whose layout takes 4-bit codes. */
enum { SPMVLAB_CODE_BITS_AUTO = 0, SPMVLAB_CODE_BITS_4 = 4, SPMVLAB_CODE_BITS_8 = 8 };

/* The option-table rows of a code_bits option in the typed options S
 * (member code_bits), auto_help saying what the format's auto takes. */
#define SPMVLAB_CODE_BITS_OPTION(S, auto_help)                                                              \
    SPMVLAB_OPTION(S, code_bits, SPMVLAB_OPT_ENUM, "auto", "", "codes: the width of a code"),                \
        SPMVLAB_CHOICE(S, code_bits, SPMVLAB_CODE_BITS_AUTO, "auto", "", auto_help),                         \
        SPMVLAB_CHOICE(S, code_bits, SPMVLAB_CODE_BITS_4, "4", "",                                           \
                       "4 bits, two codes a byte (tables of at most 16 values; more refused)"),              \
        SPMVLAB_CHOICE(S, code_bits, SPMVLAB_CODE_BITS_8, "8", "", "whole bytes: 1 (tables of at most 256 values) or 2")

/* Applies a code_bits option to s (codes only; native values and a pattern
 * stay): 4, or auto where the format's rule says auto_takes4, turns 1-byte
 * codes into a table of at most SPMVLAB_CODES4_MAX values into 4-bit codes
 * (elem stays 1: the format copies the core's codes into its layout, then
 * packs them with spmvlab_value_store_pack4); 4 refuses (LIMIT, with the
 * count) a larger table. Returns OK or LIMIT with the sentence in err. */
static inline spmvlab_status spmvlab_value_store_code_bits(spmvlab_ctx *ctx, spmvlab_value_store *s, int code_bits,
                                                           int auto_takes4, spmvlab_err *err)
{
    if (s->kind != SPMVLAB_STORE_CODES8 && s->kind != SPMVLAB_STORE_CODES16)
        return SPMVLAB_OK;
    if (code_bits == SPMVLAB_CODE_BITS_4 && s->count > SPMVLAB_CODES4_MAX)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "code_bits = 4 codes a table of at most %d values, and this matrix's holds %d (+0.0 included)",
                         SPMVLAB_CODES4_MAX, (int)s->count);
    if (s->count <= SPMVLAB_CODES4_MAX &&
        (code_bits == SPMVLAB_CODE_BITS_4 || (code_bits == SPMVLAB_CODE_BITS_AUTO && auto_takes4)))
        s->kind = SPMVLAB_STORE_CODES4;
    return SPMVLAB_OK;
}

/* Packs n 1-byte codes (each below 16) in place, two a byte: entry p goes to
 * byte p / 2, the low half when p is even; the (n + 1) / 2 bytes that hold
 * them are returned in place, the rest of the array zeroed. */
static inline void spmvlab_value_store_pack4(uint8_t *codes, size_t n)
{
    for (size_t i = 0; 2 * i < n; i++) { /* byte i is written after entries 2i and 2i + 1 (>= i) are read */
        const uint8_t lo = codes[2 * i], hi = 2 * i + 1 < n ? codes[2 * i + 1] : 0;
        codes[i] = (uint8_t)(lo | hi << 4);
    }
    memset(codes + (n + 1) / 2, 0, n - (n + 1) / 2);
}

/* Resolves mode (a SPMVLAB_VALUES_* choice) for A into *s. may_pattern: the
 * layout multiplies no stored padding, so one value can stand for every
 * entry (pads: the number of padding entries it stores, for the refusal).
 * indexed refuses (LIMIT, with the count) more than 65,536 values; pattern
 * refuses distinct values or padding; auto takes pattern, then codes
 * narrower than the dtype whose bytes and table beat native (2-byte codes
 * only up to SPMVLAB_VALUES_AUTO_TABLE_MAX values), else native;
 * SPMVLAB_VALUES_AUTO_NO_CODES takes pattern, else native.
 * Returns OK, LIMIT or NOMEM with the sentence in err. */
static inline spmvlab_status spmvlab_value_store_choose(spmvlab_ctx *ctx, const spmvlab_matrix *A, int mode,
                                                        int may_pattern, int64_t pads, spmvlab_value_store *s,
                                                        spmvlab_err *err)
{
    spmvlab_value_store_native(s, A);
    int no_codes = mode == SPMVLAB_VALUES_AUTO_NO_CODES;
    if (no_codes)
        mode = SPMVLAB_VALUES_AUTO;
    if (mode != SPMVLAB_VALUES_INDEXED && mode != SPMVLAB_VALUES_PATTERN && mode != SPMVLAB_VALUES_AUTO)
        return SPMVLAB_OK;
    if (ctx->struct_size < offsetof(spmvlab_ctx, value_table) + sizeof ctx->value_table)
        return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "this spmvlab offers no value table (ABI before 1.4)");
    const spmvlab_value_table *t = NULL;
    spmvlab_err why = {{0}};
    spmvlab_status st = ctx->value_table(ctx, mode == SPMVLAB_VALUES_INDEXED, &t, &why);
    if (st == SPMVLAB_LIMIT && mode == SPMVLAB_VALUES_AUTO)
        return SPMVLAB_OK; /* too many values: native, with nothing paid per SpMV */
    if (st != SPMVLAB_OK && (st != SPMVLAB_LIMIT || mode == SPMVLAB_VALUES_INDEXED)) {
        *err = why;
        return st;
    }
    size_t vs = spmvlab_dtype_size(A->dtype);
    if (mode == SPMVLAB_VALUES_PATTERN && t->distinct > 1)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT, "values = pattern needs all values equal, and the matrix has %s%lld distinct values",
                         t->code_bytes ? "" : "at least ", (long long)t->distinct);
    if (mode == SPMVLAB_VALUES_PATTERN && !may_pattern)
        return ctx->fail(ctx, err, SPMVLAB_LIMIT,
                         "values = pattern keeps no value per entry, and this layout stores %lld padding entries",
                         (long long)pads);
    if (t->distinct <= 1 && may_pattern) {
        s->kind = SPMVLAB_STORE_PATTERN;
        s->elem = 0;
        s->src = NULL;
        memcpy(s->pattern, (const char *)t->values + (size_t)(t->count - 1) * vs, vs);
        return SPMVLAB_OK;
    }
    size_t cb = (size_t)t->code_bytes;
    if (no_codes)
        return SPMVLAB_OK; /* auto of a kernel whose codes cost more than they save: native */
    if (mode == SPMVLAB_VALUES_AUTO && (cb >= vs || (double)A->nnz * (double)(vs - cb) <= (double)t->count * vs ||
                                        t->count > SPMVLAB_VALUES_AUTO_TABLE_MAX))
        return SPMVLAB_OK; /* codes save nothing here, or their table leaves L1: native */
    s->kind = cb == 1 ? SPMVLAB_STORE_CODES8 : SPMVLAB_STORE_CODES16;
    s->elem = cb;
    s->src = t->codes;
    s->table = t;
    s->count = t->count;
    s->table_bytes = (size_t)t->count * vs;
    return SPMVLAB_OK;
}

/* Uploads the table's values (codes only) into tracked device memory,
 * adding its bytes to *held. Returns the core's status. */
static inline spmvlab_status spmvlab_value_store_upload(spmvlab_ctx *ctx, spmvlab_value_store *s, size_t *held,
                                                        spmvlab_err *err)
{
    if (!spmvlab_value_store_coded(s))
        return SPMVLAB_OK;
    return spmvlab_dev_put(ctx, &s->d_table, s->table->values, s->table_bytes, held, err);
}

/* Entry pos of a stored array (of the storage s) as a value of type T, on
 * the host: the value itself, the table's value of its code, or the
 * pattern's value. */
#define SPMVLAB_VALUE_HOST(T, s, stored, pos)                                                             \
    ((s)->kind == SPMVLAB_STORE_NATIVE    ? ((const T *)(stored))[pos]                                    \
     : (s)->kind == SPMVLAB_STORE_CODES8  ? ((const T *)(s)->table->values)[((const uint8_t *)(stored))[pos]] \
     : (s)->kind == SPMVLAB_STORE_CODES16 ? ((const T *)(s)->table->values)[((const uint16_t *)(stored))[pos]] \
     : (s)->kind == SPMVLAB_STORE_CODES4                                                                  \
         ? ((const T *)(s)->table->values)[(((const uint8_t *)(stored))[(pos) / 2] >> 4 * ((pos) % 2)) & 15u]   \
         : *(const T *)(const void *)(s)->pattern)

#ifdef __cplusplus
}
#endif
#endif
