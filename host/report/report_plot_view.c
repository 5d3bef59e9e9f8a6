/* What the plot writers share: gnuplot quoting, files, the two image
 * terminals and the line styles; see report_plot_view.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_plot_view.h"

int ok_time(const run_row *r) { return strcmp(r->status, "ok") == 0 && r->ms > 0 && !isinf(r->ms); }

void gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

FILE *open_in(const char *dir, const char *name, const char *dtype, const char *ext, char *path, size_t len,
              spmvlab_err *err)
{
    snprintf(path, len, "%s/%s-%s.%s", dir, name, dtype, ext);
    FILE *f = fopen(path, "w");
    if (!f)
        spmvlab_errf(err, "cannot write %s: %s", path, strerror(errno));
    return f;
}

void gp_outputs(FILE *f, const char *dir, const char *name, const char *dtype, const char *body)
{
    gp_outputs_sized(f, dir, name, dtype, body, 1000, 640);
}

void gp_outputs_sized(FILE *f, const char *dir, const char *name, const char *dtype, const char *body, int width,
                      int height)
{
    static const char *terms[] = {"svg", "png"};
    for (int t = 0; t < 2; t++) {
        /* noenhanced on the terminal itself: set terminal resets termoption,
         * and enhanced text would read lp_e226 as a subscript */
        if (t == 0)
            fprintf(f, "set terminal svg size %d,%d dynamic noenhanced font 'sans,12' background rgb 'white'\n", width,
                    height);
        else
            fprintf(f,
                    "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) { set terminal pngcairo size %d,%d noenhanced "
                    "font 'sans,10' background rgb 'white' } else { set terminal png size %d,%d noenhanced }\n",
                    width, height, width, height);
        char out[4400];
        snprintf(out, sizeof out, "%s/%s-%s.%s", dir, name, dtype, terms[t]);
        fputs("set output ", f);
        gp_quote(f, out);
        fprintf(f, "\n%s\nunset output\n", body);
    }
}

/* Colour-blind-safe colours (Paul Tol's muted and bright schemes). */
static const char *const palette[12] = {"#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77",
                                        "#CC6677", "#882255", "#AA4499", "#4477AA", "#EE6677", "#000000"};

void gp_linetypes(FILE *f)
{
    static const int points[3] = {7, 5, 9}; /* circle, square, triangle */
    for (int k = 0; k < 36; k++)
        fprintf(f, "set linetype %d lc rgb '%s' pt %d dt %d\n", k + 1, palette[k % 12], points[k / 12], k / 12 + 1);
    fputs("set linetype cycle 36\n", f);
}
