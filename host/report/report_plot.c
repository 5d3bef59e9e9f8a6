/* gnuplot plots of results; see report_plot.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_plot.h"
#include "report_plot_view.h"
#include "spmvlab/stats.h"

#define PROFILE_POINTS 200

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



static int view_build(dt_view *v, const run_rows *rows, const run_summary *sum, const char *dtype)
{
    memset(v, 0, sizeof *v);
    v->dtype = dtype;
    v->inst = calloc((size_t)sum->ninst + 1, sizeof *v->inst);
    v->mat = calloc((size_t)sum->nmat + 1, sizeof *v->mat);
    v->nnz = calloc((size_t)sum->nmat + 1, sizeof *v->nnz);
    if (!v->inst || !v->mat || !v->nnz)
        return -1;
    for (int k = 0; k < sum->ninst; k++)
        if (strcmp(sum->inst[k].dtype, dtype) == 0)
            v->inst[v->ni++] = sum->inst[k].instance;
    for (int m = 0; m < sum->nmat; m++)
        if (strcmp(sum->mat[m].dtype, dtype) == 0) {
            v->mat[v->nm] = sum->mat[m].matrix;
            v->nnz[v->nm++] = sum->mat[m].nnz;
        }
    /* matrices by nnz (insertion sort: sets are small) */
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
        if (strcmp(r->dtype, dtype) != 0)
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
    return 0;
}

static void view_free(dt_view *v)
{
    free(v->inst);
    free(v->mat);
    free(v->nnz);
    free(v->cell);
}


/* profile-DT.dat: tau, then the fraction of each instance. */
static int write_profile(const dt_view *v, const char *dir, char *path, size_t len, double *tau_max, spmvlab_err *err)
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
    FILE *f = open_in(dir, "profile", v->dtype, "dat", path, len, err);
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

