/*
 * Settings of `spmvlab run` and `spmvlab tune`: the command line, the [run]
 * section of an INI file (command-line flags win), instance overrides
 * (--option LABEL.KEY=VALUES) and matrix sets (--matrix-set NAME). Each
 * setting is one row of the option table of every command (host/options),
 * which gives its flag, its INI key, its type, range and help.
 */
#ifndef SPMVLAB_HOST_RUN_OPTIONS_H
#define SPMVLAB_HOST_RUN_OPTIONS_H

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

/* Parses argv (argv[0] is the command) and the INI file it names into s and
 * cfg (the file's sections, with the overrides applied). Returns 0; 1 when
 * only help or the column list was printed; -1 with one sentence in err
 * (usage, configuration or input error). Free with run_settings_free. */
int run_settings_parse(run_settings *s, spmvlab_config *cfg, run_mode mode, int argc, char **argv,
                       spmvlab_err *err);
/* Applies the instance overrides to cfg once the labels are known. Returns
 * 0 or -1 with a sentence. */
int run_settings_apply_overrides(const run_settings *s, spmvlab_config *cfg, spmvlab_err *err);
void run_settings_free(run_settings *s);

/* Parses "1234", "64M", "2G", "512k" (powers of 1024). Returns 0 or -1. */
int run_parse_bytes(const char *text, size_t *out);

/* How many values the command-line flag arg takes: 0 (a switch), 1, or -1
 * when run does not know it (then it is a matrix when it does not start
 * with '-'). For the workers of --devices, which pass flags on. */
int run_flag_values(const char *arg);

#endif
