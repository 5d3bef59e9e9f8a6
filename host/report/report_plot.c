/* gnuplot plots of results; see report_plot.h. The data of each plot go to
 * their own file; one script per comparison group draws them all. */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_filter.h"
#include "report_heatmap.h"
#include "report_plot.h"
#include "report_plot_view.h"
#include "spmvlab/stats.h"

#define PROFILE_POINTS 200
#define BIN_MATRICES 25 /* matrices per bin of the binned speedup view, about */

int report_find_gnuplot(char *out, size_t len)
{
    const char *env = getenv("SPMVLAB_GNUPLOT");
    if (env) {
        snprintf(out, len, "%s", env);
        return env[0] && access(env, X_OK) == 0 ? 0 : -1;
    }
    const char *path = getenv("PATH");
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", path ? path : "/usr/bin:/bin");
    for (char *save = NULL, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/gnuplot", d);
        if (access(out, X_OK) == 0)
            return 0;
    }
    out[0] = '\0';
    return -1;
}

int report_check_highlight(const run_summary *sum, const report_style *style, spmvlab_err *err)
{
    if (!style || !style->highlight || !style->highlight[0])
        return 0;
    char name[128];
    int n = 0;
    for (const char *p = style->highlight; (p = report_next_item(p, name, sizeof name)); n++) {
        int found = 0;
        for (int k = 0; k < sum->ninst && !found; k++)
            found = strcmp(sum->inst[k].instance, name) == 0;
        if (!found)
            return spmvlab_errf(err, "--highlight names '%s', which is no instance of these rows", name), -1;
    }
    if (n > VIEW_HIGHLIGHT_MAX)
        return spmvlab_errf(err, "--highlight names %d instances; at most %d stay apart in a plot", n,
                            VIEW_HIGHLIGHT_MAX),
               -1;
    return 0;
}

/* The instances drawn in colour: those of the style's list in this group,
 * else the baseline and those with the largest profile (its five taus). */
static void pick_highlight(dt_view *v, const run_summary *sum)
{
    v->nhl = 0;
    if (v->style->highlight && v->style->highlight[0]) {
        char name[128];
        for (const char *p = v->style->highlight; (p = report_next_item(p, name, sizeof name)) && v->nhl < VIEW_HIGHLIGHT_MAX;)
            for (int k = 0; k < v->ni; k++)
                if (strcmp(v->inst[k], name) == 0 && view_slot(v, k) < 0)
                    v->hl[v->nhl++] = k;
        if (v->nhl)
            return; /* else the list names none of this group's instances: the default */
    }
    if (v->base >= 0)
        v->hl[v->nhl++] = v->base;
    double *score = calloc((size_t)v->ni + 1, sizeof *score);
    if (!score)
        return;
    for (int k = 0; k < v->ni; k++)
        for (int j = 0; j < sum->ninst; j++)
            if (strcmp(sum->inst[j].dtype, v->dtype) == 0 && strcmp(sum->inst[j].instance, v->inst[k]) == 0)
                for (int t = 0; t < RUN_NTAU; t++)
                    score[k] += sum->inst[j].profile[t];
    while (v->nhl < VIEW_HIGHLIGHT_MAX && v->nhl < v->ni) {
        int best = -1;
        for (int k = 0; k < v->ni; k++)
            if (view_slot(v, k) < 0 && (best < 0 || score[k] > score[best]))
                best = k;
        v->hl[v->nhl++] = best;
    }
    free(score);
}

/* The cells of group into v, matrices by non-zeros, and its highlighted
 * instances. Returns 0, or -1 out of memory (view_free frees either way). */
