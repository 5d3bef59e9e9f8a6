/*
 * Every flag of every spmvlab command and every key of the [run] section:
 * one table of rows in the style of a plugin's option table (spmvlab/flags.h),
 * read by each command. --help, the "did you mean" of a mistyped flag, the
 * [run] keys and the README's tables of options (`spmvlab COMMAND
 * --help=markdown`) all come from it.
 */
#ifndef SPMVLAB_HOST_OPTIONS_H
#define SPMVLAB_HOST_OPTIONS_H

#include "spmvlab/flags.h"

/* The commands, as bits of spmvlab_flag.commands. */
enum {
    HOST_RUN = 1u << 0,
    HOST_TUNE = 1u << 1,
    HOST_CHECK = 1u << 2,
    HOST_GEN = 1u << 3,
    HOST_INFO = 1u << 4,
    HOST_LIST = 1u << 5,
    HOST_MERGE = 1u << 6,
    HOST_REPORT = 1u << 7,
    HOST_SELECT = 1u << 8,
    HOST_CACHE = 1u << 9,
    HOST_NEW_PLUGIN = 1u << 10
};

/* The rows of the table, by what they set. */
typedef enum host_option_id {
    /* run and tune ([run] keys) */
    OPT_PLUGINS,
    OPT_CONFIG,
    OPT_MATRICES_KEY,
    OPT_OPTION,
    OPT_MATRIX_SET,
    OPT_DTYPE,
    OPT_REORDER,
    OPT_OUTPUT,
    OPT_JSON,
    OPT_BASELINE,
    OPT_PLUGIN_DIR,
    OPT_REPS,
    OPT_WARMUP,
    OPT_TIME_BUDGET_MS,
    OPT_TIMING,
    OPT_NOISE,
    OPT_FLUSH_L2,
    OPT_ISOLATE,
    OPT_TIMEOUT,
    OPT_RESUME,
    OPT_SEED,
    OPT_MEM_LIMIT,
    OPT_SHARD,
    OPT_PART,
    OPT_DEVICES,
    OPT_DEVICE,
    OPT_VERBOSE,
    OPT_COLUMNS,
    /* check */
    OPT_CHECK_DTYPE,
    OPT_MATRIX,
    OPT_MATRIX_DIR,
    OPT_MAX_NNZ,
    OPT_SKIP_MISSING,
    OPT_NO_EDGE_CASES,
    OPT_GPU,
    OPT_CHECK_TIMEOUT,
    OPT_NO_FORK,
    /* gen */
    OPT_LIST_SET,
    OPT_STATS,
    /* info */
    OPT_CEILINGS,
    OPT_REMEASURE,
    /* list, new-plugin */
    OPT_ALL,
    OPT_FORCE,
    /* report */
    OPT_INSTANCES,
    OPT_MATRICES,
    OPT_HIGHLIGHT,
    OPT_SIZE,
    OPT_FONT_SIZE,
    OPT_TABLE,
    OPT_COMPARE,
    OPT_ALLOW_DIFFERENT,
    /* select */
    OPT_RESULTS,
    OPT_FEATURES,
    OPT_K,
    OPT_EVALUATE,
    OPT_FAMILIES,
    OPT_WEIGHT_POWER,
    OPT_MIN_SUPPORT,
    OPT_MARGIN,
    OPT_MEASURE,
    OPT_FEATURE_WEIGHTS,
    OPT_COUNT
} host_option_id;

/* The table (OPT_COUNT rows and the end row) and the old spellings. */
extern const spmvlab_flag host_options[];
extern const spmvlab_flag_alias host_option_aliases[];

/* Starts f on the table for one command (a HOST_* bit); prog names it in
 * messages ("spmvlab check"). */
void host_options_init(spmvlab_flags *f, unsigned command, const char *prog);

/* Reads argv (argv[0] is the command) for the command f was started on;
 * on --help prints intro then the flags, on --help=markdown the table,
 * on bad input "PROG: SENTENCE." on stderr. Returns 0 to go on, 1 when
 * help was printed, -1 after the refusal. Free f with spmvlab_flags_free. */
int host_options_read(spmvlab_flags *f, int argc, char **argv, const char *intro);

/* Prints intro, then the command's flags (--help). */
void host_options_help(const spmvlab_flags *f, const char *intro, FILE *out);

#endif
