/* The device lists of run --devices and --device (host/run/devices.c). */
#ifndef SPMVLAB_HOST_DEVICES_H
#define SPMVLAB_HOST_DEVICES_H

#include "spmvlab/core.h"

#define MAX_WORKERS 64 /* worker processes of one run at most */

/* The device names of a --devices value into dev (at most MAX_WORKERS):
 * "0", "1", ... or "cpu" for each worker. Returns the count, or -1 with a
 * sentence. */
int devices_parse(const char *spec, char dev[][16], spmvlab_err *err);

/* Checks a --devices value: "all", a list of device numbers "0,1,3", or
 * "cpu:N" (N workers without a GPU: the CPU path, as CI runs it). Returns
 * 0, or -1 with a sentence. */
int workers_check_spec(const char *spec, spmvlab_err *err);

/* --device D: this process sees CUDA device D only (through
 * CUDA_VISIBLE_DEVICES, mapped through a list already set), or no device
 * for "cpu". Call before CUDA starts. Returns 0, or -1 with a sentence. */
int workers_select_device(const char *text, spmvlab_err *err);

#endif /* SPMVLAB_HOST_DEVICES_H */
