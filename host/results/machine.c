/* Run metadata and the bandwidth peak; see machine.h. */
#include <cuda_runtime_api.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_commit.h"
#include "machine.h"
#include "spmvlab/bandwidth.h"
#include "spmvlab/cache.h"

#ifndef SPMVLAB_VERSION
#define SPMVLAB_VERSION "0"
#endif

/* The commit: $SPMVLAB_COMMIT when set, else the commit the program was
 * built from (with "-dirty" for local changes to tracked files), which git
 * gave at build time (build_commit.h): the source tree may have moved on
 * since, or be a copy without its history. */
static void find_commit(char *out, size_t len)
{
    const char *env = getenv("SPMVLAB_COMMIT");
    snprintf(out, len, "%s", env && env[0] ? env : SPMVLAB_BUILD_COMMIT);
}

void run_meta_init(run_meta *m, const char *command)
{
    memset(m, 0, sizeof *m);
    snprintf(m->device, sizeof m->device, "cpu");
    m->l2_bytes = m->mem_bytes = m->sm_count = NAN;
    m->peak_gbs = m->peak_median_gbs = NAN;
    spmvlab_ceilings_clear(&m->ceilings);
    snprintf(m->peak_source, sizeof m->peak_source, "no GPU");
    snprintf(m->version, sizeof m->version, "%s", SPMVLAB_VERSION);
    snprintf(m->command, sizeof m->command, "%s", command);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    find_commit(m->commit, sizeof m->commit);
    int rv = CUDART_VERSION;
    snprintf(m->cuda_runtime, sizeof m->cuda_runtime, "%d.%d", rv / 1000, rv % 1000 / 10);
}

/* "570.86.15" from /proc/driver/nvidia/version, or "". */
static void kernel_driver(char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return;
    char line[512];
    if (fgets(line, sizeof line, f)) {
        char *p = strstr(line, "Kernel Module");
        if (p) {
            p += strlen("Kernel Module");
            while (*p == ' ' || *p == '\t')
                p++;
            size_t n = 0;
            while (p[n] && (isdigit((unsigned char)p[n]) || p[n] == '.'))
                n++;
            snprintf(out, len, "%.*s", (int)n, p);
        }
    }
    fclose(f);
}

void run_meta_device(run_meta *m, const spmvlab_runtime *rt)
{
    m->gpu = rt->device.present;
    if (!m->gpu)
        return;
    const spmvlab_device *d = &rt->device;
    snprintf(m->device, sizeof m->device, "%s", d->name);
    snprintf(m->cc, sizeof m->cc, "%d.%d", d->cc_major, d->cc_minor);
    m->l2_bytes = (double)d->l2_bytes;
    m->mem_bytes = (double)d->global_mem_bytes;
    m->sm_count = d->sm_count;
    int dv = 0;
    char kd[24];
    kernel_driver(kd, sizeof kd);
    if (cudaDriverGetVersion(&dv) == cudaSuccess && dv)
        snprintf(m->driver, sizeof m->driver, "%s%s(CUDA %d.%d)", kd, kd[0] ? " " : "", dv / 1000, dv % 1000 / 10);
    else
        snprintf(m->driver, sizeof m->driver, "%s", kd[0] ? kd : "unknown");
}

