/*
 * Where run keeps the value of each row of the option table it takes
 * (host/options): a member of run_settings, stored as the core stores a
 * plugin option's field, or an apply function for the values the option
 * parser does not type: lists (matrices, sets, plugin folders), dtypes,
 * byte counts, the 64-bit seed, shards and devices.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host_options.h"
#include "run_values.h"
#include "spmvlab/gen.h"
#include "shard.h"
#include "devices.h"

/* "1234", "64M", "2G", "512k" (powers of 1024) into *out. Returns 0 or -1. */
static int run_parse_bytes(const char *text, size_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)text[0]))
        return -1;
    double v = strtod(text, &end);
    if (end == text || errno || v < 0)
        return -1;
    const char *units = "kmgt", *u = *end ? strchr(units, tolower((unsigned char)*end)) : NULL;
    if (*end && !u)
        return -1;
    for (const char *p = units; u && p <= u; p++)
        v *= 1024.0;
    if (u) {
        end++;
        if (*end == 'i' || *end == 'I')
            end++;
        if (*end == 'b' || *end == 'B')
            end++;
    }
    if (*end || v > 1.8e19)
        return -1;
    *out = (size_t)v;
    return 0;
}

int run_push_str(char **list, int *n, int max, const char *v, const char *what, spmvlab_err *err)
{
    if (*n == max)
        return spmvlab_errf(err, "more than %d %s", max, what), -1;
    list[*n] = strdup(v);
    if (!list[*n])
        return spmvlab_errf(err, "out of host memory"), -1;
    (*n)++;
    return 0;
}

/* A relative path of the INI file: as given when it exists, else beside
 * the INI file. */
static void resolve_ini_path(const char *ini, const char *p, char *out, size_t len)
{
    struct stat st;
    snprintf(out, len, "%s", p);
    if (!ini || p[0] == '/' || stat(p, &st) == 0)
        return;
    const char *slash = strrchr(ini, '/');
    if (slash)
        snprintf(out, len, "%.*s/%s", (int)(slash - ini), ini, p);
}

static int apply_dtype(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)ini;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    s->ndtypes = 0;
    for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
        spmvlab_dtype d;
        if (spmvlab_dtype_parse(t, &d))
            return spmvlab_errf(err, "unknown dtype '%s'; use f64, f32 or f16", t), -1;
        int seen = 0;
        for (int k = 0; k < s->ndtypes; k++)
            seen |= s->dtypes[k] == d;
        if (!seen)
            s->dtypes[s->ndtypes++] = d;
    }
    return s->ndtypes ? 0 : (spmvlab_errf(err, "no dtype given; use f64, f32 or f16"), -1);
}

/* One entry: "rcm", or "rcm+call" for the permutation kept inside every call. */
static int parse_order_spec(char *t, run_order_spec *o, spmvlab_err *err)
{
    char *plus = strchr(t, '+');
    o->per_call = plus != NULL;
    if (plus) {
        if (plus == t)
            return spmvlab_errf(err, "\"%s\": +call follows an ordering (rcm+call, degree+call)", t), -1;
        if (strcmp(plus, "+call") != 0)
            return spmvlab_errf(err, "\"%s\": the only suffix of an ordering is +call (rcm+call, degree+call)", t),
                   -1;
        *plus = '\0';
    }
    if (spmvlab_ordering_parse(t, &o->ordering, err))
        return -1;
    if (o->per_call && o->ordering == SPMVLAB_ORDER_NONE)
        return spmvlab_errf(err, "\"none+call\": the file's order has no permutation to keep inside the call "
                                 "(use rcm+call or degree+call)"),
               -1;
    return 0;
}

/* "none,rcm,degree,rcm+call": each ordering once, in the order given. */
static int apply_reorder(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)ini;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    s->norders = 0;
    if (!text[0])
        return 0; /* the default: the file's order, no ordering columns */
    for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
        run_order_spec o;
        if (parse_order_spec(t, &o, err))
            return -1;
        int seen = 0;
        for (int k = 0; k < s->norders; k++)
            seen |= s->orders[k].ordering == o.ordering && s->orders[k].per_call == o.per_call;
        if (seen)
            continue;
        if (s->norders == (int)(sizeof s->orders / sizeof *s->orders))
            return spmvlab_errf(err, "--reorder takes at most %d orderings", s->norders), -1;
        s->orders[s->norders++] = o;
    }
    return s->norders ? 0
                      : (spmvlab_errf(err, "--reorder needs a list of orderings (none, rcm, degree, rcm+call, "
                                           "degree+call)"),
                         -1);
}