static int view_build(dt_view *v, const run_rows *rows, const run_summary *sum, const char *group,
                      const report_style *style, const char *title)
{
    memset(v, 0, sizeof *v);
    v->dtype = group;
    v->style = style;
    v->title = title;
    v->baseline = sum->baseline;
    v->base = -1;
    snprintf(v->file, sizeof v->file, "%s", group);
    for (char *p = v->file; *p; p++)
        if (*p == '/')
            *p = '-';
    v->inst = calloc((size_t)sum->ninst + 1, sizeof *v->inst);
    v->mat = calloc((size_t)sum->nmat + 1, sizeof *v->mat);
    v->nnz = calloc((size_t)sum->nmat + 1, sizeof *v->nnz);
    if (!v->inst || !v->mat || !v->nnz)
        return -1;
    for (int k = 0; k < sum->ninst; k++)
        if (strcmp(sum->inst[k].dtype, group) == 0) {
            if (strcmp(sum->inst[k].instance, sum->baseline) == 0)
                v->base = v->ni;
            v->inst[v->ni++] = sum->inst[k].instance;
        }
    for (int m = 0; m < sum->nmat; m++)
        if (strcmp(sum->mat[m].dtype, group) == 0) {
            v->mat[v->nm] = sum->mat[m].matrix;
            v->nnz[v->nm++] = sum->mat[m].nnz;
        }
    /* matrices by nnz (insertion sort on nearly sorted input) */
    for (int a = 1; a < v->nm; a++)
        for (int b = a; b > 0 && v->nnz[b] < v->nnz[b - 1]; b--) {
            double t = v->nnz[b];
            v->nnz[b] = v->nnz[b - 1];
            v->nnz[b - 1] = t;
            const char *s = v->mat[b];
            v->mat[b] = v->mat[b - 1];
            v->mat[b - 1] = s;
        }
    v->cell = calloc((size_t)v->nm * v->ni + 1, sizeof *v->cell);
    if (!v->cell)
        return -1;
    for (int i = 0; i < rows->n; i++) {
        const run_row *r = &rows->v[i];
        char g[8];
        summary_group_of(r, g);
        if (strcmp(g, group) != 0)
            continue;
        int a = -1, b = -1;
        for (int m = 0; m < v->nm && a < 0; m++)
            if (strcmp(v->mat[m], r->matrix) == 0)
                a = m;
        for (int k = 0; k < v->ni && b < 0; k++)
            if (strcmp(v->inst[k], r->instance) == 0)
                b = k;
        if (a >= 0 && b >= 0)
            v->cell[(size_t)a * v->ni + b] = r;
    }
    pick_highlight(v, sum);
    return 0;
}

/* Frees what view_build allocated. */
static void view_free(dt_view *v)
{
    free(v->inst);
    free(v->mat);
    free(v->nnz);
    free(v->cell);
}

/* The drawing order: the grey instances first, the highlighted ones over
 * them in legend order. */
static int draw_order(const dt_view *v, int i)
{
    int grey = v->ni - v->nhl;
    if (i >= grey)
        return v->hl[i - grey];
    for (int k = 0, seen = 0; k < v->ni; k++)
        if (view_slot(v, k) < 0 && seen++ == i)
            return k;
    return 0;
}

/* One plot element's style: its highlight slot's line type and title, or
 * grey with one "others" entry in the legend. */
static void series_style(FILE *b, const dt_view *v, int k, int *others_titled, const char *grey_extra)
{
    int s = view_slot(v, k);
    if (s >= 0) {
        fprintf(b, " lt %d title ", s + 1);
        gp_quote(b, v->inst[k]);
    } else if (!*others_titled) {
        fprintf(b, " lt %d %s title 'others (%d)'", VIEW_HIGHLIGHT_MAX + 1, grey_extra, v->ni - v->nhl);
        *others_titled = 1;
    } else {
        fprintf(b, " lt %d %s notitle", VIEW_HIGHLIGHT_MAX + 1, grey_extra);
    }
}

/* One plot's body, written to memory before the script learns its sizes. */
typedef struct plot_body {
    FILE *f;
    char *buf;
    size_t len;
} plot_body;

/* Starts a plot body in a memory stream; returns its stream, NULL when
 * memory is short (the plot is then left out). */
static FILE *body_open(plot_body *pb)
{
    pb->buf = NULL;
    pb->len = 0;
    return pb->f = open_memstream(&pb->buf, &pb->len);
}

