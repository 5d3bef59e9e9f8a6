/*
 * A plugin's option table as the core reads it: rows of an older layout
 * (1.0 without option fields, 1.1 without choice rows and flags, 1.2
 * without range text) are widened to the current one; range text (1.3) is
 * read into min and max; typed fields (1.1) and choice rows (1.2) are
 * checked when the plugin loads, so a bad table is refused by name instead
 * of writing past the struct or offering a choice that cannot be chosen.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/core.h"

/* The row as ABI 1.0 defined it. */
typedef struct option_row_v10 {
    const char *key;
    spmvlab_opt_type type;
    const char *def;
    double min, max;
    const char *choices;
    const char *help;
} option_row_v10;

static size_t field_size_for(spmvlab_opt_type t)
{
    switch (t) {
    case SPMVLAB_OPT_FLOAT: return sizeof(double);
    case SPMVLAB_OPT_STRING: return sizeof(const char *);
    default: return sizeof(int);
    }
}

/* Copies a table of row-byte rows into rows of today's size; the members a
 * row lacks stay zero (no field, no unit, no flags, no range text). NULL
 * when out of memory. */
static spmvlab_option *table_widen(const spmvlab_option *options, size_t row)
{
    const char *bytes = (const char *)options;
    int n = 0;
    while (((const option_row_v10 *)(bytes + (size_t)n * row))->key)
        n++;
    spmvlab_option *t = calloc((size_t)n + 1, sizeof *t);
    for (int k = 0; t && k < n; k++)
        memcpy(&t[k], bytes + (size_t)k * row, row);
    return t;
}

/* The typed field of row o: the size its type needs, inside the struct. */
static int check_field(const spmvlab_option *o, const spmvlab_plugin *desc, const char *path, spmvlab_err *err)
{
    if (!o->field_size)
        return 0;
    if (o->field_size != field_size_for(o->type)) {
        spmvlab_errf(err, "refusing plugin %s: option %s has a %zu-byte field, but its type needs %zu bytes", path,
                     o->key, o->field_size, field_size_for(o->type));
        return -1;
    }
    if (o->field_offset + o->field_size > desc->options_size) {
        spmvlab_errf(err, "refusing plugin %s: option %s's field lies outside its %u-byte options struct", path,
                     o->key, desc->options_size);
        return -1;
    }
    return 0;
}

static int has_range_text(const spmvlab_option *o)
{
    return o->range && o->range[0];
}

/* The row's range text into its min and max; only numeric rows have one. */
static int read_range(spmvlab_option *o, const char *path, spmvlab_err *err)
{
    int numeric = o->type == SPMVLAB_OPT_INT || o->type == SPMVLAB_OPT_FLOAT || o->type == SPMVLAB_OPT_INT_AUTO;
    if (numeric && spmvlab_option_range(o->range, &o->min, &o->max) == 0)
        return 0;
    spmvlab_errf(err, "refusing plugin %s: %s %s has range '%s'; a range is \"lo..hi\" on an int, float or "
                 "int-or-auto option", path, o->type == SPMVLAB_OPT_CONST ? "choice" : "option", o->key, o->range);
    return -1;
}

/* The CONST rows after the ENUM row e: each names e as its unit, with a name
 * and a value no earlier choice has; e has them or choices text, not both. */
static int check_choices(const spmvlab_option *e, const char *path, spmvlab_err *err)
{
    int n = 0;
    for (const spmvlab_option *c = e + 1; c->key && c->type == SPMVLAB_OPT_CONST; c++, n++) {
        if (!c->unit || strcmp(c->unit, e->key) != 0) {
            spmvlab_errf(err, "refusing plugin %s: choice %s follows option %s but names unit %s", path, c->key,
                         e->key, c->unit ? c->unit : "(none)");
            return -1;
        }
        for (const spmvlab_option *d = e + 1; d < c; d++)
            if (strcmp(d->key, c->key) == 0 || d->value == c->value) {
                spmvlab_errf(err, "refusing plugin %s: option %s's choices %s and %s share a %s", path, e->key,
                             d->key, c->key, strcmp(d->key, c->key) == 0 ? "name" : "value");
                return -1;
            }
    }
    if (n && e->choices) {
        spmvlab_errf(err, "refusing plugin %s: option %s has both choices text and choice rows", path, e->key);
        return -1;
    }
    if (!n && !e->choices) {
        spmvlab_errf(err, "refusing plugin %s: option %s is an enum without choices", path, e->key);
        return -1;
    }
    return 0;
}

int spmvlab_option_table_adopt(spmvlab_plugin *desc, const char *path, spmvlab_option **owned, spmvlab_err *err)
{
    *owned = NULL;
    if (!desc->options)
        return 0;
    /* Without option_row_size, the rows are those of the header the plugin
     * was built against: 1.0, 1.1 (up to unit), 1.2 (up to range) or 1.3
     * (today's). */
    size_t have_row = offsetof(spmvlab_plugin, option_row_size) + sizeof desc->option_row_size;
    size_t row = desc->abi_minor == 0   ? sizeof(option_row_v10)
                 : desc->abi_minor == 1 ? offsetof(spmvlab_option, unit)
                 : desc->abi_minor == 2 ? offsetof(spmvlab_option, range)
                                        : sizeof(spmvlab_option);
    if (desc->abi_minor > 0 && desc->struct_size >= have_row && desc->option_row_size)
        row = desc->option_row_size;
    if (row < sizeof(option_row_v10) || row > sizeof(spmvlab_option)) {
        spmvlab_errf(err, "refusing plugin %s: its option rows are %zu bytes, not a size any ABI 1.x defines", path,
                     row);
        return -1;
    }
    if (row < offsetof(spmvlab_option, field_offset) + 2 * sizeof(size_t))
        desc->options_size = 0; /* 1.0 rows name no fields */
    /* Always a copy: rows of today's size too, so that range text can be
     * read into the copy's min and max. */
    spmvlab_option *t = table_widen(desc->options, row);
    if (!t) {
        spmvlab_errf(err, "out of host memory loading %s", path);
        return -1;
    }
    desc->options = t;
    *owned = t;
    for (spmvlab_option *o = t; o->key; o++)
        if (has_range_text(o) && read_range(o, path, err))
            goto refused;
    const spmvlab_option *prev = NULL;
    for (const spmvlab_option *o = desc->options; o->key; o++) {
        if (o->type == SPMVLAB_OPT_CONST) {
            if (!prev || (prev->type != SPMVLAB_OPT_ENUM && prev->type != SPMVLAB_OPT_CONST)) {
                spmvlab_errf(err, "refusing plugin %s: choice %s does not follow an enum option", path, o->key);
                goto refused;
            }
        } else if (check_field(o, desc, path, err) ||
                   (o->type == SPMVLAB_OPT_ENUM && check_choices(o, path, err))) {
            goto refused;
        }
        prev = o;
    }
    return 0;
refused:
    free(*owned);
    *owned = NULL;
    return -1;
}
