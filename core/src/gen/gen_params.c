/* Generator parameters as text, the table of kinds, and the dispatcher
 * that parses parameters with the core's option engine into the kind's
 * parameter struct, generates the structure and fills values. */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

static const spmvlab_gen_kind *const kinds[] = {
    &gen_kind_stencil2d5, &gen_kind_stencil3d7, &gen_kind_stencil3d27,
    &gen_kind_banded,     &gen_kind_uniform,    &gen_kind_rmat,
    &gen_kind_blocks,     &gen_kind_mixed,      &gen_kind_longrows,
    &gen_kind_vblocks,
    &gen_kind_powerlaw,   &gen_kind_clustered,  &gen_kind_blockmix,
};
#define KIND_COUNT ((int)(sizeof kinds / sizeof *kinds))

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

/* ---- typed values: the core's option engine ------------------------------ */

/* A parameter struct of any kind fits here (kinds declare a few numbers). */
typedef union params_buf {
    max_align_t align;
    unsigned char bytes[512];
} params_buf;

/* Parses text as row o and stores it into the struct p (when not NULL).
 * Returns 0, or -1 with a sentence naming the kind and the key. */
static int parse_value(const char *kind, const spmvlab_option *o, const char *text, void *p,
                       spmvlab_err *err)
{
    spmvlab_opt_value v = {0};
    switch (spmvlab_option_parse(o, text, &v)) {
    case SPMVLAB_OPT_FINE:
        v.s = text;
        spmvlab_option_field_store(p, o, &v);
        return 0;
    case SPMVLAB_OPT_NOT_CHOICE:
        return spmvlab_errf(err, "%s: %s = '%s' is not one of %s", kind, o->key, text, o->choices), -1;
    case SPMVLAB_OPT_NOT_INTEGER:
        return spmvlab_errf(err, "%s: %s = '%s' is not an integer", kind, o->key, text), -1;
    case SPMVLAB_OPT_OUT_OF_RANGE:
        return spmvlab_errf(err, "%s: %s = %s is outside [%.15g, %.15g]", kind, o->key, text, o->min,
                            o->max), -1;
    default:
        return spmvlab_errf(err, "%s: %s = '%s' is not a number", kind, o->key, text), -1;
    }
}

/* The value of row o in the struct p, as a double. */
static double field_value(const void *p, const spmvlab_option *o)
{
    const unsigned char *at = (const unsigned char *)p + o->field_offset;
    if (o->type == SPMVLAB_OPT_FLOAT) {
        double d;
        memcpy(&d, at, sizeof d);
        return d;
    }
    if (o->field_size == sizeof(int64_t)) {
        int64_t i;
        memcpy(&i, at, sizeof i);
        return (double)i;
    }
    int i;
    memcpy(&i, at, sizeof i);
    return i;
}

/* values = few:K: the choice few into the struct p (NULL: check only) and
 * K into its common part. Returns the row of values, or -1 with a sentence
 * naming the kind. */
static int parse_few(const spmvlab_gen_kind *kind, int row, const char *value, void *p, spmvlab_err *err)
{
    const char *digits = value + 4;
    char *end = NULL;
    long k = strncmp(value, "few:", 4) == 0 && isdigit((unsigned char)*digits) ? strtol(digits, &end, 10) : -1;
    if (k < 1 || k > GEN_FEW_MAX || !end || *end)
        return spmvlab_errf(err, "%s: values = '%s' is not few:K with K a whole number from 1 to %d", kind->name,
                            value, GEN_FEW_MAX), -1;
    if (parse_value(kind->name, &kind->params[row], "few", p, err))
        return -1;
    if (p)
        ((gen_common *)p)->few = (int)k;
    return row;
}

