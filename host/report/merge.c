/* One CSV and summary from the parts of a sharded run; see merge.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merge.h"
#include "run_summary.h"

/* A row and the part it came from, for the duplicate check. */
typedef struct tagged {
    const run_row *r;
    int part;
    int order;
} tagged;

static int cell_cmp(const run_row *a, const run_row *b)
{
    int c = strcmp(a->matrix, b->matrix);
    if (!c)
        c = strcmp(a->dtype, b->dtype);
    if (!c)
        c = strcmp(a->instance, b->instance);
    return c ? c : strcmp(a->options, b->options);
}

static int by_cell(const void *x, const void *y)
{
    const tagged *a = x, *b = y;
    int c = cell_cmp(a->r, b->r);
    return c ? c : a->order - b->order;
}

/* The output order: matrices by label, then dtype, each instance in the
 * order the part measured it. */
static int by_matrix(const void *x, const void *y)
{
    const tagged *a = x, *b = y;
    int c = strcmp(a->r->matrix, b->r->matrix);
    if (!c)
        c = strcmp(a->r->dtype, b->r->dtype);
    return c ? c : a->order - b->order;
}

/* Reads every part into all, checking schema and build. */
static int read_parts(char *const *parts, int n, run_rows *all, int **part_of, spmvlab_err *err)
{
    const char *commit = NULL, *version = NULL, *first = NULL;
    for (int p = 0; p < n; p++) {
        run_rows rows = {0};
        int same = 0;
        if (run_rows_read(parts[p], &rows, &same, err)) {
            free((void *)commit);
            free((void *)version);
            return -1;
        }
        if (!same) {
            run_rows_free(&rows);
            free((void *)commit);
            free((void *)version);
            return spmvlab_errf(err, "%s was written with other columns (another version of spmvlab); merge needs "
                                "the columns this version writes", parts[p]),
                   -1;
        }
        for (int i = 0; i < rows.n; i++) {
            const run_row *r = &rows.v[i];
            if (!commit) {
                commit = strdup(r->commit);
                version = strdup(r->version);
                first = parts[p];
            } else if (strcmp(commit, r->commit) != 0 || strcmp(version, r->version) != 0) {
                spmvlab_errf(err, "%s holds results of spmvlab %s at commit %s, but %s of %s at commit %s; merge "
                             "only results of one build", parts[p], r->version, r->commit[0] ? r->commit : "(none)",
                             first, version, commit[0] ? commit : "(none)");
                run_rows_free(&rows);
                free((void *)commit);
                free((void *)version);
                return -1;
            }
            int *g = realloc(*part_of, (size_t)(all->n + 1) * sizeof *g);
            if (!g || run_rows_push(all, r)) {
                if (g)
                    *part_of = g;
                run_rows_free(&rows);
                free((void *)commit);
                free((void *)version);
                return spmvlab_errf(err, "out of host memory merging %s", parts[p]), -1;
            }
            *part_of = g;
            g[all->n - 1] = p;
        }
        run_rows_free(&rows);
    }
    free((void *)commit);
    free((void *)version);
    return 0;
}

static int write_rows(const char *out, const tagged *t, int n, spmvlab_err *err)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.merge.%ld", out, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return spmvlab_errf(err, "cannot write %s", tmp), -1;
    run_csv_header(f);
    for (int i = 0; i < n; i++)
        run_csv_row(f, t[i].r);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, out) != 0) {
        unlink(tmp);
        return spmvlab_errf(err, "cannot write %s", out), -1;
    }
    return 0;
}

int merge_parts(const char *out, char *const *parts, int n, int print, int *nrows, spmvlab_err *err)
{
    run_rows all = {0};
    int *part_of = NULL, rc = -1;
    tagged *t = NULL;
    if (read_parts(parts, n, &all, &part_of, err))
        goto done;
    t = calloc((size_t)all.n + 1, sizeof *t);
    if (!t) {
        spmvlab_errf(err, "out of host memory");
        goto done;
    }
    for (int i = 0; i < all.n; i++)
        t[i] = (tagged){&all.v[i], part_of[i], i};
    qsort(t, (size_t)all.n, sizeof *t, by_cell);
    for (int i = 1; i < all.n; i++) {
        if (cell_cmp(t[i - 1].r, t[i].r) != 0)
            continue;
        const run_row *r = t[i].r;
        if (t[i - 1].part == t[i].part)
            spmvlab_errf(err, "%s holds the cell of matrix %s, instance %s, dtype %s twice", parts[t[i].part],
                         r->matrix, r->instance, r->dtype);
        else
            spmvlab_errf(err, "the cell of matrix %s, instance %s, dtype %s is in both %s and %s; each cell belongs "
                         "to one shard (was a part given twice, or parts of different shard counts?)",
                         r->matrix, r->instance, r->dtype, parts[t[i - 1].part], parts[t[i].part]);
        goto done;
    }
    qsort(t, (size_t)all.n, sizeof *t, by_matrix);
    if (write_rows(out, t, all.n, err))
        goto done;
    run_summary sum;
    uint64_t seed = all.n ? strtoull(all.v[0].seed, NULL, 10) : 1;
    if (summary_build(&all, "", seed, &sum)) {
        spmvlab_errf(err, "out of host memory for the summary");
        goto done;
    }
    char sp[4200];
    summary_path(out, sp, sizeof sp);
    if (print)
        summary_print(stdout, &sum);
    rc = summary_write_csv(sp, &sum, err);
    summary_free(&sum);
    if (nrows)
        *nrows = all.n;
done:
    free(t);
    free(part_of);
    run_rows_free(&all);
    return rc;
}