/* body_open for a plot of speedups, with the view's speedup range. */
static FILE *speedup_body_open(plot_body *pb, const dt_view *v, double *lo, double *hi)
{
    view_speedup_range(v, lo, hi);
    return body_open(pb);
}

/* Ends a plot body and draws it into the script; resets what it set. */
static void body_emit(FILE *f, plot_body *pb, const dt_view *v, const char *name, double ws, double hs)
{
    fclose(pb->f);
    gp_outputs(f, v, name, pb->buf, ws, hs);
    free(pb->buf);
    pb->buf = NULL;
    fputs("reset\nset encoding utf8\nset termoption noenhanced\nset grid\n", f);
}

/* profile-G.dat: tau, then the fraction of each instance. */
static int write_profile(const dt_view *v, const char *dir, double *tau_max, spmvlab_err *err)
{
    double *times = malloc(((size_t)v->nm * v->ni + 1) * sizeof *times);
    double *taus = malloc(PROFILE_POINTS * sizeof *taus), *frac = malloc(((size_t)v->ni * PROFILE_POINTS + 1) * sizeof *frac);
    if (!times || !taus || !frac) {
        free(times), free(taus), free(frac);
        return spmvlab_errf(err, "out of host memory"), -1;
    }
    double worst = 1;
    for (int m = 0; m < v->nm; m++) {
        double best = INFINITY;
        for (int k = 0; k < v->ni; k++) {
            const run_row *r = v->cell[(size_t)m * v->ni + k];
            times[(size_t)m * v->ni + k] = r && ok_time(r) ? r->ms : NAN;
            if (r && ok_time(r) && r->ms < best)
                best = r->ms;
        }
        for (int k = 0; k < v->ni && !isinf(best); k++) {
            double t = times[(size_t)m * v->ni + k];
            if (t / best > worst)
                worst = t / best;
        }
    }
    *tau_max = fmin(fmax(worst * 1.05, 1.1), 16);
    for (int p = 0; p < PROFILE_POINTS; p++)
        taus[p] = exp(log(*tau_max) * p / (PROFILE_POINTS - 1));
    spmvlab_profile(times, v->nm, v->ni, taus, PROFILE_POINTS, frac);
    char name[64];
    FILE *f = open_in(dir, "profile", v, "dat", name, sizeof name, err);
    if (f) {
        fprintf(f, "# performance profile (%s): fraction of matrices within tau of the fastest\n# tau", v->dtype);
        for (int k = 0; k < v->ni; k++)
            fprintf(f, "\t%s", v->inst[k]);
        fputc('\n', f);
        for (int p = 0; p < PROFILE_POINTS; p++) {
            fprintf(f, "%.6g", taus[p]);
            for (int k = 0; k < v->ni; k++)
                fprintf(f, "\t%.6g", frac[(size_t)k * PROFILE_POINTS + p]);
            fputc('\n', f);
        }
        fclose(f);
    }
    free(times), free(taus), free(frac);
    return f ? 0 : -1;
}

/* gflops-G.dat: one block per instance (nnz, GFLOP/s, matrix), blocks
 * apart by two blank lines. */
static int write_gflops(const dt_view *v, const char *dir, spmvlab_err *err)
{
    char name[64];
    FILE *f = open_in(dir, "gflops", v, "dat", name, sizeof name, err);
    if (!f)
        return -1;
    for (int k = 0; k < v->ni; k++) {
        fprintf(f, "# %s: nnz GFLOP/s matrix\n", v->inst[k]);
        int any = 0;
        for (int m = 0; m < v->nm; m++) {
            const run_row *r = v->cell[(size_t)m * v->ni + k];
            if (r && ok_time(r)) {
                fprintf(f, "%.0f\t%.6g\t%s\n", r->nnz, r->gflops, r->matrix);
                any = 1;
            }
        }
        if (!any)
            fprintf(f, "NaN\tNaN\tnone\n");
        fputs("\n\n", f);
    }
    fclose(f);
    return 0;
}

