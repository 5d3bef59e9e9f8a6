/*
 * spmvlab plugin ABI — the only header a format plugin needs.
 *
 * A plugin is a shared object libspmvlab_<name>.so that exports one symbol,
 * spmvlab_plugin_entry(), returning a constant descriptor. Everything the
 * plugin needs from the host (device allocation, error sentences, logging,
 * device properties) arrives through the spmvlab_ctx table, so the .so links
 * against the CUDA runtime and nothing of ours.
 *
 * Versioning: members are only ever appended to spmvlab_plugin and
 * spmvlab_ctx; each is marked with the ABI minor that added it. The loader
 * accepts abi_major == SPMVLAB_ABI_MAJOR and abi_minor <= SPMVLAB_ABI_MINOR
 * and never reads past struct_size.
 *
 * Threading: no global mutable state in a plugin; two instances with
 * different options must coexist in one process.
 */
#ifndef SPMVLAB_PLUGIN_H
#define SPMVLAB_PLUGIN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPMVLAB_ABI_MAJOR 1
#define SPMVLAB_ABI_MINOR 4

#if defined(__GNUC__)
#define SPMVLAB_EXPORT __attribute__((visibility("default")))
#else
#define SPMVLAB_EXPORT
#endif

/* Status of every plugin call. Anything but SPMVLAB_OK comes with a sentence
 * in spmvlab_err. */
typedef enum spmvlab_status {
    SPMVLAB_OK = 0,
    SPMVLAB_UNSUPPORTED = 1,    /* this matrix / dtype / device is not handled */
    SPMVLAB_INVALID_OPTION = 2, /* an option value the plugin cannot use */
    SPMVLAB_LIMIT = 3,          /* a size or memory limit would be exceeded */
    SPMVLAB_NOMEM = 4,          /* host or device allocation failed */
    SPMVLAB_CUDA_ERROR = 5,     /* a CUDA or vendor-library call failed */
    SPMVLAB_INTERNAL = 6        /* a bug: an invariant did not hold */
} spmvlab_status;

/* Value types. x, y and the matrix values of one run share one dtype. */
typedef enum spmvlab_dtype {
    SPMVLAB_F64 = 0,
    SPMVLAB_F32 = 1,
    SPMVLAB_F16 = 2 /* IEEE binary16 bits in uint16_t; accumulate in >= f32 */
} spmvlab_dtype;

#define SPMVLAB_DTYPE_BIT(d) (1u << (unsigned)(d))
#define SPMVLAB_DTYPES_F64_F32 (SPMVLAB_DTYPE_BIT(SPMVLAB_F64) | SPMVLAB_DTYPE_BIT(SPMVLAB_F32))

/* Bytes of one value of dtype d. */
static inline size_t spmvlab_dtype_size(spmvlab_dtype d)
{
    return d == SPMVLAB_F64 ? 8 : d == SPMVLAB_F32 ? 4 : 2;
}

/* Name of dtype d as options and result rows spell it ("f64"), for the
 * sentences of the core and of plugins alike. */
static inline const char *spmvlab_dtype_name(spmvlab_dtype d)
{
    return d == SPMVLAB_F64 ? "f64" : d == SPMVLAB_F32 ? "f32" : d == SPMVLAB_F16 ? "f16" : "?";
}

/* One error sentence, written by ctx->fail; owned by the caller of the
 * plugin function. Names the instance, the matrix and the cause. */
#define SPMVLAB_ERR_LEN 512
typedef struct spmvlab_err {
    char msg[SPMVLAB_ERR_LEN];
} spmvlab_err;

/* ------------------------------------------------------------------------
 * The input matrix: CSR, 0-based, columns sorted and unique within a row,
 * owned by the core and valid until the plugin's destroy() returns.
 * ---------------------------------------------------------------------- */
