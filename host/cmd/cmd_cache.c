/*
 * spmvlab cache list|clear: the binary matrix cache's entries (most
 * recently used first, with sizes and the cap) and their removal. The
 * cache lives in its own folder (spmvlab/cache.h), never beside inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "host_options.h"
#include "spmvlab/cache.h"
#include "spmvlab/core.h"

static const char intro[] =
    "usage: spmvlab cache list|clear\n"
    "  list    the binary CSR entries, most recently used first, and the size cap\n"
    "  clear   remove every entry and generated matrix of the cache folder\n"
    "The folder: $SPMVLAB_CACHE_DIR, else $XDG_CACHE_HOME/spmvlab, else ~/.cache/spmvlab.\n"
    "The cap: $SPMVLAB_CACHE_LIMIT (e.g. 20G; 0: none; default 16G); the least recently\n"
    "used entries go first. SPMVLAB_NO_CACHE=1 neither reads nor writes entries.\n";

static const char *mib(double bytes, char *buf, size_t len)
{
    snprintf(buf, len, "%.1f MiB", bytes / (1024.0 * 1024.0));
    return buf;
}

static int list(void)
{
    char dir[4096], a[32], b[32];
    spmvlab_err err;
    spmvlab_cache_entry *v;
    int n;
    uint64_t total;
    if (spmvlab_cache_dir(dir, sizeof dir, 0, &err) || spmvlab_cache_list(&v, &n, &total, &err)) {
        fprintf(stderr, "spmvlab cache: %s.\n", err.msg);
        return EXIT_FAILED;
    }
    printf("cache folder: %s\n", dir);
    for (int i = 0; i < n; i++) {
        time_t t = (time_t)v[i].last_used;
        char when[32];
        strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime(&t));
        printf("  %s  %12s  %s\n", when, mib((double)v[i].bytes, a, sizeof a), v[i].path);
    }
    uint64_t cap = spmvlab_cache_limit();
    printf("%d entries, %s; cap %s\n", n, mib((double)total, a, sizeof a),
           cap ? mib((double)cap, b, sizeof b) : "none");
    free(v);
    return EXIT_OK;
}

/* The action named by the one operand. */
static int run_action(const char *action)
{
    if (strcmp(action, "list") == 0)
        return list();
    if (strcmp(action, "clear") != 0) {
        static const char *const actions[] = {"list", "clear"};
        char hint[96];
        spmvlab_did_you_mean(action, actions, 2, hint, sizeof hint);
        fprintf(stderr, "spmvlab cache: unknown action '%s'%s; use list or clear.\n", action, hint);
        return EXIT_USAGE;
    }
    int files;
    uint64_t bytes;
    char a[32];
    spmvlab_err err;
    if (spmvlab_cache_clear(&files, &bytes, &err)) {
        fprintf(stderr, "spmvlab cache: %s.\n", err.msg);
        return EXIT_FAILED;
    }
    printf("removed %d files, %s\n", files, mib((double)bytes, a, sizeof a));
    return EXIT_OK;
}

int cmd_cache(int argc, char **argv)
{
    spmvlab_flags f;
    host_options_init(&f, HOST_CACHE, "spmvlab cache");
    int rc = host_options_read(&f, argc, argv, intro);
    if (!rc && f.noperands != 1) {
        fputs(intro, stderr);
        rc = -1;
    }
    rc = rc ? (rc > 0 ? EXIT_OK : EXIT_USAGE) : run_action(f.operands[0]);
    spmvlab_flags_free(&f);
    return rc;
}