/* qsort order of doubles, increasing. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The sorted speedups of instance k into out; returns how many. */
static int sorted_speedups(const dt_view *v, int k, double *out)
{
    int n = 0;
    for (int m = 0; m < v->nm; m++) {
        const run_row *r = v->cell[(size_t)m * v->ni + k];
        if (ok_speedup(r))
            out[n++] = r->speedup;
    }
    qsort(out, (size_t)n, sizeof *out, cmp_double);
    return n;
}

/* sorted-G.dat: one block per instance (share of the matrices, speedup),
 * its speedups in increasing order: the S-curve. boxes-G.dat: the same
 * speedups, one block per instance in the order of box (by median). */
static int write_sorted(const dt_view *v, const char *dir, int *box, spmvlab_err *err)
{
    double *sp = malloc(((size_t)v->nm + 1) * sizeof *sp), *med = malloc(((size_t)v->ni + 1) * sizeof *med);
    char name[64];
    FILE *f = sp && med ? open_in(dir, "sorted", v, "dat", name, sizeof name, err) : NULL;
    FILE *g = f ? open_in(dir, "boxes", v, "dat", name, sizeof name, err) : NULL;
    if (!sp || !med)
        spmvlab_errf(err, "out of host memory");
    if (!g) {
        if (f)
            fclose(f);
        free(sp), free(med);
        return -1;
    }
    for (int k = 0; k < v->ni; k++) {
        int n = sorted_speedups(v, k, sp);
        med[k] = n ? spmvlab_median(sp, n) : -INFINITY;
        fprintf(f, "# %s: share of matrices, speedup (sorted)\n", v->inst[k]);
        for (int i = 0; i < n; i++)
            fprintf(f, "%.6g\t%.6g\n", n > 1 ? (double)i / (n - 1) : 0.5, sp[i]);
        if (!n)
            fputs("NaN\tNaN\n", f);
        fputs("\n\n", f);
        box[k] = k;
    }
    /* boxes by median, the baseline (all ones) left out */
    for (int a = 1; a < v->ni; a++)
        for (int b = a; b > 0 && med[box[b]] > med[box[b - 1]]; b--) {
            int t = box[b];
            box[b] = box[b - 1], box[b - 1] = t;
        }
    for (int i = 0; i < v->ni; i++) {
        int n = sorted_speedups(v, box[i], sp);
        fprintf(g, "# %s: speedups\n", v->inst[box[i]]);
        for (int j = 0; j < n; j++)
            fprintf(g, "%.6g\n", sp[j]);
        if (!n)
            fputs("NaN\n", g);
        fputs("\n\n", g);
    }
    fclose(f);
    free(sp), free(med);
    return fclose(g) ? (spmvlab_errf(err, "writing %s failed", name), -1) : 0;
}

/* speedup-G.dat: matrix index, name, then speedup lo hi per instance. */
static int write_speedup(const dt_view *v, const char *dir, spmvlab_err *err)
{
    char name[64];
    FILE *f = open_in(dir, "speedup", v, "dat", name, sizeof name, err);
    if (!f)
        return -1;
    fprintf(f, "# index matrix, then speedup lo hi for each instance (NaN: none)\n");
    for (int m = 0; m < v->nm; m++) {
        fprintf(f, "%d\t%s", m, v->mat[m]);
        for (int k = 0; k < v->ni; k++) {
            const run_row *r = v->cell[(size_t)m * v->ni + k];
            int ok = ok_speedup(r);
            fprintf(f, "\t%.6g\t%.6g\t%.6g", ok ? r->speedup : NAN, ok ? r->speedup_lo : NAN, ok ? r->speedup_hi : NAN);
        }
        fputc('\n', f);
    }
    fclose(f);
    return 0;
}

/* binned-G.dat: the matrices by non-zeros in bins of about BIN_MATRICES;
 * per bin its geometric-mean non-zeros, then the geometric-mean speedup
 * and the count of each instance. */
