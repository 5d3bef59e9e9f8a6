/* The matrix loop of run and tune: a matrix's cells into groups, groups
 * into rows; see run_state.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spmvlab/cache.h"
#include "exit_codes.h"
#include "run_answer.h"
#include "speedup.h"
#include "run_engine.h"
#include "run_inputs.h"
#include "run_isolate.h"
#include "row_out.h"
#include "run_state.h"
#include "status.h"
#include "shard.h"
#include "tune_table.h"

volatile sig_atomic_t run_stop_flag;

void run_say(const run_state *st, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s.\n", st->s.prog ? st->s.prog : "spmvlab run", msg);
}

/* ---- the loop ---------------------------------------------------------- */

/* The table line of a finished row (the progress line cleared first). */
static void print_row(run_state *st, const run_row *r)
{
    progress_line_row(&st->prog);
    table_row(stdout, r);
    if (st->s.verbose && r->describe[0])
        printf("    facts: %s\n", r->describe);
    fflush(stdout);
}

void run_take_row(run_state *st, const run_row *r, int print)
{
    if (print)
        print_row(st, r);
    csv_append(st->csv, r);
    if (run_rows_push(&st->rows, r))
        run_say(st, "out of host memory: the row of %s on %s is in the CSV only", r->instance, r->matrix);
    if (run_status_fails_run(r->status))
        st->failures++;
}

/* A row is finished: printed here; a worker sends it to its parent, which
 * keeps it. */
static void emit(run_state *st, const run_row *r)
{
    print_row(st, r);
    if (!st->sink) {
        run_take_row(st, r, 0);
        return;
    }
    answer_write(st->sink, r);
    fflush(st->sink);
}

/* A worker whose context a plugin has made unusable sends the faulting row
 * (marked "ref" when it was only the baseline) and ends. */
static void end_worker_after_fault(run_state *st, const run_member *mb)
{
    if (mb->emit) {
        emit(st, &mb->row);
    } else {
        fputs("ref\n", st->sink);
        answer_write(st->sink, &mb->row);
    }
    fflush(st->sink);
    fflush(stdout);
    _exit(RUN_WORKER_FAULTED);
}

/* The progress line, and in a worker the watchdog's heartbeat: a plugin
 * call begins (run_supervise.c). */
static void worker_progress(void *arg, const char *instance, const char *phase, int done, int total)
{
    run_state *st = arg;
    progress_line_update(&st->prog, instance, phase, done, total);
    fputs("step\n", st->sink);
    fflush(st->sink);
}

/* The rows of an input no instance ran on, one per dtype this run owes it. */
static void emit_input(run_state *st, const char *label, const char *path, const char *todo, const char *status,
                       const char *why)
{
    for (int d = 0; d < st->s.ndtypes; d++) {
        if (!memchr(todo + d * st->nspecs, 1, (size_t)st->nspecs) || cells_has_input(&st->done, label, st->s.dtypes[d]))
            continue; /* not this shard's, or a resumed run already has the row */
        run_row r;
        run_row_input(&r, &st->meta, label, path, spmvlab_dtype_name(st->s.dtypes[d]), status, why);
        emit(st, &r);
    }
}

/* Of each selector's candidates (consecutive members of one spec), the
 * row that stands for it: emitted with the cost of the others. */
static void pick_candidates(run_state *st, run_member *m, run_row **rows, const int *spec_of, int done,
                            const run_selection *chosen, const char *todo)
{
    for (int i = 0, end; i < done; i = end) {
        int k = spec_of[i];
        for (end = i + 1; end < done && spec_of[end] == k; end++)
            ;
        if (!st->specs[k].selector)
            continue;
        int pick = i + run_selection_pick(rows + i, end - i);
        double others_ms = 0;
        for (int j = i; j < end; j++)
            if (j != pick && m[j].row.wall_ms > 0)
                others_ms += m[j].row.wall_ms;
        run_selection_to_row(&chosen[k], others_ms, end - i - 1, &m[pick].row);
        for (int j = i; j < end; j++)
            m[j].emit = j == pick ? todo[k] : 0;
    }
}

