/*
 * A plugin instance on one matrix: the services table handed to the plugin
 * (tracked allocation, copies, error sentences, log) and the convert /
 * destroy calls around it, timed and accounted.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/core.h"
#include "spmvlab/value_table.h"

typedef struct alloc_entry {
    void *ptr;
    size_t bytes;
} alloc_entry;

typedef struct alloc_table {
    alloc_entry *e;
    size_t n, cap;
} alloc_table;

static spmvlab_instance *owner(spmvlab_ctx *ctx) { return (spmvlab_instance *)ctx->core_private; }

static spmvlab_status ctx_fail(spmvlab_ctx *ctx, spmvlab_err *err, spmvlab_status st, const char *fmt, ...)
{
    spmvlab_instance *in = owner(ctx);
    char cause[SPMVLAB_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cause, sizeof cause, fmt, ap);
    va_end(ap);
    size_t n = strlen(cause);
    while (n && (cause[n - 1] == '.' || cause[n - 1] == '\n'))
        cause[--n] = '\0';
    spmvlab_errf(err, "%s on %s: %s", in->label, in->matrix ? in->matrix->name : "?", cause);
    return st;
}

static void ctx_log(spmvlab_ctx *ctx, const char *fmt, ...)
{
    spmvlab_instance *in = owner(ctx);
    size_t used = strlen(in->log);
    if (used + 2 >= sizeof in->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->log + used, sizeof in->log - used - 1, fmt, ap);
    va_end(ap);
    used = strlen(in->log);
    in->log[used] = '\n';
    in->log[used + 1] = '\0';
}

static spmvlab_status ctx_dev_alloc(spmvlab_ctx *ctx, void **ptr, size_t bytes, spmvlab_err *err)
{
    spmvlab_instance *in = owner(ctx);
    *ptr = NULL;
    if (bytes == 0)
        return SPMVLAB_OK;
    if (in->limit_bytes && in->cur_bytes + bytes > in->limit_bytes)
        return ctx_fail(ctx, err, SPMVLAB_LIMIT,
                        "allocating %zu more bytes would exceed the memory limit of %zu bytes (%zu in use)",
                        bytes, in->limit_bytes, in->cur_bytes);
    alloc_table *t = in->track;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 32;
        alloc_entry *e = realloc(t->e, cap * sizeof *e);
        if (!e)
            return ctx_fail(ctx, err, SPMVLAB_NOMEM, "out of host memory for allocation records");
        t->e = e;
        t->cap = cap;
    }
    spmvlab_err why;
    spmvlab_status st = spmvlab_dev_malloc(in->rt, ptr, bytes, &why);
    if (st != SPMVLAB_OK)
        return ctx_fail(ctx, err, st, "%s", why.msg);
    t->e[t->n].ptr = *ptr;
    t->e[t->n++].bytes = bytes;
    in->cur_bytes += bytes;
    in->live_allocs++;
    if (in->cur_bytes > in->peak_bytes)
        in->peak_bytes = in->cur_bytes;
    return SPMVLAB_OK;
}

static void ctx_dev_free(spmvlab_ctx *ctx, void *ptr)
{
    spmvlab_instance *in = owner(ctx);
    if (!ptr)
        return;
    alloc_table *t = in->track;
    for (size_t k = 0; k < t->n; k++)
        if (t->e[k].ptr == ptr) {
            in->cur_bytes -= t->e[k].bytes;
            in->live_allocs--;
            t->e[k] = t->e[--t->n];
            spmvlab_dev_free(in->rt, ptr);
            return;
        }
    ctx_log(ctx, "dev_free of %p, which this instance did not allocate, ignored", ptr);
}

static spmvlab_status ctx_upload(spmvlab_ctx *ctx, void *dst, const void *src, size_t bytes, spmvlab_err *err)
{
    spmvlab_err why;
    spmvlab_status st = spmvlab_dev_upload(owner(ctx)->rt, dst, src, bytes, &why);
    return st == SPMVLAB_OK ? st : ctx_fail(ctx, err, st, "%s", why.msg);
}

static spmvlab_status ctx_download(spmvlab_ctx *ctx, void *dst, const void *src, size_t bytes, spmvlab_err *err)
{
    spmvlab_err why;
    spmvlab_status st = spmvlab_dev_download(owner(ctx)->rt, dst, src, bytes, &why);
    return st == SPMVLAB_OK ? st : ctx_fail(ctx, err, st, "%s", why.msg);
}

static void ctx_declare_storage(spmvlab_ctx *ctx, spmvlab_dtype storage)
{
    spmvlab_instance *in = owner(ctx);
    if (storage == SPMVLAB_F64 || storage == SPMVLAB_F32 || storage == SPMVLAB_F16)
        in->storage = storage;
}

/* The shared value table of the instance's matrix (plugin.h), its refusal
 * or failure as "instance on matrix: cause". */