static int write_binned(const dt_view *v, const char *dir, int *nbins, double *range, spmvlab_err *err)
{
    char name[64];
    FILE *f = open_in(dir, "binned", v, "dat", name, sizeof name, err);
    if (!f)
        return -1;
    int bins = v->nm / BIN_MATRICES < 4 ? 4 : v->nm / BIN_MATRICES;
    *nbins = bins;
    range[0] = INFINITY, range[1] = 0;
    fprintf(f, "# bin geomean-nnz, then geomean speedup and matrices for each instance\n");
    for (int b = 0; b < bins; b++) {
        int m0 = (int)((long)v->nm * b / bins), m1 = (int)((long)v->nm * (b + 1) / bins);
        double ln = 0;
        for (int m = m0; m < m1; m++)
            ln += log(v->nnz[m] > 0 ? v->nnz[m] : 1);
        fprintf(f, "%.6g", m1 > m0 ? exp(ln / (m1 - m0)) : NAN);
        for (int k = 0; k < v->ni; k++) {
            double s = 0;
            int n = 0;
            for (int m = m0; m < m1; m++) {
                const run_row *r = v->cell[(size_t)m * v->ni + k];
                if (ok_speedup(r))
                    s += log(r->speedup), n++;
            }
            double g = n ? exp(s / n) : NAN;
            if (n && view_slot(v, k) >= 0)
                range[0] = fmin(range[0], g), range[1] = fmax(range[1], g);
            fprintf(f, "\t%.6g\t%d", g, n);
        }
        fputc('\n', f);
    }
    return fclose(f) ? (spmvlab_errf(err, "writing %s failed", name), -1) : 0;
}

/* The script's head: it moves to its own folder, so that it runs from
 * anywhere and the folder can be moved. */
static void script_head(FILE *f, const dt_view *v)
{
    fprintf(f, "# gnuplot script written by spmvlab report: the plots of %s from the data files beside it.\n"
               "# Run it from any folder: gnuplot PATH/plots-%s.gp\n"
               "if (exists('ARG0') && strlen(ARG0) > 0) { d = ARG0; i = strlen(d); "
               "while (i > 0 && d[i:i] ne '/') { i = i - 1 }; if (i > 0) { cd d[1:i] } }\n"
               "set encoding utf8\nset termoption noenhanced\nset grid\n",
            v->dtype, v->file);
    gp_linetypes(f);
}

/* The performance profile: grey instances under the highlighted ones. */
static void plot_profile(FILE *f, const dt_view *v, double tau_max)
{
    plot_body pb;
    FILE *b = body_open(&pb);
    if (!b)
        return;
    fprintf(b, "set title '%s: performance profile (%s, %d matrices)'\nset xlabel 'tau (time / fastest time)'\n"
               "set ylabel 'share of matrices within tau of the fastest'\nset logscale x 2\nset xrange [1:%g]\n"
               "set xtics (%s)\nset yrange [0:1.02]\nset key outside right top\nplot ",
            v->title, v->dtype, v->nm, tau_max,
            /* a long axis leaves no room between 1 and 1.5 */
            tau_max > 4 ? "1, 1.5, 2, 3, 4, 8, 16" : "1, 1.1, 1.25, 1.5, 2, 3, 4");
    int titled = 0;
    for (int i = 0; i < v->ni; i++) {
        int k = draw_order(v, i);
        fprintf(b, "%s'profile-%s.dat' using 1:%d with steps", i ? ", \\\n  " : "", v->file, k + 2);
        series_style(b, v, k, &titled, "lw 1");
    }
    body_emit(f, &pb, v, "profile", 1, 1);
}

/* GFLOP/s against non-zeros: a scatter, one marker per highlighted instance. */
static void plot_gflops(FILE *f, const dt_view *v)
{
    plot_body pb;
    FILE *b = body_open(&pb);
    if (!b)
        return;
    /* smaller markers as the cloud thickens */
    double ps = v->nm > 1000 ? 0.4 : v->nm > 100 ? 0.6 : 1.0;
    fprintf(b, "set title '%s: GFLOP/s against non-zeros (%s, %d matrices)'\nset xlabel 'non-zeros'\n"
               "set ylabel 'GFLOP/s'\nset yrange [0:*]\nset key outside right top\n",
            v->title, v->dtype, v->nm);
    gp_nnz_axis(b, "x");
    fputs("plot ", b);
    int titled = 0;
    for (int i = 0; i < v->ni; i++) {
        int k = draw_order(v, i);
        fprintf(b, "%s'gflops-%s.dat' index %d using 1:2 with points ps %g", i ? ", \\\n  " : "", v->file, k,
                view_slot(v, k) >= 0 ? ps : ps * 0.5);
        series_style(b, v, k, &titled, "");
    }
    body_emit(f, &pb, v, "gflops", 1, 1);
}

