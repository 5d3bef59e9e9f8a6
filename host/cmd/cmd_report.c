/*
 * spmvlab report RESULTS.csv [-o DIR]: the A/B summary of a results file
 * written by run or tune (several files: their rows together), and plots
 * drawn with gnuplot as SVG, PNG and PDF (report_plot.h), Markdown or
 * LaTeX tables (--table), and the comparison of two files (--compare).
 * Without gnuplot it says so and still prints the summary and writes the
 * data and scripts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "host_options.h"
#include "spmvlab/core.h"
#include "report_ab.h"
#include "report_filter.h"
#include "report_plot.h"
#include "report_table.h"
#include "speedup.h"
#include "origin.h"
#include "row.h"
#include "status.h"
#include "summary.h"

static const char intro[] =
    "usage: spmvlab report RESULTS.csv... [-o DIR] [options]\n"
    "       spmvlab report --compare OLD.csv NEW.csv [-o DIR] [--allow-different]\n"
    "The summary is recomputed from the rows. Instances storing values in another type than\n"
    "the dtype (value_storage) are summarised and plotted apart (group DTYPE/STORAGE).\n"
    "Several files must be one run's results, as merge's parts must: one build, device,\n"
    "measurement settings and option set per label.\n"
    "Exit status as for the run that wrote the rows: 1 when a row is wrong or failed, 2 for\n"
    "an unreadable input's row; a skipped input is counted, not failed.\n";

static int make_dir(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* The rows of files together. Returns 0, or an exit status after saying why. */
static int read_rows(const char *const *files, int nfiles, run_rows *rows)
{
    spmvlab_err err;
    memset(rows, 0, sizeof *rows);
    run_origin origin; /* the files must be one run's results, as merge's parts must */
    origin_init(&origin);
    for (int f = 0; f < nfiles; f++) {
        run_rows part;
        if (run_rows_read(files[f], &part, NULL, &err)) {
            fprintf(stderr, "spmvlab report: %s.\n", err.msg);
            run_rows_free(rows);
            origin_free(&origin);
            return EXIT_USAGE;
        }
        if (origin_check_rows(&origin, &part, files[f], &err)) {
            fprintf(stderr, "spmvlab report: %s; report each on its own.\n", err.msg);
            run_rows_free(&part);
            run_rows_free(rows);
            origin_free(&origin);
            return EXIT_USAGE;
        }
        for (int i = 0; i < part.n; i++)
            if (run_rows_push(rows, &part.v[i])) {
                fprintf(stderr, "spmvlab report: out of host memory.\n");
                run_rows_free(&part);
                run_rows_free(rows);
                origin_free(&origin);
                return EXIT_FAILED;
            }
        run_rows_free(&part);
    }
    origin_free(&origin);
    if (!rows->n) {
        fprintf(stderr, "spmvlab report: %s holds no result rows.\n", files[0]);
        return EXIT_USAGE;
    }
    return 0;
}

/* What the command line asked for. */
typedef struct report_args {
    const char *files[64];
    int nfiles;
    const char *dir, *baseline, *instances, *matrices, *table;
    int compare, allow_different;
    report_style style;
} report_args;

