/*
 * Matrix arguments as users hold collections; see collect.h. A folder is
 * walked three levels deep, which covers the ssget layout
 * (MM/Group/Name/Name.mtx): a folder named Name that holds Name.mtx gives
 * that file alone (Name_b.mtx and the other side files are not matrices to
 * measure), and an archive Name.tar.gz beside an unpacked Name/ is skipped.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collect.h"
#include "spmvlab/core.h"

#define DEPTH 3

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

static int is_matrix_name(const char *s)
{
    return ends_with(s, ".mtx") || ends_with(s, ".mtx.gz") || ends_with(s, ".tar.gz");
}

static int is_list_name(const char *s) { return ends_with(s, ".txt") || ends_with(s, ".list"); }

static int push(char ***paths, int *n, const char *p, spmvlab_err *err)
{
    char **g = realloc(*paths, (size_t)(*n + 1) * sizeof *g);
    if (!g || !(g[*n] = strdup(p))) {
        if (g)
            *paths = g;
        return spmvlab_errf(err, "out of host memory"), -1;
    }
    *paths = g;
    (*n)++;
    return 0;
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The matrices of folder folder and of its folders down to depth levels. */
static int walk(const char *folder, int depth, char ***paths, int *n, spmvlab_err *err)
{
    /* "data/" and "data" are one folder: its files are data/NAME, never data//NAME. */
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", folder);
    for (size_t len = strlen(dir); len > 1 && dir[len - 1] == '/';)
        dir[--len] = '\0';
    DIR *d = opendir(dir);
    if (!d)
        return spmvlab_errf(err, "cannot read folder %s", dir), -1;
    char **names = NULL;
    int nn = 0, rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)))
        if (e->d_name[0] != '.')
            rc = push(&names, &nn, e->d_name, err);
    closedir(d);
    if (nn)
        qsort(names, (size_t)nn, sizeof *names, str_cmp);
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    char own[4200] = "";
    for (int i = 0; i < nn; i++) {
        char stem[4200];
        snprintf(stem, sizeof stem, "%s", names[i]);
        char *dot = strstr(stem, ".mtx");
        if (dot && strcmp(dot, ".mtx") != 0 && strcmp(dot, ".mtx.gz") != 0)
            dot = NULL;
        if (dot && (*dot = '\0', strcmp(stem, base) == 0))
            snprintf(own, sizeof own, "%s", names[i]);
    }
    for (int i = 0; rc == 0 && i < nn; i++) {
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (is_dir(p)) {
            if (depth > 0)
                rc = walk(p, depth - 1, paths, n, err) < 0 ? -1 : 0;
            continue;
        }
        if (!is_matrix_name(names[i]) || (own[0] && strcmp(names[i], own) != 0))
            continue;
        if (ends_with(p, ".tar.gz")) {
            char unpacked[4400];
            snprintf(unpacked, sizeof unpacked, "%.*s", (int)(strlen(p) - 7), p);
            if (is_dir(unpacked))
                continue;
        }
        rc = push(paths, n, p, err);
    }
    for (int i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* One line of a list file: a path or Group/Name, tried as given, then with
 * the matrix endings; relative entries against the list's folder first. */
static int list_entry(const char *list, int line, const char *entry, char ***paths, int *n, spmvlab_err *err)
{
    static const char *const endings[] = {"", ".mtx", ".mtx.gz", ".tar.gz"};
    char bases[2][4200];
    int nb = 0;
    const char *slash = strrchr(list, '/');
    /* Paths too long for the buffers are skipped, never cut. */
    if (entry[0] != '/' && slash &&
        snprintf(bases[nb], sizeof bases[0], "%.*s/%s", (int)(slash - list), list, entry) < (int)sizeof bases[0])
        nb++;
    if (snprintf(bases[nb], sizeof bases[0], "%s", entry) < (int)sizeof bases[0])
        nb++;
    for (int b = 0; b < nb; b++)
        for (size_t k = 0; k < sizeof endings / sizeof *endings; k++) {
            char p[4300];
            struct stat st;
            if (snprintf(p, sizeof p, "%s%s", bases[b], endings[k]) >= (int)sizeof p || stat(p, &st) != 0)
                continue;
            if (S_ISDIR(st.st_mode))
                return walk(p, DEPTH, paths, n, err);
            return push(paths, n, p, err);
        }
    return spmvlab_errf(err, "%s line %d: '%s' names no matrix file, folder or archive (tried it as given and "
                        "with .mtx, .mtx.gz and .tar.gz)", list, line, entry),
           -1;
}

static int read_list(const char *list, char ***paths, int *n, spmvlab_err *err)
{
    FILE *f = fopen(list, "r");
    if (!f)
        return spmvlab_errf(err, "cannot read list %s", list), -1;
    char buf[4200];
    int line = 0, rc = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        char *s = buf, *e = buf + strcspn(buf, "\r\n");
        *e = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        if (*s && *s != '#' && *s != '%')
            rc = list_entry(list, line, s, paths, n, err);
    }
    fclose(f);
    return rc;
}

int collect_inputs(const char *arg, char ***paths, int *n, spmvlab_err *err)
{
    struct stat st;
    int first = *n;
    if (stat(arg, &st) != 0)
        return spmvlab_errf(err, "matrix file or folder %s does not exist", arg), -1;
    if (S_ISDIR(st.st_mode)) {
        if (walk(arg, DEPTH, paths, n, err))
            return -1;
    } else if (is_list_name(arg)) {
        if (read_list(arg, paths, n, err))
            return -1;
    } else if (push(paths, n, arg, err)) {
        return -1;
    }
    return *n - first;
}

void free_paths(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}
