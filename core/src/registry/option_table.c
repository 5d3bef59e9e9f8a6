/*
 * A plugin's option table as the core reads it: rows of the 1.0 layout are
 * widened to the current one (no option fields), and typed fields (ABI 1.1)
 * are checked against their type and the options struct's size when the
 * plugin loads, so a bad table is refused by name instead of writing past
 * the struct later.
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

int spmvlab_option_table_adopt(spmvlab_plugin *desc, const char *path, spmvlab_option **owned, spmvlab_err *err)
{
    *owned = NULL;
    if (!desc->options)
        return 0;
    /* A plugin built against 1.1 or later has rows of at least the 1.1
     * size even when it left option_row_size unset. */
    size_t have_row = offsetof(spmvlab_plugin, option_row_size) + sizeof desc->option_row_size;
    size_t row = desc->abi_minor == 0 ? sizeof(option_row_v10) : sizeof(spmvlab_option);
    if (desc->abi_minor > 0 && desc->struct_size >= have_row && desc->option_row_size)
        row = desc->option_row_size;
    if (row < sizeof(option_row_v10) || row > sizeof(spmvlab_option)) {
        spmvlab_errf(err, "refusing plugin %s: its option rows are %zu bytes, not a size any ABI 1.x defines", path,
                     row);
        return -1;
    }
    if (row == sizeof(spmvlab_option)) {
        const spmvlab_option *t = desc->options;
        for (int k = 0; t[k].key; k++) {
            if (!t[k].field_size)
                continue;
            if (t[k].field_size != field_size_for(t[k].type)) {
                spmvlab_errf(err, "refusing plugin %s: option %s has a %zu-byte field, but its type needs %zu bytes",
                             path, t[k].key, t[k].field_size, field_size_for(t[k].type));
                return -1;
            }
            if (t[k].field_offset + t[k].field_size > desc->options_size) {
                spmvlab_errf(err, "refusing plugin %s: option %s's field lies outside its %u-byte options struct",
                             path, t[k].key, desc->options_size);
                return -1;
            }
        }
        return 0;
    }
    /* An older table: copy it into rows of today's size, without fields. */
    const char *bytes = (const char *)desc->options;
    int n = 0;
    while (((const option_row_v10 *)(bytes + (size_t)n * row))->key)
        n++;
    spmvlab_option *t = calloc((size_t)n + 1, sizeof *t);
    if (!t) {
        spmvlab_errf(err, "out of host memory loading %s", path);
        return -1;
    }
    for (int k = 0; k < n; k++)
        memcpy(&t[k], bytes + (size_t)k * row, sizeof(option_row_v10));
    desc->options = t;
    desc->options_size = 0;
    *owned = t;
    return 0;
}

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
