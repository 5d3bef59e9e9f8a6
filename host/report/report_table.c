/* report --table: Markdown and LaTeX tables; see report_table.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor_table.h"
#include "report_table.h"
#include "row_out.h"

/* A name in a cell: code span in Markdown (no emphasis from '_', '|'
 * escaped), LaTeX specials escaped. */
static void put_name(FILE *f, const char *s, report_table_kind kind)
{
    if (kind == REPORT_TABLE_MD) {
        fputc('`', f);
        for (; *s; s++)
            fputs(*s == '|' ? "\\|" : (char[2]){*s, 0}, f);
        fputc('`', f);
        return;
    }
    fputs("\\texttt{", f);
    for (; *s; s++) {
        if (strchr("&%$#_{}", *s))
            fprintf(f, "\\%c", *s);
        else if (*s == '~')
            fputs("\\textasciitilde{}", f);
        else if (*s == '^')
            fputs("\\textasciicircum{}", f);
        else if (*s == '\\')
            fputs("\\textbackslash{}", f);
        else
            fputc(*s, f);
    }
    fputc('}', f);
}

/* A row of cells; cells are already in the table's syntax. */
static void put_row(FILE *f, report_table_kind kind, const char *const *cells, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%s", kind == REPORT_TABLE_MD ? (i ? " | " : "| ") : (i ? " & " : ""), cells[i]);
    fputs(kind == REPORT_TABLE_MD ? " |\n" : " \\\\\n", f);
}

/* The head of a table: caption line, column names, the rule. */
static void put_head(FILE *f, report_table_kind kind, const char *caption, const char *align,
                     const char *const *names, int n)
{
    if (kind == REPORT_TABLE_MD) {
        fprintf(f, "\n**%s**\n\n", caption);
        put_row(f, kind, names, n);
        for (int i = 0; i < n; i++)
            fputs(align[i] == 'r' ? (i ? " ---: |" : "| ---: |") : (i ? " --- |" : "| --- |"), f);
        fputc('\n', f);
    } else {
        fprintf(f, "\n%% %s\n\\begin{tabular}{%s}\n\\toprule\n", caption, align);
        put_row(f, kind, names, n);
        fputs("\\midrule\n", f);
    }
}

/* The end of a table (LaTeX only: Markdown needs none). */
static void put_end(FILE *f, report_table_kind kind)
{
    if (kind == REPORT_TABLE_TEX)
        fputs("\\bottomrule\n\\end{tabular}\n", f);
}

/* A name cell as text (into buf). */
static const char *name_cell(const char *s, report_table_kind kind, char *buf, size_t len)
{
    FILE *m = fmemopen(buf, len, "w");
    if (!m)
        return "";
    put_name(m, s, kind);
    fclose(m);
    return buf;
}

/* A caption fit for a LaTeX comment line: '%' and '_' become spaces. */
static void tex_caption(char *cap, report_table_kind kind)
{
    if (kind == REPORT_TABLE_TEX)
        for (char *p = cap; *p; p++)
            if (*p == '%' || *p == '_')
                *p = ' ';
}

/* The matrices cell of a floor line: its names, then "and N more". */
static const char *matrices_cell(const floor_line *l, report_table_kind kind, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < l->cells && i < FLOOR_NAMES && at < len; i++) {
        char name[600];
        const char *cell = name_cell(l->matrix[i], kind, name, sizeof name);
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", cell);
    }
    if (l->cells > FLOOR_NAMES && at < len)
        snprintf(buf + at, len - at, " and %d more", l->cells - FLOOR_NAMES);
    return buf;
}

/* The third table of a group: per instance the matrices below RUN_FLOOR
 * by the bound that binds them (floor_table.h); a sentence when none is. */
