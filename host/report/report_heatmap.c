/* The speedup heatmap, the bound plot and the line styles; see report_heatmap.h. */
#define _GNU_SOURCE /* open_memstream */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_heatmap.h"

#define HEAT_MAX_LOG2 3      /* the colour scale saturates at 8x either way */
#define HEAT_VALUES_MAX_INST 35 /* beyond these, cells are too small for their numbers */
#define HEAT_VALUES_MAX_MAT 150



/* The binding limits, in the order the heatmap groups them. */
static const char *const kinds[] = {"launch", "l2", "dram", "gather"};
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

/* Past this many matrices the heatmap names none: its rows stay sorted by
 * limit, then non-zeros, and the right axis names the limits. */
#define HEAT_LABELS_MAX 60

/* 1 when the cells are large enough for their values. */
static int show_values(const dt_view *v) { return v->ni <= HEAT_VALUES_MAX_INST && v->nm <= HEAT_VALUES_MAX_MAT; }

int write_heatmap_data(const dt_view *v, const char *dir, spmvlab_err *err)
{
    char name[64];
    int *cls = malloc(((size_t)v->nm + 1) * sizeof *cls), *order = cls ? heat_order(v, cls) : NULL;
    FILE *f = order ? open_in(dir, "heatmap", v, "dat", name, sizeof name, err) : NULL;
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
            if (r && strcmp(r->status, "ok") != 0 && v->nm <= HEAT_LABELS_MAX)
                snprintf(label, sizeof label, "x");
            else if (timed && show_values(v) && v->nm <= HEAT_LABELS_MAX)
                snprintf(label, sizeof label, "%.2f", r->speedup);
            fprintf(f, "%d\t%d\t%.6g\t\"%s\"\n", k, y, timed ? log2(r->speedup) : NAN, label);
        }
        fputc('\n', f);
    }
    free(cls), free(order);
    return fclose(f) ? (spmvlab_errf(err, "writing %s/%s failed", dir, name), -1) : 0;
}

void write_heatmap_plot(FILE *f, const dt_view *v)
{
    int *cls = malloc(((size_t)v->nm + 1) * sizeof *cls), *order = cls ? heat_order(v, cls) : NULL;
    char *body = NULL;
    size_t len = 0;
    FILE *b = order ? open_memstream(&body, &len) : NULL;
    if (!b) {
        free(cls), free(order);
        return;
    }
    int named = v->nm <= HEAT_LABELS_MAX;
    fprintf(b, "unset grid\nunset key\nset title '%s: speedup over %s (%s, %d matrices)%s'\n"
               "set xlabel ''\nset ylabel '%s'\nset palette defined (0 '#2166AC', 0.5 '#F7F7F7', 1 '#B2182B')\n"
               "set cbrange [%d:%d]\nset cbtics ('1/8' -3, '1/4' -2, '1/2' -1, '1' 0, '2' 1, '4' 2, '8' 3)\n"
               "set cblabel 'speedup (log scale)'\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n"
               "set xtics rotate by -45 (",
            v->title, v->baseline[0] ? v->baseline : "the baseline", v->dtype, v->nm,
            named ? "; x: refused or failed" : "; grey: no time",
            named ? "" : "matrices, by the limit of their fastest instance, then non-zeros", -HEAT_MAX_LOG2,
            HEAT_MAX_LOG2, v->ni > 0 ? v->ni - 1 : 0, v->nm > 0 ? v->nm - 1 : 0);
    for (int k = 0; k < v->ni; k++) {
        fputs(k ? ", " : "", b);
        gp_quote(b, v->inst[k]);
        fprintf(b, " %d", k);
    }
    if (named) {
        fprintf(b, ")\nset ytics font ',%g' (", v->style->font * 0.8);
        for (int y = 0; y < v->nm; y++) {
            fputs(y ? ", " : "", b);
            gp_quote(b, v->mat[order[y]]);
            fprintf(b, " %d", y);
        }
        fputs(")\n", b);
    } else {
        fputs(")\nunset ytics\n", b);
    }
    /* a line between limit classes, the class named on the right axis */
    fprintf(b, "set y2range [%d.5:-0.5]\nset y2tics scale 0 (", v->nm > 0 ? v->nm - 1 : 0);
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
    /* grey behind the image: a cell without a time stands apart from a speedup of 1 */
    fprintf(b, "set object 1 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#BDBDBD' "
               "fillstyle solid noborder\nplot 'heatmap-%s.dat' using 1:2:3 with image",
            v->file);
    if (named)
        fprintf(b, ", '' using 1:2:4 with labels font ',%g'", v->style->font * 0.65);
    fputc('\n', b);
    fclose(b);
    /* sized to the cells while they are named; a fixed frame once they are not */
    int width = 320 + 60 * v->ni, height = named ? 200 + 18 * v->nm : 900;
    double ws = (width < 800 ? 800 : width > 2000 ? 2000 : width) / 1000.0, hs = (height < 480 ? 480 : height) / 640.0;
    gp_outputs(f, v, "heatmap", body, ws, hs);
    fputs("reset\nset encoding utf8\nset termoption noenhanced\nset grid\n", f);
    free(body), free(cls), free(order);
}

/* A row with a bound and a time. */
static int has_bound(const run_row *r) { return r && ok_time(r) && r->bound_us > 0 && r->bound_kind[0]; }