/* <cache>/peak/<device name, unsafe characters as '_'>-cc<cc>.txt */
static int peak_cache_path(const run_meta *m, char *out, size_t len, int create)
{
    char dir[4096];
    spmvlab_err err;
    if (spmvlab_cache_dir(dir, sizeof dir, create, &err))
        return -1;
    char name[160];
    snprintf(name, sizeof name, "%s-cc%s", m->device, m->cc);
    for (char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-')
            *p = '_';
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/peak", dir);
    if (create && mkdir(sub, 0755) != 0 && errno != EEXIST)
        return -1;
    snprintf(out, len, "%s/%s.txt", sub, name);
    return 0;
}

int run_meta_peak(run_meta *m, spmvlab_runtime *rt)
{
    if (!rt->device.present)
        return -1;
    spmvlab_triad_result tr;
    spmvlab_err err;
    char path[4400];
    if (spmvlab_ceilings_get(rt, 0, &m->ceilings, &err))
        spmvlab_ceilings_clear(&m->ceilings); /* the bound columns stay empty */
    if (spmvlab_triad(rt, 0, 20, &tr, &err) == 0) {
        m->peak_gbs = tr.best_gbs;
        m->peak_median_gbs = tr.median_gbs;
        snprintf(m->peak_source, sizeof m->peak_source, "measured (triad, 3 x %zu MiB)", tr.array_bytes >> 20);
        if (peak_cache_path(m, path, sizeof path, 1) == 0) {
            FILE *f = fopen(path, "w");
            if (f) {
                fprintf(f, "%.6g %.6g %s\n", tr.best_gbs, tr.median_gbs, m->date);
                fclose(f);
            }
        }
        return 0;
    }
    if (peak_cache_path(m, path, sizeof path, 0) == 0) {
        FILE *f = fopen(path, "r");
        char date[64] = "";
        if (f && fscanf(f, "%lf %lf %63s", &m->peak_gbs, &m->peak_median_gbs, date) == 3) {
            fclose(f);
            snprintf(m->peak_source, sizeof m->peak_source, "cached %.40s", date);
            return 0;
        }
        if (f)
            fclose(f);
    }
    m->peak_gbs = m->peak_median_gbs = NAN;
    snprintf(m->peak_source, sizeof m->peak_source, "not measured: %.40s", err.msg);
    return -1;
}

void run_meta_to_row(const run_meta *m, run_row *r)
{
    r->peak_gbs = m->peak_gbs;
    r->l2_bytes = m->l2_bytes;
    snprintf(r->device, sizeof r->device, "%s", m->device);
    snprintf(r->cc, sizeof r->cc, "%s", m->cc);
    snprintf(r->driver, sizeof r->driver, "%s", m->driver);
    snprintf(r->cuda_runtime, sizeof r->cuda_runtime, "%s", m->cuda_runtime);
    snprintf(r->commit, sizeof r->commit, "%s", m->commit);
    snprintf(r->version, sizeof r->version, "%s", m->version);
    snprintf(r->date, sizeof r->date, "%s", m->date);
    snprintf(r->command, sizeof r->command, "%s", m->command);
}

/* The fields a child measures, one "key value" line each. */
void run_meta_write(const run_meta *m, int fd)
{
    dprintf(fd, "meta gpu %d\nmeta device %s\nmeta cc %s\nmeta l2 %.17g\nmeta mem %.17g\nmeta sm %.17g\n"
                "meta driver %s\nmeta peak %.17g\nmeta peak_median %.17g\nmeta peak_source %s\n",
            m->gpu, m->device, m->cc, m->l2_bytes, m->mem_bytes, m->sm_count, m->driver, m->peak_gbs,
            m->peak_median_gbs, m->peak_source);
    const spmvlab_ceilings *c = &m->ceilings;
    dprintf(fd, "meta ceilings %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", c->dram_gbs, c->l2_gbs,
            c->gather_l2_gps, c->gather_dram_gps, c->launch_us, c->replay_us, c->l2_bytes);
    dprintf(fd, "meta ceilings_key %s\nmeta ceilings_source %s\nmeta end\n", c->key, c->source);
}

/* The fields of a child's answer that are one text or one number. */
typedef struct meta_field {
    const char *key;
    size_t offset;
    size_t size;             /* of a text; 0: a double */
} meta_field;

#define META_TEXT(key, field) {key, offsetof(run_meta, field), sizeof(((run_meta *)0)->field)}
#define META_NUM(key, field) {key, offsetof(run_meta, field), 0}
static const meta_field meta_fields[] = {
    META_TEXT("device", device), META_TEXT("cc", cc), META_NUM("l2", l2_bytes), META_NUM("mem", mem_bytes),
    META_NUM("sm", sm_count), META_TEXT("driver", driver), META_NUM("peak", peak_gbs),
    META_NUM("peak_median", peak_median_gbs), META_TEXT("peak_source", peak_source),
    META_TEXT("ceilings_key", ceilings.key), META_TEXT("ceilings_source", ceilings.source),
};

/* Sets the field called key from val. Returns 1, or 0 when key is none of them. */
static int set_field(run_meta *m, const char *key, const char *val)
{
    for (size_t i = 0; i < sizeof meta_fields / sizeof *meta_fields; i++) {
        const meta_field *f = &meta_fields[i];
        if (strcmp(key, f->key) != 0)
            continue;
        char *at = (char *)m + f->offset;
        if (f->size)
            snprintf(at, f->size, "%s", val);
        else
            *(double *)at = strtod(val, NULL);
        return 1;
    }
    return 0;
}

int run_meta_read(run_meta *m, const char *text)
{
    int seen_end = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        p += n + (nl ? 1 : 0);
        if (strncmp(line, "meta ", 5) != 0)
            continue;
        char *key = line + 5, *val = strchr(key, ' ');
        if (val)
            *val++ = '\0';
        else
            val = key + strlen(key);
        if (strcmp(key, "gpu") == 0)
            m->gpu = atoi(val);
        else if (set_field(m, key, val))
            continue;
        else if (strcmp(key, "ceilings") == 0) {
            spmvlab_ceilings *c = &m->ceilings;
            if (sscanf(val, "%lf %lf %lf %lf %lf %lf %lf", &c->dram_gbs, &c->l2_gbs, &c->gather_l2_gps,
                       &c->gather_dram_gps, &c->launch_us, &c->replay_us, &c->l2_bytes) != 7)
                spmvlab_ceilings_clear(c);
        } else if (strcmp(key, "end") == 0)
            seen_end = 1;
    }
    return seen_end ? 0 : -1;
}
