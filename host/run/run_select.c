/* Selector instances of run; see run_select.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "origin.h"
#include "run_select.h"
#include "status.h"

int run_selectors_open(run_selectors *sel, const spmvlab_instance_spec *specs, int nspecs,
                       const spmvlab_dtype *dtypes, int ndtypes, spmvlab_err *err)
{
    memset(sel, 0, sizeof *sel);
    int any = 0;
    for (int k = 0; k < nspecs; k++)
        any |= specs[k].selector;
    if (!any)
        return 0;
    sel->corpus = calloc((size_t)nspecs * ndtypes, sizeof *sel->corpus);
    sel->dtype = malloc((size_t)ndtypes * sizeof *sel->dtype);
    if (!sel->corpus || !sel->dtype) {
        run_selectors_close(sel);
        return spmvlab_errf(err, "out of host memory for the selectors' corpora"), -1;
    }
    sel->nspecs = nspecs;
    sel->ndtypes = ndtypes;
    memcpy(sel->dtype, dtypes, (size_t)ndtypes * sizeof *dtypes);
    for (int k = 0; k < nspecs; k++) {
        const spmvlab_selector_spec *s = &specs[k].select;
        for (int d = 0; specs[k].selector && d < ndtypes; d++) {
            spmvlab_err why;
            if (select_corpus_open(s->results, s->features[0] ? s->features : NULL, spmvlab_dtype_name(dtypes[d]),
                                   s->part, &sel->corpus[k * ndtypes + d], &why)) {
                run_selectors_close(sel);
                return spmvlab_errf(err, "selector instance %s: %s", specs[k].label, why.msg), -1;
            }
        }
    }
    return 0;
}

void run_selectors_close(run_selectors *sel)
{
    for (int i = 0; sel->corpus && i < sel->nspecs * sel->ndtypes; i++)
        select_corpus_free(&sel->corpus[i]);
    free(sel->corpus);
    free(sel->dtype);
    memset(sel, 0, sizeof *sel);
}

/* Sets the chosen options one "key=value" at a time, as --option would, then
 * lets the plugin check them together. Returns 0, or -1 with a sentence. */
static int set_options(spmvlab_instance_spec *sp, const char *text, spmvlab_err *err)
{
    const spmvlab_plugin *p = sp->plugin->desc;
    if (spmvlab_optset_init(&sp->opts, p, err))
        return -1;
    char buf[sizeof sp->options_text];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *item = strtok_r(buf, " ", &save); item; item = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(item, '=');
        if (!eq)
            return spmvlab_errf(err, "option '%s' is not of the form key=value", item), -1;
        *eq = '\0';
        if (spmvlab_optset_set(&sp->opts, p->name, item, eq + 1, err))
            return -1;
    }
    if (p->check_options && p->check_options(&sp->opts.opts, err) != SPMVLAB_OK)
        return -1;
    spmvlab_optset_describe(&sp->opts, 0, sp->options_text, sizeof sp->options_text);
    return 0;
}

static const select_corpus *corpus_of(const run_selectors *sel, int spec_index, spmvlab_dtype d)
{
    for (int i = 0; i < sel->ndtypes; i++)
        if (sel->dtype[i] == d)
            return &sel->corpus[spec_index * sel->ndtypes + i];
    return NULL;
}

/* Sets up candidate instance i of the choice as sp. Returns 0, or -1 with a sentence. */
static int set_up(spmvlab_registry *reg, const select_corpus *c, int i, spmvlab_instance_spec *sp, spmvlab_err *err)
{
    sp->plugin = spmvlab_registry_get(reg, c->instance[i].plugin, err);
    if (!sp->plugin || set_options(sp, c->instance[i].options, err)) {
        if (sp->plugin)
            spmvlab_optset_free(&sp->opts);
        sp->plugin = NULL;
        return -1;
    }
    return 0;
}

/* The features of m, computed on first use (every row carries them). */
const spmvlab_features *run_select_features(run_select_matrix *m)
{
    if (!m->have) {
        spmvlab_err err = {{0}};
        double t0 = spmvlab_now_ms();
        m->bad = spmvlab_features_of(m->A, &m->f, &err) != 0;
        m->ms = spmvlab_now_ms() - t0;
        snprintf(m->why, sizeof m->why, "%s", err.msg);
        m->have = 1;
    }
    return m->bad ? NULL : &m->f;
}

