/*
 * spmvlab plugin ABI: inline helpers for plugins, included by plugin.h (a
 * plugin includes plugin.h only). Nothing here is part of the binary
 * interface: the helpers compile into the plugin and call the core only
 * through the spmvlab_ctx services.
 */
#ifndef SPMVLAB_PLUGIN_HELPERS_H
#define SPMVLAB_PLUGIN_HELPERS_H

/* ------------------------------------------------------------------------
 * The descriptor in one statement, and option-table rows in one line each.
 * ---------------------------------------------------------------------- */

/* Defines the descriptor P##_plugin of plugin P (the SPMVLAB_PLUGIN_STANDARD
 * members, its version, dtypes, summary and reference, then any optional
 * members by name) and exports it as the plugin's entry:
 *   SPMVLAB_PLUGIN_DEFINE(mine, "1.0.0", SPMVLAB_DTYPES_F64_F32, "summary", "reference",
 *                         .check_options = mine_check_options); */
#define SPMVLAB_PLUGIN_DEFINE(P, ver, dtype_set, summary_text, ... /* reference, optional members */) \
    static const spmvlab_plugin P##_plugin;                                                            \
    SPMVLAB_PLUGIN_ENTRY(P##_plugin)                                                                   \
    static const spmvlab_plugin P##_plugin = {SPMVLAB_PLUGIN_STANDARD(P), .version = ver,             \
                                              .dtypes = dtype_set, .summary = summary_text,           \
                                              .reference = __VA_ARGS__}

/* Every option-table row has six columns, so a table reads as one:
 *   SPMVLAB_OPTION(mine_opts, block, SPMVLAB_OPT_INT, "256", "32..1024", "threads per block"),
 *   SPMVLAB_OPTION(mine_opts, kernel, SPMVLAB_OPT_ENUM, "auto", "", "the SpMV kernel"),
 *   SPMVLAB_CHOICE(mine_opts, kernel, MINE_KERNEL_AUTO, "auto", "", "chosen by row lengths"),
 *   SPMVLAB_CHOICE(mine_opts, kernel, MINE_KERNEL_VECTOR, "vector", "", "a warp a row"),
 * An option fills member m of the options struct S and is keyed by its
 * name: its type, its default and its range as INI text ("lo..hi" for INT,
 * FLOAT and INT_AUTO, "" otherwise), a help. An ENUM is followed by one
 * choice row per choice: the member, the value it then holds (a named
 * constant), the choice's name, no range, a help. SPMVLAB_EXPERT rows are
 * listed only by `spmvlab list -v --all`. */