static int apply_seed(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)ini;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!isdigit((unsigned char)text[0]) || *end || errno)
        return spmvlab_errf(err, "'%s' is not a whole number >= 0", text), -1;
    s->seed = v;
    return 0;
}

static int apply_mem_limit(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)ini;
    s->mem_limit = 0;
    if (text[0] && run_parse_bytes(text, &s->mem_limit))
        return spmvlab_errf(err, "'%s' is not a byte count (e.g. 4G)", text), -1;
    return 0;
}

static int apply_config(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)ini;
    (void)err;
    snprintf(s->config_path, sizeof s->config_path, "%s", text);
    return 0;
}

/* Calls each for every item of a comma or blank separated list. */
static int each_item(run_settings *s, const char *ini, const char *text, spmvlab_err *err,
                     int (*each)(run_settings *, const char *, const char *, spmvlab_err *))
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save))
        if (each(s, ini, t, err))
            return -1;
    return 0;
}

static int add_matrix(run_settings *s, const char *ini, const char *t, spmvlab_err *err)
{
    char p[4096];
    resolve_ini_path(ini, t, p, sizeof p);
    return run_push_str(s->matrix_args, &s->nmatrix_args, RUN_MAX_LIST, p, "matrix arguments", err);
}

static int apply_matrices(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    return s->matrices_given ? 0 : each_item(s, ini, text, err, add_matrix);
}

static int add_set_name(run_settings *s, const char *ini, const char *t, spmvlab_err *err)
{
    if (strchr(t, '='))
        return spmvlab_errf(err, "names matrix sets; options belong in the instance's section"), -1;
    char p[4096];
    if (strstr(t, ".ini"))
        resolve_ini_path(ini, t, p, sizeof p);
    else
        snprintf(p, sizeof p, "%s", t);
    return run_push_str(s->set_names, &s->nset_names, RUN_MAX_LIST, p, "matrix sets", err);
}

/* INI: a list of set names. Command line: one set name. */
static int apply_matrix_set(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    if (ini)
        return s->matrices_given ? 0 : each_item(s, ini, text, err, add_set_name);
    if (!text[0])
        return spmvlab_errf(err, "needs the name of a matrix set (small, large, corpus or FILE.ini)"), -1;
    s->matrices_given = 1;
    return add_set_name(s, NULL, text, err);
}

/* An instance override, LABEL.KEY=VALUES (or KEY=VALUES with one label). */
static int apply_option(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)ini;
    if (!strchr(text, '='))
        return spmvlab_errf(err, "'%s' is not LABEL.KEY=VALUES (a matrix set is --matrix-set NAME)", text), -1;
    return run_push_str(s->overrides, &s->noverrides, RUN_MAX_LIST, text, "instance options", err);
}

static int apply_plugin_dir(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    char p[4096];
    resolve_ini_path(ini, text, p, sizeof p);
    return text[0] ? run_push_str(s->plugin_dirs, &s->nplugin_dirs, 32, p, "plugin folders", err) : 0;
}

static int apply_part(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)ini;
    spmvlab_part part;
    s->part = -1;
    if (!text[0])
        return 0;
    if (spmvlab_part_parse(text, &part, err))
        return -1;
    s->part = (int)part;
    return 0;
}

static int apply_shard(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)ini;
    s->shard_index = 0;
    s->shard_count = 1;
    return text[0] ? shard_parse(text, &s->shard_index, &s->shard_count, err) : 0;
}

static int apply_devices(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)ini;
    snprintf(s->devices, sizeof s->devices, "%s", text);
    return text[0] ? workers_check_spec(text, err) : 0;
}

static int apply_device(run_settings *s, const char *ini, const char *text, spmvlab_err *err)
{
    (void)s;
    (void)ini;
    return text[0] ? workers_select_device(text, err) : 0;
}