/* report --compare OLD NEW. */
static int compare_files(const report_args *a)
{
    run_rows old, cur;
    spmvlab_err err;
    int rc = read_rows(&a->files[0], 1, &old);
    if (rc)
        return rc;
    if ((rc = read_rows(&a->files[1], 1, &cur))) {
        run_rows_free(&old);
        return rc;
    }
    if (report_filter_rows(&old, a->instances, a->matrices, &err) ||
        report_filter_rows(&cur, a->instances, a->matrices, &err)) {
        fprintf(stderr, "spmvlab report: %s.\n", err.msg);
        rc = EXIT_USAGE;
        goto out;
    }
    char why[512], csv[4200];
    if (!ab_same_setting(&old, &cur, why, sizeof why)) {
        if (!a->allow_different) {
            fprintf(stderr, "spmvlab report: %s and %s were measured differently (%s): their ratios would mix the "
                            "change with that; pass --allow-different to compare them anyway.\n",
                    a->files[0], a->files[1], why);
            rc = EXIT_USAGE;
            goto out;
        }
        printf("NOTE: %s and %s were measured differently (%s): the ratios below mix the change with that.\n",
               a->files[0], a->files[1], why);
    }
    if (a->dir) {
        if (make_dir(a->dir)) {
            fprintf(stderr, "spmvlab report: cannot create folder %s: %s.\n", a->dir, strerror(errno));
            rc = EXIT_FAILED;
            goto out;
        }
        snprintf(csv, sizeof csv, "%s/compare.csv", a->dir);
    } else {
        size_t n = strlen(a->files[1]);
        int dot = n > 4 && strcmp(a->files[1] + n - 4, ".csv") == 0;
        snprintf(csv, sizeof csv, "%.*s-compare.csv", (int)(dot ? n - 4 : n), a->files[1]);
    }
    printf("OLD %s: %d rows, commit %s; NEW %s: %d rows, commit %s\n", a->files[0], old.n,
           old.v[0].commit[0] ? old.v[0].commit : "?", a->files[1], cur.n, cur.v[0].commit[0] ? cur.v[0].commit : "?");
    int cells = ab_compare(&old, &cur, stdout, csv, &err);
    if (cells < 0) {
        fprintf(stderr, "spmvlab report: %s.\n", err.msg);
        rc = EXIT_FAILED;
    } else if (!cells) {
        fprintf(stderr, "spmvlab report: %s and %s have no timed cell (instance, matrix, dtype) in common.\n",
                a->files[0], a->files[1]);
        rc = EXIT_USAGE;
    } else {
        printf("\n%d cells compared; one row per cell in %s\n", cells, csv);
    }
out:
    run_rows_free(&old);
    run_rows_free(&cur);
    return rc;
}

/* The flags read into a. Returns 0, or an exit status after saying why. */
static int read_args(const spmvlab_flags *f, report_args *a)
{
    static const report_style def = REPORT_STYLE_DEFAULT;
    memset(a, 0, sizeof *a);
    a->style = def;
    a->dir = spmvlab_flags_given(f, OPT_OUTPUT) ? spmvlab_flags_text(f, OPT_OUTPUT) : NULL;
    a->baseline = spmvlab_flags_text(f, OPT_BASELINE);
    a->instances = spmvlab_flags_given(f, OPT_INSTANCES) ? spmvlab_flags_text(f, OPT_INSTANCES) : NULL;
    a->matrices = spmvlab_flags_given(f, OPT_MATRICES) ? spmvlab_flags_text(f, OPT_MATRICES) : NULL;
    a->table = spmvlab_flags_given(f, OPT_TABLE) ? spmvlab_flags_text(f, OPT_TABLE) : NULL;
    a->compare = spmvlab_flags_given(f, OPT_COMPARE) > 0;
    a->allow_different = spmvlab_flags_given(f, OPT_ALLOW_DIFFERENT) > 0;
    if (spmvlab_flags_given(f, OPT_HIGHLIGHT))
        a->style.highlight = spmvlab_flags_text(f, OPT_HIGHLIGHT);
    if (spmvlab_flags_given(f, OPT_FONT_SIZE))
        a->style.font = spmvlab_flags_last(f, OPT_FONT_SIZE)->v.f;
    const char *size = spmvlab_flags_text(f, OPT_SIZE);
    char end;
    if (spmvlab_flags_given(f, OPT_SIZE) &&
        (sscanf(size, "%d,%d%c", &a->style.width, &a->style.height, &end) != 2 || a->style.width < 200 ||
         a->style.height < 150 || a->style.width > 10000 || a->style.height > 10000)) {
        fprintf(stderr, "spmvlab report: --size '%s' is not W,H in pixels (200,150 to 10000,10000).\n", size);
        return EXIT_USAGE;
    }
    if (f->noperands > 64) {
        fprintf(stderr, "spmvlab report: more than 64 result files.\n");
        return EXIT_USAGE;
    }
    for (int i = 0; i < f->noperands; i++)
        a->files[a->nfiles++] = f->operands[i];
    if (!a->nfiles) {
        fputs(intro, stderr);
        return EXIT_USAGE;
    }
    if (a->compare && a->nfiles != 2) {
        fprintf(stderr, "spmvlab report: --compare takes two result files, OLD.csv NEW.csv (%d given).\n", a->nfiles);
        return EXIT_USAGE;
    }
    return 0;
}

/* The summary, tables and plots of the files a names. */
static int report_files(const report_args *a);

