/*
 * libspmvlab: the core the host program and the tests are built on —
 * error sentences, the plugin registry, option tables, the runtime (device,
 * tracked allocation, plugin instances), the reference SpMV and the error
 * bound. Plugins never include this header; they see plugin.h only.
 */
#ifndef SPMVLAB_CORE_H
#define SPMVLAB_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "spmvlab/matrix.h"
#include "spmvlab/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ------------------------------------------------------------ */

/* Formats one sentence into err (NULL allowed). */
void spmvlab_errf(spmvlab_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void spmvlab_verrf(spmvlab_err *err, const char *fmt, va_list ap);

/* "Did you mean": the entry of names[0..n) closest to word by edit
 * distance, when it is near enough to be a typo of it (NULL entries are
 * ignored); NULL when none is. */
const char *spmvlab_closest_name(const char *word, const char *const *names, int n);
/* The "did you mean" every command's refusal of a name ends with: writes
 * " (did you mean 'NAME'?)" into hint when spmvlab_closest_name finds one,
 * else "". Returns hint. */
const char *spmvlab_did_you_mean(const char *word, const char *const *names, int n, char *hint, size_t len);

/* Short lower-case name of a status: "ok", "unsupported", "limit", ... */
const char *spmvlab_status_name(spmvlab_status st);

/* ---- outcomes: the one status vocabulary of a result ------------------- */

/* How a trial (or a whole row of a run) ended. The first values are the
 * plugin statuses, so a plugin's answer converts by value; the rest are what
 * the core and the host find themselves. Callers decide on these values,
 * never on the text of a sentence. */
typedef enum spmvlab_result {
    SPMVLAB_RESULT_OK = SPMVLAB_OK,
    SPMVLAB_RESULT_UNSUPPORTED = SPMVLAB_UNSUPPORTED,       /* the plugin refused the input */
    SPMVLAB_RESULT_INVALID_OPTION = SPMVLAB_INVALID_OPTION,
    SPMVLAB_RESULT_LIMIT = SPMVLAB_LIMIT,                   /* a size or memory limit */
    SPMVLAB_RESULT_NOMEM = SPMVLAB_NOMEM,                   /* host or device memory ran out */
    SPMVLAB_RESULT_CUDA_ERROR = SPMVLAB_CUDA_ERROR,
    SPMVLAB_RESULT_INTERNAL = SPMVLAB_INTERNAL,
    SPMVLAB_RESULT_WRONG = 16,  /* a result beyond its error bound, or rows left unwritten */
    SPMVLAB_RESULT_BAD_INPUT,   /* the matrix cannot be used in this dtype (NaN/Inf, overflow) */
    SPMVLAB_RESULT_IO,          /* a file could not be read or written */
    SPMVLAB_RESULT_CRASH,       /* the process running the trial died of a signal */
    SPMVLAB_RESULT_TIMEOUT,     /* no answer within the time limit */
    SPMVLAB_RESULT_DEVICE_FAULT /* a sticky CUDA error: the instance left the CUDA context unusable */
} spmvlab_result;

/* The outcome of a plugin status (the same value). */
static inline spmvlab_result spmvlab_result_of(spmvlab_status st) { return (spmvlab_result)st; }
/* Its name in results: the plugin statuses as spmvlab_status_name, then
 * "wrong", "bad-input", "io", "crash", "timeout". */
const char *spmvlab_result_name(spmvlab_result o);
/* The reverse of spmvlab_result_name; -1 for a name it does not give. */
int spmvlab_result_parse(const char *name, spmvlab_result *out);
/* The reverse of spmvlab_dtype_name (plugin.h); returns -1 for an unknown
 * name. */
int spmvlab_dtype_parse(const char *s, spmvlab_dtype *out);

/* Internal CSR builder from parallel arrays (0-based, any order). */
int spmvlab_csr_build(spmvlab_csr *A, int32_t rows, int32_t cols, size_t n, const int32_t *ri,
                      const int32_t *ci, const double *v, spmvlab_err *err);

/* ---- registry ---------------------------------------------------------- */

/* A plugin loaded by the registry. */
typedef struct spmvlab_loaded {
    const spmvlab_plugin *desc; /* the plugin's descriptor, copied up to struct_size */
    char path[4096];            /* the file it came from */
    void *handle;               /* dlopen handle */
    spmvlab_option *owned_options; /* an older ABI's table widened by the core, or NULL */
    char hash[17];              /* FNV-1a 64 of the file's bytes, 16 hex digits: which build ran */
} spmvlab_loaded;

typedef struct spmvlab_registry spmvlab_registry;

/* Makes an empty registry whose search path is, in order: the directories
 * added with spmvlab_registry_add_dir, SPMVLAB_PLUGIN_PATH (colon list), the
 * build tree's plugin folder and the install folder. */
spmvlab_registry *spmvlab_registry_new(void);
void spmvlab_registry_free(spmvlab_registry *r);
void spmvlab_registry_add_dir(spmvlab_registry *r, const char *dir);

/* Loads a plugin by name from the search path (once; later calls return the
 * same). NULL with a sentence in err when not found or refused. */
const spmvlab_loaded *spmvlab_registry_get(spmvlab_registry *r, const char *name, spmvlab_err *err);
/* Loads the plugin in an explicit file (INI `library =`). The file name must
 * be libspmvlab_<name>.so with <name> equal to the descriptor's name. */
const spmvlab_loaded *spmvlab_registry_load_file(spmvlab_registry *r, const char *path,
                                                 spmvlab_err *err);
/* Loads every plugin found on the search path; refusals go to the callback
 * (may be NULL). Returns the number loaded. */
int spmvlab_registry_scan(spmvlab_registry *r, void (*refused)(const char *path, const char *why, void *arg),
                          void *arg);
int spmvlab_registry_count(const spmvlab_registry *r);
const spmvlab_loaded *spmvlab_registry_at(const spmvlab_registry *r, int i);
/* 1 when a plugin of this name (or DIR/NAME) is loaded or has a file on the
 * search path, without loading it; else 0. */
int spmvlab_registry_knows(spmvlab_registry *r, const char *name);
/* The plugin names on the search path (files, not loaded), at most max, for
 * "did you mean". Returns the count. */
int spmvlab_registry_names(spmvlab_registry *r, char (*names)[64], int max);
/* The directories searched, in order, for messages: writes a colon list. */
void spmvlab_registry_search_path(const spmvlab_registry *r, char *buf, size_t len);

/* ---- options ----------------------------------------------------------- */

/* Validated options of one instance (see spmvlab_opts in plugin.h). */
typedef struct spmvlab_optset {
    spmvlab_opts opts;          /* handed to the plugin */
    spmvlab_opt_value *values;  /* count entries, table order */
    char **text;                /* owned value strings */
    const spmvlab_option **rows; /* count option rows of the plugin's table, its choice rows skipped */
    void *fields;               /* the plugin's options struct (options_size bytes) or NULL */
    size_t fields_size;
} spmvlab_optset;

/* Why a text is not a value of an option row. */
typedef enum spmvlab_opt_problem {
    SPMVLAB_OPT_FINE = 0,
    SPMVLAB_OPT_NOT_NUMBER,     /* INT, INT_AUTO, FLOAT: no (finite) number */
    SPMVLAB_OPT_NOT_INTEGER,    /* INT, INT_AUTO: a number with a fraction */
    SPMVLAB_OPT_OUT_OF_RANGE,   /* outside [min, max] */
    SPMVLAB_OPT_NOT_CHOICE,     /* ENUM: not one of the choices */
    SPMVLAB_OPT_NOT_BOOL,       /* BOOL: not true/false, yes/no, on/off, 1/0 */
    SPMVLAB_OPT_BAD_TYPE        /* the row's type is unknown */
} spmvlab_opt_problem;

/* Parses text as a value of row o into v (v->s is left to the caller). The
 * one parser of option values: plugin options and generator parameters. */
spmvlab_opt_problem spmvlab_option_parse(const spmvlab_option *o, const char *text, spmvlab_opt_value *v);

/* What row o takes, for a refusal of the given problem: "true or false",
 * "one of a|b|c", "an integer from 1 to 8" (written after "expected"). */
void spmvlab_option_expected(const spmvlab_option *o, spmvlab_opt_problem problem, char *buf, size_t len);

/* Writes an ENUM row's choices as "a|b|c" (from its text or its CONST
 * rows, which follow it in the table); other rows give their choices text or "". */
void spmvlab_option_choices(const spmvlab_option *o, char *buf, size_t len);

/* Range text "lo..hi" (numbers as option values write them, lo <= hi)
 * into lo and hi; -1 when it is not one. */
int spmvlab_option_range(const char *text, double *lo, double *hi);

/* Reads a loaded descriptor's option table: widens rows of an older ABI
 * into a table of today's rows (*owned, freed with the plugin) and checks
 * typed fields against their types and the options struct, and choice rows
 * against the enum they follow. -1 with a sentence naming the file and the
 * option. */
int spmvlab_option_table_adopt(spmvlab_plugin *desc, const char *path, spmvlab_option **owned, spmvlab_err *err);
/* Writes v into the options struct member the row names, if any. An INT
 * member may be int or, for the core's own tables, int64_t (by its size). */
void spmvlab_option_field_store(void *fields, const spmvlab_option *o, const spmvlab_opt_value *v);

/* Fills defaults from the plugin's table. Returns 0 or -1 (bad default). */
int spmvlab_optset_init(spmvlab_optset *o, const spmvlab_plugin *p, spmvlab_err *err);
/* Sets key = value after validating type and range; -1 with a sentence
 * naming the plugin, key and the allowed values. */
int spmvlab_optset_set(spmvlab_optset *o, const char *plugin, const char *key, const char *value,
                       spmvlab_err *err);
int spmvlab_optset_copy(spmvlab_optset *dst, const spmvlab_optset *src, spmvlab_err *err);
void spmvlab_optset_free(spmvlab_optset *o);
/* "key=value key=value" of the values that differ from the defaults. */
void spmvlab_optset_describe(const spmvlab_optset *o, int only_changed, char *buf, size_t len);

/* ---- runtime: device and instances -------------------------------------- */

typedef struct spmvlab_runtime {
    spmvlab_device device;      /* device->present == 0: CPU mode */
    void *stream;               /* cudaStream_t used for conversion and SpMV */
    size_t mem_limit;           /* bytes one instance may hold; 0 = none */
    char fault[256];            /* the sticky CUDA error seen, or "" */
} spmvlab_runtime;

/* Opens the runtime. want_gpu: 0 CPU only, 1 use a GPU if present, 2 require
 * one. Returns 0, 1 when a GPU was required but none is usable (sentence in
 * err), -1 on other failures. */
int spmvlab_runtime_open(spmvlab_runtime *rt, int want_gpu, int ordinal, spmvlab_err *err);
void spmvlab_runtime_close(spmvlab_runtime *rt);
/* 1 when the CUDA context is unusable: a sticky error (illegal or misaligned
 * address, launch failure, illegal instruction, ...) that only a new process
 * clears; the CUDA error in err. It waits for the device, so callers ask
 * between trials, never inside a timed region. suspect names the plugin
 * that ran last: in CPU mode the environment variable
 * SPMVLAB_TEST_DEVICE_FAULT=<plugin> makes the runtime report a fault after
 * that plugin, so the recovery is tested without a GPU. */
int spmvlab_runtime_fault(spmvlab_runtime *rt, const char *suspect, spmvlab_err *err);

/* A matrix prepared for a dtype: values converted, device copies uploaded. */
typedef struct spmvlab_prepared {
    spmvlab_matrix view;        /* what plugins see */
    const spmvlab_csr *csr;     /* the f64 source */
    void *host_val;             /* values in dtype (owned) */
    void *dev_row_ptr, *dev_col_idx, *dev_val; /* device copies (owned) */
    int rt_device;              /* 1 when the copies are real device memory */
    char name[256];
    /* the value table (ctx->value_table), built on the first request and
     * shared by every instance on this matrix (owned) */
    struct spmvlab_value_cache *values;
} spmvlab_prepared;

/* Converts A's values to dtype and uploads the CSR arrays when a GPU is in
 * use. Returns OK; BAD_INPUT when a value overflows the dtype (the matrix
 * cannot be used in it); NOMEM or CUDA_ERROR; a sentence in err. */
spmvlab_result spmvlab_prepare(spmvlab_runtime *rt, const spmvlab_csr *A, const char *name,
                    spmvlab_dtype dtype, spmvlab_prepared *out, spmvlab_err *err);
void spmvlab_prepared_free(spmvlab_prepared *p);

/* One plugin instance built on one prepared matrix. */
typedef struct spmvlab_instance {
    const spmvlab_loaded *plugin;
    spmvlab_ctx ctx;            /* services handed to the plugin */
    void *fmt;                  /* the plugin's format handle */
    char label[128];            /* instance label, e.g. "sell-sigma1" */
    const spmvlab_prepared *matrix;
    /* tracked device memory of this instance */
    size_t cur_bytes, peak_bytes, limit_bytes;
    spmvlab_dtype storage;      /* type the format stores values in (declare_storage), else the dtype */
    long live_allocs;
    double convert_ms;          /* wall time of convert, device synchronised */
    spmvlab_runtime *rt;
    void *track;                /* allocation table (pointer -> size) */
    char log[2048];             /* the plugin's log lines, for -v */
    /* NULL: called as converted; else every call permutes x and y around
     * the plugin's SpMV (permuted_call.h), borrowed from the trial */
    const struct spmvlab_permuted_call *call;
} spmvlab_instance;

/* Converts: sets up ctx, calls plugin convert, synchronises, times it.
 * Returns the plugin's status; on failure the instance holds nothing. */
spmvlab_status spmvlab_instance_convert(spmvlab_instance *in, spmvlab_runtime *rt,
                                        const spmvlab_loaded *plugin, const char *label,
                                        const spmvlab_optset *opts, const spmvlab_prepared *m,
                                        spmvlab_err *err);
/* Destroys the format; returns the bytes still tracked (0 when clean). */
size_t spmvlab_instance_destroy(spmvlab_instance *in);
/* Calls the plugin's footprint / describe, or returns 0 / "". */
size_t spmvlab_instance_footprint(const spmvlab_instance *in);
void spmvlab_instance_describe(const spmvlab_instance *in, char *buf, size_t len);

/* ---- device helpers (CPU mode emulates them on the host) --------------- */

/* Each returns OK (0), or NOMEM (an allocation failed) or CUDA_ERROR with a
 * sentence. Copies run on the runtime's stream and are complete on return,
 * so later work on that stream sees them without a further wait. */
spmvlab_status spmvlab_dev_malloc(spmvlab_runtime *rt, void **p, size_t bytes, spmvlab_err *err);
void spmvlab_dev_free(spmvlab_runtime *rt, void *p);
spmvlab_status spmvlab_dev_upload(spmvlab_runtime *rt, void *dst, const void *src, size_t bytes, spmvlab_err *err);
spmvlab_status spmvlab_dev_download(spmvlab_runtime *rt, void *dst, const void *src, size_t bytes, spmvlab_err *err);
/* Fills n values of dtype at device pointer p with NaN (poison). */
spmvlab_status spmvlab_dev_poison(spmvlab_runtime *rt, void *p, size_t n, spmvlab_dtype dtype, spmvlab_err *err);
/* Waits for the runtime's stream and collects a failed launch. */
spmvlab_status spmvlab_dev_sync(spmvlab_runtime *rt, spmvlab_err *err);
/* Waits for the whole device (every stream, the legacy one included). */
spmvlab_status spmvlab_dev_sync_all(spmvlab_runtime *rt, spmvlab_err *err);

/* ---- reference and error bound (docs/design.md §5) -------------------- */

/* Random x of n values in dtype, deterministic for a seed, in [-1,-0.1]∪[0.1,1]. */
void spmvlab_random_x(void *x, size_t n, spmvlab_dtype dtype, uint64_t seed);
/* Fills n host values of dtype with NaN. */
void spmvlab_poison_host(void *y, size_t n, spmvlab_dtype dtype);

/* ref[i] = Σ a_ij x_j in double-double; absum[i] = Σ |a_ij x_j|, both using
 * the dtype-rounded values of m. */
void spmvlab_reference(const spmvlab_matrix *m, const void *x, double *ref, double *absum);

typedef struct spmvlab_verdict {
    int ok;                /* every row within its bound, no NaN/Inf produced */
    double max_ratio;      /* max over rows of |y-ref| / bound (0 when exact) */
    int32_t worst_row;     /* row of max_ratio, -1 if none */
    int32_t bad_rows;      /* rows over the bound (NaN rows included) */
    int32_t nan_rows;      /* rows whose result is NaN or Inf while ref is finite */
    int32_t nonfinite_ref; /* rows whose reference is NaN/Inf (input had NaN/Inf) */
    double y_worst, ref_worst;
} spmvlab_verdict;

/* Checks y (host, dtype) against the reference. */
void spmvlab_verify(const spmvlab_matrix *m, const void *y, const double *ref, const double *absum,
                    spmvlab_verdict *v);
/* The same for a format that stores values in `storage`, narrower than
 * m->dtype (the bound adds the storage rounding; docs/methodology.md). */
void spmvlab_verify_stored(const spmvlab_matrix *m, spmvlab_dtype storage, const void *y, const double *ref,
                           const double *absum, spmvlab_verdict *v);
/* The bound of one row: k·u·absum with k = 2·(len + 1). */
double spmvlab_row_bound(spmvlab_dtype dtype, int32_t len, double absum);
/* The bound of one row whose values were rounded to `storage` before the
 * products: (k·u·(1 + u_s) + u_s)·absum. Equals spmvlab_row_bound when
 * storage is the dtype. */
double spmvlab_row_bound_stored(spmvlab_dtype dtype, spmvlab_dtype storage, int32_t len, double absum);
/* Unit roundoff of a dtype: 2^-53, 2^-24, 2^-11. */
double spmvlab_unit_roundoff(spmvlab_dtype dtype);

/* Wall clock in milliseconds (monotonic). */
double spmvlab_now_ms(void);

#ifdef __cplusplus
}
#endif
#endif