typedef int (*run_apply_fn)(run_settings *s, const char *ini, const char *text, spmvlab_err *err);

/* Where run keeps a row's value. */
typedef struct run_sink {
    host_option_id id;
    size_t offset, size; /* a member of run_settings, or size 0 */
    run_apply_fn apply;  /* else the function that takes the text */
} run_sink;

#define AT(member) SPMVLAB_FIELD(run_settings, member), NULL
#define BY(fn) 0, 0, fn

static const run_sink run_sinks[] = {
    {OPT_PLUGINS, AT(labels)},
    {OPT_CONFIG, BY(apply_config)},
    {OPT_MATRICES_KEY, BY(apply_matrices)},
    {OPT_OPTION, BY(apply_option)},
    {OPT_MATRIX_SET, BY(apply_matrix_set)},
    {OPT_DTYPE, BY(apply_dtype)},
    {OPT_REORDER, BY(apply_reorder)},
    {OPT_OUTPUT, AT(output)},
    {OPT_JSON, AT(json)},
    {OPT_BASELINE, AT(baseline)},
    {OPT_PLUGIN_DIR, BY(apply_plugin_dir)},
    {OPT_REPS, AT(reps)},
    {OPT_WARMUP, AT(warmup)},
    {OPT_TIME_BUDGET_MS, AT(time_budget_ms)},
    {OPT_TIMING, AT(timing)},
    {OPT_NOISE, AT(noise)},
    {OPT_FLUSH_L2, AT(flush_l2)},
    {OPT_ISOLATE, AT(isolate)},
    {OPT_TIMEOUT, AT(timeout_s)},
    {OPT_RESUME, AT(resume)},
    {OPT_SEED, BY(apply_seed)},
    {OPT_MEM_LIMIT, BY(apply_mem_limit)},
    {OPT_SHARD, BY(apply_shard)},
    {OPT_PART, BY(apply_part)},
    {OPT_DEVICES, BY(apply_devices)},
    {OPT_DEVICE, BY(apply_device)},
    {OPT_VERBOSE, AT(verbose)},
    {OPT_COLUMNS, AT(show_columns)},
};
#define NSINKS ((int)(sizeof run_sinks / sizeof *run_sinks))

#undef AT
#undef BY

/* The place of row id's value, or NULL for a row that is none of run's. */
static const run_sink *sink_of(int id)
{
    for (int k = 0; k < NSINKS; k++)
        if ((int)run_sinks[k].id == id)
            return &run_sinks[k];
    return NULL;
}

int run_store(run_settings *s, const spmvlab_flag_use *u, spmvlab_err *err)
{
    const run_sink *k = sink_of(u->row);
    if (!k)
        return spmvlab_errf(err, "%s is no setting of run", host_options[u->row].opt.key), -1;
    if (k->size) {
        spmvlab_option o = host_options[u->row].opt;
        o.field_offset = k->offset;
        o.field_size = k->size;
        spmvlab_option_field_store(s, &o, &u->v);
        return 0;
    }
    spmvlab_err why;
    if (!k->apply(s, u->file, u->text, &why))
        return 0;
    char flag[80];
    spmvlab_flag_name(&host_options[u->row], flag, sizeof flag);
    if (u->file)
        spmvlab_errf(err, "%s:%d: [run] %s: %s", u->file, u->line, host_options[u->row].opt.key, why.msg);
    else
        spmvlab_errf(err, "%s: %s", flag, why.msg);
    return -1;
}

int run_store_defaults(run_settings *s, spmvlab_err *err)
{
    for (int k = 0; k < NSINKS; k++) {
        const spmvlab_option *o = &host_options[run_sinks[k].id].opt;
        spmvlab_flag_use u = {(int)run_sinks[k].id, o->def, {0}, NULL, 0};
        if (!run_sinks[k].size && !o->def[0])
            continue;
        if (spmvlab_option_parse(o, o->def, &u.v) != SPMVLAB_OPT_FINE)
            return spmvlab_errf(err, "the default of %s is unusable", o->key), -1;
        u.v.s = o->def;
        if (run_store(s, &u, err))
            return -1;
    }
    return 0;
}
