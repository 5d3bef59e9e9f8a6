/* Rows between processes; see run_answer.h. */
#include <stdlib.h>
#include <string.h>

#include "run_answer.h"
#include "row_out.h"

static void write_samples(FILE *f, const char *tag, const double *v, int n)
{
    fputs(tag, f);
    for (int i = 0; v && i < n; i++)
        fprintf(f, ",%.17g", v[i]);
    fputc('\n', f);
}

void answer_write(FILE *f, const run_row *r)
{
    fputs("row,", f);
    run_csv_row(f, r);
    write_samples(f, "single", r->single_samples, r->nsamples);
    write_samples(f, "batch", r->batch_samples, r->nsamples);
    fprintf(f, "wall,%.17g\nend\n", r->wall_ms);
}

static void parse_samples(char **f, int n, double **out, int *count)
{
    free(*out);
    *out = NULL;
    *count = n - 1;
    if (*count <= 0)
        return;
    *out = malloc((size_t)*count * sizeof **out);
    if (!*out) {
        *count = -1;
        return;
    }
    for (int i = 1; i < n; i++)
        (*out)[i - 1] = strtod(f[i], NULL);
}

void answer_begin(answer_reader *a, run_row *row)
{
    memset(a, 0, sizeof *a);
    a->row = row;
    a->ns = a->nb = -1;
}

void answer_abort(answer_reader *a)
{
    free(a->single);
    free(a->batch);
    a->single = a->batch = NULL;
}

int answer_take(answer_reader *a, char **v, int n)
{
    if (n < 1)
        return 2;
    if (strcmp(v[0], "row") == 0) {
        a->got_row = n == run_column_count() + 1;
        for (int c = 0; a->got_row && c < run_column_count(); c++)
            if (run_row_set(a->row, c, v[c + 1]))
                a->got_row = 0;
        a->bad_row = !a->got_row;
    } else if (strcmp(v[0], "single") == 0) {
        parse_samples(v, n, &a->single, &a->ns);
    } else if (strcmp(v[0], "batch") == 0) {
        parse_samples(v, n, &a->batch, &a->nb);
    } else if (strcmp(v[0], "wall") == 0 && n == 2) {
        a->row->wall_ms = strtod(v[1], NULL);
    } else if (strcmp(v[0], "end") == 0) {
        if (!a->got_row || a->bad_row) {
            answer_abort(a);
            return -1;
        }
        if (a->ns == a->nb && a->ns > 0) {
            a->row->single_samples = a->single;
            a->row->batch_samples = a->batch;
            a->row->nsamples = a->ns;
            a->single = a->batch = NULL;
        }
        answer_abort(a);
        return 1;
    } else {
        return 2;
    }
    return 0;
}
