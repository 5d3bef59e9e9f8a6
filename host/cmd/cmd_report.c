/*
 * spmvlab report RESULTS.csv [-o DIR]: the A/B summary of a results file
 * written by run or tune (several files: their rows together), and plots
 * drawn with gnuplot: performance profile, GFLOP/s against non-zeros per
 * instance, speedup over the baseline (the run's, or --baseline) per
 * matrix, as SVG and PNG. Without gnuplot it says so and still prints the
 * summary and writes the data.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "run_status.h"
#include "report_plot.h"
#include "run_compare.h"
#include "run_row.h"
#include "run_summary.h"

static void usage(FILE *out)
{
    fprintf(out, "usage: spmvlab report RESULTS.csv... [-o DIR] [--baseline LABEL]\n"
                 "  -o DIR             where the plots, their data and summary.csv go\n"
                 "                     (default: RESULTS-report/ beside the first file)\n"
                 "  --baseline LABEL   recompute every speedup against instance LABEL (default: the run's\n"
                 "                     baseline); its interval is bounded from the intervals the run measured;\n"
                 "                     vendor-best: per matrix the fastest cusparse instance that ran\n"
                 "The summary is recomputed from the rows.\n"
                 "Exit status 1 when a row is wrong or failed, as for the run that wrote it.\n");
}

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

int cmd_report(int argc, char **argv)
{
    const char *files[64], *dir = NULL, *baseline = "";
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return EXIT_OK;
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(a, "--baseline") == 0 && i + 1 < argc) {
            baseline = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "spmvlab report: unknown or incomplete option '%s'; see --help.\n", a);
            return EXIT_USAGE;
        } else if (nfiles < 64) {
            files[nfiles++] = a;
        } else {
            fprintf(stderr, "spmvlab report: more than 64 result files.\n");
            return EXIT_USAGE;
        }
    }
    if (!nfiles) {
        usage(stderr);
        return EXIT_USAGE;
    }
    run_rows rows = {0};
    spmvlab_err err;
    for (int f = 0; f < nfiles; f++) {
        run_rows part;
        if (run_rows_read(files[f], &part, NULL, &err)) {
            fprintf(stderr, "spmvlab report: %s.\n", err.msg);
            run_rows_free(&rows);
            return EXIT_USAGE;
        }
        for (int i = 0; i < part.n; i++)
            if (run_rows_push(&rows, &part.v[i])) {
                fprintf(stderr, "spmvlab report: out of host memory.\n");
                run_rows_free(&part);
                run_rows_free(&rows);
                return EXIT_FAILED;
            }
        run_rows_free(&part);
    }
    if (!rows.n) {
        fprintf(stderr, "spmvlab report: %s holds no result rows.\n", files[0]);
        return EXIT_USAGE;
    }
    if (baseline[0] && compare_rebase(&rows, baseline, &err)) {
        fprintf(stderr, "spmvlab report: %s.\n", err.msg);
        run_rows_free(&rows);
        return EXIT_USAGE;
    }
    run_summary sum;
    if (summary_build(&rows, baseline, 1, &sum)) {
        fprintf(stderr, "spmvlab report: out of host memory.\n");
        run_rows_free(&rows);
        return EXIT_FAILED;
    }
    const run_row *r0 = &rows.v[0];
    printf("%s: %d rows; device %s, commit %s, %s\n", files[0], rows.n, r0->device[0] ? r0->device : "?",
           r0->commit[0] ? r0->commit : "?", r0->date[0] ? r0->date : "?");
    summary_print(stdout, &sum);
    char outdir[4096];
    if (dir)
        snprintf(outdir, sizeof outdir, "%s", dir);
    else {
        size_t n = strlen(files[0]);
        int csv = n > 4 && strcmp(files[0] + n - 4, ".csv") == 0;
        snprintf(outdir, sizeof outdir, "%.*s-report", (int)(csv ? n - 4 : n), files[0]);
    }
    /* The rows' verdict, as the run that wrote them gave it. */
    int rc = rows_exit_code(&rows);
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
    char gnuplot[4096];
    int have = report_find_gnuplot(gnuplot, sizeof gnuplot) == 0;
    if (!sum.timed) {
        printf("\nno timings in %s (a run without a GPU): no plots; summary in %s\n", files[0], sp);
        goto out;
    }
    int images = report_plots(&rows, &sum, outdir, have ? gnuplot : NULL, &err);
    if (images < 0) {
        fprintf(stderr, "spmvlab report: %s.\n", err.msg);
        rc = EXIT_FAILED;
    } else if (!have) {
        fprintf(stderr, "spmvlab report: gnuplot was not found (install it, or set SPMVLAB_GNUPLOT); the plot data and "
                        "scripts are in %s.\n", outdir);
        printf("\nsummary: %s; plot data and gnuplot scripts: %s (no gnuplot: no images)\n", sp, outdir);
    } else {
        printf("\nsummary: %s; %d plots (SVG and PNG) in %s\n", sp, images, outdir);
    }
out:
    summary_free(&sum);
    run_rows_free(&rows);
    return rc;
}
