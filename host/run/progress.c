/* The one-line progress display; see progress.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "spmvlab/core.h"

void progress_line_init(progress_line *p, int nparts)
{
    memset(p, 0, sizeof *p);
    p->enabled = isatty(STDOUT_FILENO);
    p->t0 = spmvlab_now_ms();
    p->nparts = nparts > PROGRESS_PARTS ? PROGRESS_PARTS : nparts;
}

void progress_line_totals(progress_line *p, int matrices, long cells)
{
    p->mat_total = matrices;
    p->cells_total = cells > 0 ? cells : 0;
}

void progress_line_matrix(progress_line *p, int index, const char *matrix)
{
    p->mat_done = index;
    snprintf(p->matrix, sizeof p->matrix, "%s", matrix);
    snprintf(p->now, sizeof p->now, "%s", p->matrix);
}

void progress_line_update(void *arg, const char *instance, const char *phase, int done, int total)
{
    progress_line *p = arg;
    (void)done;
    (void)total;
    if (!p || !p->enabled)
        return;
    snprintf(p->now, sizeof p->now, "%s: %.40s%s%.20s", p->matrix, instance, instance[0] ? " " : "", phase);
    progress_line_show(p);
}

void progress_line_row(progress_line *p)
{
    progress_line_clear(p);
    p->cells_done++;
}

void progress_line_part(progress_line *p, int j, const char *name, long done, long total, int finished)
{
    if (j < 0 || j >= p->nparts)
        return;
    progress_part *q = &p->part[j];
    snprintf(q->name, sizeof q->name, "%s", name);
    q->done = done < total ? done : total;
    q->total = total;
    q->finished = finished;
}

static void duration(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
}

void progress_line_show(progress_line *p)
{
    if (!p->enabled)
        return;
    char line[1024], el[48], left[48] = "?";
    size_t n = 0;
    long done = p->cells_done, total = p->cells_total;
    if (p->nparts) {
        done = total = 0;
        for (int j = 0; j < p->nparts && n < sizeof line; j++) {
            const progress_part *q = &p->part[j];
            n += (size_t)snprintf(line + n, sizeof line - n, "%s %ld/%ld%s | ", q->name, q->done, q->total,
                                  q->finished ? " done" : "");
            done += q->done;
            total += q->total;
        }
    } else {
        n += (size_t)snprintf(line, sizeof line, "[%d/%d matrices] %s | ", p->mat_done + 1 > p->mat_total ?
                              p->mat_total : p->mat_done + 1, p->mat_total, p->now);
    }
    double secs = (spmvlab_now_ms() - p->t0) / 1e3;
    duration(secs, el, sizeof el);
    if (done > 0 && total >= done)
        duration(secs * (double)(total - done) / (double)done, left, sizeof left);
    if (n < sizeof line)
        snprintf(line + n, sizeof line - n, "%ld/%ld cells, %s elapsed, about %s left", done, total, el, left);
    fprintf(stdout, "\r\033[K%.200s", line);
    fflush(stdout);
    p->shown = 1;
}

void progress_line_clear(progress_line *p)
{
    if (p && p->enabled && p->shown) {
        fputs("\r\033[K", stdout);
        fflush(stdout);
        p->shown = 0;
    }
}
