/* Run metadata and the bandwidth peak; see machine.h. */
#include <cuda_runtime_api.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
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
        else if (strcmp(key, "device") == 0)
            snprintf(m->device, sizeof m->device, "%s", val);
        else if (strcmp(key, "cc") == 0)
            snprintf(m->cc, sizeof m->cc, "%s", val);
        else if (strcmp(key, "l2") == 0)
            m->l2_bytes = strtod(val, NULL);
        else if (strcmp(key, "mem") == 0)
            m->mem_bytes = strtod(val, NULL);
        else if (strcmp(key, "sm") == 0)
            m->sm_count = strtod(val, NULL);
        else if (strcmp(key, "driver") == 0)
            snprintf(m->driver, sizeof m->driver, "%s", val);
        else if (strcmp(key, "peak") == 0)
            m->peak_gbs = strtod(val, NULL);
        else if (strcmp(key, "peak_median") == 0)
            m->peak_median_gbs = strtod(val, NULL);
        else if (strcmp(key, "peak_source") == 0)
            snprintf(m->peak_source, sizeof m->peak_source, "%s", val);
        else if (strcmp(key, "ceilings") == 0) {
            spmvlab_ceilings *c = &m->ceilings;
            if (sscanf(val, "%lf %lf %lf %lf %lf %lf %lf", &c->dram_gbs, &c->l2_gbs, &c->gather_l2_gps,
                       &c->gather_dram_gps, &c->launch_us, &c->replay_us, &c->l2_bytes) != 7)
                spmvlab_ceilings_clear(c);
        } else if (strcmp(key, "ceilings_key") == 0)
            snprintf(m->ceilings.key, sizeof m->ceilings.key, "%s", val);
        else if (strcmp(key, "ceilings_source") == 0)
            snprintf(m->ceilings.source, sizeof m->ceilings.source, "%s", val);
        else if (strcmp(key, "end") == 0)
            seen_end = 1;
    }
    return seen_end ? 0 : -1;
}