int cmd_report(int argc, char **argv)
{
    report_args a;
    spmvlab_flags f;
    host_options_init(&f, HOST_REPORT, "spmvlab report");
    int rc = host_options_read(&f, argc, argv, intro);
    if (rc)
        rc = rc > 0 ? EXIT_OK : EXIT_USAGE;
    else if (!(rc = read_args(&f, &a)))
        rc = a.compare ? compare_files(&a) : report_files(&a);
    spmvlab_flags_free(&f);
    return rc;
}

static int report_files(const report_args *ap)
{
    report_args a = *ap;
    run_rows rows;
    spmvlab_err err;
    int rc;
    if ((rc = read_rows(a.files, a.nfiles, &rows)))
        return rc;
    if (a.baseline[0] && compare_rebase(&rows, a.baseline, &err)) {
        fprintf(stderr, "spmvlab report: %s.\n", err.msg);
        run_rows_free(&rows);
        return EXIT_USAGE;
    }
    if (report_filter_rows(&rows, a.instances, a.matrices, &err)) {
        fprintf(stderr, "spmvlab report: %s.\n", err.msg);
        run_rows_free(&rows);
        return EXIT_USAGE;
    }
    run_summary sum;
    if (summary_build(&rows, a.baseline, 1, &sum)) {
        fprintf(stderr, "spmvlab report: out of host memory.\n");
        run_rows_free(&rows);
        return EXIT_FAILED;
    }
    if (report_check_highlight(&sum, &a.style, &err)) {
        fprintf(stderr, "spmvlab report: %s.\n", err.msg);
        summary_free(&sum);
        run_rows_free(&rows);
        return EXIT_USAGE;
    }
    const run_row *r0 = &rows.v[0];
    printf("%s: %d rows; device %s, commit %s, %s\n", a.files[0], rows.n, r0->device[0] ? r0->device : "?",
           r0->commit[0] ? r0->commit : "?", r0->date[0] ? r0->date : "?");
    summary_print(stdout, &sum);
    char outdir[4096];
    if (a.dir)
        snprintf(outdir, sizeof outdir, "%s", a.dir);
    else {
        size_t n = strlen(a.files[0]);
        int csv = n > 4 && strcmp(a.files[0] + n - 4, ".csv") == 0;
        snprintf(outdir, sizeof outdir, "%.*s-report", (int)(csv ? n - 4 : n), a.files[0]);
    }
    /* The rows' verdict, as the run that wrote them gave it. */
    rc = rows_exit_code(&rows);
    if (make_dir(outdir)) {
        fprintf(stderr, "spmvlab report: cannot create folder %s: %s.\n", outdir, strerror(errno));
        rc = EXIT_FAILED;
        goto out;
    }
    char sp[4200];
    snprintf(sp, sizeof sp, "%s/summary.csv", outdir);
    if (summary_write_csv(sp, &sum, &err)) {
        fprintf(stderr, "spmvlab report: %s.\n", err.msg);
        rc = EXIT_FAILED;
        goto out;
    }
    if (a.table) {
        char tp[4200];
        snprintf(tp, sizeof tp, "%s/summary.%s", outdir, a.table);
        report_table_kind kind = a.table[0] == 't' ? REPORT_TABLE_TEX : REPORT_TABLE_MD;
        if (report_write_tables(&sum, &rows, r0->device, kind, tp, &err)) {
            fprintf(stderr, "spmvlab report: %s.\n", err.msg);
            rc = EXIT_FAILED;
            goto out;
        }
        printf("\ntables: %s\n", tp);
    }
    char gnuplot[4096];
    int have = report_find_gnuplot(gnuplot, sizeof gnuplot) == 0;
    if (!sum.timed) {
        printf("\nno timings in %s (a run without a GPU): no plots; summary in %s\n", a.files[0], sp);
        goto out;
    }
    int images = report_plots(&rows, &sum, outdir, have ? gnuplot : NULL, &a.style, &err);
    if (images < 0) {
        fprintf(stderr, "spmvlab report: %s.\n", err.msg);
        rc = EXIT_FAILED;
    } else if (!have) {
        fprintf(stderr, "spmvlab report: gnuplot was not found (install it, or set SPMVLAB_GNUPLOT); the plot data and "
                        "scripts are in %s.\n", outdir);
        printf("\nsummary: %s; plot data and gnuplot scripts: %s (no gnuplot: no images)\n", sp, outdir);
    } else {
        printf("\nsummary: %s; %d images (SVG, PNG and, with cairo, PDF) in %s\n", sp, images, outdir);
    }
out:
    summary_free(&sum);
    run_rows_free(&rows);
    return rc;
}