static void run_dtype(run_state *st, const char *path, const char *label, const spmvlab_csr *A, spmvlab_dtype d,
                      const char *todo, run_select_matrix *features)
{
    /* a selector builds up to SELECT_MAX_CANDIDATES members */
    size_t slots = (size_t)st->nspecs * SELECT_MAX_CANDIDATES;
    run_member *m = calloc(slots, sizeof *m);
    run_row **rows = calloc(slots, sizeof *rows);
    const char **base_of = calloc(slots, sizeof *base_of);
    run_selection *chosen = calloc((size_t)st->nspecs, sizeof *chosen); /* per selector spec */
    int *spec_of = calloc(slots, sizeof *spec_of);
    if (!m || !rows || !base_of || !chosen || !spec_of) {
        run_say(st, "out of host memory for %s", label);
        st->failures++;
        goto out;
    }
    int n = 0, base_member = -1;
    for (int k = 0; k < st->nspecs; k++) {
        if ((!todo[k] && k != st->base) || cells_has(&st->excluded, label, &st->specs[k], d))
            continue;
        if (st->specs[k].selector) { /* runs as the candidates it chooses, or gets a row saying why not */
            run_select_choose(&st->selectors, st->reg, &st->specs[k], k, d, features, &chosen[k]);
            for (int j = 0; j < chosen[k].ncandidates; j++) {
                /* each candidate's fault is the selector's; once all ran,
                 * only the picked one's row is emitted (pick_candidates) */
                m[n].spec = &chosen[k].candidate[j];
                m[n].emit = todo[k];
                spec_of[n++] = k;
            }
            continue;
        }
        if (k == st->base)
            base_member = n;
        m[n].spec = &st->specs[k];
        m[n].emit = todo[k];
        spec_of[n] = k;
        n++;
    }
    run_group g = {.rt = &st->rt, .s = &st->s, .meta = &st->meta, .matrix = label, .source = path, .A = A,
                   .dtype = d, .m = m, .n = n, .stop = &run_stop_flag, .flush_buf = st->flush_buf,
                   .flush_bytes = st->flush_bytes, .progress = st->sink ? worker_progress : progress_line_update,
                   .progress_arg = st->sink ? (void *)st : &st->prog, .order = st->order,
                   .per_call = st->per_call, .features = run_select_features(features)};
    /* the columns every row of the group shares, once for all its members */
    run_identity identity;
    group_identity(&g, &identity);
    g.identity = &identity;
    int done = n;
    if (st->sink) {
        fprintf(st->sink, "group,%s\n", spmvlab_dtype_name(d));
        fflush(st->sink);
    }
    if (st->s.isolate || st->isolate_now) {
        for (int i = 0; i < n; i++) {
            if (run_stop_flag) {
                done = i;
                break;
            }
            progress_line_update(&st->prog, m[i].spec->label, "in a child", i, n);
            isolate_member(&g, m[i].spec, &m[i].row);
        }
    } else {
        group_execute(&g);
        if (g.faulted && st->sink)
            end_worker_after_fault(st, g.faulted);
    }
    if (base_member >= done)
        base_member = -1;
    for (int i = 0; i < done; i++) {
        rows[i] = &m[i].row;
        base_of[i] = m[i].spec->base_label;
    }
    compare_rows(rows, done, base_member >= 0 ? rows[base_member] : NULL,
                 st->base >= 0 ? st->specs[st->base].label : "", !st->s.isolate && !st->isolate_now,
                 st->s.timing == RUN_TIMING_SINGLE, st->s.noise, st->s.seed);
    if (st->s.mode == RUN_MODE_TUNE)
        tune_rows(rows, base_of, done);
    pick_candidates(st, m, rows, spec_of, done, chosen, todo);
    if (run_stop_flag) {
        st->abandoned++;
        if (st->sink) {
            fputs("abandoned\n", st->sink);
            fflush(st->sink);
        }
        progress_line_clear(&st->prog);
        run_say(st, "interrupted during %s (%s): its cells are not written", label, spmvlab_dtype_name(d));
    } else {
        for (int i = 0; i < done; i++)
            if (m[i].emit)
                emit(st, &m[i].row);
        for (int k = 0; k < st->nspecs; k++)
            if (st->specs[k].selector && todo[k] && chosen[k].note[0] && !chosen[k].chosen) {
                run_row r;
                run_selection_refused_row(&chosen[k], &st->meta, label, path, A, d, &r);
                emit(st, &r);
            }
    }
    group_release(&g);
out:
    for (int k = 0; chosen && k < st->nspecs; k++)
        run_selection_free(&chosen[k]);
    free(chosen);
    free(spec_of);
    free(m);
    free(rows);
    free(base_of);
}

/* Marks in todo the cells of label this process owes: its shard's, not yet
 * done. Returns 1 when there is at least one. */
static int cells_todo(run_state *st, const char *label, char *todo)
{
    int any = 0;
    for (int d = 0; d < st->s.ndtypes; d++)
        for (int k = 0; k < st->nspecs; k++) {
            int t = shard_owns(st->s.shard_index, st->s.shard_count, label, st->s.dtypes[d]) &&
                    !cells_has(&st->done, label, &st->specs[k], st->s.dtypes[d]);
            todo[d * st->nspecs + k] = (char)t;
            any |= t;
        }
    return any;
}

/* The groups of one ordering of A (label is the ordering's), every dtype
 * with a cell to do. An ordering that does not apply (rcm on a rectangular
 * matrix) is an input no instance ran on: skipped, with its reason. The
 * groups of ORDER+call convert from the permuted matrix and call through
 * the permutation, with x, y and the reference of A. */
