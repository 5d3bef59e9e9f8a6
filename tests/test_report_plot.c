/* spmvlab report's plots: the gnuplot script and data for a timed run of
 * 30 instances (heatmap, bound plot, 8 highlighted instances and the
 * others grey, names verbatim), the binned views of 60 matrices, and the
 * images when gnuplot is installed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_plot.h"
#include "testlib.h"

#define NINST 30

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* Two matrices x NINST instances: every cell timed with a bound, except
 * one refusal and an instance refused on both; inst0 is the baseline. */
static void make_rows(run_rows *rows)
{
    const char *mats[2] = {"lp_e226", "uniform-k8"};
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < NINST; k++) {
            run_row r;
            run_row_init(&r);
            snprintf(r.matrix, sizeof r.matrix, "%s", mats[m]);
            snprintf(r.instance, sizeof r.instance, "inst%d", k);
            snprintf(r.plugin, sizeof r.plugin, "csr");
            snprintf(r.dtype, sizeof r.dtype, "f64");
            snprintf(r.device, sizeof r.device, "Test GPU");
            snprintf(r.baseline, sizeof r.baseline, "inst0");
            r.nnz = m ? 16e6 : 3000;
            int refused = (m == 1 && k == 5) || k == NINST - 1; /* the last: no speedup anywhere */
            snprintf(r.status, sizeof r.status, "%s", refused ? "unsupported" : "ok");
            if (!refused) {
                r.ms = (m ? 0.15 : 0.004) * (1 + 0.05 * k);
                r.speedup = 1 / (1 + 0.05 * k);
                r.speedup_lo = r.speedup * 0.99, r.speedup_hi = r.speedup * 1.01;
                r.gflops = 2 * r.nnz / (r.ms * 1e-3) / 1e9;
                r.bound_us = m ? 140 : 2.5;
                snprintf(r.bound_kind, sizeof r.bound_kind, "%s", m ? "gather" : "launch");
                r.bound_frac = r.bound_us / (r.ms * 1e3);
            }
            if (run_rows_push(rows, &r)) {
                fprintf(stderr, "out of memory\n");
                exit(1);
            }
        }
}

static int count_of(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++)
        n++;
    return n;
}

/* 70 matrices x 3 instances: past 40 the per-matrix speedup is binned, past
 * 60 the heatmap names no matrix. */
static void many_matrices(const char *dir)
{
    run_rows rows = {0};
    for (int m = 0; m < 70; m++)
        for (int k = 0; k < 3; k++) {
            run_row r;
            run_row_init(&r);
            snprintf(r.matrix, sizeof r.matrix, "m%02d", m);
            snprintf(r.instance, sizeof r.instance, "i%d", k);
            snprintf(r.dtype, sizeof r.dtype, "f64");
            snprintf(r.status, sizeof r.status, "ok");
            snprintf(r.baseline, sizeof r.baseline, "i0");
            r.nnz = 1000.0 * (m + 1);
            r.ms = 0.01 * (1 + 0.1 * k);
            r.speedup = 1 / (1 + 0.1 * k);
            r.speedup_lo = r.speedup_hi = r.speedup;
            r.gflops = 1;
            TEST_CHECK(run_rows_push(&rows, &r) == 0);
        }
    run_summary sum;
    TEST_CHECK(summary_build(&rows, "i0", 1, &sum) == 0);
    spmvlab_err err;
    report_style style = REPORT_STYLE_DEFAULT;
    style.highlight = "i2";
    TEST_CHECK(report_plots(&rows, &sum, dir, NULL, &style, &err) == 0);
    char path[512];
    snprintf(path, sizeof path, "%s/plots-f64.gp", dir);
    char *gp = slurp(path);
    TEST_CHECK(gp != NULL);
    if (gp) {
        TEST_CONTAINS(gp, "binned-f64.dat' using 1:6 with linespoints lt 1"); /* i2 only, binned */
        TEST_CONTAINS(gp, "70 matrices in 4 bins by non-zeros");
        TEST_CHECK(strstr(gp, "xtic(2)") == NULL);          /* no 70 labels */
        TEST_CONTAINS(gp, "unset ytics");                   /* nor on the heatmap */
        TEST_CONTAINS(gp, "lt 9 lw 1 title 'others (2)'");  /* --highlight i2: the others grey */
    }
    snprintf(path, sizeof path, "%s/binned-f64.dat", dir);
    char *bin = slurp(path);
    TEST_CHECK(bin != NULL);
    if (bin) /* first bin: m00..m16; i1's speedup 1/1.1 on each */
        TEST_CONTAINS(bin, "\t0.909091\t17\t");
    free(gp), free(bin);
    summary_free(&sum);
    run_rows_free(&rows);
}

