/*
 * The option engine: values checked against a table of spmvlab_option rows
 * (type, range, choices) and stored into the members the rows name. Plugin
 * options and generator parameters (gen/gen_params.c) go through the same
 * parser; a plugin option's refusal names the plugin, the key and what is
 * allowed.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spmvlab/core.h"

/* The options of table t, its choice rows not counted. */
static int table_len(const spmvlab_option *t)
{
    int n = 0;
    for (int k = 0; t && t[k].key; k++)
        n += t[k].type != SPMVLAB_OPT_CONST;
    return n;
}

void spmvlab_option_choices(const spmvlab_option *o, char *buf, size_t len)
{
    if (o->choices || o->type != SPMVLAB_OPT_ENUM) {
        snprintf(buf, len, "%s", o->choices ? o->choices : "");
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (const spmvlab_option *c = o + 1; c->key && c->type == SPMVLAB_OPT_CONST && used < len; c++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", c == o + 1 ? "" : "|", c->key);
}

static int parse_long(const char *s, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(s, &end, 10);
    return errno == 0 && end != s && *end == '\0' ? 0 : -1;
}

static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return errno == 0 && end != s && *end == '\0' && isfinite(*v) ? 0 : -1;
}

/* One parsed value into the member its row names (the row's field_size
 * and offset; nothing where the table has no fields). */
void spmvlab_option_field_store(void *fields, const spmvlab_option *o, const spmvlab_opt_value *v)
{
    if (!fields || !o->field_size)
        return;
    char *at = (char *)fields + o->field_offset;
    if (o->type == SPMVLAB_OPT_FLOAT) {
        memcpy(at, &v->f, sizeof v->f);
    } else if (o->type == SPMVLAB_OPT_STRING) {
        memcpy(at, &v->s, sizeof v->s);
    } else if (o->field_size == sizeof(int64_t)) {
        int64_t i = o->type == SPMVLAB_OPT_INT_AUTO && v->is_auto ? SPMVLAB_AUTO : (int64_t)v->i;
        memcpy(at, &i, sizeof i);
    } else {
        int i = o->type == SPMVLAB_OPT_INT_AUTO && v->is_auto ? SPMVLAB_AUTO : (int)v->i;
        memcpy(at, &i, sizeof i);
    }
}

/* "4", "4.0", "1e3": integers may be written as exact reals. */
static int parse_integer(const char *s, long long *v)
{
    if (parse_long(s, v) == 0)
        return 0;
    double d;
    if (parse_double(s, &d) == 0 && d == floor(d) && fabs(d) < 9e15) {
        *v = (long long)d;
        return 0;
    }
    return -1;
}

int spmvlab_option_range(const char *text, double *lo, double *hi)
{
    const char *dots = strstr(text, "..");
    char low[64]; /* "1..8" must not read as "1." then ".8" */
    double a, b;
    if (!dots || (size_t)(dots - text) >= sizeof low)
        return -1;
    snprintf(low, sizeof low, "%.*s", (int)(dots - text), text);
    if (parse_double(low, &a) || parse_double(dots + 2, &b) || a > b)
        return -1;
    *lo = a;
    *hi = b;
    return 0;
}

static void range_text(const spmvlab_option *o, char *buf, size_t len)
{
    if (o->type == SPMVLAB_OPT_FLOAT)
        snprintf(buf, len, "a number from %g to %g", o->min, o->max);
    else
        snprintf(buf, len, "an integer from %.0f to %.0f%s", o->min, o->max,
                 o->type == SPMVLAB_OPT_INT_AUTO ? " or 'auto'" : "");
}

spmvlab_opt_problem spmvlab_option_parse(const spmvlab_option *o, const char *text, spmvlab_opt_value *v)
{
    v->is_auto = 0;
    v->i = 0;
    v->f = 0;
    switch (o->type) {
    case SPMVLAB_OPT_INT_AUTO:
        if (strcasecmp(text, "auto") == 0) {
            v->is_auto = 1;
            return SPMVLAB_OPT_FINE;
        }
        /* fall through */
    case SPMVLAB_OPT_INT: {
        long long x;
        double d;
        if (parse_integer(text, &x))
            return parse_double(text, &d) ? SPMVLAB_OPT_NOT_NUMBER : SPMVLAB_OPT_NOT_INTEGER;
        if (x < o->min || x > o->max)
            return SPMVLAB_OPT_OUT_OF_RANGE;
        v->i = x;
        v->f = (double)x;
        return SPMVLAB_OPT_FINE;
    }
    case SPMVLAB_OPT_FLOAT: {
        double x;
        if (parse_double(text, &x))
            return SPMVLAB_OPT_NOT_NUMBER;
        if (x < o->min || x > o->max)
            return SPMVLAB_OPT_OUT_OF_RANGE;
        v->f = x;
        v->i = (long long)x;
        return SPMVLAB_OPT_FINE;
    }
    case SPMVLAB_OPT_BOOL: {
        static const char *const yes[] = {"1", "true", "yes", "on"}, *const no[] = {"0", "false", "no", "off"};
        for (int k = 0; k < 4; k++) {
            if (strcasecmp(text, yes[k]) == 0)
                return v->i = 1, v->f = 1, SPMVLAB_OPT_FINE;
            if (strcasecmp(text, no[k]) == 0)
                return SPMVLAB_OPT_FINE;
        }
        return SPMVLAB_OPT_NOT_BOOL;
    }
    case SPMVLAB_OPT_ENUM: {
        for (const spmvlab_option *row = o->choices ? NULL : o + 1; row && row->key && row->type == SPMVLAB_OPT_CONST;
             row++)
            if (strcmp(text, row->key) == 0) {
                v->i = row->value;
                v->f = (double)row->value;
                return SPMVLAB_OPT_FINE;
            }
        const char *c = o->choices ? o->choices : "";
        for (long long idx = 0; *c; idx++) {
            const char *bar = strchr(c, '|');
            size_t n = bar ? (size_t)(bar - c) : strlen(c);
            if (strlen(text) == n && strncmp(text, c, n) == 0) {
                v->i = idx;
                v->f = (double)idx;
                return SPMVLAB_OPT_FINE;
            }
            c = bar ? bar + 1 : c + n;
        }
        return SPMVLAB_OPT_NOT_CHOICE;
    }
    case SPMVLAB_OPT_STRING:
        return SPMVLAB_OPT_FINE;
    case SPMVLAB_OPT_CONST: /* a choice row names a value; it is never set itself */
        break;
    }
    return SPMVLAB_OPT_BAD_TYPE;
}

void spmvlab_option_expected(const spmvlab_option *o, spmvlab_opt_problem problem, char *buf, size_t len)
{
    char choices[400];
    if (problem == SPMVLAB_OPT_NOT_BOOL) {
        snprintf(buf, len, "true or false");
    } else if (problem == SPMVLAB_OPT_NOT_CHOICE) {
        spmvlab_option_choices(o, choices, sizeof choices);
        snprintf(buf, len, "one of %s", choices[0] ? choices : "(none)");
    } else {
        range_text(o, buf, len);
    }
}

/* Parses value for a plugin option; the refusal names the plugin, the key
 * and what is allowed. */
static int set_value(spmvlab_opt_value *v, const spmvlab_option *o, const char *plugin,
                     const char *value, spmvlab_err *err)
{
    char allowed[400];
    spmvlab_opt_problem problem = spmvlab_option_parse(o, value, v);
    if (problem == SPMVLAB_OPT_FINE)
        return 0;
    if (problem == SPMVLAB_OPT_BAD_TYPE)
        return spmvlab_errf(err, "option %s.%s has an unknown type %d in the plugin's table", plugin, o->key,
                            (int)o->type), -1;
    spmvlab_option_expected(o, problem, allowed, sizeof allowed);
    spmvlab_errf(err, "option %s.%s = '%s' is invalid: expected %s", plugin, o->key, value, allowed);
    return -1;
}

int spmvlab_optset_init(spmvlab_optset *o, const spmvlab_plugin *p, spmvlab_err *err)
{
    memset(o, 0, sizeof *o);
    int n = table_len(p->options);
    o->rows = calloc((size_t)(n ? n : 1), sizeof *o->rows);
    o->values = calloc((size_t)(n ? n : 1), sizeof *o->values);
    o->text = calloc((size_t)(n ? n : 1), sizeof *o->text);
    o->fields_size = p->options_size;
    if (o->fields_size)
        o->fields = calloc(1, o->fields_size);
    o->opts.fields = o->fields;
    for (int k = 0, r = 0; o->rows && k < n; r++)
        if (p->options[r].type != SPMVLAB_OPT_CONST)
            o->rows[k++] = &p->options[r];
    if (!o->rows || !o->values || !o->text || (o->fields_size && !o->fields)) {
        spmvlab_optset_free(o);
        return spmvlab_errf(err, "out of host memory for options"), -1;
    }
    o->opts.count = n;
    o->opts.values = o->values;
    for (int k = 0; k < n; k++) {
        const spmvlab_option *row = o->rows[k];
        o->values[k].key = row->key;
        o->values[k].type = row->type;
        if (spmvlab_optset_set(o, p->name, row->key, row->def ? row->def : "", err)) {
            char why[SPMVLAB_ERR_LEN];
            snprintf(why, sizeof why, "%s", err ? err->msg : "");
            spmvlab_errf(err, "the plugin's default for %s is unusable: %s", row->key, why);
            spmvlab_optset_free(o);
            return -1;
        }
    }
    return 0;
}

int spmvlab_optset_set(spmvlab_optset *o, const char *plugin, const char *key, const char *value,
                       spmvlab_err *err)
{
    for (int k = 0; k < o->opts.count; k++) {
        if (strcmp(o->rows[k]->key, key) != 0)
            continue;
        spmvlab_opt_value v = o->values[k];
        if (set_value(&v, o->rows[k], plugin, value, err))
            return -1;
        char *t = strdup(value);
        if (!t)
            return spmvlab_errf(err, "out of host memory for options"), -1;
        free(o->text[k]);
        o->text[k] = t;
        v.s = t;
        o->values[k] = v;
        spmvlab_option_field_store(o->fields, o->rows[k], &v);
        return 0;
    }
    char keys[400] = "", hint[96] = "";
    size_t used = 0;
    const char *list[256];
    int nlist = 0;
    for (int k = 0; k < o->opts.count && used < sizeof keys; k++)
        used += (size_t)snprintf(keys + used, sizeof keys - used, "%s%s", k ? ", " : "", o->rows[k]->key);
    for (int k = 0; k < o->opts.count && nlist < 256; k++)
        list[nlist++] = o->rows[k]->key;
    spmvlab_did_you_mean(key, list, nlist, hint, sizeof hint);
    spmvlab_errf(err, "plugin %s has no option '%s'%s; its options are: %s", plugin, key, hint,
                 o->opts.count ? keys : "(none)");
    return -1;
}

int spmvlab_optset_copy(spmvlab_optset *dst, const spmvlab_optset *src, spmvlab_err *err)
{
    memset(dst, 0, sizeof *dst);
    int n = src->opts.count;
    dst->rows = calloc((size_t)(n ? n : 1), sizeof *dst->rows);
    if (dst->rows)
        memcpy(dst->rows, src->rows, (size_t)n * sizeof *dst->rows);
    dst->values = calloc((size_t)(n ? n : 1), sizeof *dst->values);
    dst->text = calloc((size_t)(n ? n : 1), sizeof *dst->text);
    dst->fields_size = src->fields_size;
    if (dst->fields_size)
        dst->fields = calloc(1, dst->fields_size);
    dst->opts.fields = dst->fields;
    if (!dst->rows || !dst->values || !dst->text || (dst->fields_size && !dst->fields)) {
        spmvlab_optset_free(dst);
        return spmvlab_errf(err, "out of host memory for options"), -1;
    }
    dst->opts.count = n;
    dst->opts.values = dst->values;
    for (int k = 0; k < n; k++) {
        dst->values[k] = src->values[k];
        dst->text[k] = strdup(src->text[k] ? src->text[k] : "");
        dst->values[k].s = dst->text[k];
        spmvlab_option_field_store(dst->fields, dst->rows[k], &dst->values[k]);
    }
    return 0;
}

void spmvlab_optset_free(spmvlab_optset *o)
{
    if (!o)
        return;
    for (int k = 0; o->text && k < o->opts.count; k++)
        free(o->text[k]);
    free(o->text);
    free(o->rows);
    free(o->values);
    free(o->fields);
    memset(o, 0, sizeof *o);
}

void spmvlab_optset_describe(const spmvlab_optset *o, int only_changed, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < o->opts.count && used < len; k++) {
        const char *def = o->rows[k]->def ? o->rows[k]->def : "";
        if (only_changed && strcmp(def, o->text[k]) == 0)
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", o->rows[k]->key, o->text[k]);
    }
}
