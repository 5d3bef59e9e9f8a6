/* Generator parameters as text, the table of kinds, and the dispatcher
 * that validates parameters, generates the structure and fills values. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

static const spmvlab_gen_kind *const kinds[] = {
    &gen_kind_stencil2d5, &gen_kind_stencil3d7, &gen_kind_stencil3d27,
    &gen_kind_banded,     &gen_kind_uniform,    &gen_kind_rmat,
    &gen_kind_blocks,     &gen_kind_mixed,      &gen_kind_longrows,
};
#define KIND_COUNT ((int)(sizeof kinds / sizeof *kinds))
#define MAX_TABLE 24 /* rows of the longest parameter table */

const spmvlab_gen_kind *spmvlab_gen_kind_at(int i)
{
    return i >= 0 && i < KIND_COUNT ? kinds[i] : NULL;
}

const spmvlab_gen_kind *spmvlab_gen_kind_find(const char *name)
{
    for (int i = 0; name && i < KIND_COUNT; i++)
        if (strcmp(kinds[i]->name, name) == 0)
            return kinds[i];
    return NULL;
}

/* ---- the text list -------------------------------------------------------- */

static int key_ok(const char *k)
{
    if (!*k)
        return 0;
    for (; *k; k++)
        if (!(islower((unsigned char)*k) || isdigit((unsigned char)*k) || *k == '_'))
            return 0;
    return 1;
}

int spmvlab_gen_params_set(spmvlab_gen_params *p, const char *key, const char *value,
                           spmvlab_err *err)
{
    if (strlen(key) >= SPMVLAB_GEN_KEY_LEN || !key_ok(key))
        return spmvlab_errf(err, "parameter name '%s' is not [a-z0-9_]+ of at most %d characters",
                            key, SPMVLAB_GEN_KEY_LEN - 1), -1;
    if (strlen(value) >= SPMVLAB_GEN_VALUE_LEN)
        return spmvlab_errf(err, "value of parameter '%s' is longer than %d characters", key,
                            SPMVLAB_GEN_VALUE_LEN - 1), -1;
    int i = 0;
    while (i < p->count && strcmp(p->kv[i].key, key) != 0)
        i++;
    if (i == SPMVLAB_GEN_MAX_PARAMS)
        return spmvlab_errf(err, "more than %d generator parameters", SPMVLAB_GEN_MAX_PARAMS), -1;
    if (i == p->count) {
        p->count++;
        strcpy(p->kv[i].key, key);
    }
    strcpy(p->kv[i].value, value);
    return 0;
}

int spmvlab_gen_params_parse(spmvlab_gen_params *p, const char *text, spmvlab_err *err)
{
    const char *s = text;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        if (!*s)
            return 0;
        size_t n = strcspn(s, " \t,");
        char pair[SPMVLAB_GEN_KEY_LEN + SPMVLAB_GEN_VALUE_LEN + 2];
        if (n >= sizeof pair)
            return spmvlab_errf(err, "parameter '%.40s...' is too long", s), -1;
        memcpy(pair, s, n);
        pair[n] = '\0';
        char *eq = strchr(pair, '=');
        if (!eq || eq == pair || !eq[1])
            return spmvlab_errf(err, "parameter '%s' is not key=value", pair), -1;
        *eq = '\0';
        if (spmvlab_gen_params_set(p, pair, eq + 1, err))
            return -1;
        s += n;
    }
}

const char *spmvlab_gen_params_get(const spmvlab_gen_params *p, const char *key)
{
    for (int i = 0; p && i < p->count; i++)
        if (strcmp(p->kv[i].key, key) == 0)
            return p->kv[i].value;
    return NULL;
}

/* ---- typed values ----------------------------------------------------------- */

/* Parses text as the row's type into *out. Returns 0, or -1 with a sentence. */
static int parse_value(const char *kind, const spmvlab_option *o, const char *text, double *out,
                       spmvlab_err *err)
{
    if (o->type == SPMVLAB_OPT_ENUM) {
        const char *c = o->choices;
        for (int idx = 0; c && *c; idx++) {
            size_t n = strcspn(c, "|");
            if (strlen(text) == n && strncmp(c, text, n) == 0) {
                *out = idx;
                return 0;
            }
            c += n + (c[n] == '|');
        }
        return spmvlab_errf(err, "%s: %s = '%s' is not one of %s", kind, o->key, text, o->choices),
               -1;
    }
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v))
        return spmvlab_errf(err, "%s: %s = '%s' is not a number", kind, o->key, text), -1;
    if (o->type == SPMVLAB_OPT_INT && v != floor(v))
        return spmvlab_errf(err, "%s: %s = '%s' is not an integer", kind, o->key, text), -1;
    if (v < o->min || v > o->max)
        return spmvlab_errf(err, "%s: %s = %s is outside [%.15g, %.15g]", kind, o->key, text,
                            o->min, o->max), -1;
    *out = v;
    return 0;
}

