/* The body of run and tune; see run_driver.h. */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "host_util.h"
#include "run_compare.h"
#include "run_driver.h"
#include "run_engine.h"
#include "run_inputs.h"
#include "run_isolate.h"
#include "run_json.h"
#include "run_output.h"
#include "output_file.h"
#include "run_resume.h"
#include "progress.h"
#include "shard.h"
#include "workers.h"
#include "run_status.h"
#include "run_summary.h"
#include "tune_table.h"
#include "spmvlab/gen.h"

static volatile sig_atomic_t stop_flag;

/* The first Ctrl-C ends the run at once: the child under way (--isolate) is
 * killed, the rounds stop, and the matrix under way is not written (--resume
 * measures it); a second Ctrl-C kills the program. */
static void on_sigint(int sig)
{
    if (stop_flag) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    stop_flag = 1;
    isolate_interrupt();
}

typedef struct run_state {
    run_settings s;
    spmvlab_config cfg;
    spmvlab_registry *reg;
    spmvlab_instance_spec *specs;
    int nspecs;
    int base;                   /* baseline spec, or -1 */
    spmvlab_runtime rt;
    int rt_open;
    run_meta meta;
    FILE *csv;
    FILE *json;
    run_rows rows;              /* resumed rows, then new ones */
    int failures, input_errors;
    int abandoned;              /* groups left unwritten by Ctrl-C */
    run_cells done;             /* resumed cells */
    char **paths;
    int npaths;
    progress_line prog;
    void *flush_buf;
    size_t flush_bytes;
} run_state;

static void say(const run_state *st, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s.\n", st->s.prog ? st->s.prog : "spmvlab run", msg);
}

/* ---- instances and baseline ------------------------------------------ */

static int find_baseline(run_state *st, spmvlab_err *err)
{
    const char *want = st->s.baseline;
    if (want[0]) {
        for (int k = 0; k < st->nspecs; k++)
            if (strcmp(st->specs[k].label, want) == 0)
                return k;
        int found = -1, count = 0;
        for (int k = 0; k < st->nspecs; k++)
            if (strcmp(st->specs[k].base_label, want) == 0 && count++ == 0)
                found = k;
        if (count == 1)
            return found;
        if (count > 1)
            return spmvlab_errf(err, "baseline '%s' is a sweep of %d instances; name one, e.g. '%s'", want, count,
                                st->specs[found].label),
                   -2;
        return spmvlab_errf(err, "baseline '%s' is not among the instances (%s)", want, st->s.labels), -2;
    }
    static const char *prefer[] = {"cusparse", "csr"};
    for (int p = 0; p < 2; p++) {
        for (int k = 0; k < st->nspecs; k++)
            if (strcmp(st->specs[k].label, prefer[p]) == 0)
                return k;
        for (int k = 0; k < st->nspecs; k++)
            if (strcmp(st->specs[k].plugin->desc->name, prefer[p]) == 0)
                return k;
    }
    return st->nspecs > 0 ? 0 : -1;
}

/* Reads the file to resume (and the rows an interrupted run left beside
 * it), refusing rows of another build, device, dtype set or option set. A
 * missing or empty file starts afresh. */
static int load_resume(run_state *st, spmvlab_err *err)
{
    int partial = -1;
    if (resume_rows_read(st->s.resume, &st->rows, &partial, err) ||
        resume_check(&st->s, &st->meta, st->specs, st->nspecs, &st->rows, err))
        return -1;
    if (partial >= 0)
        say(st, "continuing from %s and %s.partial (an interrupted run's rows: %d cells more)", st->s.resume,
            st->s.resume, partial);
    return cells_load(&st->done, &st->rows, err);
}

/* Reads the file to resume and opens the outputs beside their names, to be
 * renamed at the end (output_file.h). Returns 0, or -1 with a sentence. */
static int open_outputs(run_state *st, spmvlab_err *err)
{
    if (st->s.resume[0] && load_resume(st, err))
        return -1;
    if (st->s.output[0] && !(st->csv = csv_begin(st->s.output, &st->rows, st->s.resume[0] != 0, err)))
        return -1;
    if (st->s.json[0] && !(st->json = output_begin(st->s.json, err)))
        return -1;
    return 0;
}

