/* The ceilings' cache entries, one small text file per device key; see ceilings.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "spmvlab/cache.h"
#include "spmvlab/ceilings.h"

/* The rates an entry holds, by name, in the order they are written. */
static const struct {
    const char *name;
    size_t offset;
} rates[] = {
    {"dram_gbs", offsetof(spmvlab_ceilings, dram_gbs)},
    {"l2_gbs", offsetof(spmvlab_ceilings, l2_gbs)},
    {"gather_l2_gps", offsetof(spmvlab_ceilings, gather_l2_gps)},
    {"gather_dram_gps", offsetof(spmvlab_ceilings, gather_dram_gps)},
    {"launch_us", offsetof(spmvlab_ceilings, launch_us)},
    {"replay_us", offsetof(spmvlab_ceilings, replay_us)},
    {"l2_bytes", offsetof(spmvlab_ceilings, l2_bytes)},
};
enum { NRATES = sizeof rates / sizeof *rates };

static double *rate_at(spmvlab_ceilings *c, int i) { return (double *)((char *)c + rates[i].offset); }

void spmvlab_ceilings_clear(spmvlab_ceilings *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < NRATES; i++)
        *rate_at(c, i) = NAN;
}

int spmvlab_ceilings_path(const char *key, char *out, size_t len, int create, spmvlab_err *err)
{
    char dir[4096];
    if (spmvlab_cache_dir(dir, sizeof dir, create, err))
        return -1;
    char name[256];
    snprintf(name, sizeof name, "%s", key);
    for (char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-')
            *p = '_';
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/ceilings", dir);
    if (create && mkdir(sub, 0755) != 0 && errno != EEXIST) {
        spmvlab_errf(err, "cannot create the ceilings folder %s: %s", sub, strerror(errno));
        return -1;
    }
    if (snprintf(out, len, "%s/%s.txt", sub, name) >= (int)len) {
        spmvlab_errf(err, "the ceilings entry path under %s is too long", sub);
        return -1;
    }
    return 0;
}

int spmvlab_ceilings_write(const char *path, const spmvlab_ceilings *c, spmvlab_err *err)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        spmvlab_errf(err, "cannot write the ceilings entry %s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "key %s\nsource %s\n", c->key, c->source);
    for (int i = 0; i < NRATES; i++)
        fprintf(f, "%s %.17g\n", rates[i].name, *rate_at((spmvlab_ceilings *)c, i));
    if (fclose(f) != 0) {
        spmvlab_errf(err, "cannot write the ceilings entry %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int spmvlab_ceilings_read(const char *path, const char *key, spmvlab_ceilings *c, spmvlab_err *err)
{
    spmvlab_ceilings_clear(c);
    FILE *f = fopen(path, "r");
    if (!f) {
        spmvlab_errf(err, "no ceilings entry %s: %s", path, strerror(errno));
        return -1;
    }
    char line[512];
    int seen = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *val = strchr(line, ' ');
        if (!val)
            continue;
        *val++ = '\0';
        if (strcmp(line, "key") == 0)
            snprintf(c->key, sizeof c->key, "%s", val);
        else if (strcmp(line, "source") == 0)
            snprintf(c->source, sizeof c->source, "%s", val);
        for (int i = 0; i < NRATES; i++)
            if (strcmp(line, rates[i].name) == 0) {
                *rate_at(c, i) = strtod(val, NULL);
                seen |= 1 << i;
            }
    }
    fclose(f);
    if (strcmp(c->key, key) != 0) {
        spmvlab_errf(err, "the ceilings entry %s is for \"%s\", not \"%s\"", path, c->key, key);
        return -1;
    }
    if (seen != (1 << NRATES) - 1) {
        spmvlab_errf(err, "the ceilings entry %s lacks some rates", path);
        return -1;
    }
    return 0;
}

int spmvlab_ceilings_get(spmvlab_runtime *rt, int remeasure, spmvlab_ceilings *c, spmvlab_err *err)
{
    char key[256], path[4400];
    spmvlab_ceilings_clear(c);
    if (spmvlab_ceilings_key(rt, key, sizeof key, err))
        return -1;
    spmvlab_err ignored;
    int have_path = spmvlab_ceilings_path(key, path, sizeof path, 1, &ignored) == 0;
    if (!remeasure && have_path && spmvlab_ceilings_read(path, key, c, &ignored) == 0) {
        char date[sizeof c->source];
        memcpy(date, c->source, sizeof date);
        char *space = strchr(date, ' ');
        snprintf(c->source, sizeof c->source, "cached %.80s", space ? space + 1 : date);
        return 0;
    }
    if (spmvlab_ceilings_measure(rt, c, err))
        return -1;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(c->source, sizeof c->source, "measured %s", date);
    if (have_path)
        spmvlab_ceilings_write(path, c, &ignored);
    return 0;
}
