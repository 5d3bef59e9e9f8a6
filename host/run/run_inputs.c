/* Matrix files and resumed cells; see run_inputs.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect.h"
#include "run_inputs.h"
#include "run_order.h"
#include "shard.h"
#include "spmvlab/gen.h"

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return strcmp(a, b) == 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int push_path(char ***paths, int *npaths, const char *p)
{
    char **g = realloc(*paths, (size_t)(*npaths + 1) * sizeof *g);
    if (!g)
        return -1;
    *paths = g;
    g[*npaths] = strdup(p);
    if (!g[*npaths])
        return -1;
    (*npaths)++;
    return 0;
}

static void say(const run_settings *s, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: %s.\n", s->prog, msg);
}

int inputs_gather(const run_settings *s, char ***paths, int *npaths, spmvlab_err *err)
{
    for (int i = 0; i < s->nmatrix_args; i++) {
        int got = collect_inputs(s->matrix_args[i], paths, npaths, err);
        if (got < 0)
            return -1;
        if (got == 0)
            return spmvlab_errf(err, "%s holds no .mtx, .mtx.gz or .tar.gz files", s->matrix_args[i]), -1;
    }
    if (s->part >= 0 && s->nset_names == 0)
        return spmvlab_errf(err, "--part %s keeps members of a matrix set, and no set is named (--matrix-set NAME)",
                            spmvlab_part_name((spmvlab_part)s->part)), -1;
    for (int i = 0; i < s->nset_names; i++) {
        spmvlab_set set;
        spmvlab_err why;
        if (spmvlab_set_load(s->set_names[i], &set, &why))
            return spmvlab_errf(err, "matrix set %s: %s", s->set_names[i], why.msg), -1;
        if (s->part >= 0)
            spmvlab_set_keep_part(&set, (spmvlab_part)s->part);
        for (int e = 0; e < set.count; e++) {
            if (isatty(STDERR_FILENO))
                fprintf(stderr, "\r\033[Kpreparing set %s: %d/%d %s", set.name, e + 1, set.count, set.entries[e].name);
            char p[SPMVLAB_PATH_LEN];
            int rc = spmvlab_set_materialize(&set, e, p, sizeof p, &why);
            if (isatty(STDERR_FILENO))
                fputs("\r\033[K", stderr);
            if (rc == 1) {
                say(s, "set %s: skipping %s: %s", set.name, set.entries[e].name, why.msg);
                continue;
            }
            if (rc < 0 || push_path(paths, npaths, p)) {
                spmvlab_errf(err, "matrix set %s: %s", set.name, rc < 0 ? why.msg : "out of host memory");
                spmvlab_set_free(&set);
                return -1;
            }
        }
        spmvlab_set_free(&set);
    }
    /* The same file twice runs once; two files with one label are refused,
     * since results are keyed by the label. */
    for (int i = 0; i < *npaths; i++) {
        char li[256];
        spmvlab_matrix_label((*paths)[i], li, sizeof li);
        for (int j = 0; j < i; j++) {
            char lj[256];
            spmvlab_matrix_label((*paths)[j], lj, sizeof lj);
            if (strcmp(li, lj) != 0)
                continue;
            if (!same_file((*paths)[i], (*paths)[j]))
                return spmvlab_errf(err, "matrices %s and %s share the label '%s'; results are keyed by it",
                                    (*paths)[j], (*paths)[i], li),
                       -1;
            free((*paths)[i]);
            memmove((*paths) + i, (*paths) + i + 1, (size_t)(*npaths - i - 1) * sizeof *(*paths));
            (*npaths)--;
            i--;
            break;
        }
    }
    /* A shard keeps the matrices with a cell of its own. */
    int kept = 0;
    for (int i = 0; i < *npaths; i++) {
        char label[256], ordered[300];
        spmvlab_matrix_label((*paths)[i], label, sizeof label);
        int mine = 0;
        for (int o = 0; o < run_order_count(s); o++) {
            run_order_label(label, run_order_at(s, o), ordered, sizeof ordered);
            for (int d = 0; d < s->ndtypes; d++)
                mine |= shard_owns(s->shard_index, s->shard_count, ordered, s->dtypes[d]);
        }
        if (mine)
            (*paths)[kept++] = (*paths)[i];
        else
            free((*paths)[i]);
    }
    *npaths = kept;
    return 0;
}

void inputs_each_cell(const run_settings *s, char *const *paths, int npaths,
                      void (*fn)(void *arg, const char *matrix, spmvlab_dtype d), void *arg)
{
    for (int i = 0; i < npaths; i++) {
        char label[256], ordered[300];
        spmvlab_matrix_label(paths[i], label, sizeof label);
        for (int o = 0; o < run_order_count(s); o++) {
            run_order_label(label, run_order_at(s, o), ordered, sizeof ordered);
            for (int d = 0; d < s->ndtypes; d++)
                if (shard_owns(s->shard_index, s->shard_count, ordered, s->dtypes[d]))
                    fn(arg, ordered, s->dtypes[d]);
        }
    }
}

/* inputs_each_cell's counter. */
static void count_cell(void *arg, const char *matrix, spmvlab_dtype d)
{
    (void)matrix;
    (void)d;
    ++*(long *)arg;
}

long inputs_cells(const run_settings *s, char *const *paths, int npaths, int nspecs)
{
    long cells = 0;
    inputs_each_cell(s, paths, npaths, count_cell, &cells);
    return cells * nspecs;
}

static char *cell_key(const char *matrix, const char *instance, const char *dtype, const char *options)
{
    size_t n = strlen(matrix) + strlen(instance) + strlen(dtype) + strlen(options) + 4;
    char *k = malloc(n);
    if (k)
        snprintf(k, n, "%s\x1f%s\x1f%s\x1f%s", matrix, instance, dtype, options);
    return k;
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int cells_load(run_cells *c, const run_rows *rows, spmvlab_err *err)
{
    c->n = 0;
    c->keys = calloc((size_t)rows->n + 1, sizeof *c->keys);
    if (!c->keys)
        return spmvlab_errf(err, "out of host memory"), -1;
    for (int i = 0; i < rows->n; i++) {
        const run_row *r = &rows->v[i];
        if (!(c->keys[c->n] = cell_key(r->matrix, r->instance, r->dtype, r->options)))
            return spmvlab_errf(err, "out of host memory"), -1;
        c->n++;
    }
    qsort(c->keys, (size_t)c->n, sizeof *c->keys, str_cmp);
    return 0;
}

int cells_has(const run_cells *c, const char *matrix, const spmvlab_instance_spec *sp, spmvlab_dtype d)
{
    if (!c->n)
        return 0;
    char *k = cell_key(matrix, sp->label, spmvlab_dtype_name(d), sp->options_text);
    int found = k && bsearch(&k, c->keys, (size_t)c->n, sizeof *c->keys, str_cmp) != NULL;
    if (k && sp->selector) { /* its rows hold the options it chose: any options match */
        int lo = 0, hi = c->n;
        while (lo < hi) { /* the first key not below k, the key with no options */
            int mid = lo + (hi - lo) / 2;
            if (strcmp(c->keys[mid], k) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        found = lo < c->n && strncmp(c->keys[lo], k, strlen(k)) == 0;
    }
    free(k);
    return found;
}

int cells_has_input(const run_cells *c, const char *matrix, spmvlab_dtype d)
{
    static const spmvlab_instance_spec none; /* an input's row has no instance and no options */
    return cells_has(c, matrix, &none, d);
}

void cells_free(run_cells *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->keys[i]);
    free(c->keys);
    c->keys = NULL;
    c->n = 0;
}
