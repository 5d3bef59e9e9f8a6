/* Outputs written beside their names and renamed at the end; see output_file.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output_file.h"
#include "origin.h"

void output_partial(const char *path, char *out, size_t len) { snprintf(out, len, "%s.partial", path); }

/* 1 when path exists and holds something. */
static int nonempty(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && sb.st_size > 0;
}

/* Reads the rows of path, refusing a file of other columns. */
static int read_same_columns(const char *path, run_rows *rows, spmvlab_err *err)
{
    int same = 0;
    if (run_rows_read(path, rows, &same, err))
        return -1;
    if (!same)
        return spmvlab_errf(err, "%s was written with other columns (another version of spmvlab); resume needs the "
                            "same", path),
               -1;
    return 0;
}

static int by_cell(const void *x, const void *y)
{
    return origin_cell_cmp(*(run_row *const *)x, *(run_row *const *)y);
}

/* Appends to rows those of extra whose cell rows lacks; counts them in *added. */
static int add_new_cells(run_rows *rows, const run_rows *extra, int *added)
{
    int n = rows->n, rc = 0;
    run_row **sorted = malloc(((size_t)n + 1) * sizeof *sorted);
    char *fresh = calloc((size_t)extra->n + 1, 1);
    if (!sorted || !fresh) {
        free(sorted);
        free(fresh);
        return -1;
    }
    for (int i = 0; i < n; i++)
        sorted[i] = &rows->v[i];
    qsort(sorted, (size_t)n, sizeof *sorted, by_cell);
    for (int i = 0; i < extra->n; i++) {
        const run_row *r = &extra->v[i];
        fresh[i] = bsearch(&r, sorted, (size_t)n, sizeof *sorted, by_cell) == NULL;
    }
    free(sorted); /* pushing may move rows->v, so the pointers go first */
    *added = 0;
    for (int i = 0; i < extra->n && !rc; i++)
        if (fresh[i] && !(rc = run_rows_push(rows, &extra->v[i])))
            ++*added;
    free(fresh);
    return rc;
}

int resume_rows_read(const char *path, run_rows *rows, int *partial_rows, spmvlab_err *err)
{
    char pp[4200];
    output_partial(path, pp, sizeof pp);
    *partial_rows = -1;
    if (nonempty(path) && read_same_columns(path, rows, err))
        return -1;
    if (!nonempty(pp))
        return 0;
    run_rows extra = {0};
    if (read_same_columns(pp, &extra, err))
        return -1;
    int rc = add_new_cells(rows, &extra, partial_rows);
    run_rows_free(&extra);
    if (rc)
        return spmvlab_errf(err, "out of host memory reading %s", pp), -1;
    return 0;
}

/* Writes the header and kept's rows to a new file and renames it onto
 * path, so path is never half written; the sentence names the user's
 * file (name), not the files beside it. */
static int write_whole(const char *path, const char *name, const run_rows *kept, spmvlab_err *err)
{
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return spmvlab_errf(err, "cannot write %s: %s", name, strerror(errno)), -1;
    run_csv_header(f);
    for (int i = 0; kept && i < kept->n; i++)
        run_csv_row(f, &kept->v[i]);
    int bad = fflush(f) != 0 || ferror(f);
    bad |= fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        spmvlab_errf(err, "cannot write %s: %s", name, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int csv_partial_unused(const char *path, spmvlab_err *err)
{
    char pp[4200];
    output_partial(path, pp, sizeof pp);
    if (!nonempty(pp))
        return 0;
    run_rows left = {0};
    int rows = run_rows_read(pp, &left, NULL, err) == 0 ? left.n : 1;
    run_rows_free(&left);
    if (rows > 0)
        return spmvlab_errf(err, "%s holds rows of an interrupted run; continue it with --resume %s, or remove "
                            "%s to start afresh", pp, path, pp),
               -1;
    return 0;
}

FILE *csv_begin(const char *path, const run_rows *kept, spmvlab_err *err)
{
    char pp[4200];
    output_partial(path, pp, sizeof pp);
    if (write_whole(pp, path, kept, err))
        return NULL;
    FILE *f = fopen(pp, "a");
    if (!f)
        spmvlab_errf(err, "cannot write %s: %s", path, strerror(errno));
    return f;
}

FILE *output_begin(const char *path, spmvlab_err *err)
{
    char pp[4200];
    output_partial(path, pp, sizeof pp);
    FILE *f = fopen(pp, "w");
    if (!f)
        spmvlab_errf(err, "cannot write %s: %s", path, strerror(errno));
    return f;
}

int outputs_commit(const char *const *paths, int n, spmvlab_err *err)
{
    for (int i = 0; i < n; i++) {
        if (!paths[i] || !paths[i][0])
            continue;
        char pp[4200];
        output_partial(paths[i], pp, sizeof pp);
        if (rename(pp, paths[i]) != 0)
            return spmvlab_errf(err, "cannot rename %s onto %s: %s", pp, paths[i], strerror(errno)), -1;
    }
    return 0;
}
