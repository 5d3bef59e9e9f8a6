/* report --instances / --matrices; see report_filter.h. */
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "report_filter.h"

const char *report_next_item(const char *s, char *out, size_t len)
{
    while (*s == ',' || *s == ' ')
        s++;
    if (!*s)
        return NULL;
    size_t n = strcspn(s, ",");
    snprintf(out, len, "%.*s", (int)n, s);
    for (size_t e = strlen(out); e > 0 && out[e - 1] == ' '; e--)
        out[e - 1] = '\0';
    return s + n;
}

/* 1 when name matches one pattern of list. */
static int matches(const char *list, const char *name)
{
    char pat[512];
    for (const char *p = list; (p = report_next_item(p, pat, sizeof pat));)
        if (fnmatch(pat, name, 0) == 0)
            return 1;
    return 0;
}

/* The field the filter of option which looks at. */
static const char *field_of(const run_row *r, int which) { return which ? r->matrix : r->instance; }

/* 1 with the first pattern of list that matches no row in out, else 0. */
static int unmatched(const run_rows *rows, const char *list, int which, char *out, size_t len)
{
    char pat[512];
    for (const char *p = list; (p = report_next_item(p, pat, sizeof pat));) {
        int hit = 0;
        for (int i = 0; i < rows->n && !hit; i++)
            hit = fnmatch(pat, field_of(&rows->v[i], which), 0) == 0;
        if (!hit) {
            snprintf(out, len, "%s", pat);
            return 1;
        }
    }
    return 0;
}

int report_filter_rows(run_rows *rows, const char *instances, const char *matrices, spmvlab_err *err)
{
    const char *lists[2] = {instances, matrices}, *opts[2] = {"--instances", "--matrices"},
               *what[2] = {"instance", "matrix"};
    char pat[512];
    for (int w = 0; w < 2; w++)
        if (lists[w] && lists[w][0] && unmatched(rows, lists[w], w, pat, sizeof pat))
            return spmvlab_errf(err, "%s: '%s' matches no %s of these rows", opts[w], pat, what[w]), -1;
    int kept = 0;
    for (int i = 0; i < rows->n; i++) {
        run_row *r = &rows->v[i];
        int keep = 1;
        for (int w = 0; w < 2 && keep; w++)
            keep = !lists[w] || !lists[w][0] || matches(lists[w], field_of(r, w));
        if (keep)
            rows->v[kept++] = *r;
        else
            run_row_clear(r);
    }
    rows->n = kept;
    if (!kept)
        return spmvlab_errf(err, "--instances and --matrices together keep no row"), -1;
    return 0;
}