/* The line at a speedup of 1: grey, dotted and behind the data, so it never
 * reads as a dashed instance's line. */
static void one_line(FILE *b, const char *axis)
{
    if (axis[0] == 'y')
        fputs("set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 3 lw 2 lc rgb '#606060' back\n", b);
    else
        fputs("set arrow 1 from first 1, graph 0 to first 1, graph 1 nohead dt 3 lw 2 lc rgb '#606060' back\n", b);
}

/* A speedup axis on y from lo to hi with the line at 1, then "plot ". */
static void speedup_plot_start(FILE *b, double lo, double hi)
{
    gp_speedup_axis(b, "y", lo, hi);
    one_line(b, "y");
    fputs("plot ", b);
}

/* Each instance's speedups in increasing order (the S-curve), with the line at 1. */
static void plot_sorted(FILE *f, const dt_view *v)
{
    plot_body pb;
    double lo, hi;
    FILE *b = speedup_body_open(&pb, v, &lo, &hi);
    if (!b)
        return;
    fprintf(b, "set title '%s: speedup over %s, sorted per instance (%s, %d matrices)'\n"
               "set xlabel 'share of matrices (each instance sorted by its speedup)'\n"
               "set ylabel 'speedup (baseline time / time)'\nset xrange [0:1]\nset key outside right top\n",
            v->title, v->baseline[0] ? v->baseline : "the baseline", v->dtype, v->nm);
    speedup_plot_start(b, lo, hi);
    int titled = 0, any = 0;
    for (int i = 0; i < v->ni; i++) {
        int k = draw_order(v, i);
        if (k == v->base)
            continue; /* its own speedup is 1 by definition */
        fprintf(b, "%s'sorted-%s.dat' index %d using 1:2 with lines", any++ ? ", \\\n  " : "", v->file, k);
        series_style(b, v, k, &titled, "lw 1");
    }
    if (!any)
        fputs("1 notitle", b);
    body_emit(f, &pb, v, "sorted", 1, 1);
}

/* Box plots of the speedups per instance, by median, the baseline left out. */
/* Speedups of instance k on the view's matrices. */
static int count_speedups(const dt_view *v, int k)
{
    int n = 0;
    for (int m = 0; m < v->nm; m++)
        n += ok_speedup(v->cell[(size_t)m * v->ni + k]);
    return n;
}

static void plot_boxes(FILE *f, const dt_view *v, const int *box)
{
    plot_body pb;
    double lo, hi;
    FILE *b = speedup_body_open(&pb, v, &lo, &hi);
    if (!b)
        return;
    /* a box for every instance with a speedup, the baseline's (all 1) left out */
    int n = 0;
    for (int i = 0; i < v->ni; i++)
        n += box[i] != v->base && count_speedups(v, box[i]) > 0;
    fprintf(b, "set title '%s: speedup over %s per instance (%s, %d matrices; in parentheses: those it ran on)'\n"
               "set xlabel 'box: quartiles and median; whiskers: to 1.5 x the interquartile range; dots: beyond'\n"
               "set ylabel 'speedup (baseline time / time)'\nunset key\nset grid noxtics\n"
               "set style fill solid 0.35 border -1\nset style boxplot outliers pointtype 7\nset pointsize 0.4\n"
               "set boxwidth 0.6\nset xrange [-0.7:%d.7]\nset xtics rotate by -40 (",
            v->title, v->baseline[0] ? v->baseline : "the baseline", v->dtype, v->nm, n > 0 ? n - 1 : 0);
    for (int i = 0, x = 0; i < v->ni; i++) {
        /* the count: an instance that refuses most matrices has a box of few */
        int cnt = count_speedups(v, box[i]);
        if (box[i] == v->base || !cnt)
            continue;
        char label[200];
        snprintf(label, sizeof label, "%s (%d)", v->inst[box[i]], cnt);
        fputs(x ? ", " : "", b);
        gp_quote(b, label);
        fprintf(b, " %d", x++);
    }
    fputs(")\n", b);
    speedup_plot_start(b, lo, hi);
    for (int i = 0, x = 0; i < v->ni; i++) {
        if (box[i] == v->base || !count_speedups(v, box[i]))
            continue;
        int s = view_slot(v, box[i]);
        fprintf(b, "%s'boxes-%s.dat' index %d using (%d):1 with boxplot lt %d dt 1 pt 7", x ? ", \\\n  " : "",
                v->file, i, x, s >= 0 ? s + 1 : VIEW_HIGHLIGHT_MAX + 1);
        x++;
    }
    if (!n)
        fputs("1 notitle", b);
    body_emit(f, &pb, v, "boxes", n > 12 ? 1 + (n - 12) * 0.04 : 1, 1);
}

