/* One CSV and summary from the parts of a sharded run; see merge.h. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "merge.h"
#include "origin.h"
#include "summary.h"

/* A row and the part it came from, for the duplicate check. */
typedef struct tagged {
    const run_row *r;
    int part;
    int order;
} tagged;

static int by_cell(const void *x, const void *y)
{
    const tagged *a = x, *b = y;
    int c = origin_cell_cmp(a->r, b->r);
    return c ? c : a->order - b->order;
}

static int by_cell_only(const void *x, const void *y)
{
    return origin_cell_cmp(((const tagged *)x)->r, ((const tagged *)y)->r);
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

/* Reads every part into all, checking schema, build, device and options. */
static int read_parts(char *const *parts, int n, run_rows *all, int **part_of, spmvlab_err *err)
{
    run_origin origin;
    origin_init(&origin);
    for (int p = 0; p < n; p++) {
        run_rows rows = {0};
        int same = 0;
        if (run_rows_read(parts[p], &rows, &same, err))
            goto fail;
        if (!same) {
            spmvlab_errf(err, "%s was written with other columns (another version of spmvlab); merge needs the "
                         "columns this version writes", parts[p]);
            goto fail_rows;
        }
        if (origin_check_rows(&origin, &rows, parts[p], err))
            goto fail_rows;
        for (int i = 0; i < rows.n; i++) {
            int *g = realloc(*part_of, (size_t)(all->n + 1) * sizeof *g);
            if (g)
                *part_of = g;
            if (!g || run_rows_push(all, &rows.v[i])) {
                spmvlab_errf(err, "out of host memory merging %s", parts[p]);
                goto fail_rows;
            }
            g[all->n - 1] = p;
        }
        run_rows_free(&rows);
        continue;
    fail_rows:
        run_rows_free(&rows);
        goto fail;
    }
    origin_free(&origin);
    return 0;
fail:
    origin_free(&origin);
    return -1;
}

/* The path as an absolute name, its folder resolved (the file itself may
 * not exist yet); the path itself when the folder does not resolve. */
static void canonical(const char *path, char *out, size_t len)
{
    char dir[4096], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (slash == path)
        snprintf(dir, sizeof dir, "/");
    if (realpath(dir, real))
        snprintf(out, len, "%s/%s", real, slash ? slash + 1 : path);
    else
        snprintf(out, len, "%s", path);
}

/* Refuses an output that is one of the parts: the same file (device and
 * inode) or, when it does not exist yet, the same path. */
static int output_is_no_part(const char *out, char *const *parts, int n, spmvlab_err *err)
{
    struct stat so, sp;
    int exists = stat(out, &so) == 0;
    char co[PATH_MAX + 8], cp[PATH_MAX + 8];
    canonical(out, co, sizeof co);
    for (int p = 0; p < n; p++) {
        int same = exists ? stat(parts[p], &sp) == 0 && sp.st_dev == so.st_dev && sp.st_ino == so.st_ino
                          : (canonical(parts[p], cp, sizeof cp), strcmp(co, cp) == 0);
        if (same)
            return spmvlab_errf(err, "the output %s is also a part to merge (%s); name a new file first, as in "
                                "spmvlab merge OUT.csv PARTS.csv", out, parts[p]),
                   -1;
    }
    return 0;
}

/* Refuses to replace an existing results file that holds a cell none of
 * the parts has (t: the parts' rows, sorted by cell): such a file is a part
 * itself, named where the output belongs. A file that is not results is
 * replaced. */
static int output_loses_no_cell(const char *out, const tagged *t, int n, spmvlab_err *err)
{
    run_rows old = {0};
    spmvlab_err ignored;
    if (access(out, F_OK) != 0 || run_rows_read(out, &old, NULL, &ignored) != 0)
        return 0;
    int lost = 0;
    const run_row *first = NULL;
    for (int i = 0; i < old.n; i++) {
        tagged key = {&old.v[i], 0, 0};
        if (!bsearch(&key, t, (size_t)n, sizeof *t, by_cell_only) && lost++ == 0)
            first = &old.v[i];
    }
    if (lost)
        spmvlab_errf(err, "%s already holds %d cells that none of the parts has (matrix %s, instance %s, dtype %s "
                     "first); it looks like a part named where the output belongs: name a new output file, as in "
                     "spmvlab merge OUT.csv PARTS.csv", out, lost, first->matrix, first->instance, first->dtype);
    run_rows_free(&old);
    return lost ? -1 : 0;
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

int merge_parts(const char *out, char *const *parts, int n, int flags, int *nrows, spmvlab_err *err)
{
    run_rows all = {0};
    int *part_of = NULL, rc = -1;
    tagged *t = NULL;
    if (output_is_no_part(out, parts, n, err) || read_parts(parts, n, &all, &part_of, err))
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
        if (origin_cell_cmp(t[i - 1].r, t[i].r) != 0)
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
    if ((flags & MERGE_NEW_OUTPUT) && output_loses_no_cell(out, t, all.n, err))
        goto done;
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
    if (flags & MERGE_PRINT)
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