int gen_check_key(const spmvlab_gen_kind *kind, const char *key, const char *value, void *p,
                  spmvlab_err *err)
{
    int n = 0;
    while (kind->params[n].key)
        n++;
    for (int i = 0; i < n; i++)
        if (strcmp(kind->params[i].key, key) == 0) {
            if (strcmp(key, "values") == 0 && strncmp(value, "few", 3) == 0)
                return parse_few(kind, i, value, p, err);
            return parse_value(kind->name, &kind->params[i], value, p, err) ? -1 : i;
        }
    char names[512] = "", hint[96];
    const char *keys[64];
    for (int i = 0; i < n; i++) {
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", kind->params[i].key);
        if (i < 64)
            keys[i] = kind->params[i].key;
    }
    spmvlab_did_you_mean(key, keys, n < 64 ? n : 64, hint, sizeof hint);
    spmvlab_errf(err, "%s has no parameter '%s'%s (it takes %s)", kind->name, key, hint, names);
    return -1;
}

/* Finds the kind and fills its parameter struct b from the defaults and p,
 * then runs the kind's cross checks. Returns the kind, or NULL with a
 * sentence. */
static const spmvlab_gen_kind *resolve(const char *name, const spmvlab_gen_params *p, params_buf *b,
                                       spmvlab_err *err)
{
    const spmvlab_gen_kind *kind = spmvlab_gen_kind_find(name);
    if (!kind) {
        char names[512] = "", hint[96] = "";
        const char *list[KIND_COUNT];
        for (int i = 0; i < KIND_COUNT; i++) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", kinds[i]->name);
            list[i] = kinds[i]->name;
        }
        if (name)
            spmvlab_did_you_mean(name, list, KIND_COUNT, hint, sizeof hint);
        spmvlab_errf(err, "unknown generator '%s'%s (kinds: %s)", name ? name : "", hint, names);
        return NULL;
    }
    memset(b, 0, sizeof *b);
    if (kind->params_size > sizeof *b) /* caught by the tests */
        return spmvlab_errf(err, "%s: parameter struct too large", kind->name), NULL;
    for (int i = 0; kind->params[i].key; i++)
        if (parse_value(kind->name, &kind->params[i], kind->params[i].def, b, err))
            return NULL; /* a bad default: caught by the tests */
    for (int j = 0; p && j < p->count; j++)
        if (gen_check_key(kind, p->kv[j].key, p->kv[j].value, b, err) < 0)
            return NULL;
    if (kind->check && kind->check(b, err))
        return NULL;
    return kind;
}

int spmvlab_gen_check(const char *kind, const spmvlab_gen_params *p, spmvlab_err *err)
{
    params_buf b;
    return resolve(kind, p, &b, err) ? 0 : -1;
}

int spmvlab_gen(const char *name, const spmvlab_gen_params *p, spmvlab_csr *out, spmvlab_err *err)
{
    params_buf b;
    memset(out, 0, sizeof *out);
    const spmvlab_gen_kind *kind = resolve(name, p, &b, err);
    if (!kind || kind->generate(&b, out, err))
        return -1;
    const gen_common *c = (const gen_common *)(const void *)&b;
    gen_fill_values(out, c->values, c->few, (uint64_t)c->seed);
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
    params_buf b;
    const spmvlab_gen_kind *kind = resolve(name, p, &b, err);
    if (!kind)
        return -1;
    size_t used = (size_t)snprintf(buf, len, "%s", kind->name);
    for (int i = 0; kind->params[i].key && used < len; i++) {
        const spmvlab_option *o = &kind->params[i];
        double v = field_value(&b, o);
        char val[64];
        if (o->type == SPMVLAB_OPT_ENUM) {
            const char *c = o->choices;
            for (int k = 0; k < (int)v; k++)
                c += strcspn(c, "|") + 1;
            snprintf(val, sizeof val, "%.*s", (int)strcspn(c, "|"), c);
            if (strcmp(o->key, "values") == 0 && (int)v == GEN_VALUES_FEW)
                snprintf(val, sizeof val, "few:%d", ((const gen_common *)(const void *)&b)->few);
        } else if (o->type == SPMVLAB_OPT_INT) {
            snprintf(val, sizeof val, "%.0f", v);
        } else {
            format_double(val, sizeof val, v);
        }
        used += (size_t)snprintf(buf + used, len - used, " %s=%s", o->key, val);
    }
    return 0;
}
