/*
 * Helpers for the tests that run the spmvlab binary (SPMVLAB_HOST): run a
 * command and keep its output and exit status, and read the cells of a
 * results CSV (matrix|instance|dtype, sorted) to compare runs.
 */
#ifndef SPMVLAB_TEST_CLI_UTIL_H
#define SPMVLAB_TEST_CLI_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char cli_out[1 << 16];

#if defined(__GNUC__)
#define CLI_UNUSED __attribute__((unused))
#else
#define CLI_UNUSED
#endif

/* Runs "$SPMVLAB_HOST ARGS" (printf-style) with stdout and stderr in
 * cli_out; returns the exit status, or -1 when it could not run. */
CLI_UNUSED static int cli_run(const char *fmt, ...)
{
    char args[8192], cmd[9000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", getenv("SPMVLAB_HOST"), args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(cli_out, 1, sizeof cli_out - 1, p);
    cli_out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* One CSV record of f into fields (at most max, each up to 1 KiB);
 * returns the field count, 0 at the end. Quotes as RFC 4180. */
CLI_UNUSED static int csv_fields(FILE *f, char fields[][1024], int max)
{
    int n = 0, c, quoted = 0, any = 0;
    size_t len = 0;
    while ((c = fgetc(f)) != EOF) {
        any = 1;
        if (quoted) {
            if (c == '"') {
                int d = fgetc(f);
                if (d != '"') {
                    quoted = 0;
                    if (d != EOF)
                        ungetc(d, f);
                    continue;
                }
            }
        } else if (c == '"') {
            quoted = 1;
            continue;
        } else if (c == ',' || c == '\n') {
            if (n < max)
                fields[n++][len < 1023 ? len : 1023] = '\0';
            len = 0;
            if (c == '\n')
                return n;
            continue;
        }
        if (n < max && len < 1023)
            fields[n][len] = (char)c;
        len++;
    }
    if (any && n < max)
        fields[n++][len < 1023 ? len : 1023] = '\0';
    return n;
}

CLI_UNUSED static int key_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The cells of results CSV path as "matrix|instance|dtype" into keys
 * (malloc'd, sorted); returns their count, or -1 when unreadable. */
CLI_UNUSED static int csv_cells(const char *path, char **keys, int max)
{
    static char f[200][1024];
    FILE *in = fopen(path, "r");
    if (!in)
        return -1;
    int nf = csv_fields(in, f, 200), im = -1, ii = -1, id = -1, n = 0;
    for (int k = 0; k < nf; k++) {
        im = strcmp(f[k], "matrix") == 0 ? k : im;
        ii = strcmp(f[k], "instance") == 0 ? k : ii;
        id = strcmp(f[k], "dtype") == 0 ? k : id;
    }
    while (im >= 0 && ii >= 0 && id >= 0 && (nf = csv_fields(in, f, 200)) > 0 && n < max) {
        if (nf <= im || nf <= ii || nf <= id)
            continue;
        char buf[3200];
        snprintf(buf, sizeof buf, "%s|%s|%s", f[im], f[ii], f[id]);
        keys[n++] = strdup(buf);
    }
    fclose(in);
    qsort(keys, (size_t)n, sizeof *keys, key_cmp);
    return n;
}

CLI_UNUSED static void cells_free_all(char **keys, int n)
{
    for (int i = 0; i < n; i++)
        free(keys[i]);
}

#endif
