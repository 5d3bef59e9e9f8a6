/*
 * The settings of `spmvlab run` and `spmvlab tune` as a value: what the
 * command line and the [run] section set (run_options.h reads them, and
 * run_values.c stores each row of the option table into its member).
 */
#ifndef SPMVLAB_HOST_RUN_SETTINGS_H
#define SPMVLAB_HOST_RUN_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "spmvlab/config.h"
#include "spmvlab/reorder.h"

#define RUN_MAX_LIST 256

typedef enum run_mode {
    RUN_MODE_RUN = 0,
    RUN_MODE_TUNE = 1
} run_mode;

typedef enum run_timing {
    RUN_TIMING_BATCH = 0,  /* back-to-back launches drive speedups and summaries */
    RUN_TIMING_SINGLE = 1  /* single launches do */
} run_timing;

/* One entry of --reorder: an ordering, applied once to the matrix, or kept
 * inside every call (ORDER+call: x and y permuted around each SpMV). */
typedef struct run_order_spec {
    spmvlab_ordering ordering;
    int per_call;
} run_order_spec;

typedef struct run_settings {
    run_mode mode;
    const char *prog;                   /* "spmvlab run" / "spmvlab tune" for messages */
    const char *labels;                 /* -p / plugins = ; never NULL */
    char config_path[4096];             /* -c */
    spmvlab_dtype dtypes[3];            /* --dtype (list), default f64 */
    int ndtypes;
    run_order_spec orders[8];           /* --reorder (list): each a sweep of the matrices (run_order.h) */
    int norders;                        /* 0: no --reorder, the file's order and no ordering columns */
    const char *output;                 /* -o / output = (.csv); "" none */
    const char *json;                   /* --json / json = , or -o with .json; "" none */
    const char *baseline;               /* --baseline / baseline = ; "" default rule */
    int reps;                           /* most rounds per matrix (default 100) */
    int warmup;                         /* untimed launches per instance (default 10) */
    double time_budget_ms;              /* per instance and matrix (default 1000) */
    int flush_l2;
    int isolate;
    double timeout_s;                   /* per child with --isolate (default 120) */
    const char *resume;                 /* --resume; "" none */
    uint64_t seed;                      /* random x (default 1) */
    size_t mem_limit;                   /* bytes per instance; 0: the runtime's default */
    run_timing timing;
    double noise;                       /* outcome threshold, a fraction (default 0.01) */
    int verbose;
    int show_columns;                   /* --columns: print the CSV schema and exit */

    /* scale: this process's shard and, for run --devices, its workers */
    int shard_index, shard_count;       /* --shard I/N; 0/1 when not sharded */
    char devices[256];                  /* --devices all|0,1,..|cpu:N; "" none */

    /* matrix sources: files / folders / archives / lists, then named sets, in order */
    char *matrix_args[RUN_MAX_LIST];
    int nmatrix_args;
    int matrices_given;                 /* the command line named matrices: [run] may not */
    char *set_names[RUN_MAX_LIST];
    int nset_names;
    int part;                           /* --part: -1 every member of a set, else the spmvlab_part kept */
    /* instance overrides "LABEL.KEY=VALUES" (or "KEY=VALUES" with one label) */
    char *overrides[RUN_MAX_LIST];
    int noverrides;
    char *plugin_dirs[32];
    int nplugin_dirs;

    char command[2048];                 /* the command line, for the results */
    char label_list[4096];              /* labels gathered from the INI file's sections */
    void *engine;                       /* the flags and INI texts read, which the strings point into */
} run_settings;

#endif