/* The bound plot's series: one per limit and highlight slot, the last
 * slot for the grey instances. */
#define BOUND_SLOTS (VIEW_HIGHLIGHT_MAX + 1)

/* The bound plot's slot of instance k: its highlight slot, or the grey one. */
static int bound_slot(const dt_view *v, int k)
{
    int s = view_slot(v, k);
    return s >= 0 ? s : VIEW_HIGHLIGHT_MAX;
}

/* Points of limit c in slot s. */
static int bound_count(const dt_view *v, int c, int s)
{
    int n = 0;
    for (int m = 0; m < v->nm; m++)
        for (int k = 0; k < v->ni; k++) {
            const run_row *r = v->cell[(size_t)m * v->ni + k];
            n += has_bound(r) && strcmp(r->bound_kind, kinds[c]) == 0 && bound_slot(v, k) == s;
        }
    return n;
}

int write_bound_data(const dt_view *v, const char *dir, spmvlab_err *err)
{
    char name[64];
    FILE *f = open_in(dir, "bound", v, "dat", name, sizeof name, err);
    if (!f)
        return -1;
    for (int c = 0; c < NKINDS; c++)
        for (int s = 0; s < BOUND_SLOTS; s++) {
            fprintf(f, "# bound %s, %s: bound_us time_us matrix instance\n", kinds[c],
                    s < v->nhl ? v->inst[v->hl[s]] : "other instances");
            int any = 0;
            for (int m = 0; m < v->nm; m++)
                for (int k = 0; k < v->ni; k++) {
                    const run_row *r = v->cell[(size_t)m * v->ni + k];
                    if (has_bound(r) && strcmp(r->bound_kind, kinds[c]) == 0 && bound_slot(v, k) == s) {
                        fprintf(f, "%.6g\t%.6g\t\"%s\"\t\"%s\"\n", r->bound_us, r->ms * 1e3, r->matrix, r->instance);
                        any = 1;
                    }
                }
            if (!any)
                fputs("NaN\tNaN\t\"none\"\t\"none\"\n", f);
            fputs("\n\n", f);
        }
    return fclose(f) ? (spmvlab_errf(err, "writing %s/%s failed", dir, name), -1) : 0;
}

/* The colour of each limit in the bound plot: black, green, blue, red. */
static const char *const kind_colour[] = {"#000000", "#228833", "#4477AA", "#EE6677"};

void write_bound_plot(FILE *f, const dt_view *v)
{
    char *body = NULL;
    size_t len = 0;
    FILE *b = open_memstream(&body, &len);
    if (!b)
        return;
    int any = 0;
    for (size_t i = 0; i < (size_t)v->nm * v->ni && !any; i++)
        any = has_bound(v->cell[i]);
    fprintf(b, "set title '%s: time against bound (%s, %d matrices); colour: the limit, marker: the instance'\n"
               "set xlabel 'bound (us)'\nset ylabel 'time (us)'\nset logscale xy 10\nset key outside right top\n",
            v->title, v->dtype, v->nm);
    if (!any) {
        /* rows without bound columns (no GPU, or an older CSV): an empty frame that says so */
        fputs("set xrange [1:10]\nset yrange [1:10]\nset label 1 'no bound columns in these rows' at graph 0.5, "
              "graph 0.5 center\nplot x lc rgb '#BBBBBB' title 'time = bound'\n",
              b);
    } else {
        fputs("plot ", b);
        int n = 0;
        /* the points: colour of the limit, marker of the instance; grey instances as small dots */
        for (int c = 0; c < NKINDS; c++)
            for (int s = BOUND_SLOTS - 1; s >= 0; s--)
                if (bound_count(v, c, s))
                {
                    fprintf(b, "%s'bound-%s.dat' index %d using 1:2 with points ", n++ ? ", \\\n  " : "", v->file,
                            c * BOUND_SLOTS + s);
                    if (s == VIEW_HIGHLIGHT_MAX)
                        fprintf(b, "pt 7 ps 0.3 lc rgb '%s' notitle", kind_colour[c]);
                    else
                        fprintf(b, "lt %d lw 1.5 lc rgb '%s' notitle", s + 1, kind_colour[c]);
                }
        /* the legend: the limits present, then the instances' markers */
        for (int c = 0; c < NKINDS; c++) {
            int present = 0;
            for (int s = 0; s < BOUND_SLOTS; s++)
                present += bound_count(v, c, s);
            if (present)
                fprintf(b, ", \\\n  NaN with points pt 5 ps 1.5 lc rgb '%s' title 'limit: %s'", kind_colour[c],
                        kinds[c]);
        }
        for (int s = 0; s < v->nhl; s++) {
            fprintf(b, ", \\\n  NaN with points lt %d lc rgb '#555555' title ", s + 1);
            gp_quote(b, v->inst[v->hl[s]]);
        }
        if (v->ni > v->nhl)
            fprintf(b, ", \\\n  NaN with points pt 7 ps 0.3 lc rgb '#555555' title 'others (%d)'", v->ni - v->nhl);
        fputs(", \\\n  x lc rgb 'black' dt 2 title 'time = bound', 2*x lc rgb '#888888' dt 3 title 'time = 2 x bound'\n",
              b);
    }
    fclose(b);
    gp_outputs(f, v, "bound", body, 1, 1);
    fputs("reset\nset encoding utf8\nset termoption noenhanced\nset grid\n", f);
    free(body);
}