/* ---- the loop ---------------------------------------------------------- */

static void emit(run_state *st, const run_row *r)
{
    progress_line_row(&st->prog);
    table_row(stdout, r);
    if (st->s.verbose && r->describe[0])
        printf("    facts: %s\n", r->describe);
    fflush(stdout);
    csv_append(st->csv, r);
    if (run_rows_push(&st->rows, r))
        say(st, "out of host memory: the row of %s on %s is in the CSV only", r->instance, r->matrix);
    if (run_status_is_failure(run_status_outcome(r->status)))
        st->failures++;
}

static void run_dtype(run_state *st, const char *path, const char *label, const spmvlab_csr *A, spmvlab_dtype d,
                      const char *todo)
{
    run_member *m = calloc((size_t)st->nspecs, sizeof *m);
    run_row **rows = calloc((size_t)st->nspecs, sizeof *rows);
    const char **base_of = calloc((size_t)st->nspecs, sizeof *base_of);
    if (!m || !rows || !base_of) {
        say(st, "out of host memory for %s", label);
        st->failures++;
        goto out;
    }
    int n = 0, base_member = -1;
    for (int k = 0; k < st->nspecs; k++) {
        if (!todo[k] && k != st->base)
            continue;
        if (k == st->base)
            base_member = n;
        m[n].spec = &st->specs[k];
        m[n].emit = todo[k];
        n++;
    }
    run_group g = {&st->rt, &st->s, &st->meta, label, path, A, d, m, n, &stop_flag, st->flush_buf,
                   st->flush_bytes, progress_line_update, &st->prog};
    int done = n;
    if (st->s.isolate) {
        for (int i = 0; i < n; i++) {
            if (stop_flag) {
                done = i;
                break;
            }
            progress_line_update(&st->prog, m[i].spec->label, "in a child", i, n);
            isolate_member(&g, m[i].spec, &m[i].row);
        }
    } else {
        group_execute(&g);
    }
    if (base_member >= done)
        base_member = -1;
    for (int i = 0; i < done; i++) {
        rows[i] = &m[i].row;
        base_of[i] = m[i].spec->base_label;
    }
    compare_rows(rows, done, base_member >= 0 ? rows[base_member] : NULL,
                 st->base >= 0 ? st->specs[st->base].label : "", !st->s.isolate,
                 st->s.timing == RUN_TIMING_SINGLE, st->s.noise, st->s.seed);
    if (st->s.mode == RUN_MODE_TUNE)
        tune_rows(rows, base_of, done);
    if (stop_flag) {
        st->abandoned++;
        progress_line_clear(&st->prog);
        say(st, "interrupted during %s (%s): its cells are not written", label, spmvlab_dtype_name(d));
    } else {
        for (int i = 0; i < done; i++)
            if (m[i].emit)
                emit(st, &m[i].row);
    }
    group_release(&g);
out:
    free(m);
    free(rows);
    free(base_of);
}

static void run_matrix(run_state *st, int mi)
{
    const char *path = st->paths[mi];
    char label[256];
    spmvlab_matrix_label(path, label, sizeof label);
    progress_line_matrix(&st->prog, mi, label);
    char *todo = calloc((size_t)st->s.ndtypes * st->nspecs + 1, 1);
    if (!todo) {
        say(st, "out of host memory");
        st->failures++;
        return;
    }
    int any = 0;
    for (int d = 0; d < st->s.ndtypes; d++)
        for (int k = 0; k < st->nspecs; k++) {
            int t = shard_owns(st->s.shard_index, st->s.shard_count, label, st->s.dtypes[d]) &&
                    !cells_has(&st->done, label, &st->specs[k], st->s.dtypes[d]);
            todo[d * st->nspecs + k] = (char)t;
            any |= t;
        }
    if (!any) {
        if (st->s.verbose)
            say(st, "%s: every cell is already in %s", label, st->s.resume);
        free(todo);
        return;
    }
    spmvlab_csr A;
    spmvlab_err err = {{0}};
    progress_line_update(&st->prog, "", "loading", 0, 1);
    int lrc = load_matrix(path, &A, &err);
    progress_line_clear(&st->prog);
    if (lrc == -2) {
        say(st, "skipping %s: %s", path, err.msg);
    } else if (lrc) {
        say(st, "%s", err.msg);
        st->input_errors++;
    } else {
        for (int d = 0; d < st->s.ndtypes && !stop_flag; d++) {
            int need = 0;
            for (int k = 0; k < st->nspecs; k++)
                need |= todo[d * st->nspecs + k];
            if (need)
                run_dtype(st, path, label, &A, st->s.dtypes[d], todo + d * st->nspecs);
        }
        spmvlab_csr_free(&A);
    }
    free(todo);
}

