/* The speedup heatmap, the bound plot and the line styles; see report_plot_view.h. */
#define _GNU_SOURCE /* open_memstream */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_plot_view.h"

#define HEAT_MAX_LOG2 3      /* the colour scale saturates at 8x either way */
#define HEAT_VALUES_MAX_INST 35 /* beyond these, cells are too small for their numbers */
#define HEAT_VALUES_MAX_MAT 150



/* The binding limits, in the order the heatmap groups them. */
static const char *const kinds[] = {"launch", "l2", "dram", "gather"};
static const int kind_lt[] = {12, 4, 10, 7}; /* black, green, blue, red */
enum { NKINDS = 4 };

/* Class of matrix m: the bound kind of its fastest timed instance (its
 * index in kinds), NKINDS when no row carries one. */
static int matrix_class(const dt_view *v, int m)
{
    const run_row *best = NULL;
    for (int k = 0; k < v->ni; k++) {
        const run_row *r = v->cell[(size_t)m * v->ni + k];
        if (r && ok_time(r) && r->bound_kind[0] && (!best || r->ms < best->ms))
            best = r;
    }
    for (int c = 0; best && c < NKINDS; c++)
        if (strcmp(best->bound_kind, kinds[c]) == 0)
            return c;
    return NKINDS;
}

/* Length of the family part of a label: up to its first digit, '-' or '_'. */
static size_t family_len(const char *s)
{
    size_t n = 0;
    while (s[n] && !isdigit((unsigned char)s[n]) && s[n] != '-' && s[n] != '_')
        n++;
    return n;
}

/* The heatmap's row order: by class, then label family, then non-zeros
 * (v->mat is already by non-zeros; insertion sort keeps that order). */
static int *heat_order(const dt_view *v, int *cls)
{
    int *order = malloc(((size_t)v->nm + 1) * sizeof *order);
    if (!order)
        return NULL;
    for (int m = 0; m < v->nm; m++) {
        order[m] = m;
        cls[m] = matrix_class(v, m);
    }
    for (int a = 1; a < v->nm; a++)
        for (int b = a; b > 0; b--) {
            int x = order[b - 1], y = order[b];
            size_t lx = family_len(v->mat[x]), ly = family_len(v->mat[y]);
            int fam = strncmp(v->mat[x], v->mat[y], lx < ly ? lx : ly);
            if (!fam)
                fam = (lx > ly) - (lx < ly);
            if (cls[x] < cls[y] || (cls[x] == cls[y] && fam <= 0))
                break;
            order[b - 1] = y, order[b] = x;
        }
    return order;
}

static int show_values(const dt_view *v) { return v->ni <= HEAT_VALUES_MAX_INST && v->nm <= HEAT_VALUES_MAX_MAT; }

int write_heatmap_data(const dt_view *v, const char *dir, spmvlab_err *err)
{
    char path[4400];
    int *cls = malloc(((size_t)v->nm + 1) * sizeof *cls), *order = cls ? heat_order(v, cls) : NULL;
    FILE *f = order ? open_in(dir, "heatmap", v->dtype, "dat", path, sizeof path, err) : NULL;
    if (!order)
        spmvlab_errf(err, "out of host memory");
    if (!f) {
        free(cls), free(order);
        return -1;
    }
    fprintf(f, "# instance-index row log2(speedup) label (x: refused or failed; NaN: none)\n");
    for (int y = 0; y < v->nm; y++) {
        for (int k = 0; k < v->ni; k++) {
            const run_row *r = v->cell[(size_t)order[y] * v->ni + k];
            int timed = r && ok_time(r) && r->speedup > 0;
            char label[32] = "";
            if (r && strcmp(r->status, "ok") != 0)
                snprintf(label, sizeof label, "x");
            else if (timed && show_values(v))
                snprintf(label, sizeof label, "%.2f", r->speedup);
            fprintf(f, "%d\t%d\t%.6g\t\"%s\"\n", k, y, timed ? log2(r->speedup) : NAN, label);
        }
        fputc('\n', f);
    }
    free(cls), free(order);
    return fclose(f) ? (spmvlab_errf(err, "writing %s failed", path), -1) : 0;
}

