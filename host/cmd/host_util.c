/* Helpers shared by the commands: matrix loading and collection, sorting. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "host_util.h"
#include "run_status.h"
#include "spmvlab/cache.h"

int load_matrix(const char *path, spmvlab_csr *A, spmvlab_err *err)
{
    return spmvlab_matrix_load(path, A, err);
}

static const spmvlab_loaded *sorted[256];
static int nsorted;

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const spmvlab_loaded *const *)a)->desc->name, (*(const spmvlab_loaded *const *)b)->desc->name);
}

void sort_loaded_by_name(spmvlab_registry *reg)
{
    nsorted = spmvlab_registry_count(reg);
    for (int i = 0; i < nsorted; i++)
        sorted[i] = spmvlab_registry_at(reg, i);
    qsort(sorted, (size_t)nsorted, sizeof *sorted, by_name);
}

const spmvlab_loaded *loaded_sorted(spmvlab_registry *reg, int i)
{
    (void)reg;
    return i < nsorted ? sorted[i] : NULL;
}

static int is_matrix_name(const char *s)
{
    size_t n = strlen(s);
    return (n > 4 && strcmp(s + n - 4, ".mtx") == 0) || (n > 7 && strcmp(s + n - 7, ".mtx.gz") == 0);
}

static int push(char ***paths, int *n, const char *p)
{
    char **g = realloc(*paths, (size_t)(*n + 1) * sizeof *g);
    if (!g)
        return -1;
    *paths = g;
    g[*n] = strdup(p);
    if (!g[*n])
        return -1;
    (*n)++;
    return 0;
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int collect_matrices(const char *arg, char ***paths, int *n, spmvlab_err *err)
{
    struct stat st;
    if (stat(arg, &st) != 0)
        return spmvlab_errf(err, "matrix file or folder %s does not exist", arg), -1;
    if (!S_ISDIR(st.st_mode))
        return push(paths, n, arg) ? (spmvlab_errf(err, "out of host memory"), -1) : 1;
    DIR *d = opendir(arg);
    if (!d)
        return spmvlab_errf(err, "cannot read folder %s", arg), -1;
    int first = *n;
    struct dirent *e;
    while ((e = readdir(d)))
        if (is_matrix_name(e->d_name)) {
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", arg, e->d_name);
            if (push(paths, n, p)) {
                closedir(d);
                return spmvlab_errf(err, "out of host memory"), -1;
            }
        }
    closedir(d);
    qsort(*paths + first, (size_t)(*n - first), sizeof **paths, str_cmp);
    return *n - first;
}

void free_paths(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

int rows_exit_code(const run_rows *rows)
{
    for (int i = 0; i < rows->n; i++)
        if (run_status_is_failure(run_status_outcome(rows->v[i].status)))
            return EXIT_FAILED;
    return EXIT_OK;
}
