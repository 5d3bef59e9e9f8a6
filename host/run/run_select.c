/* Selector instances of run; see run_select.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_origin.h"
#include "run_select.h"
#include "run_status.h"

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

/* Sets the chosen options one "key=value" at a time, as --set would, then
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
    spmvlab_err err = {{0}};
    int k = spec->select.k ? spec->select.k : SELECT_DEFAULT_K;
    if (select_choose(&m->f, c, k, m->label, &ch, &err)) {
        snprintf(out->note, sizeof out->note, "%s", err.msg);
        return;
    }
    out->tune_ms += ch.cost_ms;
    out->spec.plugin = spmvlab_registry_get(reg, ch.chosen.plugin, &err);
    if (!out->spec.plugin || set_options(&out->spec, ch.chosen.options, &err)) {
        out->refused = SPMVLAB_RESULT_INVALID_OPTION;
        snprintf(out->note, sizeof out->note, ORIGIN_SELECTED " the chosen instance %s (plugin %s) cannot be set up: %s",
                 ch.chosen.instance, ch.chosen.plugin, err.msg);
        spmvlab_optset_free(&out->spec.opts);
        out->spec.plugin = NULL;
        return;
    }
    if (ch.covered < ch.k)
        snprintf(out->note, sizeof out->note, ORIGIN_SELECTED " predicted %.3gx over %d of %d neighbours", ch.predicted,
                 ch.covered, ch.k);
    else
        snprintf(out->note, sizeof out->note, ORIGIN_SELECTED " predicted %.3gx over %d neighbours", ch.predicted, ch.k);
    out->chosen = 1;
}

void run_selection_to_row(const run_selection *s, run_row *r)
{
    char rest[sizeof r->message];
    snprintf(rest, sizeof rest, "%s", r->message);
    size_t n = (size_t)snprintf(r->message, sizeof r->message, "%s", s->note);
    if (rest[0] && n + 2 < sizeof r->message)
        snprintf(r->message + n, sizeof r->message - n, "; %s", rest);
    r->tune_ms = s->tune_ms;
    r->tune_spmvs = 0;
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
    if (s->chosen)
        spmvlab_optset_free(&s->spec.opts);
    s->chosen = 0;
}
