/*
 * The one table of spmvlab's flags and [run] keys (host_options.h). A row
 * is the core's option row (key, type, default, range, choices, help) and
 * then the commands that take it, a short spelling, the value's name in
 * --help and SPMVLAB_FLAG_* bits (a key of [run] too, a key only, a list).
 * A flag name means one thing in every command that takes it: one row,
 * whose help says what each command does with it.
 */
#include <string.h>

#include "host_options.h"

#define RT (HOST_RUN | HOST_TUNE)
#define INI SPMVLAB_FLAG_INI
#define KEY_ONLY (SPMVLAB_FLAG_INI | SPMVLAB_FLAG_INI_ONLY)
#define LIST SPMVLAB_FLAG_REPEAT
/* A row: the core's option row (numbers within [lo, hi]; choices "a|b"). */
#define OPTION(key, type, def, lo, hi, choices, help) {key, type, def, lo, hi, choices, help, 0, 0, NULL, 0, 0, NULL}
#define TEXT(key, def, help) OPTION(key, SPMVLAB_OPT_STRING, def, 0, 0, NULL, help)
#define SWITCH(key, help) OPTION(key, SPMVLAB_OPT_BOOL, "false", 0, 0, NULL, help)

const spmvlab_flag host_options[] = {
    [OPT_PLUGINS] = {TEXT("plugins", "", "instances: plugin names or INI section labels, comma list (default: every "
                          "section of -c FILE)"), RT, "-p", "LABELS", INI},
    [OPT_CONFIG] = {TEXT("config", "", "instance sections and a [run] section (flags win)"), RT, "-c", "FILE.ini", 0},
    [OPT_MATRICES_KEY] = {TEXT("matrices", "", "matrix files, folders, archives or lists (the command line names "
                               "them as arguments)"), RT, NULL, "LIST", KEY_ONLY},
    [OPT_OPTION] = {TEXT("option", "", "set an instance's option: run and tune take LABEL.KEY=V, a "
                         "list V1,V2 sweeps it, LABEL. may be left out when one instance runs; check takes KEY=V "
                         "for the plugin under test"), RT | HOST_CHECK, NULL, "LABEL.KEY=V", LIST},
    [OPT_MATRIX_SET] = {TEXT("matrix_set", "", "the matrices of set NAME (small, large, corpus or FILE.ini): "
                             "run and tune measure them, gen generates them into the cache"),
                        RT | HOST_GEN, NULL, "NAME", INI | LIST},
    [OPT_DTYPE] = {TEXT("dtype", "f64", "value type(s), comma list of f64, f32, f16 (select: the one whose rows "
                        "it reads)"), RT | HOST_SELECT, NULL, "LIST", INI},
    [OPT_REORDER] = {TEXT("reorder", "", "orderings, comma list of none, rcm, degree: run permutes every matrix "
                          "once by each (rows NAME@ORDER; ORDER+call permutes x and y in every call); info prints "
                          "what each does to bandwidth and gather sectors"), RT | HOST_INFO, NULL, "LIST", INI},
    [OPT_OUTPUT] = {TEXT("output", "", "where the command writes: run and tune the results, .csv (a row per "
                         "matrix x instance x dtype as measured, the summary in OUT-summary.csv) or .json, written "
                         "to OUT.partial and renamed onto OUT at the end; gen the matrix file (.mtx, .gz "
                         "compresses; required with a KIND); report the folder of plots, their data, scripts, "
                         "summary.csv and tables (default: RESULTS-report/ beside the first file; --compare: "
                         "OUT/compare.csv, else NEW-compare.csv)"), RT | HOST_GEN | HOST_REPORT, "-o", "OUT", INI},
    [OPT_JSON] = {TEXT("json", "", "rows, samples and summary as JSON"), RT, NULL, "OUT.json", INI},
    [OPT_BASELINE] = {TEXT("baseline", "", "speedups relative to instance LABEL (default cusparse, else csr, else "
                           "the first; report: the run's); vendor-best: per matrix the fastest cusparse instance "
                           "that ran"), RT | HOST_REPORT, NULL, "LABEL", INI},
    [OPT_PLUGIN_DIR] = {TEXT("plugin_dir", "", "search DIR for plugins first"),
                        RT | HOST_CHECK | HOST_LIST, NULL, "DIR", INI | LIST},
    [OPT_REPS] = {OPTION("reps", SPMVLAB_OPT_INT, "100", 1, 100000000, NULL, "most rounds per matrix"), RT, NULL,
                  "N", INI},
    [OPT_WARMUP] = {OPTION("warmup", SPMVLAB_OPT_INT, "10", 0, 100000000, NULL, "untimed launches per instance"),
                    RT, NULL, "N", INI},
    [OPT_TIME_BUDGET_MS] = {OPTION("time_budget_ms", SPMVLAB_OPT_FLOAT, "1000", 0, 1e12, NULL, "stop a matrix "
                                   "after T ms per instance, >= 10 rounds (0: only --reps counts)"),
                            RT, NULL, "T", INI},
    [OPT_TIMING] = {OPTION("timing", SPMVLAB_OPT_ENUM, "batch", 0, 0, "batch|single", "which timing drives "
                           "speedups and summaries"), RT, NULL, "batch|single", INI},
    [OPT_NOISE] = {OPTION("noise", SPMVLAB_OPT_FLOAT, "0.01", 0, 1, NULL, "a win or loss also needs the speedup "
                          "beyond 1 +- F"), RT, NULL, "F", INI},
    [OPT_FLUSH_L2] = {SWITCH("flush_l2", "overwrite a buffer larger than L2 before every sample"), RT, NULL, NULL,
                      INI},
    [OPT_ISOLATE] = {SWITCH("isolate", "each instance x matrix in a child process (crash, timeout)"), RT, NULL,
                     NULL, INI},
    [OPT_TIMEOUT] = {OPTION("timeout", SPMVLAB_OPT_FLOAT, "120", 0.001, 1e9, NULL, "seconds per child "
                            "(--isolate), and a worker's limit without progress in a plugin call"), RT, NULL,
                     "SECONDS", INI},
    [OPT_RESUME] = {TEXT("resume", "", "keep the cells already in OUT.csv (and the OUT.csv.partial of an "
                         "interrupted run), measure the rest"), RT, NULL, "OUT.csv", INI},
    [OPT_SEED] = {TEXT("seed", "1", "seed of the random x"), RT | HOST_CHECK, NULL, "N", INI},
    [OPT_MEM_LIMIT] = {TEXT("mem_limit", "", "device bytes one instance may hold (e.g. 4G)"), RT, NULL, "BYTES",
                       INI},
    [OPT_SHARD] = {TEXT("shard", "", "measure only shard I of N (cells by a hash of matrix and dtype); merge the "
                        "parts with spmvlab merge"), RT, NULL, "I/N", INI},
    [OPT_PART] = {TEXT("part", "", "of a matrix set, only the members of this part of the corpus split (tune or "
                       "heldout); select: corpus members of this part only"), RT | HOST_GEN | HOST_SELECT, NULL,
                  "P", INI},
    [OPT_DEVICES] = {TEXT("devices", "", "one worker process per GPU (all, or a list like 0,1; cpu:N: N workers "
                          "without a GPU), merged into -o OUT.csv"), RT, NULL, "SPEC", INI},
    [OPT_DEVICE] = {TEXT("device", "", "run on this CUDA device only (cpu: none)"), RT, NULL, "D", 0},
    [OPT_VERBOSE] = {SWITCH("verbose", "more detail: the plugin's log lines (run, check), format facts (run), "
                            "every plugin's options (list)"), RT | HOST_CHECK | HOST_LIST, "-v", NULL, INI},
    [OPT_COLUMNS] = {SWITCH("columns", "print the CSV columns with their meaning and exit"), RT, NULL, NULL, 0},

    [OPT_CHECK_DTYPE] = {TEXT("check_dtype", "", "check only these dtypes, comma list of f64, f32, f16 "
                              "(default: every dtype the plugin declares)"), HOST_CHECK, NULL, "LIST",
                         LIST},
    [OPT_MATRIX] = {TEXT("matrix", "", "also check this matrix"), HOST_CHECK, NULL, "FILE", LIST},
    [OPT_MATRIX_DIR] = {TEXT("matrix_dir", "", "also check every .mtx/.mtx.gz in DIR"), HOST_CHECK,
                        NULL, "DIR", LIST},
    [OPT_MAX_NNZ] = {OPTION("max_nnz", SPMVLAB_OPT_INT, "0", 0, 2147483647, NULL, "skip matrix files with more "
                            "non-zeros (0: no limit)"), HOST_CHECK, NULL, "N", 0},
    [OPT_SKIP_MISSING] = {SWITCH("skip_missing", "exit 77 (skipped) when a --matrix-dir does not exist"),
                          HOST_CHECK, NULL, NULL, 0},
    [OPT_NO_EDGE_CASES] = {SWITCH("no_edge_cases", "only the matrix files"), HOST_CHECK, NULL, NULL, 0},
    [OPT_GPU] = {SWITCH("gpu", "also run the GPU path (exit 77 without a GPU)"), HOST_CHECK, NULL, NULL, 0},
    [OPT_CHECK_TIMEOUT] = {OPTION("check_timeout", SPMVLAB_OPT_FLOAT, "60", 0, 1e9, NULL, "seconds one check may "
                                  "take in its child process (0: none)"), HOST_CHECK, NULL, "SECONDS", 0},
    [OPT_NO_FORK] = {SWITCH("no_fork", "run every check in this process (to debug under gdb; a crash ends the "
                            "run)"), HOST_CHECK, NULL, NULL, 0},

    [OPT_LIST_SET] = {TEXT("list", "", "list a set's members, each with its part of the split"), HOST_GEN, NULL,
                      "NAME", 0},
    [OPT_STATS] = {SWITCH("stats", "also print the row-length statistics"), HOST_GEN, NULL, NULL, 0},

    [OPT_CEILINGS] = {SWITCH("ceilings", "the device ceilings behind the bound columns (cached per device)"),
                      HOST_INFO, NULL, NULL, 0},
    [OPT_REMEASURE] = {SWITCH("remeasure", "with --ceilings: measure them again instead of reading the cache"),
                       HOST_INFO, NULL, NULL, 0},

    [OPT_ALL] = {SWITCH("all", "with -v: the expert options too (settable either way)"), HOST_LIST, NULL, NULL, 0},
    [OPT_FORCE] = {SWITCH("force", "overwrite files that already exist"), HOST_NEW_PLUGIN, NULL, NULL, 0},

    [OPT_INSTANCES] = {TEXT("instances", "", "only these instances (comma-separated shell patterns: 'sell*,csr')"),
                       HOST_REPORT, NULL, "LIST", 0},
    [OPT_MATRICES] = {TEXT("matrices", "", "only these matrices (comma-separated shell patterns)"), HOST_REPORT,
                      NULL, "LIST", 0},
    [OPT_HIGHLIGHT] = {TEXT("highlight", "", "at most 8 instances drawn in colour, the others grey (default: the "
                            "baseline and those most often near the fastest: the largest profile)"), HOST_REPORT,
                       NULL, "LIST", 0},
    [OPT_SIZE] = {TEXT("size", "1000,640", "image size in pixels, 200,150 to 10000,10000 (the PDF: W/100 x H/100 "
                       "inches)"), HOST_REPORT, NULL, "W,H", 0},
    [OPT_FONT_SIZE] = {OPTION("font_size", SPMVLAB_OPT_FLOAT, "11", 4, 72, NULL, "font size in points"),
                       HOST_REPORT, NULL, "PT", 0},
    [OPT_TABLE] = {OPTION("table", SPMVLAB_OPT_ENUM, "", 0, 0, "md|tex", "also write the summary, the best "
                          "instance per matrix and the matrices below 0.8x the baseline by bound as DIR/summary.md "
                          "(Markdown) or DIR/summary.tex (LaTeX, booktabs)"),
                   HOST_REPORT, NULL, "md|tex", 0},
    [OPT_COMPARE] = {SWITCH("compare", "two files OLD NEW: per instance and matrix OLD time / NEW time with its "
                            "range, per instance the geometric mean, wins and losses; refused when the files were "
                            "measured differently"), HOST_REPORT, NULL, NULL, 0},
    [OPT_ALLOW_DIFFERENT] = {SWITCH("allow_different", "compare them anyway, saying so"), HOST_REPORT, NULL, NULL,
                             0},

    [OPT_RESULTS] = {TEXT("results", "", "results CSV of the corpus (required without --evaluate)"), HOST_SELECT,
                     NULL, "FILE.csv", 0},
    [OPT_FEATURES] = {TEXT("features", "", "corpus features: read when present, written when computed"),
                      HOST_SELECT, NULL, "FILE", 0},
    [OPT_K] = {OPTION("k", SPMVLAB_OPT_INT, "7", 1, 32, NULL, "neighbours weighed"), HOST_SELECT, NULL, "N", 0},
    [OPT_EVALUATE] = {TEXT("evaluate", "", "judge the selector on these results (more files may follow) instead "
                           "of choosing for matrices"), HOST_SELECT, NULL, "RESULTS.csv", 0},
    [OPT_FAMILIES] = {TEXT("families", "", "with --evaluate: families from the family = NAME keys of this set"),
                      HOST_SELECT, NULL, "NAME|FILE", 0},
    [OPT_WEIGHT_POWER] = {OPTION("weight_power", SPMVLAB_OPT_FLOAT, "2", 0, 8, NULL, "neighbour weight 1 / "
                                 "(distance + 0.1)^P (0: equal weights)"), HOST_SELECT, NULL, "P", 0},
    [OPT_MIN_SUPPORT] = {OPTION("min_support", SPMVLAB_OPT_FLOAT, "0.3", 0, 1, NULL, "least share of the "
                                "neighbours' weight an instance ran ok on"), HOST_SELECT, NULL, "S", 0},
    [OPT_MARGIN] = {OPTION("margin", SPMVLAB_OPT_FLOAT, "1.1", 1, 10, NULL, "candidates within M x the top score "
                           "are measured"), HOST_SELECT, NULL, "M", 0},
    [OPT_MEASURE] = {OPTION("measure", SPMVLAB_OPT_INT, "2", 1, 3, NULL, "at most N candidates measured (1: never "
                            "measure)"), HOST_SELECT, NULL, "N", 0},
    [OPT_FEATURE_WEIGHTS] = {TEXT("feature_weights", "1,1,3,1,3,1,1,1,1,1", "scale of each feature's coordinate, "
                                  "ten numbers >= 0"), HOST_SELECT, NULL, "W0,...,W9", 0},
    [OPT_COUNT] = {{NULL}, 0, NULL, NULL, 0},
};