static void write_floor(FILE *f, const floor_table *ft, const char *dt, const char *device, report_table_kind kind)
{
    char cap[512];
    snprintf(cap, sizeof cap, "%s, %s: matrices below %gx the baseline, by the bound that binds the instance there; "
             "share: median bound time / measured time, of the instance and of the baseline on the same matrices; "
             "bytes ratio: median bytes per non-zero, instance / baseline; - where the rows have none",
             device, dt, RUN_FLOOR);
    tex_caption(cap, kind);
    int n = 0;
    for (int i = 0; i < ft->n; i++)
        n += strcmp(ft->v[i].group, dt) == 0;
    if (!n) {
        fprintf(f, kind == REPORT_TABLE_MD ? "\n**%s**\n\nNo instance has a matrix below %gx the baseline.\n"
                                           : "\n%% %s\n%% No instance has a matrix below %gx the baseline.\n",
                cap, RUN_FLOOR);
        return;
    }
    static const char *const head[] = {"instance", "bound", "cells", "share", "baseline share", "bytes ratio",
                                       "matrices (lowest speedup first)"};
    put_head(f, kind, cap, "llrrrrl", head, 7);
    for (int i = 0; i < ft->n; i++) {
        const floor_line *l = &ft->v[i];
        if (strcmp(l->group, dt) != 0)
            continue;
        char name[600], cells[16], fr[32], bf[32], by[32], mats[8192];
        snprintf(cells, sizeof cells, "%d", l->cells);
        const char *row[] = {name_cell(l->instance, kind, name, sizeof name), l->bound_kind[0] ? l->bound_kind : "-",
                             cells, table_num(l->frac, "%.2f", fr, sizeof fr),
                             table_num(l->base_frac, "%.2f", bf, sizeof bf),
                             table_num(l->bytes_ratio, "%.2f", by, sizeof by),
                             matrices_cell(l, kind, mats, sizeof mats)};
        put_row(f, kind, row, 7);
    }
    put_end(f, kind);
}

/* qsort order of matrices by non-zeros. */
static int by_nnz(const void *a, const void *b)
{
    double x = (*(const sum_matrix *const *)a)->nnz, y = (*(const sum_matrix *const *)b)->nnz;
    return (x > y) - (x < y);
}

