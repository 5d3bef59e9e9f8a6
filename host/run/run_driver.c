/* The body of run and tune; see run_driver.h. */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit_codes.h"
#include "collect.h"
#include "speedup.h"
#include "run_driver.h"
#include "run_answer.h"
#include "run_engine.h"
#include "run_inputs.h"
#include "run_isolate.h"
#include "run_json.h"
#include "row_out.h"
#include "output_file.h"
#include "run_resume.h"
#include "run_state.h"
#include "progress.h"
#include "shard.h"
#include "workers.h"
#include "status.h"
#include "summary.h"
#include "tune_table.h"
#include "spmvlab/gen.h"


/* The first Ctrl-C ends the run at once: the child under way (--isolate) is
 * killed, the rounds stop, and the matrix under way is not written (--resume
 * measures it); a second Ctrl-C kills the program. */
static void on_sigint(int sig)
{
    if (run_stop_flag) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
    run_stop_flag = 1;
    isolate_interrupt();
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
            if (st->specs[k].plugin && strcmp(st->specs[k].plugin->desc->name, prefer[p]) == 0)
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
        run_say(st, "continuing from %s and %s.partial (an interrupted run's rows: %d cells more)", st->s.resume,
                st->s.resume, partial);
    return cells_load(&st->done, &st->rows, err);
}

/* Reads the file to resume and opens the outputs beside their names, to be
 * renamed at the end (output_file.h). Returns 0, or with a sentence the
 * exit code: EXIT_USAGE for a file to resume that cannot be, or an
 * interrupted run's rows that --resume must take; EXIT_FAILED for an
 * output that cannot be written. */
static int open_outputs(run_state *st, spmvlab_err *err)
{
    if (st->s.resume[0] ? load_resume(st, err) : st->s.output[0] && csv_partial_unused(st->s.output, err))
        return EXIT_USAGE;
    if (st->s.output[0] && !(st->csv = csv_begin(st->s.output, &st->rows, err)))
        return EXIT_FAILED;
    if (st->s.json[0] && !(st->json = output_begin(st->s.json, err)))
        return EXIT_FAILED;
    return 0;
}

static int finish(run_state *st)
{
    progress_line_clear(&st->prog);
    run_summary sum;
    spmvlab_err err;
    int rc = 0;
    const char *base = st->base >= 0 ? st->specs[st->base].label : "";
    if (summary_build(&st->rows, base, st->s.seed, &sum)) {
        run_say(st, "out of host memory for the summary");
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
            run_say(st, "%s", err.msg);
            rc = EXIT_FAILED;
        }
    }
    if (st->json) {
        FILE *f = st->json;
        st->json = NULL;
        run_document doc = {&st->meta, &st->s, &st->rows, &sum, run_stop_flag != 0};
        output_partial(st->s.json, part, sizeof part);
        if (json_write_run(f, part, &doc, &err)) {
            run_say(st, "%s", err.msg);
            rc = EXIT_FAILED;
        }
    }
    summary_free(&sum);
    if (st->csv)
        fclose(st->csv);
    st->csv = NULL;
    if (run_stop_flag) {
        run_say(st, "interrupted%s%s%s", st->s.output[0] ? "; the rows measured so far are in " : "", st->s.output,
                st->s.output[0] ? ".partial and the earlier file is as it was (--resume continues)" : "");
        return EXIT_INTERRUPTED;
    }
    const char *outs[] = {st->s.output, rc ? "" : sp, rc ? "" : st->s.json};
    if (outputs_commit(outs, 3, &err)) {
        run_say(st, "%s", err.msg);
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
        run_say(st, "%s", err.msg);
        goto out;
    }
    st->reg = spmvlab_registry_new();
    for (int i = 0; i < st->s.nplugin_dirs; i++)
        spmvlab_registry_add_dir(st->reg, st->s.plugin_dirs[i]);
    if (run_settings_apply_overrides(&st->s, &st->cfg, &err) ||
        (st->nspecs = spmvlab_config_resolve(&st->cfg, st->reg, st->s.labels, &st->specs, &err)) < 0) {
        st->nspecs = 0;
        run_say(st, "%s", err.msg);
        goto out;
    }
    if ((st->base = find_baseline(st, &err)) == -2) {
        st->base = -1;
        run_say(st, "%s", err.msg);
        goto out;
    }
    if (run_selectors_open(&st->selectors, st->specs, st->nspecs, st->s.dtypes, st->s.ndtypes, &err)) {
        run_say(st, "%s", err.msg);
        goto out;
    }
    for (int k = 0; st->selectors.corpus && k < st->nspecs; k++) /* one note per selector, its first dtype's */
        if (st->specs[k].selector && st->selectors.corpus[k * st->selectors.ndtypes].left_out_note[0])
            run_say(st, "selector instance %s: %s", st->specs[k].label,
                    st->selectors.corpus[k * st->selectors.ndtypes].left_out_note);
    if (inputs_gather(&st->s, &st->paths, &st->npaths, &err)) {
        run_say(st, "%s", err.msg);
        goto out;
    }
    if (st->s.devices[0]) { /* the workers measure; this process merges */
        rc = workers_run(&st->s, st->paths, st->npaths, st->nspecs, argc, argv);
        goto out;
    }
    run_meta_init(&st->meta, st->s.command);
    if ((rc = run_probe_device(st)) != 0) /* the device's name first: resume checks it */
        goto out;
    if ((rc = open_outputs(st, &err)) != 0) {
        run_say(st, "%s", err.msg);
        goto out;
    }
    progress_line_init(&st->prog, 0);
    progress_line_totals(&st->prog, st->npaths,
                         inputs_cells(&st->s, st->paths, st->npaths, st->nspecs) - st->done.n);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    table_header(stdout, &st->meta, st->meta.gpu ? (st->s.timing == RUN_TIMING_SINGLE ? "single" : "batch") : "none");
    fflush(stdout);
    if (st->s.isolate) { /* this process stays without CUDA; a child per cell */
        for (int i = 0; i < st->npaths && !run_stop_flag; i++)
            run_matrix(st, i);
    } else {
        rc = run_supervise(st);
    }
    if (rc == 0)
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
    cells_free(&st->excluded);
    run_rows_free(&st->faults);
    run_selectors_close(&st->selectors);
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