/* Old spellings: --set had three jobs (an instance's option, a matrix set,
 * select's families); check's --timeout and --dtype meant other things
 * than run's; info --device was not run's --device. */
const spmvlab_flag_alias host_option_aliases[] = {
    {"--set", RT, '=', OPT_OPTION},
    {"--set", RT, '!', OPT_MATRIX_SET},
    {"--set", HOST_CHECK, 0, OPT_OPTION},
    {"--set", HOST_GEN, 0, OPT_MATRIX_SET},
    {"--set", HOST_SELECT, 0, OPT_FAMILIES},
    {"--timeout", HOST_CHECK, 0, OPT_CHECK_TIMEOUT},
    {"--dtype", HOST_CHECK, 0, OPT_CHECK_DTYPE},
    {"--device", HOST_INFO, 0, OPT_CEILINGS},
    {NULL, 0, 0, 0},
};

void host_options_init(spmvlab_flags *f, unsigned command, const char *prog)
{
    spmvlab_flags_init(f, host_options, host_option_aliases, command, prog);
    f->ini_commands = RT; /* the [run] section of -c FILE.ini */
}

void host_options_help(const spmvlab_flags *f, const char *intro, FILE *out)
{
    fputs(intro, out);
    fputs("\noptions:\n", out);
    spmvlab_flags_print(f, out);
}

int host_options_read(spmvlab_flags *f, int argc, char **argv, const char *intro)
{
    spmvlab_err err;
    int rc = spmvlab_flags_parse(f, argc, argv, &err);
    if (rc == SPMVLAB_FLAGS_HELP)
        host_options_help(f, intro, stdout);
    else if (rc == SPMVLAB_FLAGS_MARKDOWN)
        spmvlab_flags_markdown(f, stdout);
    else if (rc < 0)
        fprintf(stderr, "%s: %s.\n", f->prog, err.msg);
    return rc > 0 ? 1 : rc;
}