/* Speedup per matrix, the highlighted instances: every matrix named up to
 * VIEW_LABELS_MAX, past it binned by non-zeros. */
static void plot_speedup(FILE *f, const dt_view *v, int nbins, const double *range)
{
    plot_body pb;
    double lo, hi;
    FILE *b = speedup_body_open(&pb, v, &lo, &hi);
    if (!b)
        return;
    const char *base = v->baseline[0] ? v->baseline : "the baseline";
    int shown = 0;
    for (int s = 0; s < v->nhl; s++)
        shown += v->hl[s] != v->base;
    if (v->nm <= VIEW_LABELS_MAX) {
        double w = shown > 1 ? 0.6 / shown : 0;
        fprintf(b, "set title '%s: speedup over %s per matrix (%s); bars: 95%% intervals, most narrower than the marker'\n"
                   "set xlabel 'matrices, by non-zeros (fewest left)'\nset ylabel 'speedup (baseline time / time)'\n"
                   "set xrange [-0.5:%d.5]\nset xtics rotate by -45 font ',%g'\nset grid noxtics\n"
                   "set key outside right top\n",
                v->title, base, v->dtype, v->nm > 0 ? v->nm - 1 : 0, v->style->font * 0.8);
        speedup_plot_start(b, lo, hi);
        for (int s = 0, j = 0; s < v->nhl; s++) {
            int k = v->hl[s];
            if (k == v->base)
                continue;
            int c = 3 + 3 * k;
            fprintf(b, "%s'speedup-%s.dat' using ($1+%g):%d:%d:%d%s with yerrorbars lt %d lw 1.5 ps 0.8 title ",
                    j ? ", \\\n  " : "", v->file, (j - (shown - 1) / 2.0) * w, c, c + 1, c + 2,
                    j ? "" : ":xtic(2)", s + 1);
            gp_quote(b, v->inst[k]);
            j++;
        }
    } else {
        fprintf(b, "set title '%s: speedup over %s against non-zeros (%s, %d matrices in %d bins by non-zeros)'\n"
                   "set xlabel 'non-zeros (geometric mean of the bin)'\n"
                   "set ylabel 'speedup, geometric mean of the bin'\nset key outside right top\n",
                v->title, base, v->dtype, v->nm, nbins);
        gp_nnz_axis(b, "x");
        speedup_plot_start(b, range[0], range[1]);
        for (int s = 0, j = 0; s < v->nhl; s++) {
            int k = v->hl[s];
            if (k == v->base)
                continue;
            fprintf(b, "%s'binned-%s.dat' using 1:%d with linespoints lt %d ps 1.2 title ", j++ ? ", \\\n  " : "",
                    v->file, 2 + 2 * k, s + 1);
            gp_quote(b, v->inst[k]);
        }
    }
    if (!shown)
        fputs("1 notitle", b);
    body_emit(f, &pb, v, "speedup", 1, 1);
}