static spmvlab_status ctx_value_table(spmvlab_ctx *ctx, int count_all, const spmvlab_value_table **table,
                                      spmvlab_err *err)
{
    spmvlab_instance *in = owner(ctx);
    *table = NULL;
    if (!in->matrix || !in->matrix->values)
        return ctx_fail(ctx, err, SPMVLAB_INTERNAL, "the matrix was prepared without a value table");
    char why[SPMVLAB_ERR_LEN];
    spmvlab_status st = spmvlab_value_cache_get(in->matrix->values, &in->matrix->view, count_all, table, why,
                                                sizeof why);
    return st == SPMVLAB_OK ? st : ctx_fail(ctx, err, st, "%s", why);
}

/* Frees whatever the plugin left allocated and the records themselves. */
static size_t release_all(spmvlab_instance *in)
{
    alloc_table *t = in->track;
    size_t left = in->cur_bytes;
    if (t) {
        for (size_t k = 0; k < t->n; k++)
            spmvlab_dev_free(in->rt, t->e[k].ptr);
        free(t->e);
        free(t);
    }
    in->track = NULL;
    in->cur_bytes = 0;
    in->live_allocs = 0;
    return left;
}

spmvlab_status spmvlab_instance_convert(spmvlab_instance *in, spmvlab_runtime *rt, const spmvlab_loaded *plugin,
                                        const char *label, const spmvlab_optset *opts,
                                        const spmvlab_prepared *m, spmvlab_err *err)
{
    memset(in, 0, sizeof *in);
    in->plugin = plugin;
    in->rt = rt;
    in->matrix = m;
    in->limit_bytes = rt->mem_limit;
    snprintf(in->label, sizeof in->label, "%s", label ? label : plugin->desc->name);
    in->track = calloc(1, sizeof(alloc_table));
    if (!in->track) {
        spmvlab_errf(err, "%s on %s: out of host memory", in->label, m->name);
        return SPMVLAB_NOMEM;
    }
    spmvlab_ctx *c = &in->ctx;
    c->struct_size = sizeof *c;
    c->device = &rt->device;
    c->stream = rt->device.present ? rt->stream : NULL;
    c->dev_alloc = ctx_dev_alloc;
    c->dev_free = ctx_dev_free;
    c->upload = ctx_upload;
    c->download = ctx_download;
    c->fail = ctx_fail;
    c->log = ctx_log;
    c->core_private = in;
    c->declare_storage = ctx_declare_storage;
    c->value_table = ctx_value_table;
    in->storage = m->view.dtype;
    const spmvlab_plugin *p = plugin->desc;
    if (!(p->dtypes & SPMVLAB_DTYPE_BIT(m->view.dtype))) {
        ctx_fail(c, err, SPMVLAB_UNSUPPORTED, "the plugin does not support dtype %s",
                 spmvlab_dtype_name(m->view.dtype));
        release_all(in);
        return SPMVLAB_UNSUPPORTED;
    }
    err->msg[0] = '\0';
    double t0 = spmvlab_now_ms();
    spmvlab_status st = p->convert(c, &m->view, &opts->opts, &in->fmt, err);
    /* The whole device, not only ctx->stream: work a plugin left elsewhere
     * (a vendor library's stream, a plain cudaMemcpy) is then finished before
     * the first SpMV and counted in the conversion time. */
    spmvlab_err sync;
    spmvlab_status done = st == SPMVLAB_OK ? spmvlab_dev_sync_all(rt, &sync) : SPMVLAB_OK;
    if (done != SPMVLAB_OK)
        st = ctx_fail(c, err, done, "conversion: %s", sync.msg);
    in->convert_ms = spmvlab_now_ms() - t0;
    if (st != SPMVLAB_OK) {
        if (!err->msg[0])
            ctx_fail(c, err, st, "convert failed with status %s and no explanation", spmvlab_status_name(st));
        if (in->fmt)
            p->destroy(in->fmt);
        in->fmt = NULL;
        release_all(in);
        return st;
    }
    if (!in->fmt) {
        release_all(in);
        return ctx_fail(c, err, SPMVLAB_INTERNAL, "convert returned ok but no format");
    }
    return SPMVLAB_OK;
}

size_t spmvlab_instance_destroy(spmvlab_instance *in)
{
    if (in->fmt)
        in->plugin->desc->destroy(in->fmt);
    in->fmt = NULL;
    return release_all(in);
}

size_t spmvlab_instance_footprint(const spmvlab_instance *in)
{
    if (!in->fmt)
        return 0;
    /* From ABI 1.1 a plugin may leave the count to the core. */
    return in->plugin->desc->footprint ? in->plugin->desc->footprint(in->fmt) : in->cur_bytes;
}

void spmvlab_instance_describe(const spmvlab_instance *in, char *buf, size_t len)
{
    buf[0] = '\0';
    if (in->fmt && in->plugin->desc->describe)
        in->plugin->desc->describe(in->fmt, buf, len);
}