int main(void)
{
    char dir[] = "/tmp/spmvlab-plot-XXXXXX";
    if (!mkdtemp(dir))
        return perror("mkdtemp"), 1;
    run_rows rows = {0};
    make_rows(&rows);
    run_summary sum;
    TEST_CHECK(summary_build(&rows, "inst0", 1, &sum) == 0);
    spmvlab_err err;
    TEST_CHECK(report_plots(&rows, &sum, dir, NULL, NULL, &err) == 0); /* data and script, no images */
    char path[512];
    snprintf(path, sizeof path, "%s/plots-f64.gp", dir);
    char *gp = slurp(path);
    TEST_CHECK(gp != NULL);
    if (gp) {
        TEST_CONTAINS(gp, "set terminal svg size");
        TEST_CONTAINS(gp, "noenhanced font");             /* names verbatim: on every terminal */
        TEST_CONTAINS(gp, "set linetype 9 lc rgb '#C4C4C4'"); /* grey for the instances not highlighted */
        TEST_CHECK(count_of(gp, "with steps lt ") == 3 * 30);   /* the profile, in SVG, PNG and PDF: */
        TEST_CHECK(count_of(gp, "with steps lt 9 ") == 3 * 22); /* 22 grey, 8 highlighted... */
        TEST_CONTAINS(gp, "with steps lt 1 title 'inst0'"); /* ...the baseline first */
        TEST_CONTAINS(gp, "title 'others (22)'");
        TEST_CONTAINS(gp, "gflops-f64.dat' index 0 using 1:2 with points");
        TEST_CONTAINS(gp, "with image");                  /* the heatmap */
        TEST_CONTAINS(gp, "set palette defined (0 '#2166AC', 0.5 '#F7F7F7', 1 '#B2182B')"); /* diverging */
        TEST_CONTAINS(gp, "'1' 0");                       /* centred on a speedup of 1 */
        TEST_CONTAINS(gp, "'lp_e226' 0");                 /* grouped: the launch-bound matrix first */
        TEST_CONTAINS(gp, "set y2tics scale 0 ('launch' 0, 'gather' 1)");
        TEST_CONTAINS(gp, "title 'limit: gather'");
        TEST_CHECK(strstr(gp, "limit: dram") == NULL);    /* no point: not in the legend */
        TEST_CONTAINS(gp, "set output 'bound-f64.pdf'");
        TEST_CONTAINS(gp, "title 'time = bound'");
        TEST_CONTAINS(gp, "heatmap-f64.svg");
        TEST_CONTAINS(gp, "bound-f64.png");
    }
    snprintf(path, sizeof path, "%s/heatmap-f64.dat", dir);
    char *heat = slurp(path);
    TEST_CHECK(heat != NULL);
    if (heat) {
        TEST_CONTAINS(heat, "5\t1\tnan\t\"x\"");          /* the refusal marked */
        TEST_CONTAINS(heat, "0\t0\t0\t\"1.00\"");         /* the baseline: log2(1), its value printed */
    }
    snprintf(path, sizeof path, "%s/bound-f64.dat", dir);
    char *bound = slurp(path);
    TEST_CHECK(bound != NULL);
    if (bound)
        TEST_CONTAINS(bound, "140\t150\t\"uniform-k8\"\t\"inst0\"");
    char gnuplot[4096];
    if (report_find_gnuplot(gnuplot, sizeof gnuplot) == 0) {
        /* 7 plots, SVG and PNG at least; an instance without a speedup gets no box (gnuplot refuses an empty one) */
        TEST_CHECK(report_plots(&rows, &sum, dir, gnuplot, NULL, &err) >= 14);
        snprintf(path, sizeof path, "%s/heatmap-f64.svg", dir);
        char *svg = slurp(path);
        TEST_CHECK(svg != NULL);
        if (svg)
            TEST_CONTAINS(svg, "lp_e226");               /* not "lpe226" with a subscript */
        free(svg);
    } else {
        printf("gnuplot not found: the images are not drawn\n");
    }
    free(gp), free(heat), free(bound);
    summary_free(&sum);
    run_rows_free(&rows);
    many_matrices(dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    TEST_CHECK(system(cmd) == 0);
    return test_done("test_report_plot");
}
