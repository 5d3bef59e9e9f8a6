/* What the plot writers share: gnuplot quoting, files, the three image
 * terminals, the line styles and the axes; see report_plot_view.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_plot_view.h"

int ok_time(const run_row *r) { return strcmp(r->status, "ok") == 0 && r->ms > 0 && !isinf(r->ms); }

int ok_speedup(const run_row *r) { return r && ok_time(r) && r->speedup > 0 && !isinf(r->speedup); }

int view_slot(const dt_view *v, int k)
{
    for (int s = 0; s < v->nhl; s++)
        if (v->hl[s] == k)
            return s;
    return -1;
}

void gp_quote(FILE *f, const char *s) { write_quoted(f, s, '\''); }

FILE *open_in(const char *dir, const char *name, const dt_view *v, const char *ext, char *fname, size_t len,
              spmvlab_err *err)
{
    char path[4400];
    snprintf(fname, len, "%s-%s.%s", name, v->file, ext);
    snprintf(path, sizeof path, "%s/%s", dir, fname);
    FILE *f = fopen(path, "w");
    if (!f)
        spmvlab_errf(err, "cannot write %s: %s", path, strerror(errno));
    return f;
}

void gp_outputs(FILE *f, const dt_view *v, const char *name, const char *body, double wscale, double hscale)
{
    int w = (int)(v->style->width * wscale), h = (int)(v->style->height * hscale);
    double pt = v->style->font;
    /* noenhanced on every terminal: set terminal resets termoption, and
     * enhanced text would read lp_e226 as a subscript */
    fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'sans,%g' background rgb 'white'\n", w, h,
            pt * 1.2);
    fprintf(f, "set output '%s-%s.svg'\n%s\nunset output\n", name, v->file, body);
    fprintf(f,
            "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size %d,%d noenhanced "
            "font 'sans,%g' background rgb 'white' } else { set terminal png size %d,%d noenhanced }\n",
            w, h, pt, w, h);
    fprintf(f, "set output '%s-%s.png'\n%s\nunset output\n", name, v->file, body);
    /* without cairo no PDF: the unknown terminal draws nothing */
    fprintf(f,
            "if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) { set terminal pdfcairo size %gin,%gin noenhanced "
            "font 'sans,%g'; set output '%s-%s.pdf' } else { set terminal unknown }\n%s\nunset output\n",
            w / 100.0, h / 100.0, pt * 0.8, name, v->file, body);
}

/* Colour-blind-safe colours (Paul Tol's bright scheme, with black). */
static const char *const palette[VIEW_HIGHLIGHT_MAX] = {"#4477AA", "#EE6677", "#228833", "#CCBB44",
                                                        "#66CCEE", "#AA3377", "#000000", "#EE7733"};

void gp_linetypes(FILE *f)
{
    /* open markers: filled ones hide each other in a dense scatter */
    static const int points[VIEW_HIGHLIGHT_MAX] = {6, 4, 8, 10, 12, 1, 2, 3};
    for (int k = 0; k < VIEW_HIGHLIGHT_MAX; k++)
        fprintf(f, "set linetype %d lc rgb '%s' pt %d dt %d lw 2\n", k + 1, palette[k], points[k], k / 4 + 1);
    fprintf(f, "set linetype %d lc rgb '#C4C4C4' pt 7 dt 1 lw 1\n", VIEW_HIGHLIGHT_MAX + 1);
    fprintf(f, "set linetype cycle %d\n", VIEW_HIGHLIGHT_MAX + 1);
}

void gp_speedup_axis(FILE *f, const char *axis, double lo, double hi)
{
    if (!(lo > 0) || !(hi > 0))
        lo = hi = 1;
    int a = (int)floor(log2(lo)), b = (int)ceil(log2(hi));
    if (a > -1)
        a = -1;
    if (b < 1)
        b = 1;
    fprintf(f, "set logscale %s 2\nset %srange [%g:%g]\nset m%stics 1\nset %stics (", axis, axis, pow(2, a), pow(2, b),
            axis, axis);
    if (b - a <= 8) {
        for (int e = a; e <= b; e++)
            fprintf(f, "%s'%s%g' %g", e > a ? ", " : "", e < 0 ? "1/" : "", pow(2, abs(e)), pow(2, e));
    } else {
        /* 1, 2, 5 in every decade */
        static const int steps[3] = {1, 2, 5};
        int first = 1;
        for (int d = (int)floor(a * log10(2.0)); d <= (int)ceil(b * log10(2.0)); d++)
            for (int j = 0; j < 3; j++, first = 0)
                fprintf(f, "%s'%g' %g", first ? "" : ", ", steps[j] * pow(10, d), steps[j] * pow(10, d));
    }
    fputs(")\n", f);
}

void gp_nnz_axis(FILE *f, const char *axis)
{
    fprintf(f, "set logscale %s 10\nset %stics ('10' 10, '100' 100, '1k' 1e3, '10k' 1e4, '100k' 1e5, '1M' 1e6, "
               "'10M' 1e7, '100M' 1e8, '1G' 1e9)\n",
            axis, axis);
}

void view_speedup_range(const dt_view *v, double *lo, double *hi)
{
    *lo = INFINITY, *hi = 0;
    for (size_t i = 0; i < (size_t)v->nm * v->ni; i++)
        if (ok_speedup(v->cell[i])) {
            *lo = fmin(*lo, v->cell[i]->speedup);
            *hi = fmax(*hi, v->cell[i]->speedup);
        }
    if (*hi == 0)
        *lo = *hi = 1;
}