void run_select_choose(const run_selectors *sel, spmvlab_registry *reg, const spmvlab_instance_spec *spec,
                       int spec_index, spmvlab_dtype d, run_select_matrix *m, run_selection *out)
{
    memset(out, 0, sizeof *out);
    out->spec = *spec;
    out->spec.selector = 0;
    out->refused = SPMVLAB_RESULT_UNSUPPORTED;
    run_select_features(m);
    out->tune_ms = m->ms;
    const select_corpus *c = corpus_of(sel, spec_index, d);
    if (m->bad || !c) {
        snprintf(out->note, sizeof out->note, ORIGIN_SELECTED " %s",
                 m->bad ? m->why : "no corpus was opened for this dtype");
        return;
    }
    select_choice ch;
    select_params p;
    spmvlab_err err = {{0}}, first = {{0}};
    select_params_default(&p);
    if (spec->select.k)
        p.k = spec->select.k;
    if (select_choose_with(&m->f, c, &p, m->label, NULL, &ch, &err)) {
        snprintf(out->note, sizeof out->note, "%s", err.msg);
        return;
    }
    out->tune_ms += ch.cost_ms;
    for (int j = 0; j < ch.ncandidates; j++) {
        spmvlab_instance_spec *sp = &out->candidate[out->ncandidates];
        *sp = out->spec;
        if (set_up(reg, c, ch.candidate[j], sp, j ? &err : &first) == 0)
            out->ncandidates++;
    }
    if (out->ncandidates == 0) {
        out->refused = SPMVLAB_RESULT_INVALID_OPTION;
        snprintf(out->note, sizeof out->note, ORIGIN_SELECTED " the chosen instance %s (plugin %s) cannot be set up: %s",
                 ch.chosen.instance, ch.chosen.plugin, first.msg);
        return;
    }
    out->spec = out->candidate[0];
    int n = snprintf(out->note, sizeof out->note, ORIGIN_SELECTED " predicted %.3gx over ", ch.predicted);
    if (ch.covered < ch.k)
        n += snprintf(out->note + n, sizeof out->note - n, "%d of %d neighbours", ch.covered, ch.k);
    else
        n += snprintf(out->note + n, sizeof out->note - n, "%d neighbours", ch.k);
    if (out->ncandidates > 1 && n > 0 && (size_t)n < sizeof out->note)
        snprintf(out->note + n, sizeof out->note - n, "; the fastest accepted of %d candidates (%s)", out->ncandidates,
                 ch.disagree ? "the evidence disagrees" : "the first refuses some neighbours");
    out->chosen = 1;
}

int run_selection_pick(run_row *const *rows, int n)
{
    int pick = -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(rows[i]->status, "ok") != 0)
            continue;
        if (pick < 0 || (rows[i]->ms > 0 && !(rows[i]->ms >= rows[pick]->ms)))
            pick = i;
    }
    return pick < 0 ? 0 : pick;
}

void run_selection_to_row(const run_selection *s, double others_ms, int others, run_row *r)
{
    char rest[sizeof r->message];
    snprintf(rest, sizeof rest, "%s", r->message);
    size_t n = (size_t)snprintf(r->message, sizeof r->message, "%s", s->note);
    if (rest[0] && n + 2 < sizeof r->message)
        snprintf(r->message + n, sizeof r->message - n, "; %s", rest);
    r->tune_ms = s->tune_ms + (others ? others_ms : 0);
    r->tune_spmvs = others && r->ms > 0 && !isinf(r->ms) ? others_ms / r->ms : 0;
}

void run_selection_refused_row(const run_selection *s, const run_meta *meta, const char *label, const char *path,
                               const spmvlab_csr *A, spmvlab_dtype d, run_row *r)
{
    run_row_input(r, meta, label, path, spmvlab_dtype_name(d), "", "");
    snprintf(r->instance, sizeof r->instance, "%s", s->spec.label);
    r->rows = A->rows;
    r->cols = A->cols;
    r->nnz = A->nnz;
    run_row_fail(r, s->refused, s->note);
    r->tune_ms = s->tune_ms;
    r->tune_spmvs = 0;
}

void run_selection_free(run_selection *s)
{
    for (int j = 0; s->chosen && j < s->ncandidates; j++)
        spmvlab_optset_free(&s->candidate[j].opts);
    s->chosen = 0;
    s->ncandidates = 0;
}