static int table_size(const spmvlab_gen_kind *k)
{
    int n = 0;
    while (k->params[n].key)
        n++;
    return n;
}

int gen_check_key(const spmvlab_gen_kind *kind, const char *key, const char *value,
                  spmvlab_err *err)
{
    int n = table_size(kind);
    for (int i = 0; i < n; i++) {
        if (strcmp(kind->params[i].key, key) == 0) {
            double v;
            return parse_value(kind->name, &kind->params[i], value, &v, err) ? -1 : i;
        }
    }
    char names[512] = "";
    for (int i = 0; i < n; i++) {
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", kind->params[i].key);
    }
    spmvlab_errf(err, "%s has no parameter '%s' (it takes %s)", kind->name, key, names);
    return -1;
}

/* Finds the kind and fills v[] (table order) from defaults and p, then runs
 * the kind's cross checks. Returns the kind, or NULL with a sentence. */
static const spmvlab_gen_kind *resolve(const char *name, const spmvlab_gen_params *p, double *v,
                                       spmvlab_err *err)
{
    const spmvlab_gen_kind *kind = spmvlab_gen_kind_find(name);
    if (!kind) {
        char names[512] = "";
        for (int i = 0; i < KIND_COUNT; i++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", kinds[i]->name);
        }
        spmvlab_errf(err, "unknown generator '%s' (kinds: %s)", name ? name : "", names);
        return NULL;
    }
    int n = table_size(kind);
    for (int i = 0; i < n; i++)
        if (parse_value(kind->name, &kind->params[i], kind->params[i].def, &v[i], err))
            return NULL; /* a bad default: caught by the tests */
    for (int j = 0; p && j < p->count; j++) {
        int i = gen_check_key(kind, p->kv[j].key, p->kv[j].value, err);
        if (i < 0 || parse_value(kind->name, &kind->params[i], p->kv[j].value, &v[i], err))
            return NULL;
    }
    if (kind->check && kind->check(v, err))
        return NULL;
    return kind;
}

int spmvlab_gen_check(const char *kind, const spmvlab_gen_params *p, spmvlab_err *err)
{
    double v[MAX_TABLE];
    return resolve(kind, p, v, err) ? 0 : -1;
}

int spmvlab_gen(const char *name, const spmvlab_gen_params *p, spmvlab_csr *out, spmvlab_err *err)
{
    double v[MAX_TABLE];
    memset(out, 0, sizeof *out);
    const spmvlab_gen_kind *kind = resolve(name, p, v, err);
    if (!kind || kind->generate(v, out, err))
        return -1;
    int n = table_size(kind);
    gen_fill_values(out, (int)v[n - 1], (uint64_t)v[n - 2]);
    return 0;
}

/* Shortest text that reads back as the same double. */
static void format_double(char *buf, size_t len, double v)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, len, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

int spmvlab_gen_describe(const char *name, const spmvlab_gen_params *p, char *buf, size_t len,
                         spmvlab_err *err)
{
    double v[MAX_TABLE];
    const spmvlab_gen_kind *kind = resolve(name, p, v, err);
    if (!kind)
        return -1;
    size_t used = (size_t)snprintf(buf, len, "%s", kind->name);
    for (int i = 0; kind->params[i].key && used < len; i++) {
        const spmvlab_option *o = &kind->params[i];
        char val[64];
        if (o->type == SPMVLAB_OPT_ENUM) {
            const char *c = o->choices;
            for (int k = 0; k < (int)v[i]; k++)
                c += strcspn(c, "|") + 1;
            snprintf(val, sizeof val, "%.*s", (int)strcspn(c, "|"), c);
        } else if (o->type == SPMVLAB_OPT_INT) {
            snprintf(val, sizeof val, "%.0f", v[i]);
        } else {
            format_double(val, sizeof val, v[i]);
        }
        used += (size_t)snprintf(buf + used, len - used, " %s=%s", o->key, val);
    }
    return 0;
}