/* plots-G.gp: every plot of the group, drawn from the data files beside it. */
static int write_script(const dt_view *v, const char *dir, double tau_max, const int *box, int nbins,
                        const double *range, spmvlab_err *err)
{
    char name[64];
    FILE *f = open_in(dir, "plots", v, "gp", name, sizeof name, err);
    if (!f)
        return -1;
    script_head(f, v);
    plot_profile(f, v, tau_max);
    plot_gflops(f, v);
    plot_sorted(f, v);
    plot_boxes(f, v, box);
    plot_speedup(f, v, nbins, range);
    write_heatmap_plot(f, v);
    write_bound_plot(f, v);
    int bad = ferror(f);
    if (fclose(f) || bad)
        return spmvlab_errf(err, "writing %s/%s failed", dir, name), -1;
    return 0;
}

/* Runs gnuplot on script; 0, or -1 with a sentence when it fails. */
static int run_gnuplot(const char *gnuplot, const char *script, spmvlab_err *err)
{
    pid_t pid = fork();
    if (pid < 0)
        return spmvlab_errf(err, "cannot start gnuplot: %s", strerror(errno)), -1;
    if (pid == 0) {
        execl(gnuplot, gnuplot, script, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return spmvlab_errf(err, "gnuplot failed on %s (exit %d)", script,
                            WIFEXITED(status) ? WEXITSTATUS(status) : -1),
               -1;
    return 0;
}

/* The images of group v that exist in dir. */
static int count_images(const dt_view *v, const char *dir)
{
    static const char *const names[] = {"profile", "gflops", "sorted", "boxes", "speedup", "heatmap", "bound"};
    static const char *const exts[] = {"svg", "png", "pdf"};
    int n = 0;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        for (int e = 0; e < 3; e++) {
            char p[4400];
            snprintf(p, sizeof p, "%s/%s-%s.%s", dir, names[i], v->file, exts[e]);
            n += access(p, R_OK) == 0;
        }
    return n;
}

int report_plots(const run_rows *rows, const run_summary *sum, const char *dir, const char *gnuplot,
                 const report_style *style, spmvlab_err *err)
{
    static const report_style def = REPORT_STYLE_DEFAULT;
    if (!style)
        style = &def;
    int images = 0;
    char title[256];
    snprintf(title, sizeof title, "%s", rows->n && rows->v[0].device[0] ? rows->v[0].device : "spmvlab");
    for (char *p = title; *p; p++)
        if (*p == '\'')
            *p = ' ';
    for (int k = 0; k < sum->ninst; k++) {
        int first = 1;
        for (int j = 0; j < k; j++)
            first &= strcmp(sum->inst[j].dtype, sum->inst[k].dtype) != 0;
        if (!first)
            continue;
        dt_view v;
        memset(&v, 0, sizeof v); /* view_free is safe on it whatever fails */
        int *box = calloc((size_t)sum->ninst + 1, sizeof *box);
        if (!box || view_build(&v, rows, sum, sum->inst[k].dtype, style, title)) {
            free(box);
            view_free(&v);
            return spmvlab_errf(err, "out of host memory"), -1;
        }
        double tau_max = 2, range[2] = {1, 1};
        int nbins = 0;
        int rc = write_profile(&v, dir, &tau_max, err) || write_gflops(&v, dir, err) ||
                 write_sorted(&v, dir, box, err) || write_speedup(&v, dir, err) ||
                 (v.nm > VIEW_LABELS_MAX && write_binned(&v, dir, &nbins, range, err)) || write_heatmap_data(&v, dir, err) ||
                 write_bound_data(&v, dir, err) || write_script(&v, dir, tau_max, box, nbins, range, err);
        char gp[4400];
        snprintf(gp, sizeof gp, "%s/plots-%s.gp", dir, v.file);
        if (!rc && gnuplot) {
            rc = run_gnuplot(gnuplot, gp, err);
            images += rc ? 0 : count_images(&v, dir);
        }
        free(box);
        view_free(&v);
        if (rc)
            return -1;
    }
    return images;
}
