/* One run's results, checked across files and runs; see origin.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "origin.h"

void origin_init(run_origin *o) { memset(o, 0, sizeof *o); }

void origin_set_run(run_origin *o, const char *commit, const char *version, const char *device, const char *dtypes,
                    const char *from)
{
    o->known = 1;
    snprintf(o->commit, sizeof o->commit, "%s", commit);
    snprintf(o->version, sizeof o->version, "%s", version);
    snprintf(o->device, sizeof o->device, "%s", device);
    o->dtypes = dtypes;
    o->from = from;
}

static const char *const setting_names[ORIGIN_NSETTINGS] = ORIGIN_SETTINGS;

void origin_set_settings(run_origin *o, const run_row *r, const char *from)
{
    for (int i = 0; i < ORIGIN_NSETTINGS; i++) {
        run_row_field(r, run_column_find(setting_names[i]), o->settings[i], sizeof o->settings[i]);
        o->settings_from[i] = from;
    }
}

/* 0 when r's settings agree with o's (those o does not know yet taken from r). */
static int settings_agree(run_origin *o, const run_row *r, const char *from, spmvlab_err *err)
{
    for (int i = 0; i < ORIGIN_NSETTINGS; i++) {
        char v[sizeof o->settings[i]];
        run_row_field(r, run_column_find(setting_names[i]), v, sizeof v);
        if (!v[0])
            continue;
        if (!o->settings[i][0]) {
            snprintf(o->settings[i], sizeof o->settings[i], "%s", v);
            o->settings_from[i] = from;
        } else if (strcmp(o->settings[i], v) != 0) {
            return spmvlab_errf(err, "%s holds results measured with %s = %s, but %s with %s = %s; results of one "
                                "run's settings only (measure again with the same settings, or keep them apart)",
                                from, setting_names[i], v, o->settings_from[i], setting_names[i], o->settings[i]),
                   -1;
        }
    }
    return 0;
}

static const origin_label *find_label(const run_origin *o, const char *label)
{
    for (int i = 0; i < o->nlabels; i++)
        if (strcmp(o->labels[i].label, label) == 0)
            return &o->labels[i];
    return NULL;
}

int origin_add_label(run_origin *o, const char *label, const char *options, const char *from)
{
    if (find_label(o, label))
        return 0;
    origin_label *g = realloc(o->labels, (size_t)(o->nlabels + 1) * sizeof *g);
    if (!g)
        return -1;
    o->labels = g;
    origin_label *l = &g[o->nlabels++];
    snprintf(l->label, sizeof l->label, "%s", label);
    snprintf(l->options, sizeof l->options, "%s", options);
    l->from = from;
    return 0;
}

/* 1 when dtype is an item of the comma list. */
static int listed(const char *list, const char *dtype)
{
    size_t n = strlen(dtype);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, dtype, n) == 0)
            return 1;
        p += len + (end != NULL);
    }
    return 0;
}

static const char *shown(const char *s) { return s[0] ? s : "(none)"; }

/* 0 when r is of o's build, device, settings and dtypes (the first row sets them). */
static int row_agrees(run_origin *o, const run_row *r, const char *from, spmvlab_err *err)
{
    if (!o->known) {
        origin_set_run(o, r->commit, r->version, r->device, o->dtypes, from);
    } else if (strcmp(o->commit, r->commit) != 0 || strcmp(o->version, r->version) != 0) {
        return spmvlab_errf(err, "%s holds results of spmvlab %s at commit %s, but %s is spmvlab %s at commit %s; "
                            "results of one build only", from, r->version, shown(r->commit), o->from, o->version,
                            shown(o->commit)),
               -1;
    } else if (strcmp(o->device, r->device) != 0) {
        return spmvlab_errf(err, "%s holds results measured on %s, but %s on %s; results of one device only", from,
                            shown(r->device), o->from, shown(o->device)),
               -1;
    }
    if (settings_agree(o, r, from, err))
        return -1;
    if (o->dtypes && o->dtypes[0] && !listed(o->dtypes, r->dtype))
        return spmvlab_errf(err, "%s holds %s results, but %s measures the dtypes %s; one run's dtypes only", from,
                            r->dtype, o->from, o->dtypes),
               -1;
    /* A selector instance's rows carry the options it chose for each
     * matrix: one label, many option sets, by design. */
    const char *options = strncmp(r->message, ORIGIN_SELECTED, strlen(ORIGIN_SELECTED)) == 0 ? ORIGIN_ANY : r->options;
    const origin_label *l = find_label(o, r->instance);
    if (!l)
        return origin_add_label(o, r->instance, options, from) ? (spmvlab_errf(err, "out of host memory"), -1) : 0;
    if (strcmp(l->options, ORIGIN_ANY) != 0 && strcmp(options, ORIGIN_ANY) != 0 && strcmp(l->options, r->options) != 0)
        return spmvlab_errf(err, "%s holds instance %s with the options '%s', but %s has %s with '%s'; one label "
                            "must name one configuration (give the other a label of its own)", from, r->instance,
                            r->options, l->from, r->instance, l->options),
               -1;
    return 0;
}

int origin_check_rows(run_origin *o, const run_rows *rows, const char *from, spmvlab_err *err)
{
    for (int i = 0; i < rows->n; i++)
        if (row_agrees(o, &rows->v[i], from, err))
            return -1;
    return 0;
}

void origin_free(run_origin *o)
{
    free(o->labels);
    memset(o, 0, sizeof *o);
}

int origin_cell_cmp(const run_row *a, const run_row *b)
{
    int c = strcmp(a->matrix, b->matrix);
    if (!c)
        c = strcmp(a->dtype, b->dtype);
    if (!c)
        c = strcmp(a->instance, b->instance);
    return c ? c : strcmp(a->options, b->options);
}