/* The three tables of one comparison group. */
static void write_group(FILE *f, const run_summary *s, const floor_table *ft, const char *dt, const char *device,
                        report_table_kind kind)
{
    const char *inter = kind == REPORT_TABLE_MD ? "–" : "--";
    int nm = 0;
    for (int m = 0; m < s->nmat; m++)
        nm += strcmp(s->mat[m].dtype, dt) == 0;
    char cap[512];
    snprintf(cap, sizeof cap, "%s, %s, %d matrices: speedup over %s (geometric mean, 95%% bootstrap interval over "
             "matrices); win/loss/tie by each matrix's 95%% interval; best: matrices where fastest; worst: the "
             "lowest speedup and its matrix; below %g: matrices under it",
             device, dt, nm, s->baseline[0] ? s->baseline : "the baseline", RUN_FLOOR);
    tex_caption(cap, kind);
    static const char *const head[] = {"instance", "ok/all", "speedup", "95% interval", "win", "loss", "tie", "best",
                                       "worst (matrix)", "below 0.8"};
    const char *const tex_head[] = {"instance", "ok/all", "speedup", "95\\% interval", "win", "loss", "tie", "best",
                                    "worst (matrix)", "below 0.8"};
    put_head(f, kind, cap, "lrrrrrrrlr", kind == REPORT_TABLE_MD ? head : tex_head, 10);
    for (int k = 0; k < s->ninst; k++) {
        const sum_instance *si = &s->inst[k];
        if (strcmp(si->dtype, dt) != 0)
            continue;
        char name[600], okall[32], g[32], lo[32], hi[32], ci[80], w[16], l[16], t[16], b[16], wo[32], wm[600],
            worst[700], bl[16];
        snprintf(okall, sizeof okall, "%d/%d", si->ok, si->cells);
        table_num(si->geo.point, "%.3f", g, sizeof g);
        if (isnan(si->geo.lo))
            snprintf(ci, sizeof ci, "-");
        else
            snprintf(ci, sizeof ci, "%s%s%s", table_num(si->geo.lo, "%.3f", lo, sizeof lo), inter,
                     table_num(si->geo.hi, "%.3f", hi, sizeof hi));
        snprintf(w, sizeof w, "%d", si->wins), snprintf(l, sizeof l, "%d", si->losses);
        snprintf(t, sizeof t, "%d", si->ties), snprintf(b, sizeof b, "%d", si->best);
        if (isnan(si->worst))
            snprintf(worst, sizeof worst, "-");
        else
            snprintf(worst, sizeof worst, "%s (%s)", table_num(si->worst, "%.3f", wo, sizeof wo),
                     name_cell(si->worst_matrix, kind, wm, sizeof wm));
        snprintf(bl, sizeof bl, "%d", si->below_floor);
        const char *cells[] = {name_cell(si->instance, kind, name, sizeof name), okall, g, ci, w, l, t, b, worst, bl};
        put_row(f, kind, cells, 10);
    }
    put_end(f, kind);
    snprintf(cap, sizeof cap, "%s, %s: the fastest instance per matrix, by non-zeros", device, dt);
    static const char *const mhead[] = {"matrix", "non-zeros", "best", "ms", "GFLOP/s", "speedup"};
    put_head(f, kind, cap, "lrlrrr", mhead, 6);
    const sum_matrix **by = malloc(((size_t)nm + 1) * sizeof *by);
    int n = 0;
    for (int m = 0; by && m < s->nmat; m++)
        if (strcmp(s->mat[m].dtype, dt) == 0)
            by[n++] = &s->mat[m];
    if (by)
        qsort(by, (size_t)n, sizeof *by, by_nnz);
    for (int i = 0; i < n; i++) {
        const sum_matrix *sm = by[i];
        char name[600], best[600], nnz[32], ms[32], gf[32], sp[32];
        snprintf(nnz, sizeof nnz, "%.0f", sm->nnz);
        const char *cells[] = {name_cell(sm->matrix, kind, name, sizeof name), nnz,
                               sm->best[0] ? name_cell(sm->best, kind, best, sizeof best) : "-",
                               table_num(sm->best_ms, "%.4g", ms, sizeof ms),
                               table_num(sm->best_gflops, "%.1f", gf, sizeof gf),
                               table_num(sm->best_speedup, "%.3f", sp, sizeof sp)};
        put_row(f, kind, cells, 6);
    }
    put_end(f, kind);
    free(by);
    write_floor(f, ft, dt, device, kind);
}

int report_write_tables(const run_summary *s, const run_rows *rows, const char *device, report_table_kind kind,
                        const char *path, spmvlab_err *err)
{
    floor_table ft;
    if (floor_table_build(rows, s, &ft))
        return spmvlab_errf(err, "out of host memory"), -1;
    FILE *f = fopen(path, "w");
    if (!f) {
        floor_table_free(&ft);
        return spmvlab_errf(err, "cannot write %s: %s", path, strerror(errno)), -1;
    }
    if (kind == REPORT_TABLE_TEX)
        fputs("% written by spmvlab report --table tex; needs \\usepackage{booktabs}\n", f);
    for (int k = 0; k < s->ninst; k++) {
        int first = 1;
        for (int j = 0; j < k; j++)
            first &= strcmp(s->inst[j].dtype, s->inst[k].dtype) != 0;
        if (first)
            write_group(f, s, &ft, s->inst[k].dtype, device[0] ? device : "spmvlab", kind);
    }
    floor_table_free(&ft);
    int bad = ferror(f);
    if (fclose(f) || bad)
        return spmvlab_errf(err, "writing %s failed", path), -1;
    return 0;
}