typedef struct spmvlab_matrix {
    const char *name;         /* label for error sentences, e.g. "G3_circuit" */
    int32_t rows;             /* number of rows, >= 0 */
    int32_t cols;             /* number of columns, >= 0 */
    int32_t nnz;              /* stored non-zeros (explicit zeros count) */
    spmvlab_dtype dtype;      /* type of val / d_val, and of x and y */
    const int32_t *row_ptr;   /* host, rows + 1 entries, row_ptr[0] == 0 */
    const int32_t *col_idx;   /* host, nnz entries */
    const void *val;          /* host, nnz values of dtype */
    const int32_t *d_row_ptr; /* device copy of row_ptr; NULL without a GPU */
    const int32_t *d_col_idx; /* device copy of col_idx; NULL without a GPU */
    const void *d_val;        /* device copy of val; NULL without a GPU */
} spmvlab_matrix;

/* Properties of the device the instance runs on (all zero when absent). */
typedef struct spmvlab_device {
    int present;              /* 1 when a CUDA device is in use */
    int ordinal;              /* CUDA device number */
    int cc_major, cc_minor;   /* compute capability, e.g. 9.0 */
    int sm_count;             /* multiprocessors */
    int warp_size;            /* threads per warp (32) */
    int max_threads_per_sm;   /* resident threads per multiprocessor */
    size_t l2_bytes;          /* L2 cache size in bytes */
    size_t smem_per_block;    /* opt-in shared memory per block, bytes */
    size_t global_mem_bytes;  /* total device memory, bytes */
    char name[128];           /* e.g. "NVIDIA H100 80GB HBM3" */
} spmvlab_device;

/* ------------------------------------------------------------------------
 * The distinct values of a matrix (1.4), for a lossless value storage:
 * a table of the values and one code per entry. The core builds it once per
 * matrix and dtype and every instance on that matrix shares it (read-only,
 * valid until destroy() returns).
 * ---------------------------------------------------------------------- */
typedef struct spmvlab_value_table {
    spmvlab_dtype dtype;   /* type of values: the matrix's dtype */
    int64_t distinct;      /* distinct bit patterns among A's entries (+0.0 and -0.0
                            * differ); when more than 65,536 it is the exact count
                            * only if count_all was asked, else 65,537 */
    int32_t count;         /* entries of values: +0.0 at code 0 (padding stores
                            * code 0), then A's other distinct values in ascending
                            * bit order; 0 when no table was made */
    int32_t code_bytes;    /* 1 (count <= 256) or 2 (count <= 65,536); 0: no table */
    const void *values;    /* host, count values of dtype */
    const void *codes;     /* host, A->nnz codes (uint8_t or uint16_t by code_bytes),
                            * entry k's value is values[codes[k]] */
} spmvlab_value_table;

#define SPMVLAB_VALUE_CODES_MAX 65536 /* the most table entries 2-byte codes name */

/* ------------------------------------------------------------------------
 * Services the core offers a plugin instance. One ctx per instance and
 * matrix; it outlives the format built with it. Keep the pointer in the
 * format to free device memory and to write errors later.
 * ---------------------------------------------------------------------- */
typedef struct spmvlab_ctx spmvlab_ctx;
struct spmvlab_ctx {
    uint32_t struct_size;           /* sizeof(spmvlab_ctx) of the core (1.0) */
    const spmvlab_device *device;   /* never NULL; device->present says if a GPU is used (1.0) */
    void *stream;                   /* cudaStream_t for conversion work, NULL without GPU (1.0) */

    /* Tracked device allocation (1.0). Counts current and peak bytes per
     * instance and enforces the run's memory limit (status LIMIT before
     * cudaMalloc fails). Without a GPU it hands out host memory that stands
     * in for device memory, so accounting and footprint checks still run.
     * Returns OK or LIMIT / NOMEM with the sentence in err. */
    spmvlab_status (*dev_alloc)(spmvlab_ctx *ctx, void **ptr, size_t bytes, spmvlab_err *err);
    /* Frees memory from dev_alloc; NULL is ignored. (1.0) */
    void (*dev_free)(spmvlab_ctx *ctx, void *ptr);
    /* Copies host -> "device" memory from dev_alloc, synchronously. (1.0) */
    spmvlab_status (*upload)(spmvlab_ctx *ctx, void *dst, const void *src, size_t bytes,
                             spmvlab_err *err);
    /* Copies "device" -> host memory, synchronously. (1.0) */
    spmvlab_status (*download)(spmvlab_ctx *ctx, void *dst, const void *src, size_t bytes,
                               spmvlab_err *err);
    /* Writes "<instance> on <matrix>: <cause>" into err and returns st, so a
     * plugin reports with `return ctx->fail(ctx, err, SPMVLAB_LIMIT, "...", ...)`.
     * The cause is one sentence without a final period. (1.0) */
    spmvlab_status (*fail)(spmvlab_ctx *ctx, spmvlab_err *err, spmvlab_status st,
                           const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 4, 5)))