static int finish(run_state *st)
{
    progress_line_clear(&st->prog);
    run_summary sum;
    spmvlab_err err;
    int rc = 0;
    const char *base = st->base >= 0 ? st->specs[st->base].label : "";
    if (summary_build(&st->rows, base, st->s.seed, &sum)) {
        say(st, "out of host memory for the summary");
        return EXIT_FAILED;
    }
    if (st->s.mode == RUN_MODE_TUNE)
        tune_print(stdout, &st->rows);
    else
        summary_print(stdout, &sum);
    char sp[4200] = "", part[4300];
    if (st->s.output[0]) {
        summary_path(st->s.output, sp, sizeof sp);
        output_partial(sp, part, sizeof part);
        if (summary_write_csv(part, &sum, &err)) {
            say(st, "%s", err.msg);
            rc = EXIT_FAILED;
        }
    }
    if (st->json) {
        FILE *f = st->json;
        st->json = NULL;
        run_document doc = {&st->meta, &st->s, &st->rows, &sum, stop_flag != 0};
        output_partial(st->s.json, part, sizeof part);
        if (json_write_run(f, part, &doc, &err)) {
            say(st, "%s", err.msg);
            rc = EXIT_FAILED;
        }
    }
    summary_free(&sum);
    if (st->csv)
        fclose(st->csv);
    st->csv = NULL;
    if (stop_flag) {
        say(st, "interrupted%s%s%s", st->s.output[0] ? "; the rows measured so far are in " : "", st->s.output,
            st->s.output[0] ? ".partial and the earlier file is as it was (--resume continues)" : "");
        return 130;
    }
    const char *outs[] = {st->s.output, rc ? "" : sp, rc ? "" : st->s.json};
    if (outputs_commit(outs, 3, &err)) {
        say(st, "%s", err.msg);
        return EXIT_FAILED;
    }
    if (st->s.output[0] && !rc)
        printf("\nresults: %s (%d rows); summary: %s%s%s\n", st->s.output, st->rows.n, sp,
               st->s.json[0] ? "; json: " : "", st->s.json);
    if (rc)
        return rc;
    if (st->input_errors)
        return EXIT_USAGE;
    return st->failures ? EXIT_FAILED : EXIT_OK;
}

/* Opens the device (or, with --isolate, asks a child) and prints the notice
 * without one. Returns 0, or an exit code. */
