/* The device lists of run --devices and --device; see devices.h. */
#define _GNU_SOURCE
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"

int devices_parse(const char *spec, char dev[][16], spmvlab_err *err)
{
    if (strncmp(spec, "cpu:", 4) == 0) {
        char *end;
        long n = strtol(spec + 4, &end, 10);
        if (end == spec + 4 || *end || n < 1 || n > MAX_WORKERS)
            return spmvlab_errf(err, "--devices %s: cpu:N needs N from 1 to %d", spec, MAX_WORKERS), -1;
        for (long i = 0; i < n; i++)
            snprintf(dev[i], 16, "cpu");
        return (int)n;
    }
    if (strcmp(spec, "all") == 0) {
        int n = 0;
        if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1)
            return spmvlab_errf(err, "--devices all: no CUDA device found; --devices cpu:N runs N workers without "
                                "a GPU"),
                   -1;
        n = n > MAX_WORKERS ? MAX_WORKERS : n;
        for (int i = 0; i < n; i++)
            snprintf(dev[i], 16, "%d", i);
        return n;
    }
    int n = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        long d = strtol(t, &end, 10);
        if (end == t || *end || d < 0 || d > 1023)
            return spmvlab_errf(err, "--devices %s: '%s' is not a device number; use all, a list like 0,1 or "
                                "cpu:N", spec, t),
                   -1;
        for (int k = 0; k < n; k++)
            if (atoi(dev[k]) == d)
                return spmvlab_errf(err, "--devices %s names device %ld twice", spec, d), -1;
        if (n == MAX_WORKERS)
            return spmvlab_errf(err, "--devices %s names more than %d devices", spec, MAX_WORKERS), -1;
        snprintf(dev[n++], 16, "%ld", d);
    }
    return n ? n : (spmvlab_errf(err, "--devices needs all, a list like 0,1 or cpu:N"), -1);
}

int workers_check_spec(const char *spec, spmvlab_err *err)
{
    char dev[MAX_WORKERS][16];
    /* "all" is counted when the workers start, not while reading options. */
    return strcmp(spec, "all") == 0 || devices_parse(spec, dev, err) > 0 ? 0 : -1;
}

int workers_select_device(const char *text, spmvlab_err *err)
{
    if (strcmp(text, "cpu") == 0)
        return setenv("CUDA_VISIBLE_DEVICES", "", 1) ? (spmvlab_errf(err, "cannot set the environment"), -1) : 0;
    char *end;
    long d = strtol(text, &end, 10);
    if (end == text || *end || d < 0 || d > 1023)
        return spmvlab_errf(err, "'%s' is not a device number or cpu", text), -1;
    /* Device numbers count the devices this process may see. */
    char mapped[64];
    snprintf(mapped, sizeof mapped, "%ld", d);
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (vis && *vis) {
        char buf[512];
        long k = 0;
        snprintf(buf, sizeof buf, "%s", vis);
        char *save = NULL, *t = strtok_r(buf, ",", &save);
        for (; t && k < d; k++)
            t = strtok_r(NULL, ",", &save);
        if (!t)
            return spmvlab_errf(err, "device %ld is not among CUDA_VISIBLE_DEVICES=%s", d, vis), -1;
        snprintf(mapped, sizeof mapped, "%s", t);
    }
    return setenv("CUDA_VISIBLE_DEVICES", mapped, 1) ? (spmvlab_errf(err, "cannot set the environment"), -1) : 0;
}