#endif
        ;
    /* A diagnostic line the host shows with -v; plugins never print. (1.0) */
    void (*log)(spmvlab_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 2, 3)))
#endif
        ;
    void *core_private; /* the core's bookkeeping; plugins do not touch it (1.0) */

    /* Declares that the format stores its values in `storage`, a type
     * narrower than the run's dtype in which it still computes (f32 values
     * for an f64 SpMV). The core then checks results against the bound with
     * storage rounding (docs/methodology.md) and reports the storage type in
     * every result, so the run is never shown as a plain f64 one. Call it
     * from convert; without the call storage is the run's dtype. (1.1) */
    void (*declare_storage)(spmvlab_ctx *ctx, spmvlab_dtype storage);

    /* The value table of the matrix this instance converts (see
     * spmvlab_value_table), built on the first call for the matrix and
     * shared by every instance on it. OK with *table set; LIMIT with a
     * sentence giving the count when the table would need more than 65,536
     * entries (*table is then still set, code_bytes 0, so a caller can fall
     * back to native values). count_all: count every distinct value for the
     * sentence (a sort of the entries), else stop at 65,537. NOMEM when
     * host memory runs out. (1.4) */
    spmvlab_status (*value_table)(spmvlab_ctx *ctx, int count_all, const spmvlab_value_table **table,
                                  spmvlab_err *err);
};

/* ------------------------------------------------------------------------
 * Options: a table declared by the plugin, validated and typed by the core.
 * ---------------------------------------------------------------------- */
typedef enum spmvlab_opt_type {
    SPMVLAB_OPT_INT = 0,      /* integer within [min, max] (or range) */
    SPMVLAB_OPT_FLOAT = 1,    /* real within [min, max] (or range) */
    SPMVLAB_OPT_BOOL = 2,     /* true/false, yes/no, on/off, 1/0 */
    SPMVLAB_OPT_ENUM = 3,     /* one of choices, "a|b|c" */
    SPMVLAB_OPT_STRING = 4,   /* free text */
    SPMVLAB_OPT_INT_AUTO = 5, /* "auto" or an integer within [min, max] */
    SPMVLAB_OPT_CONST = 6     /* a named choice of the ENUM row it follows (1.2) */
} spmvlab_opt_type;

/* Bits of spmvlab_option.flags (1.2). */
#define SPMVLAB_OPT_EXPERT 1u /* listed only by `spmvlab list -v --all`; still settable */

/* One row of a plugin's option table; the table ends with a row whose key
 * is NULL. Keys match [a-z0-9_]+ and fit 63 characters. An ENUM row either
 * lists its choices as "a|b|c" text (the value is the choice's position) or,
 * from 1.2, leaves choices NULL and is followed by one CONST row per choice:
 * key the choice's name, unit the ENUM row's key, value what the option's
 * member receives, help a few words. CONST rows are not options. */
typedef struct spmvlab_option {
    const char *key;          /* name in INI files and --set */
    spmvlab_opt_type type;    /* how the value is parsed */
    const char *def;          /* default, as it would be written in INI */
    double min, max;          /* inclusive range for INT, FLOAT, INT_AUTO */
    const char *choices;      /* "a|b|c" for an ENUM without CONST rows, else NULL */
    const char *help;         /* one line for `spmvlab list -v` */
    /* Where the core writes the parsed value in the plugin's options struct
     * (1.1); field_size 0 means the option has no member (read it by key).
     * Member types: int for INT, BOOL, ENUM (the CONST row's value, or the
     * choice's index in choices text) and INT_AUTO (SPMVLAB_AUTO for "auto");
     * double for FLOAT; const char * for STRING.
     * Write both with SPMVLAB_FIELD(struct type, member). */
    size_t field_offset;
    size_t field_size;
    const char *unit;         /* CONST: the key of the ENUM row it belongs to (1.2) */
    int value;                /* CONST: the value the ENUM option takes for this choice (1.2) */
    unsigned flags;           /* SPMVLAB_OPT_EXPERT or 0 (1.2) */
    /* INT, FLOAT, INT_AUTO: the inclusive range as INI text, "lo..hi"; the
     * core reads min and max from it when the plugin loads. NULL or "" for
     * no range text (other types, or min and max set directly). (1.3) */
    const char *range;
} spmvlab_option;