static int open_device(run_state *st)
{
    spmvlab_err err = {{0}};
    if (st->s.isolate) {
        if (isolate_meta(&st->meta, st->s.timeout_s, &err)) {
            say(st, "%s", err.msg);
            return EXIT_FAILED;
        }
        spmvlab_runtime_open(&st->rt, 0, 0, &err); /* CPU bookkeeping only: CUDA stays closed here */
        st->rt_open = 1;
    } else {
        int orc = spmvlab_runtime_open(&st->rt, 1, 0, &err);
        if (orc < 0) {
            say(st, "%s", err.msg);
            return EXIT_FAILED;
        }
        st->rt_open = 1;
        if (st->s.mem_limit)
            st->rt.mem_limit = st->s.mem_limit;
        run_meta_device(&st->meta, &st->rt);
        if (st->rt.device.present) {
            if (st->s.verbose)
                fprintf(stderr, "measuring the bandwidth peak (triad)...\n");
            run_meta_peak(&st->meta, &st->rt);
            if (st->s.flush_l2) {
                st->flush_bytes = 2 * st->rt.device.l2_bytes;
                if (spmvlab_dev_malloc(&st->rt, &st->flush_buf, st->flush_bytes, &err)) {
                    say(st, "--flush-l2: %s", err.msg);
                    return EXIT_FAILED;
                }
            }
        }
    }
    if (!st->meta.gpu)
        fprintf(stderr, "%s: no CUDA device found; running each instance's spmv_host as a functional check "
                        "(no timings).\n", st->s.prog);
    return 0;
}

int run_command(int argc, char **argv, run_mode mode)
{
    run_state *st = calloc(1, sizeof *st);
    if (!st) {
        fprintf(stderr, "spmvlab: out of host memory.\n");
        return EXIT_FAILED;
    }
    spmvlab_err err = {{0}};
    int rc = EXIT_USAGE;
    st->base = -1;
    st->s.prog = mode == RUN_MODE_TUNE ? "spmvlab tune" : "spmvlab run";
    int prc = run_settings_parse(&st->s, &st->cfg, mode, argc, argv, &err);
    if (prc == 1) {
        if (st->s.show_columns)
            columns_print(stdout);
        rc = EXIT_OK;
        goto out;
    }
    if (prc) {
        say(st, "%s", err.msg);
        goto out;
    }
    st->reg = spmvlab_registry_new();
    for (int i = 0; i < st->s.nplugin_dirs; i++)
        spmvlab_registry_add_dir(st->reg, st->s.plugin_dirs[i]);
    if (run_settings_apply_overrides(&st->s, &st->cfg, &err) ||
        (st->nspecs = spmvlab_config_resolve(&st->cfg, st->reg, st->s.labels, &st->specs, &err)) < 0) {
        st->nspecs = 0;
        say(st, "%s", err.msg);
        goto out;
    }
    if ((st->base = find_baseline(st, &err)) == -2) {
        st->base = -1;
        say(st, "%s", err.msg);
        goto out;
    }
    if (inputs_gather(&st->s, &st->paths, &st->npaths, &err)) {
        say(st, "%s", err.msg);
        goto out;
    }
    if (st->s.devices[0]) { /* the workers measure; this process merges */
        rc = workers_run(&st->s, st->paths, st->npaths, st->nspecs, argc, argv);
        goto out;
    }
    run_meta_init(&st->meta, st->s.command);
    if ((rc = open_device(st)) != 0)
        goto out;
    if (open_outputs(st, &err)) {
        say(st, "%s", err.msg);
        rc = EXIT_USAGE;
        goto out;
    }
    progress_line_init(&st->prog, 0);
    progress_line_totals(&st->prog, st->npaths,
                         inputs_cells(&st->s, st->paths, st->npaths, st->nspecs) - st->done.n);
    table_header(stdout, &st->meta, st->meta.gpu ? (st->s.timing == RUN_TIMING_SINGLE ? "single" : "batch") : "none");
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    for (int i = 0; i < st->npaths && !stop_flag; i++)
        run_matrix(st, i);
    rc = finish(st);
    sigaction(SIGINT, &old, NULL);
out:
    if (st->json)
        fclose(st->json);
    if (st->csv)
        fclose(st->csv);
    if (st->flush_buf)
        spmvlab_dev_free(&st->rt, st->flush_buf);
    if (st->rt_open)
        spmvlab_runtime_close(&st->rt);
    cells_free(&st->done);
    free_paths(st->paths, st->npaths);
    run_rows_free(&st->rows);
    spmvlab_instance_specs_free(st->specs, st->nspecs);
    if (st->reg)
        spmvlab_registry_free(st->reg);
    spmvlab_config_free(&st->cfg);
    run_settings_free(&st->s);
    free(st);
    return rc;
}