void write_heatmap_plot(FILE *f, const dt_view *v, const char *dir, const char *title, const char *baseline)
{
    int *cls = malloc(((size_t)v->nm + 1) * sizeof *cls), *order = cls ? heat_order(v, cls) : NULL;
    char *body = NULL;
    size_t len = 0;
    FILE *b = order ? open_memstream(&body, &len) : NULL;
    if (!b) {
        free(cls), free(order);
        return;
    }
    fprintf(b, "unset logscale\nunset grid\nunset key\nset title '%s: speedup over %s (%s); x: refused or failed'\n"
               "set xlabel ''\nset ylabel ''\nset palette defined (0 '#2166AC', 0.5 '#F7F7F7', 1 '#B2182B')\n"
               "set cbrange [%d:%d]\nset cbtics ('1/8' -3, '1/4' -2, '1/2' -1, '1' 0, '2' 1, '4' 2, '8' 3)\n"
               "set cblabel 'speedup (log scale)'\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
               "set xtics rotate by -45 font ',9' (",
            title, baseline[0] ? baseline : "the baseline", v->dtype, -HEAT_MAX_LOG2, HEAT_MAX_LOG2,
            v->ni > 0 ? v->ni - 1 : 0, v->nm > 0 ? v->nm - 1 : 0);
    for (int k = 0; k < v->ni; k++) {
        fputs(k ? ", " : "", b);
        gp_quote(b, v->inst[k]);
        fprintf(b, " %d", k);
    }
    fputs(")\nset ytics font ',8' (", b);
    for (int y = 0; y < v->nm; y++) {
        fputs(y ? ", " : "", b);
        gp_quote(b, v->mat[order[y]]);
        fprintf(b, " %d", y);
    }
    fputs(")\n", b);
    /* a line between structure classes, the class named on the right axis */
    fprintf(b, "set y2range [%d.5:-0.5]\nset y2tics scale 0 font ',9' (", v->nm > 0 ? v->nm - 1 : 0);
    for (int y = 0, start = 0; v->nm > 0 && y <= v->nm; y++)
        if (y == v->nm || cls[order[y]] != cls[order[start]]) {
            int c = cls[order[start]];
            fprintf(b, "%s'%s' %g", start ? ", " : "", c < NKINDS ? kinds[c] : "no bound", (start + y - 1) / 2.0);
            start = y;
        }
    fputs(")\n", b);
    for (int y = 1, start = 0; y < v->nm; y++)
        if (cls[order[y]] != cls[order[start]]) {
            fprintf(b, "set arrow %d from graph 0, first %g to graph 1, first %g nohead lw 2 lc rgb 'black' front\n",
                    100 + y, y - 0.5, y - 0.5);
            start = y;
        }
    char dat[4400];
    snprintf(dat, sizeof dat, "%s/heatmap-%s.dat", dir, v->dtype);
    /* grey behind the image: a cell without a time stands apart from a speedup of 1 */
    fputs("set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#BDBDBD' "
          "fillstyle solid noborder\nplot ", b);
    gp_quote(b, dat);
    fputs(" using 1:2:3 with image, '' using 1:2:4 with labels font ',7'\n", b);
    fclose(b);
    int width = 320 + 60 * v->ni, height = 200 + 18 * v->nm;
    gp_outputs_sized(f, dir, "heatmap", v->dtype, body, width < 800 ? 800 : width > 2600 ? 2600 : width,
                     height < 480 ? 480 : height > 3200 ? 3200 : height);
    fputs("unset object 1\nunset arrow\nset xtics autofreq norotate font ''\nset ytics autofreq font ''\n"
          "unset cbtics\nunset cblabel\nunset y2tics\nset grid\nset key outside right top\nset autoscale\n", f);
    free(body), free(cls), free(order);
}

/* A row with a bound and a time. */
static int has_bound(const run_row *r) { return r && ok_time(r) && r->bound_us > 0 && r->bound_kind[0]; }

int write_bound_data(const dt_view *v, const char *dir, spmvlab_err *err)
{
    char path[4400];
    FILE *f = open_in(dir, "bound", v->dtype, "dat", path, sizeof path, err);
    if (!f)
        return -1;
    for (int c = 0; c < NKINDS; c++) {
        fprintf(f, "# bound %s: bound_us time_us matrix instance\n", kinds[c]);
        int any = 0;
        for (size_t i = 0; i < (size_t)v->nm * v->ni; i++) {
            const run_row *r = v->cell[i];
            if (has_bound(r) && strcmp(r->bound_kind, kinds[c]) == 0) {
                fprintf(f, "%.6g\t%.6g\t\"%s\"\t\"%s\"\n", r->bound_us, r->ms * 1e3, r->matrix, r->instance);
                any = 1;
            }
        }
        if (!any)
            fputs("NaN\tNaN\t\"none\"\t\"none\"\n", f);
        fputs("\n\n", f);
    }
    return fclose(f) ? (spmvlab_errf(err, "writing %s failed", path), -1) : 0;
}

void write_bound_plot(FILE *f, const dt_view *v, const char *dir, const char *title)
{
    int any = 0;
    for (size_t i = 0; i < (size_t)v->nm * v->ni && !any; i++)
        any = has_bound(v->cell[i]);
    char body[65536], dat[4400];
    snprintf(dat, sizeof dat, "%s/bound-%s.dat", dir, v->dtype);
    int u = snprintf(body, sizeof body,
                     "set title '%s: time against bound per matrix and instance (%s)'\n"
                     "set xlabel 'bound (us)'\nset ylabel 'time (us)'\nset logscale xy 10\n",
                     title, v->dtype);
    if (!any) {
        /* rows without bound columns (no GPU, or an older CSV): an empty frame that says so */
        snprintf(body + u, sizeof body - u,
                 "set xrange [1:10]\nset yrange [1:10]\nset label 1 'no bound columns in these rows' at graph 0.5, "
                 "graph 0.5 center\nplot x lc rgb '#BBBBBB' title 'time = bound'\nunset label 1\n");
    } else {
        u += snprintf(body + u, sizeof body - u, "plot ");
        for (int c = 0; c < NKINDS && u < (int)sizeof body; c++) {
            body[u++] = '\'';
            for (const char *p = dat; *p && u < (int)sizeof body - 2; p++) {
                if (*p == '\'')
                    body[u++] = '\'';
                body[u++] = *p;
            }
            u += snprintf(body + u, sizeof body - u, "' index %d using 1:2 with points lt %d title 'bound: %s', ", c,
                          kind_lt[c], kinds[c]);
        }
        snprintf(body + u, sizeof body - u, "x lc rgb 'black' dt 2 title 'time = bound', 2*x lc rgb '#888888' dt 3 "
                                           "title 'time = 2 x bound'\n");
    }
    gp_outputs(f, dir, "bound", v->dtype, body);
    fputs("unset logscale\nset autoscale\n", f);
}