/* The offset and size of an options-struct member, for a table row. */
#define SPMVLAB_FIELD(type, member) offsetof(type, member), sizeof(((type *)0)->member)
/* The value an INT_AUTO member holds when the option was "auto". */
#define SPMVLAB_AUTO (-2147483647 - 1)

/* A validated option value, in the order of the plugin's table. */
typedef struct spmvlab_opt_value {
    const char *key;          /* same pointer text as the table row */
    spmvlab_opt_type type;
    int is_auto;              /* INT_AUTO: the value was "auto" */
    long long i;              /* INT, INT_AUTO, BOOL (0/1), ENUM (the choice's value) */
    double f;                 /* FLOAT, and INT as a double */
    const char *s;            /* the value's text (ENUM: the choice) */
} spmvlab_opt_value;

/* All options of one instance, owned by the core, valid until destroy(). */
typedef struct spmvlab_opts {
    int count;
    const spmvlab_opt_value *values;
    /* The plugin's options struct (options_size bytes) with every member
     * named by a table row filled in; NULL when the plugin declares none.
     * (1.1) */
    const void *fields;
} spmvlab_opts;

/* The plugin's options struct, filled by the core (ABI 1.1). */
static inline const void *spmvlab_opts_fields(const spmvlab_opts *o) { return o ? o->fields : NULL; }

/* Looks a key up; NULL if the plugin's table has no such key. */
static inline const spmvlab_opt_value *spmvlab_opt(const spmvlab_opts *o, const char *key)
{
    for (int k = 0; o && k < o->count; k++)
        if (strcmp(o->values[k].key, key) == 0)
            return &o->values[k];
    return NULL;
}
static inline long long spmvlab_opt_int(const spmvlab_opts *o, const char *key)
{
    const spmvlab_opt_value *v = spmvlab_opt(o, key);
    return v ? v->i : 0;
}
static inline double spmvlab_opt_float(const spmvlab_opts *o, const char *key)
{
    const spmvlab_opt_value *v = spmvlab_opt(o, key);
    return v ? v->f : 0.0;
}
static inline int spmvlab_opt_is_auto(const spmvlab_opts *o, const char *key)
{
    const spmvlab_opt_value *v = spmvlab_opt(o, key);
    return v ? v->is_auto : 0;
}
static inline const char *spmvlab_opt_str(const spmvlab_opts *o, const char *key)
{
    const spmvlab_opt_value *v = spmvlab_opt(o, key);
    return v ? v->s : "";
}

/* ------------------------------------------------------------------------
 * The descriptor. Function members receive the opaque format handle that
 * convert() produced.
 * ---------------------------------------------------------------------- */
