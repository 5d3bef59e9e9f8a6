/*
 * From configuration to instances: each requested label is a section (or,
 * without one, the plugin of that name with defaults); its keys are checked
 * against the plugin's option table, and value lists expand into a sweep,
 * one instance per combination, labelled by the swept values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/config.h"
#include "spmvlab/gen.h"

#define MAX_SWEEP_KEYS 8
#define MAX_VALUES 64
#define MAX_INSTANCES 4096

static void where(const spmvlab_kv *kv, char *buf, size_t len)
{
    if (kv->line > 0)
        snprintf(buf, len, "%s:%d: ", kv->file, kv->line);
    else
        snprintf(buf, len, "command line: ");
}

/* Splits "a, b, c" into trimmed values in place; returns the count. */
static int split_list(char *s, char **out, int max)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(s, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ' || *t == '\t')
            t++;
        char *e = t + strlen(t);
        while (e > t && (e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        out[n++] = t;
    }
    return n;
}

/* Splits a sweep's "a, b, c" in place, keeping empty items so they can be
 * refused. Returns the count, or -1 when there are more than max. */
static int split_values(char *s, char **out, int max)
{
    int n = 0;
    for (char *item = s;; n++) {
        char *comma = strchr(item, ',');
        if (comma)
            *comma = '\0';
        if (n == max)
            return -1;
        while (*item == ' ' || *item == '\t')
            item++;
        char *e = item + strlen(item);
        while (e > item && (e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        out[n] = item;
        if (!comma)
            return n + 1;
        item = comma + 1;
    }
}

typedef struct sweep_key {
    const spmvlab_kv *kv;
    char *buf;          /* owned copy the values point into */
    char *values[MAX_VALUES];
    int n;
} sweep_key;

static int push_spec(spmvlab_instance_spec **out, int *n, int *cap, spmvlab_err *err)
{
    if (*n == MAX_INSTANCES)
        return spmvlab_errf(err, "more than %d instances; narrow the sweep", MAX_INSTANCES), -1;
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        spmvlab_instance_spec *g = realloc(*out, (size_t)c * sizeof *g);
        if (!g)
            return spmvlab_errf(err, "out of host memory for instances"), -1;
        *out = g;
        *cap = c;
    }
    memset(&(*out)[*n], 0, sizeof **out);
    return 0;
}

/* A `plugin = select` section: the selector's settings, no plugin to load
 * (run chooses one per matrix). Keys other than its own are refused, since
 * they could only be options of a plugin not yet known. */
static int resolve_selector(const spmvlab_section *sec, const char *label, spmvlab_instance_spec **out, int *n,
                            int *cap, spmvlab_err *err)
{
    if (push_spec(out, n, cap, err))
        return -1;
    spmvlab_instance_spec *sp = &(*out)[*n];
    snprintf(sp->label, sizeof sp->label, "%s", label);
    snprintf(sp->base_label, sizeof sp->base_label, "%s", label);
    sp->selector = 1;
    sp->select.part = -1;
    char at[600];
    spmvlab_err why;
    for (int k = 0; k < sec->nkv; k++) {
        const spmvlab_kv *kv = &sec->kv[k];
        const char *v = kv->value;
        char *end;
        where(kv, at, sizeof at);
        if (strcmp(kv->key, "plugin") == 0)
            continue;
        if (strcmp(kv->key, "results") == 0 || strcmp(kv->key, "features") == 0) {
            char *dst = kv->key[0] == 'r' ? sp->select.results : sp->select.features;
            if (!v[0] || strlen(v) >= sizeof sp->select.results)
                return spmvlab_errf(err, "%s[%s] %s = needs a file name of at most %zu characters", at, label,
                                    kv->key, sizeof sp->select.results - 1), -1;
            snprintf(dst, sizeof sp->select.results, "%s", v);
        } else if (strcmp(kv->key, "k") == 0) {
            long k_value = strtol(v, &end, 10);
            if (!v[0] || *end || k_value < 1 || k_value > SPMVLAB_SELECTOR_MAX_K)
                return spmvlab_errf(err, "%s[%s] k = %s is not a whole number in [1, %d]", at, label, v,
                                    SPMVLAB_SELECTOR_MAX_K), -1;
            sp->select.k = (int)k_value;
        } else if (strcmp(kv->key, "part") == 0) {
            spmvlab_part part;
            if (spmvlab_part_parse(v, &part, &why))
                return spmvlab_errf(err, "%s[%s] %s", at, label, why.msg), -1;
            sp->select.part = (int)part;
        } else {
            return spmvlab_errf(err, "%s[%s] a selector instance (plugin = select) takes results, features, k and "
                                "part, not '%s'", at, label, kv->key), -1;
        }
    }
    if (!sp->select.results[0]) {
        if (sec->line)
            snprintf(at, sizeof at, "%s:%d: ", sec->file, sec->line);
        else
            at[0] = '\0';
        return spmvlab_errf(err, "%s[%s] a selector instance needs results = FILE (the corpus's results CSV)", at,
                            label), -1;
    }
    (*n)++;
    return 0;
}

static int resolve_label(spmvlab_config *cfg, spmvlab_registry *reg, const char *label,
                         spmvlab_instance_spec **out, int *n, int *cap, spmvlab_err *err)
{
    spmvlab_section *sec = spmvlab_config_section(cfg, label);
    const spmvlab_kv *pk = spmvlab_section_get(sec, "plugin"), *lk = spmvlab_section_get(sec, "library");
    const char *plugin_name = pk ? pk->value : label;
    if (pk && !lk && strcmp(pk->value, SPMVLAB_SELECTOR_PLUGIN) == 0)
        return resolve_selector(sec, label, out, n, cap, err);
    const spmvlab_loaded *pl;
    char at[600] = "";
    spmvlab_err why;
    if (lk) {
        where(lk, at, sizeof at);
        pl = spmvlab_registry_load_file(reg, lk->value, &why);
        if (pl && pk && strcmp(pl->desc->name, pk->value) != 0) {
            where(pk, at, sizeof at);
            return spmvlab_errf(err, "%s[%s] names plugin '%s' but its library provides '%s'", at, label,
                                pk->value, pl->desc->name), -1;
        }
    } else {
        if (pk)
            where(pk, at, sizeof at);
        else if (sec && sec->line)
            snprintf(at, sizeof at, "%s:%d: ", sec->file, sec->line);
        pl = spmvlab_registry_get(reg, plugin_name, &why);
    }
    if (!pl)
        return spmvlab_errf(err, "%s%s", at, why.msg), -1;

    spmvlab_optset base;
    if (spmvlab_optset_init(&base, pl->desc, err))
        return -1;
    sweep_key sweep[MAX_SWEEP_KEYS];
    int nsweep = 0, rc = -1;
    for (int k = 0; sec && k < sec->nkv; k++) {
        const spmvlab_kv *kv = &sec->kv[k];
        if (strcmp(kv->key, "plugin") == 0 || strcmp(kv->key, "library") == 0)
            continue;
        where(kv, at, sizeof at);
        const spmvlab_opt_value *ov = spmvlab_opt(&base.opts, kv->key);
        int list = ov && ov->type != SPMVLAB_OPT_STRING && strchr(kv->value, ',');
        if (!list) {
            if (spmvlab_optset_set(&base, pl->desc->name, kv->key, kv->value, &why)) {
                spmvlab_errf(err, "%s[%s] %s", at, label, why.msg);
                goto done;
            }
            continue;
        }
        if (nsweep == MAX_SWEEP_KEYS) {
            spmvlab_errf(err, "%s[%s] sweeps more than %d options", at, label, MAX_SWEEP_KEYS);
            goto done;
        }
        sweep_key *s = &sweep[nsweep++];
        s->kv = kv;
        s->buf = strdup(kv->value);
        if (!s->buf) {
            spmvlab_errf(err, "out of host memory");
            goto done;
        }
        s->n = split_values(s->buf, s->values, MAX_VALUES);
        if (s->n < 0) {
            spmvlab_errf(err, "%s[%s] %s lists more than %d values", at, label, kv->key, MAX_VALUES);
            goto done;
        }
        for (int v = 0; v < s->n; v++) {
            if (!s->values[v][0]) {
                spmvlab_errf(err, "%s[%s] %s = '%s' has an empty item in its value list", at, label, kv->key,
                             kv->value);
                goto done;
            }
            for (int w = 0; w < v; w++)
                if (strcmp(s->values[v], s->values[w]) == 0) {
                    spmvlab_errf(err, "%s[%s] %s lists the value '%s' twice", at, label, kv->key, s->values[v]);
                    goto done;
                }
            if (spmvlab_optset_set(&base, pl->desc->name, kv->key, s->values[v], &why)) {
                spmvlab_errf(err, "%s[%s] %s", at, label, why.msg);
                goto done;
            }
        }
    }
    /* Cartesian product of the swept values (odometer order). */
    int idx[MAX_SWEEP_KEYS] = {0};
    for (;;) {
        if (push_spec(out, n, cap, err))
            goto done;
        spmvlab_instance_spec *sp = &(*out)[*n];
        if (spmvlab_optset_copy(&sp->opts, &base, err))
            goto done;
        char suffix[sizeof sp->label] = "";
        size_t used = 0;
        for (int s = 0; s < nsweep; s++) {
            spmvlab_optset_set(&sp->opts, pl->desc->name, sweep[s].kv->key, sweep[s].values[idx[s]], &why);
            if (used < sizeof suffix)
                used += (size_t)snprintf(suffix + used, sizeof suffix - used, "%s%s=%s", s ? "," : "",
                                         sweep[s].kv->key, sweep[s].values[idx[s]]);
        }
        /* Labels name the results (and what --resume skips): never cut. */
        int wrote = nsweep ? snprintf(sp->label, sizeof sp->label, "%s[%s]", label, suffix)
                           : snprintf(sp->label, sizeof sp->label, "%s", label);
        if (used >= sizeof suffix || wrote < 0 || (size_t)wrote >= sizeof sp->label) {
            spmvlab_optset_free(&sp->opts);
            if (sec && sec->line)
                snprintf(at, sizeof at, "%s:%d: ", sec->file, sec->line);
            else
                at[0] = '\0';
            spmvlab_errf(err, "%s[%s] a sweep label would be longer than %zu characters; use shorter values",
                         at, label, sizeof sp->label - 1);
            goto done;
        }
        snprintf(sp->base_label, sizeof sp->base_label, "%s", label);
        sp->plugin = pl;
        spmvlab_optset_describe(&sp->opts, 0, sp->options_text, sizeof sp->options_text);
        if (pl->desc->check_options && pl->desc->check_options(&sp->opts.opts, &why) != SPMVLAB_OK) {
            if (sec && sec->line)
                snprintf(at, sizeof at, "%s:%d: ", sec->file, sec->line);
            else
                at[0] = '\0';
            spmvlab_errf(err, "%s[%s] %s", at, sp->label, why.msg);
            spmvlab_optset_free(&sp->opts);
            goto done;
        }
        (*n)++;
        int s = nsweep - 1;
        while (s >= 0 && ++idx[s] == sweep[s].n)
            idx[s--] = 0;
        if (s < 0)
            break;
    }
    rc = 0;
done:
    for (int s = 0; s < nsweep; s++)
        free(sweep[s].buf);
    spmvlab_optset_free(&base);
    return rc;
}

/* Refuses a section that can be neither [run] nor an instance (no plugin
 * of its name, no plugin = or library = key): its settings would be dropped
 * without a word. Returns 0, or -1 with a sentence and a "did you mean". */
static int check_sections(const spmvlab_config *cfg, spmvlab_registry *reg, spmvlab_err *err)
{
    for (int j = 0; j < cfg->nsections; j++) {
        const spmvlab_section *sec = &cfg->sections[j];
        if (strcmp(sec->label, "run") == 0 || spmvlab_section_get(sec, "plugin") ||
            spmvlab_section_get(sec, "library") || spmvlab_registry_knows(reg, sec->label))
            continue;
        char names[256][64];
        const char *list[257] = {"run"};
        int n = spmvlab_registry_names(reg, names, 256);
        for (int i = 0; i < n; i++)
            list[i + 1] = names[i];
        const char *near = spmvlab_closest_name(sec->label, list, n + 1);
        char at[600] = "", hint[128] = "";
        if (sec->line)
            snprintf(at, sizeof at, "%s:%d: ", sec->file, sec->line);
        if (near)
            snprintf(hint, sizeof hint, " (did you mean [%s]?)", near);
        return spmvlab_errf(err, "%ssection [%s]%s is neither [run] nor an instance: no plugin is called '%s' and "
                            "it has no plugin = key", at, sec->label, hint, sec->label),
               -1;
    }
    return 0;
}

int spmvlab_config_resolve(spmvlab_config *cfg, spmvlab_registry *reg, const char *labels,
                           spmvlab_instance_spec **out, spmvlab_err *err)
{
    if (check_sections(cfg, reg, err)) {
        *out = NULL;
        return -1;
    }
    *out = NULL;
    int n = 0, cap = 0;
    char *copy = strdup(labels), *items[MAX_INSTANCES];
    if (!copy)
        return spmvlab_errf(err, "out of host memory"), -1;
    int count = split_list(copy, items, MAX_INSTANCES);
    for (int i = 0; i < count; i++) {
        if (!items[i][0])
            continue;
        if (strcmp(items[i], "run") == 0) {
            spmvlab_errf(err, "'run' is the settings section, not an instance label");
            goto fail;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(items[i], items[j]) == 0) {
                spmvlab_errf(err, "instance label '%s' is listed twice", items[i]);
                goto fail;
            }
        if (resolve_label(cfg, reg, items[i], out, &n, &cap, err))
            goto fail;
    }
    free(copy);
    if (n == 0) {
        spmvlab_errf(err, "no instances to run: give plugin or section labels");
        return -1;
    }
    return n;
fail:
    free(copy);
    spmvlab_instance_specs_free(*out, n);
    *out = NULL;
    return -1;
}

void spmvlab_instance_specs_free(spmvlab_instance_spec *specs, int n)
{
    for (int i = 0; i < n; i++)
        spmvlab_optset_free(&specs[i].opts);
    free(specs);
}