static void run_ordering(run_state *st, const char *path, const char *label, const spmvlab_csr *A,
                         run_order_spec o, const char *todo)
{
    spmvlab_csr B;
    int32_t *perm = NULL;
    run_order_facts facts;
    spmvlab_err err = {{0}};
    if (run_order_apply(&st->s, A, o, &B, o.per_call ? &perm : NULL, &facts, &err)) {
        run_say(st, "%s: %s", label, err.msg);
        emit_input(st, label, path, todo, RUN_STATUS_SKIPPED, err.msg);
        return;
    }
    run_per_call per_call = {A, perm};
    st->order = st->s.norders ? &facts : NULL;
    st->per_call = o.per_call ? &per_call : NULL;
    const spmvlab_csr *M = o.ordering == SPMVLAB_ORDER_NONE ? A : &B;
    /* the matrix's features, computed once for all its dtypes (every row carries them) */
    run_select_matrix features = {.A = M, .label = label};
    for (int d = 0; d < st->s.ndtypes && !run_stop_flag; d++)
        if (memchr(todo + d * st->nspecs, 1, (size_t)st->nspecs))
            run_dtype(st, path, label, M, st->s.dtypes[d], todo + d * st->nspecs, &features);
    st->order = NULL;
    st->per_call = NULL;
    free(perm);
    spmvlab_csr_free(&B);
}

void run_matrix(run_state *st, int mi)
{
    const char *path = st->paths[mi];
    char label[256];
    spmvlab_matrix_label(path, label, sizeof label);
    progress_line_matrix(&st->prog, mi, label);
    int norders = run_order_count(&st->s);
    size_t per_order = (size_t)st->s.ndtypes * st->nspecs;
    char *todo = calloc(per_order * norders + 1, 1);
    char (*labels)[300] = calloc((size_t)norders, sizeof *labels);
    if (!todo || !labels) {
        run_say(st, "out of host memory");
        st->failures++;
        free(todo);
        free(labels);
        return;
    }
    /* shards and resume go by the label of each ordering, before loading */
    int any = 0;
    for (int o = 0; o < norders; o++) {
        run_order_label(label, run_order_at(&st->s, o), labels[o], sizeof labels[o]);
        any |= cells_todo(st, labels[o], todo + o * per_order);
    }
    if (!any) {
        if (st->s.verbose)
            run_say(st, "%s: every cell is already in %s", label, st->s.resume);
        free(todo);
        free(labels);
        return;
    }
    spmvlab_csr A;
    spmvlab_err err = {{0}};
    progress_line_update(&st->prog, "", "loading", 0, 1);
    int lrc = spmvlab_matrix_load(path, &A, &err);
    progress_line_clear(&st->prog);
    if (lrc == -2) {
        run_say(st, "skipping %s: %s", path, err.msg);
        for (int o = 0; o < norders; o++)
            emit_input(st, labels[o], path, todo + o * per_order, RUN_STATUS_SKIPPED, err.msg);
    } else if (lrc) {
        run_say(st, "%s", err.msg);
        for (int o = 0; o < norders; o++)
            emit_input(st, labels[o], path, todo + o * per_order, RUN_STATUS_UNREADABLE, err.msg);
        st->input_errors++;
        if (st->sink) {
            fputs("input-error\n", st->sink);
            fflush(st->sink);
        }
    } else {
        for (int o = 0; o < norders && !run_stop_flag; o++)
            if (memchr(todo + o * per_order, 1, per_order))
                run_ordering(st, path, labels[o], &A, run_order_at(&st->s, o), todo + o * per_order);
        spmvlab_csr_free(&A);
    }
    free(todo);
    free(labels);
}


/* The device's facts from a child (this process never initialises CUDA),
 * the notice without a GPU, and the CPU runtime this process keeps for its
 * bookkeeping. Returns 0, or an exit code. */
int run_probe_device(run_state *st)
{
    spmvlab_err err = {{0}};
    if (isolate_meta(&st->meta, st->s.timeout_s, &err)) {
        run_say(st, "%s", err.msg);
        return EXIT_FAILED;
    }
    spmvlab_runtime_open(&st->rt, 0, 0, &err);
    st->rt_open = 1;
    if (!st->meta.gpu)
        fprintf(stderr, "%s: no CUDA device found; running each instance's spmv_host as a functional check "
                        "(no timings).\n", st->s.prog);
    return 0;
}

int run_open_device(run_state *st)
{
    spmvlab_err err = {{0}};
    if (spmvlab_runtime_open(&st->rt, 1, 0, &err) < 0) {
        run_say(st, "%s", err.msg);
        return EXIT_FAILED;
    }
    st->rt_open = 1;
    if (st->s.mem_limit)
        st->rt.mem_limit = st->s.mem_limit;
    if (st->rt.device.present && st->s.flush_l2) {
        st->flush_bytes = 2 * st->rt.device.l2_bytes;
        if (spmvlab_dev_malloc(&st->rt, &st->flush_buf, st->flush_bytes, &err)) {
            run_say(st, "--flush-l2: %s", err.msg);
            return EXIT_FAILED;
        }
    }
    return 0;
}