typedef struct spmvlab_plugin {
    uint32_t abi_major;       /* SPMVLAB_ABI_MAJOR the plugin was built with (1.0) */
    uint32_t abi_minor;       /* SPMVLAB_ABI_MINOR the plugin was built with (1.0) */
    uint32_t struct_size;     /* sizeof(spmvlab_plugin) at build time (1.0) */
    const char *name;         /* [a-z0-9_]+, equal to the file's libspmvlab_<name>.so (1.0) */
    const char *summary;      /* one line: what the format is (1.0) */
    const char *version;      /* the plugin's own version, e.g. "1.0.0" (1.0) */
    const char *reference;    /* the paper or book the format comes from (1.0) */
    uint32_t dtypes;          /* bit set of SPMVLAB_DTYPE_BIT(...) supported (1.0) */
    const spmvlab_option *options; /* table ending with key == NULL; may be NULL (1.0) */

    /* Optional: cross-option checks (e.g. sigma a multiple of C) made when the
     * configuration is read, before any matrix. NULL when not needed. (1.0) */
    spmvlab_status (*check_options)(const spmvlab_opts *opts, spmvlab_err *err);

    /* Builds the format from A into *fmt. All device memory through
     * ctx->dev_alloc; host memory with malloc. Without a GPU, keeps what
     * spmv_host needs. On failure frees everything it made and leaves *fmt
     * NULL. May run GPU work on ctx->stream; the core synchronises after. (1.0) */
    spmvlab_status (*convert)(spmvlab_ctx *ctx, const spmvlab_matrix *A,
                              const spmvlab_opts *opts, void **fmt, spmvlab_err *err);

    /* y = A·x on the device, y overwritten (every row, empty rows get 0).
     * Asynchronous on stream (a cudaStream_t); no host synchronisation, no
     * allocation. x has A->cols, y has A->rows values of the dtype.
     * Returns CUDA_ERROR if a launch failed. Only called with a GPU. (1.0) */
    spmvlab_status (*spmv)(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err);

    /* Device bytes the format keeps for SpMV (all live dev_alloc bytes).
     * From ABI 1.1 it may be NULL: the core then reports its own count of
     * the instance's live dev_alloc bytes. (1.0) */
    size_t (*footprint)(const void *fmt);

    /* Frees everything; afterwards the instance's tracked bytes are zero. (1.0) */
    void (*destroy)(void *fmt);

    /* The same format executed on the CPU from its own arrays; host x and y.
     * Same contract as spmv. Required for in-tree plugins. (1.0) */
    spmvlab_status (*spmv_host)(const void *fmt, const void *x, void *y, spmvlab_err *err);

    /* Optional: format facts as "key=value" pairs separated by spaces (fill
     * ratio, chosen widths, ...), written into buf of len bytes. (1.0) */
    void (*describe)(const void *fmt, char *buf, size_t len);

    /* sizeof(spmvlab_option) the table was built with (1.1); the core
     * reads older tables with the 1.0 row size. Set by SPMVLAB_PLUGIN_HEADER. */
    uint32_t option_row_size;
    /* sizeof the plugin's options struct, 0 when it has none (1.1). */
    uint32_t options_size;
} spmvlab_plugin;

/* The first members of every descriptor:
 *   static const spmvlab_plugin mine = { SPMVLAB_PLUGIN_HEADER, .name = ... }; */
#define SPMVLAB_PLUGIN_HEADER                                                                    \
    .abi_major = SPMVLAB_ABI_MAJOR, .abi_minor = SPMVLAB_ABI_MINOR,                              \
    .struct_size = sizeof(spmvlab_plugin), .option_row_size = sizeof(spmvlab_option)

/* The members a plugin P names by convention, after the header: its name #P,
 * the option table P##_options with its struct P##_opts, and the calls
 * P##_convert, P##_spmv, P##_destroy, P##_spmv_host and P##_describe. The
 * optional members (check_options, footprint) follow by name:
 *   static const spmvlab_plugin mine = { SPMVLAB_PLUGIN_STANDARD(mine), .summary = ... }; */
#define SPMVLAB_PLUGIN_STANDARD(P)                                                               \
    SPMVLAB_PLUGIN_HEADER, .name = #P, .options = P##_options, .options_size = sizeof(P##_opts), \
    .convert = P##_convert, .spmv = P##_spmv, .destroy = P##_destroy, .spmv_host = P##_spmv_host, \
    .describe = P##_describe

/* Exports the descriptor D as the plugin's entry: SPMVLAB_PLUGIN_ENTRY(mine) */
#define SPMVLAB_PLUGIN_ENTRY(D) \
    SPMVLAB_EXPORT const spmvlab_plugin *spmvlab_plugin_entry(void) { return &(D); }

/* The one symbol a plugin exports. */
typedef const spmvlab_plugin *(*spmvlab_plugin_entry_fn)(void);
#define SPMVLAB_ENTRY_SYMBOL "spmvlab_plugin_entry"

/* The helpers every plugin may use: the descriptor and option rows, the
 * start and end of convert, uploads, frees, the launch check, spmv_host's
 * dtype dispatch and half precision on the host. */
#include "plugin_helpers.h"

#ifdef __cplusplus
}
#endif
#endif /* SPMVLAB_PLUGIN_H */