/* gflops-DT.dat: one block per instance (nnz, GFLOP/s), blocks apart by two blank lines. */
static int write_gflops(const dt_view *v, const char *dir, char *path, size_t len, spmvlab_err *err)
{
    FILE *f = open_in(dir, "gflops", v->dtype, "dat", path, len, err);
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

/* speedup-DT.dat: matrix index, name, then speedup lo hi per instance. */
static int write_speedup(const dt_view *v, const char *dir, char *path, size_t len, spmvlab_err *err)
{
    FILE *f = open_in(dir, "speedup", v->dtype, "dat", path, len, err);
    if (!f)
        return -1;
    fprintf(f, "# index matrix, then speedup lo hi for each instance (NaN: none)\n");
    for (int m = 0; m < v->nm; m++) {
        fprintf(f, "%d\t%s", m, v->mat[m]);
        for (int k = 0; k < v->ni; k++) {
            const run_row *r = v->cell[(size_t)m * v->ni + k];
            int ok = r && ok_time(r) && r->speedup > 0;
            fprintf(f, "\t%.6g\t%.6g\t%.6g", ok ? r->speedup : NAN, ok ? r->speedup_lo : NAN, ok ? r->speedup_hi : NAN);
        }
        fputc('\n', f);
    }
    fclose(f);
    return 0;
}



static int write_script(const dt_view *v, const char *dir, const char *title, const char *baseline, double tau_max,
                        const char *prof, const char *gfl, const char *spd, char *path, size_t len, spmvlab_err *err)
{
    FILE *f = open_in(dir, "plots", v->dtype, "gp", path, len, err);
    if (!f)
        return -1;
    char body[65536];
    size_t u;
    fprintf(f, "# gnuplot script written by spmvlab report; run: gnuplot %s\nset encoding utf8\nset termoption noenhanced\n"
               "set grid\nset key outside right top\n",
            path);
    gp_linetypes(f);
    /* performance profile */
    u = (size_t)snprintf(body, sizeof body,
                         "set title '%s: performance profile (%s)'\nset xlabel 'tau (time / fastest time)'\n"
                         "set ylabel 'fraction of matrices within tau'\nset logscale x 2\nset xrange [1:%g]\n"
                         "set xtics (1, 1.1, 1.25, 1.5, 2, 3, 4, 8, 16)\nset yrange [0:1.02]\nplot ",
                         title, v->dtype, tau_max);
    for (int k = 0; k < v->ni && u < sizeof body; k++)
        u += (size_t)snprintf(body + u, sizeof body - u, "%s'%s' using 1:%d with steps lw 2 title '%s'",
                              k ? ", \\\n  " : "", prof, k + 2, v->inst[k]);
    gp_outputs(f, dir, "profile", v->dtype, body);
    fputs("unset logscale\nset autoscale\nset xtics autofreq\n", f);
    /* GFLOP/s against nnz */
    u = (size_t)snprintf(body, sizeof body,
                         "set title '%s: GFLOP/s against non-zeros (%s)'\nset xlabel 'non-zeros'\n"
                         "set ylabel 'GFLOP/s'\nset logscale x 10\nset yrange [0:*]\nplot ",
                         title, v->dtype);
    for (int k = 0; k < v->ni && u < sizeof body; k++)
        u += (size_t)snprintf(body + u, sizeof body - u, "%s'%s' index %d using 1:2 with linespoints ps 0.8 title '%s'",
                              k ? ", \\\n  " : "", gfl, k, v->inst[k]);
    gp_outputs(f, dir, "gflops", v->dtype, body);
    fputs("unset logscale\nset autoscale\n", f);
    /* speedup per matrix */
    int shown = 0;
    for (int k = 0; k < v->ni; k++)
        shown += strcmp(v->inst[k], baseline) != 0;
    double w = shown > 1 ? 0.6 / shown : 0;
    u = (size_t)snprintf(body, sizeof body,
                         "set title '%s: speedup over %s per matrix (%s), 95%% intervals'\nset xlabel ''\n"
                         "set ylabel 'speedup (baseline time / time)'\nset logscale y 2\nset xrange [-0.5:%d.5]\n"
                         "set xtics rotate by -45 font ',9'\nset arrow 1 from graph 0, first 1 to graph 1, first 1 nohead "
                         "dt 2 lc rgb 'black'\nplot ",
                         title, baseline[0] ? baseline : "the baseline", v->dtype, v->nm > 0 ? v->nm - 1 : 0);
    for (int k = 0, j = 0; k < v->ni && u < sizeof body; k++) {
        if (!strcmp(v->inst[k], baseline))
            continue; /* its own speedup is 1 by definition */
        int c = 3 + 3 * k;
        u += (size_t)snprintf(body + u, sizeof body - u, "%s'%s' using ($1+%g):%d:%d:%d%s with yerrorbars ps 0.7 title '%s'",
                              j ? ", \\\n  " : "", spd, (j - (shown - 1) / 2.0) * w, c, c + 1, c + 2,
                              j ? "" : ":xtic(2)", v->inst[k]);
        j++;
    }
    if (!shown)
        u += (size_t)snprintf(body + u, sizeof body - u, "1 notitle");
    gp_outputs(f, dir, "speedup", v->dtype, body);
    fputs("unset arrow 1\n", f);
    write_heatmap_plot(f, v, dir, title, baseline);
    write_bound_plot(f, v, dir, title);
    int bad = ferror(f);
    if (fclose(f) || bad)
        return spmvlab_errf(err, "writing %s failed", path), -1;
    return 0;
}

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

int report_plots(const run_rows *rows, const run_summary *sum, const char *dir, const char *gnuplot,
                 spmvlab_err *err)
{
    int images = 0;
    char title[256];
    snprintf(title, sizeof title, "%s", rows->n ? rows->v[0].device : "");
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
        if (view_build(&v, rows, sum, sum->inst[k].dtype)) {
            view_free(&v);
            return spmvlab_errf(err, "out of host memory"), -1;
        }
        char prof[4400], gfl[4400], spd[4400], gp[4400];
        double tau_max = 2;
        int rc = write_profile(&v, dir, prof, sizeof prof, &tau_max, err) || write_gflops(&v, dir, gfl, sizeof gfl, err) ||
                 write_speedup(&v, dir, spd, sizeof spd, err) || write_heatmap_data(&v, dir, err) ||
                 write_bound_data(&v, dir, err) ||
                 write_script(&v, dir, title[0] ? title : "spmvlab", sum->baseline, tau_max, prof, gfl, spd, gp,
                              sizeof gp, err);
        view_free(&v);
        if (rc)
            return -1;
        if (gnuplot) {
            if (run_gnuplot(gnuplot, gp, err))
                return -1;
            images += 10;
        }
    }
    return images;
}