#define SPMVLAB_OPTION(S, m, type, def, range, help) SPMVLAB_KEYED_OPTION(S, #m, m, type, def, range, help, 0)
#define SPMVLAB_EXPERT(S, m, type, def, range, help) \
    SPMVLAB_KEYED_OPTION(S, #m, m, type, def, range, help, SPMVLAB_OPT_EXPERT)
/* A row whose key is not its member's name (a C keyword such as long);
 * flags is 0 or SPMVLAB_OPT_EXPERT. */
#define SPMVLAB_KEYED_OPTION(S, key, m, type, def, range, help, flags) \
    {key, type, def, 0, 0, NULL, help, SPMVLAB_FIELD(S, m), NULL, 0, flags, range}
/* Naming the member makes a unit that is not a member of S fail to compile;
 * the core writes only the option's own row. */
#define SPMVLAB_CHOICE(S, unit, value, name, range, help) \
    {name, SPMVLAB_OPT_CONST, NULL, 0, 0, NULL, help, SPMVLAB_FIELD(S, unit), #unit, value, 0, range}

/* ------------------------------------------------------------------------
 * convert: its start, its device copies and its end.
 * ---------------------------------------------------------------------- */

/* convert's own dtype check: OK when A's dtype is in dtype_set (the
 * descriptor's dtypes), else UNSUPPORTED naming the dtypes it takes. The
 * core refuses such runs before convert; `spmvlab check` hands convert an
 * undeclared dtype anyway to see the plugin refuse it by itself. */
static inline spmvlab_status spmvlab_check_dtype(spmvlab_ctx *ctx, const spmvlab_matrix *A, uint32_t dtype_set,
                                                 spmvlab_err *err)
{
    static const char *const names[] = {"f64", "f32", "f16"};
    if (dtype_set & SPMVLAB_DTYPE_BIT(A->dtype))
        return SPMVLAB_OK;
    char list[32] = "";
    for (int d = SPMVLAB_F64, n = 0; d <= SPMVLAB_F16; d++)
        if (dtype_set & SPMVLAB_DTYPE_BIT(d)) {
            size_t at = strlen(list);
            snprintf(list + at, sizeof list - at, "%s%s", n++ ? " and " : "", names[d]);
        }
    return ctx->fail(ctx, err, SPMVLAB_UNSUPPORTED, "the format supports %s only, not %s", list,
                     (unsigned)A->dtype <= SPMVLAB_F16 ? names[A->dtype] : "this dtype");
}

/* The start of convert: *out = NULL, the dtype check, then *made = a zeroed
 * format of size bytes (calloc). Returns OK, UNSUPPORTED or NOMEM. */
static inline spmvlab_status spmvlab_convert_begin(spmvlab_ctx *ctx, const spmvlab_matrix *A, uint32_t dtype_set,
                                                   void **made, size_t size, void **out, spmvlab_err *err)
{
    *out = NULL;
    *made = NULL;
    spmvlab_status st = spmvlab_check_dtype(ctx, A, dtype_set, err);
    if (st != SPMVLAB_OK)
        return st;
    *made = calloc(1, size);
    return *made ? SPMVLAB_OK : ctx->fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for the format");
}

/* Declares F *f, a zeroed format of type F (a struct with members ctx,
 * dtype, rows, cols and nnz, which it fills from ctx and A) made by
 * spmvlab_convert_begin; returns from convert with the status when that
 * fails. The first statement of a convert:
 *   SPMVLAB_CONVERT_BEGIN(mine_fmt, f, ctx, A, SPMVLAB_DTYPES_F64_F32, out, err); */
#define SPMVLAB_CONVERT_BEGIN(F, f, ctx, A, dtype_set, out, err)                                           \
    F *f = NULL;                                                                                            \
    do {                                                                                                    \
        void *made_;                                                                                        \
        spmvlab_status begun_ = spmvlab_convert_begin(ctx, A, dtype_set, &made_, sizeof(F), out, err);      \
        if (begun_ != SPMVLAB_OK)                                                                           \
            return begun_;                                                                                  \
        f = (F *)made_;                                                                                     \
        f->ctx = (ctx);                                                                                     \
        f->dtype = (A)->dtype;                                                                              \
        f->rows = (A)->rows;                                                                                \
        f->cols = (A)->cols;                                                                                \
        f->nnz = (A)->nnz;                                                                                  \
    } while (0)

/* Allocates bytes of tracked device memory at *dst and, when src is not
 * NULL, uploads src there; adds bytes to *held (the plugin's running
 * footprint) once allocated. 0 bytes: *dst = NULL and OK. Returns the
 * core's status (LIMIT, NOMEM, CUDA_ERROR) with its sentence in err. */
static inline spmvlab_status spmvlab_dev_put(spmvlab_ctx *ctx, void **dst, const void *src, size_t bytes,
                                             size_t *held, spmvlab_err *err)
{
    *dst = NULL;
    if (bytes == 0)
        return SPMVLAB_OK;
    spmvlab_status st = ctx->dev_alloc(ctx, dst, bytes, err);
    if (st != SPMVLAB_OK) {
        *dst = NULL;
        return st;
    }
    *held += bytes;
    return src ? ctx->upload(ctx, *dst, src, bytes, err) : SPMVLAB_OK;
}

/* Allocates bytes of tracked device memory at *dst and uploads src there
 * (src NULL: allocation only). 0 bytes: *dst = NULL and OK. The core counts
 * the bytes, so a plugin keeps no counter of its own. Returns the core's
 * status (LIMIT, NOMEM, CUDA_ERROR) with its sentence in err. */
static inline spmvlab_status spmvlab_put(spmvlab_ctx *ctx, void **dst, const void *src, size_t bytes,
                                         spmvlab_err *err)
{
    size_t unused = 0;
    return spmvlab_dev_put(ctx, dst, src, bytes, &unused, err);
}

/* One array of a format for spmvlab_put_all: where the device pointer goes,
 * the host data (NULL: allocate only) and its size in bytes. */
typedef struct spmvlab_array {
    void **dst;
    const void *src;
    size_t bytes;
} spmvlab_array;

/* spmvlab_dev_put for each of n arrays in order, adding their bytes to
 * *held (a format that reports its device bytes, as describe's
 * bytes_per_nnz); stops at the first failure and returns its status (the
 * arrays already placed stay for destroy). */
static inline spmvlab_status spmvlab_dev_put_all(spmvlab_ctx *ctx, const spmvlab_array *a, int n, size_t *held,
                                                 spmvlab_err *err)
{
    for (int k = 0; k < n; k++) {
        spmvlab_status st = spmvlab_dev_put(ctx, a[k].dst, a[k].src, a[k].bytes, held, err);
        if (st != SPMVLAB_OK)
            return st;
    }
    return SPMVLAB_OK;
}

/* spmvlab_put for each of n arrays in order; stops at the first failure
 * and returns its status (the arrays already placed stay for destroy). */
static inline spmvlab_status spmvlab_put_all(spmvlab_ctx *ctx, const spmvlab_array *a, int n, spmvlab_err *err)
{
    size_t unused = 0;
    return spmvlab_dev_put_all(ctx, a, n, &unused, err);
}

/* ctx->dev_free for each of n device pointers (NULL ones are skipped). */
static inline void spmvlab_free_all(spmvlab_ctx *ctx, void *const *ptrs, int n)
{
    for (int k = 0; k < n; k++)
        ctx->dev_free(ctx, ptrs[k]);
}

/* The number of elements of the array a. */
#define SPMVLAB_COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* free() for each of n host pointers (NULL ones included). */
static inline void spmvlab_free_each(void *const *ptrs, int n)
{
    for (int k = 0; k < n; k++)
        free(ptrs[k]);
}

/* The start of destroy(handle): declares F *f, the format behind handle,
 * and returns from destroy when it is NULL (nothing was made). */
#define SPMVLAB_DESTROY_BEGIN(F, f, handle) \
    F *f = (F *)(handle);                   \
    if (!f)                                 \
        return

/* The end of destroy: ctx->dev_free for the ndev device pointers, free()
 * for the nhost host pointers, then free(fmt):
 *   spmvlab_free_format(f->ctx, f, dev, SPMVLAB_COUNT(dev), host, SPMVLAB_COUNT(host)); */
static inline void spmvlab_free_format(spmvlab_ctx *ctx, void *fmt, void *const *dev, int ndev, void *const *host,
                                       int nhost)
{
    spmvlab_free_all(ctx, dev, ndev);
    spmvlab_free_each(host, nhost);
    free(fmt);
}

/* The end of convert: on OK hands the format f out in *out, else frees it
 * with the plugin's destroy; returns st. `return spmvlab_converted(st, f, my_destroy, out);` */
static inline spmvlab_status spmvlab_converted(spmvlab_status st, void *f, void (*destroy)(void *), void **out)
{
    if (st == SPMVLAB_OK)
        *out = f;
    else
        destroy(f);
    return st;
}

/* check_options' refusal: writes the sentence (printf format) into err and
 * returns INVALID_OPTION. `return spmvlab_bad_option(err, "x = %d must be ...", v);` */
static inline spmvlab_status spmvlab_bad_option(spmvlab_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline spmvlab_status spmvlab_bad_option(spmvlab_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return SPMVLAB_INVALID_OPTION;
}

/* 1 when v is a power of two (1, 2, 4, ...) or SPMVLAB_AUTO: a lane count an
 * option may hold. */
static inline int spmvlab_pow2_or_auto(int v) { return v == SPMVLAB_AUTO || (v > 0 && (v & (v - 1)) == 0); }

/* spmv's status after a launch: OK for code 0 (cudaSuccess), else
 * CUDA_ERROR with "<what> failed: <text(code)>", what being a printf format
 * with its arguments and text the plugin's wrapper of cudaGetErrorString
 * (the .c files need no CUDA header):
 *   return spmvlab_launched(f->ctx, err, my_launch(f, x, y, stream), my_error_string, "my kernel launch"); */
static inline spmvlab_status spmvlab_launched(spmvlab_ctx *ctx, spmvlab_err *err, int code, const char *(*text)(int),
                                              const char *what, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static inline spmvlab_status spmvlab_launched(spmvlab_ctx *ctx, spmvlab_err *err, int code, const char *(*text)(int),
                                              const char *what, ...)
{
    if (code == 0)
        return SPMVLAB_OK;
    char said[SPMVLAB_ERR_LEN];
    va_list ap;
    va_start(ap, what);
    vsnprintf(said, sizeof said, what, ap);
    va_end(ap);
    return ctx->fail(ctx, err, SPMVLAB_CUDA_ERROR, "%s failed: %s", said, text(code));
}

/* Defines `static spmvlab_status P##_spmv_host(fmt, x, y, err)` calling
 * P##_host_f64(const F *, const double *, double *) or P##_host_f32 (and
 * P##_host_f16 on uint16_t for the _F16 form) by the format's dtype member.
 * The host execution of a plugin then holds its format and nothing else. */
/* One body for the three forms: a call per dtype the plugin supports (the
 * others expand to nothing; the core never passes an unsupported dtype). */
#define SPMVLAB_HOST_CALL_F64(P) P##_host_f64(f, (const double *)x, (double *)y)
#define SPMVLAB_HOST_CALL_F32(P) P##_host_f32(f, (const float *)x, (float *)y)
#define SPMVLAB_HOST_CALL_F16(P) P##_host_f16(f, (const uint16_t *)x, (uint16_t *)y)
#define SPMVLAB_HOST_CALL_NONE(P) (void)0
#define SPMVLAB_SPMV_HOST_BY_DTYPE(P, F, dtype_member, F32, F16)                                  \
    static spmvlab_status P##_spmv_host(const void *fmt, const void *x, void *y, spmvlab_err *err) \
    {                                                                                          \
        const F *f = (const F *)fmt;                                                           \
        (void)err;                                                                             \
        if (f->dtype_member == SPMVLAB_F64)                                                    \
            SPMVLAB_HOST_CALL_F64(P);                                                          \
        else if (f->dtype_member == SPMVLAB_F32)                                               \
            SPMVLAB_HOST_CALL_##F32(P);                                                        \
        else                                                                                   \
            SPMVLAB_HOST_CALL_##F16(P);                                                        \
        return SPMVLAB_OK;                                                                     \
    }
#define SPMVLAB_SPMV_HOST_F64_F32(P, F, dtype_member) SPMVLAB_SPMV_HOST_BY_DTYPE(P, F, dtype_member, F32, NONE)
#define SPMVLAB_SPMV_HOST_F64_F16(P, F, dtype_member) SPMVLAB_SPMV_HOST_BY_DTYPE(P, F, dtype_member, NONE, F16)
#define SPMVLAB_SPMV_HOST_F64_F32_F16(P, F, dtype_member) SPMVLAB_SPMV_HOST_BY_DTYPE(P, F, dtype_member, F32, F16)
/* Declares P##_host_f64 and P##_host_f32 on the format F, the pair
 * SPMVLAB_SPMV_HOST_F64_F32 calls, for the header the host file shares. */
#define SPMVLAB_HOST_DECLS_F64_F32(P, F)                       \
    void P##_host_f64(const F *f, const double *x, double *y); \
    void P##_host_f32(const F *f, const float *x, float *y);
/* For host kernels written once as a macro DEFINE(T, FMA, SUFFIX) that
 * defines P##_host_##SUFFIX: instantiates it for f64 (double, fma) and f32
 * (float, fmaf), then defines the dispatch of SPMVLAB_SPMV_HOST_F64_F32. */
#define SPMVLAB_SPMV_HOST_FMA_F64_F32(P, F, DEFINE) \
    DEFINE(double, fma, f64)                        \
    DEFINE(float, fmaf, f32)                        \
    SPMVLAB_SPMV_HOST_F64_F32(P, F, dtype)

/* ------------------------------------------------------------------------
 * Half precision on the host (round to nearest even), for spmv_host.
 * ---------------------------------------------------------------------- */
static inline float spmvlab_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        bits = sign;
    } else { /* subnormal: normalise */
        int e = -1;
        do { man <<= 1; e++; } while (!(man & 0x400u));
        bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline uint16_t spmvlab_float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    if (exp == 0xff) /* Inf or NaN (keep NaN quiet and non-zero) */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0u));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) { /* subnormal or zero */
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t half = man >> shift, rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1u)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = sign | ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1u)))
        half++; /* may carry into the exponent: correct rounding to Inf too */
    return (uint16_t)half;
}

/* Entry k of an array of dtype d as a double, and v stored there (f16
 * rounded to nearest even): the host's one dtype dispatch for values. */
static inline double spmvlab_value_get(const void *p, size_t k, spmvlab_dtype d)
{
    if (d == SPMVLAB_F64)
        return ((const double *)p)[k];
    if (d == SPMVLAB_F32)
        return ((const float *)p)[k];
    return spmvlab_half_to_float(((const uint16_t *)p)[k]);
}

static inline void spmvlab_value_put(void *p, size_t k, spmvlab_dtype d, double v)
{
    if (d == SPMVLAB_F64)
        ((double *)p)[k] = v;
    else if (d == SPMVLAB_F32)
        ((float *)p)[k] = (float)v;
    else
        ((uint16_t *)p)[k] = spmvlab_float_to_half((float)v);
}

#endif /* SPMVLAB_PLUGIN_HELPERS_H */
