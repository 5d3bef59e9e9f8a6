/*
 * Command line and [run] section of run / tune; see run_options.h.
 *
 * Each setting is one row below: the core's option row (INI key, type,
 * default, range or choices, help, and the run_settings member the engine
 * fills) plus what the command line adds. The flag is the key with '_' as
 * '-' ("time_budget_ms" is --time-budget-ms); a row may add a short alias.
 * Values the engine does not type (lists, byte counts, a 64-bit seed) go
 * through the row's apply function instead of a member.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_options.h"
#include "run_values.h"
#include "spmvlab/core.h"

enum { ON_CLI = 1, ON_INI = 2, BOTH = 3 };

typedef struct run_key {
    spmvlab_option opt;         /* the engine's row; its member, or field_size 0 with apply */
    unsigned where;             /* ON_CLI, ON_INI or BOTH */
    const char *alias;          /* a short flag, or NULL */
    const char *meta;           /* the value's name in --help; NULL for a switch */
    run_apply_fn apply;            /* for values the engine does not type, else NULL */
} run_key;

#define I SPMVLAB_OPT_INT
#define F SPMVLAB_OPT_FLOAT
#define B SPMVLAB_OPT_BOOL
#define E SPMVLAB_OPT_ENUM
#define S SPMVLAB_OPT_STRING
#define AT(member) SPMVLAB_FIELD(run_settings, member)

static const run_key run_keys[] = {
    {{"plugins", S, "", 0, 0, NULL, "instances: plugin names or INI section labels, comma list (default: every "
      "section of -c FILE)", AT(labels), NULL, 0, 0, NULL}, BOTH, "-p", "LABELS", NULL},
    {{"config", S, "", 0, 0, NULL, "instance sections and a [run] section (flags win)", 0, 0, NULL, 0, 0, NULL}, ON_CLI, "-c",
     "FILE.ini", run_apply_config},
    {{"matrices", S, "", 0, 0, NULL, "matrix files, folders, archives or lists (the command line names them "
      "as arguments)", 0, 0, NULL, 0, 0, NULL}, ON_INI, NULL, NULL, run_apply_matrices},
    {{"set", S, "", 0, 0, NULL, "LABEL.KEY=V[,V]: set or sweep an instance's option; NAME: add the matrices of "
      "set NAME (small, large or FILE.ini)", 0, 0, NULL, 0, 0, NULL}, BOTH, NULL, "ARG", run_apply_set},
    {{"dtype", S, "f64", 0, 0, NULL, "value type(s), comma list of f64, f32, f16", 0, 0, NULL, 0, 0, NULL}, BOTH, NULL, "LIST",
     run_apply_dtype},
    {{"reorder", S, "", 0, 0, NULL, "orderings, comma list of none, rcm, degree (rows of NAME@ORDER), each permuting "
      "every matrix once; ORDER+call permutes x and y in every call", 0, 0, NULL, 0, 0, NULL}, BOTH, NULL, "LIST", run_apply_reorder},
    {{"output", S, "", 0, 0, NULL, "results: .csv (a row per matrix x instance x dtype as measured, the summary "
      "in OUT-summary.csv) or .json; written to OUT.partial, renamed onto OUT at the end", AT(output), NULL, 0, 0, NULL}, BOTH,
     "-o", "OUT", NULL},
    {{"json", S, "", 0, 0, NULL, "rows, samples and summary as JSON", AT(json), NULL, 0, 0, NULL}, BOTH, NULL, "OUT.json", NULL},
    {{"baseline", S, "", 0, 0, NULL, "speedups relative to LABEL (default cusparse, else csr, else the first)",
      AT(baseline), NULL, 0, 0, NULL}, BOTH, NULL, "LABEL", NULL},
    {{"plugin_dir", S, "", 0, 0, NULL, "search DIR for plugins first (repeatable)", 0, 0, NULL, 0, 0, NULL}, BOTH, NULL, "DIR",
     run_apply_plugin_dir},
    {{"reps", I, "100", 1, 100000000, NULL, "most rounds per matrix", AT(reps), NULL, 0, 0, NULL}, BOTH, NULL, "N", NULL},
    {{"warmup", I, "10", 0, 100000000, NULL, "untimed launches per instance", AT(warmup), NULL, 0, 0, NULL}, BOTH, NULL, "N", NULL},
    {{"time_budget_ms", F, "1000", 0, 1e12, NULL, "stop a matrix after T ms per instance, >= 10 rounds (0: only "
      "--reps counts)", AT(time_budget_ms), NULL, 0, 0, NULL}, BOTH, NULL, "T", NULL},
    {{"timing", E, "batch", 0, 0, "batch|single", "which timing drives speedups and summaries", AT(timing), NULL, 0, 0, NULL},
     BOTH, NULL, "batch|single", NULL},
    {{"noise", F, "0.01", 0, 1, NULL, "a win or loss also needs the speedup beyond 1 +- F", AT(noise), NULL, 0, 0, NULL}, BOTH,
     NULL, "F", NULL},
    {{"flush_l2", B, "false", 0, 0, NULL, "overwrite a buffer larger than L2 before every sample",
      AT(flush_l2), NULL, 0, 0, NULL}, BOTH, NULL, NULL, NULL},
    {{"isolate", B, "false", 0, 0, NULL, "each instance x matrix in a child process (crash, timeout)",
      AT(isolate), NULL, 0, 0, NULL}, BOTH, NULL, NULL, NULL},
    {{"timeout", F, "120", 0.001, 1e9, NULL,
      "seconds per child (--isolate), and a worker's limit without progress in a plugin call", AT(timeout_s), NULL,
      0, 0, NULL}, BOTH, NULL,
     "SECONDS", NULL},
    {{"resume", S, "", 0, 0, NULL, "keep the cells already in OUT.csv (and the OUT.csv.partial of an interrupted run), "
      "measure the rest",
      AT(resume), NULL, 0, 0, NULL}, BOTH, NULL, "OUT.csv", NULL},
    {{"seed", S, "1", 0, 0, NULL, "seed of the random x", 0, 0, NULL, 0, 0, NULL}, BOTH, NULL, "N", run_apply_seed},
    {{"mem_limit", S, "", 0, 0, NULL, "device bytes one instance may hold (e.g. 4G)", 0, 0, NULL, 0, 0, NULL}, BOTH, NULL, "BYTES",
     run_apply_mem_limit},
    {{"shard", S, "", 0, 0, NULL, "measure only shard I of N (cells by a hash of matrix and dtype); merge the "
      "parts with spmvlab merge", 0, 0, NULL, 0, 0, NULL}, BOTH, NULL, "I/N", run_apply_shard},
    {{"part", S, "", 0, 0, NULL, "of a matrix set, only the members of this part of the corpus split (tune or "
      "heldout), as gen --part keeps them", 0, 0, NULL, 0, 0, NULL}, BOTH, NULL, "P", run_apply_part},
    {{"devices", S, "", 0, 0, NULL, "one worker process per GPU (all, or a list like 0,1; cpu:N: N workers "
      "without a GPU), merged into -o OUT.csv", 0, 0, NULL, 0, 0, NULL}, BOTH, NULL, "SPEC", run_apply_devices},
    {{"device", S, "", 0, 0, NULL, "run on this CUDA device only (cpu: none)", 0, 0, NULL, 0, 0, NULL}, ON_CLI, NULL, "D",
     run_apply_device},
    {{"verbose", B, "false", 0, 0, NULL, "plugin log lines and format facts", AT(verbose), NULL, 0, 0, NULL}, BOTH, "-v", NULL,
     NULL},
    {{"columns", B, "false", 0, 0, NULL, "print the CSV columns with their meaning and exit", AT(show_columns), NULL, 0, 0, NULL},
     ON_CLI, NULL, NULL, NULL},
};
#define NKEYS ((int)(sizeof run_keys / sizeof *run_keys))

#undef I
#undef F
#undef B
#undef E
#undef S
#undef AT

/* "--time-budget-ms" for key "time_budget_ms". */
static void flag_of(const run_key *k, char *out, size_t len)
{
    snprintf(out, len, "--%s", k->opt.key);
    for (char *p = out + 2; *p; p++)
        if (*p == '_')
            *p = '-';
}

static int key_of_flag(const char *arg)
{
    char flag[80];
    for (int k = 0; k < NKEYS; k++) {
        flag_of(&run_keys[k], flag, sizeof flag);
        if ((run_keys[k].where & ON_CLI) &&
            (strcmp(arg, flag) == 0 || (run_keys[k].alias && strcmp(arg, run_keys[k].alias) == 0)))
            return k;
    }
    return -1;
}

int run_flag_values(const char *arg)
{
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
        return 0;
    int k = key_of_flag(arg);
    return k < 0 ? -1 : run_keys[k].meta != NULL;
}

/* Sets row k from text, found in ini (NULL: the command line, as flag).
 * Returns 0, or -1 with a sentence naming where. */
static int set_key(run_settings *s, spmvlab_optset *eng, int k, const char *text, const char *ini, int line,
                   const char *flag, spmvlab_err *err)
{
    const run_key *row = &run_keys[k];
    spmvlab_err why;
    int bad = row->apply ? row->apply(s, ini, text, &why) : spmvlab_optset_set(eng, "run", row->opt.key, text, &why);
    if (!bad)
        return 0;
    if (ini)
        spmvlab_errf(err, "%s:%d: [run] %s%s%s", ini, line, row->apply ? row->opt.key : "",
                     row->apply ? ": " : "", why.msg);
    else
        spmvlab_errf(err, "%s: %s", flag, why.msg);
    return -1;
}

/* Prints text from column indent on, wrapped before column width. */
static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
    int col = indent;
    char buf[600];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        int n = (int)strlen(w);
        if (col > indent && col + 1 + n > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        }
        col += fprintf(out, " %s", w);
    }
    fputc('\n', out);
}

static void usage(FILE *out, run_mode mode)
{
    if (mode == RUN_MODE_TUNE)
        fprintf(out, "usage: spmvlab tune -p LABEL --set LABEL.KEY=V1,V2,... [options] MATRICES...\n"
                     "Measures every combination of the swept options on each matrix and picks the\n"
                     "fastest; reports the search time and memory. Takes the options of run.\n\n");
    else
        fprintf(out, "usage: spmvlab run -p LABELS [options] MATRICES...\n"
                     "Converts, verifies and times plugin instances over matrices (A/B).\n\n");
    fprintf(out, "MATRICES are .mtx / .mtx.gz files, SuiteSparse archives (Name.tar.gz), folders of them\n"
                 "(also in the ssget layout Group/Name/), or list files (.txt: a path or Group/Name a line).\n"
                 "Every option is also a key of the [run] section of -c FILE.ini (key: the flag without\n"
                 "'--', '-' as '_'); flags win.\n");
    for (int k = 0; k < NKEYS; k++) {
        const run_key *r = &run_keys[k];
        if (!(r->where & ON_CLI))
            continue;
        char flag[80], left[160];
        flag_of(r, flag, sizeof flag);
        snprintf(left, sizeof left, "%s%s%s%s%s", r->alias ? r->alias : "", r->alias ? ", " : "", flag,
                 r->meta ? " " : "", r->meta ? r->meta : "");
        const char *def = r->opt.def && r->opt.def[0] && r->opt.type != SPMVLAB_OPT_BOOL ? r->opt.def : NULL;
        char help[600];
        snprintf(help, sizeof help, "%s%s%s%s", r->opt.help, def ? " (default " : "", def ? def : "", def ? ")" : "");
        fprintf(out, "  %-24s", left);
        print_wrapped(out, help, 26, 100);
    }
    fprintf(out, "Without a GPU, run says so once and checks each instance's spmv_host (no timings).\n");
}

static void build_command(run_settings *s, int argc, char **argv)
{
    size_t used = (size_t)snprintf(s->command, sizeof s->command, "spmvlab");
    for (int i = 0; i < argc && used < sizeof s->command; i++) {
        const char *a = argv[i];
        int quote = !a[0] || strpbrk(a, " \t\"'$*?;&|<>()") != NULL;
        used += (size_t)snprintf(s->command + used, sizeof s->command - used, quote ? " '%s'" : " %s", a);
    }
}

/* Refuses an unknown flag, with the nearest one. Returns -1. */
static int unknown_flag(const run_settings *s, const char *a, spmvlab_err *err)
{
    char flags[NKEYS][80];
    const char *list[NKEYS];
    int n = 0;
    for (int k = 0; k < NKEYS; k++)
        if (run_keys[k].where & ON_CLI) {
            flag_of(&run_keys[k], flags[n], sizeof flags[n]);
            list[n] = flags[n];
            n++;
        }
    char hint[96];
    spmvlab_did_you_mean(a, list, n, hint, sizeof hint);
    return spmvlab_errf(err, "unknown option '%s'%s; see %s --help", a, hint, s->prog), -1;
}

/* The command line; given[k] marks the rows it set. Returns 0, 1 (help
 * printed) or -1 with a sentence. */
static int parse_argv(run_settings *s, spmvlab_optset *eng, int argc, char **argv, char *given, spmvlab_err *err)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, s->mode);
            return 1;
        }
        int k = key_of_flag(a);
        if (k < 0 && a[0] == '-' && a[1])
            return unknown_flag(s, a, err);
        if (k < 0) {
            if (run_push_str(s->matrix_args, &s->nmatrix_args, RUN_MAX_LIST, a, "matrix arguments", err))
                return -1;
            s->matrices_given = 1;
            continue;
        }
        const char *v = "true";
        if (run_keys[k].meta) {
            if (i + 1 >= argc)
                return spmvlab_errf(err, "%s needs a value; see --help", a), -1;
            v = argv[++i];
        }
        if (set_key(s, eng, k, v, NULL, 0, a, err))
            return -1;
        given[k] = 1;
    }
    return 0;
}

/* Names a section whose name is a typo of [run] and that holds a key of
 * [run] (and no plugin = or library =), where its loss would otherwise
 * be reported as something else ("no matrices given"). Elsewhere the
 * instance check of spmvlab_config_resolve names it. Returns 0, or -1 with
 * a sentence. */
static int check_run_typo(const spmvlab_config *cfg, spmvlab_err *err)
{
    static const char *const run_name[] = {"run"};
    for (int j = 0; j < cfg->nsections; j++) {
        const spmvlab_section *sec = &cfg->sections[j];
        if (strcmp(sec->label, "run") == 0 || !spmvlab_closest_name(sec->label, run_name, 1) ||
            spmvlab_section_get(sec, "plugin") || spmvlab_section_get(sec, "library"))
            continue;
        for (int i = 0; i < sec->nkv; i++)
            for (int k = 0; k < NKEYS; k++)
                if ((run_keys[k].where & ON_INI) && strcmp(run_keys[k].opt.key, sec->kv[i].key) == 0)
                    return spmvlab_errf(err, "%s:%d: section [%s] (did you mean [run]?) is neither [run] nor an "
                                        "instance: its '%s =' is a key of [run]", sec->file, sec->line, sec->label,
                                        sec->kv[i].key),
                           -1;
    }
    return 0;
}

/* The [run] section of the INI file, for the rows the command line left. */
static int parse_ini(run_settings *s, spmvlab_optset *eng, spmvlab_config *cfg, const char *given,
                     spmvlab_err *err)
{
    const spmvlab_section *run = spmvlab_config_section(cfg, "run");
    for (int j = 0; run && j < run->nkv; j++) {
        const spmvlab_kv *kv = &run->kv[j];
        int k = 0;
        while (k < NKEYS && !((run_keys[k].where & ON_INI) && strcmp(run_keys[k].opt.key, kv->key) == 0))
            k++;
        if (k == NKEYS) {
            char known[600] = "", hint[96] = "";
            const char *list[NKEYS];
            size_t used = 0;
            int nlist = 0;
            for (int r = 0; r < NKEYS && used < sizeof known; r++)
                if (run_keys[r].where & ON_INI)
                    used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", used ? ", " : "",
                                             list[nlist++] = run_keys[r].opt.key);
            spmvlab_did_you_mean(kv->key, list, nlist, hint, sizeof hint);
            return spmvlab_errf(err, "%s:%d: unknown key '%s'%s in [run]; known: %s", kv->file, kv->line, kv->key,
                                hint, known),
                   -1;
        }
        /* Plugin folders add up; any other flag replaces the file's value. */
        int skip = given[k] && run_keys[k].apply != run_apply_plugin_dir;
        if (!skip && set_key(s, eng, k, kv->value, kv->file, kv->line, NULL, err))
            return -1;
    }
    return 0;
}

/* What follows from the settings together: -o by extension, resume's
 * file, the instances of the INI file. */
static int settle(run_settings *s, const spmvlab_config *cfg, const char *given, spmvlab_err *err)
{
    size_t n = strlen(s->output);
    if (n >= 5 && strcmp(s->output + n - 5, ".json") == 0) {
        if (s->json[0] && strcmp(s->json, s->output) != 0)
            return spmvlab_errf(err, "-o %s and --json %s both ask for JSON; give one", s->output, s->json), -1;
        s->json = s->output;
        s->output = "";
    } else if (n && (n < 4 || strcmp(s->output + n - 4, ".csv") != 0)) {
        return spmvlab_errf(err, "-o %s: spmvlab writes .csv or .json; name the file with one of them", s->output),
               -1;
    }
    if (s->resume[0]) {
        int o = key_of_flag("-o");
        if (s->output[0] && strcmp(s->output, s->resume) != 0 && given[o])
            return spmvlab_errf(err, "--resume %s and -o %s name different files; resume appends to the file it "
                                "reads", s->resume, s->output),
                   -1;
        s->output = s->resume;
    }
    /* Without -p or plugins =, every instance section of the file runs. */
    if (!s->labels[0]) {
        for (int j = 0; j < cfg->nsections; j++) {
            size_t used = strlen(s->label_list);
            if (strcmp(cfg->sections[j].label, "run") != 0)
                snprintf(s->label_list + used, sizeof s->label_list - used, "%s%s", used ? "," : "",
                         cfg->sections[j].label);
        }
        s->labels = s->label_list;
    }
    if (!s->labels[0])
        return spmvlab_errf(err, "no instances given: use -p LABELS (or plugins = in [run], or instance sections "
                            "in -c FILE)"),
               -1;
    if (!s->nmatrix_args && !s->nset_names && check_run_typo(cfg, err))
        return -1;
    if (!s->nmatrix_args && !s->nset_names)
        return spmvlab_errf(err, "no matrices given: name files, folders or --set NAME (or matrices = in [run])"),
               -1;
    return 0;
}

int run_settings_parse(run_settings *s, spmvlab_config *cfg, run_mode mode, int argc, char **argv,
                       spmvlab_err *err)
{
    memset(s, 0, sizeof *s);
    s->mode = mode;
    s->prog = mode == RUN_MODE_TUNE ? "spmvlab tune" : "spmvlab run";
    s->labels = s->output = s->json = s->baseline = s->resume = "";
    s->shard_count = 1;
    s->part = -1;
    build_command(s, argc, argv);
    /* The engine reads the rows as a plugin's table whose options struct
     * is run_settings. */
    spmvlab_option table[NKEYS + 1];
    memset(table, 0, sizeof table);
    for (int k = 0; k < NKEYS; k++)
        table[k] = run_keys[k].opt;
    spmvlab_plugin desc = {SPMVLAB_PLUGIN_HEADER, .name = "run", .options = table,
                           .options_size = sizeof(run_settings)};
    spmvlab_optset *eng = calloc(1, sizeof *eng);
    if (!eng || spmvlab_optset_init(eng, &desc, err)) {
        free(eng);
        return eng ? -1 : (spmvlab_errf(err, "out of host memory"), -1);
    }
    s->engine = eng;
    for (int k = 0; k < NKEYS; k++)
        if (run_keys[k].apply && run_keys[k].opt.def[0] && run_keys[k].apply(s, NULL, run_keys[k].opt.def, err))
            return -1;
    char given[NKEYS] = {0};
    int rc = parse_argv(s, eng, argc, argv, given, err);
    if (rc == 0 && !s->show_columns && s->config_path[0])
        rc = spmvlab_config_read(cfg, s->config_path, err) ? -1 : parse_ini(s, eng, cfg, given, err);
    /* The engine filled its copy of run_settings; take the members it owns. */
    for (int k = 0; k < NKEYS; k++)
        if (run_keys[k].opt.field_size)
            memcpy((char *)s + run_keys[k].opt.field_offset, (const char *)eng->fields + run_keys[k].opt.field_offset,
                   run_keys[k].opt.field_size);
    s->prog = mode == RUN_MODE_TUNE ? "spmvlab tune" : "spmvlab run";
    if (rc)
        return rc;
    if (s->show_columns)
        return 1;
    return settle(s, cfg, given, err);
}

/* Splits the -p list into trimmed labels. */
static int split_labels(const char *labels, char out[][128], int max)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", labels);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && n < max; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ' || *t == '\t')
            t++;
        char *e = t + strlen(t);
        while (e > t && (e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        if (*t)
            snprintf(out[n++], 128, "%s", t);
    }
    return n;
}

int run_settings_apply_overrides(const run_settings *s, spmvlab_config *cfg, spmvlab_err *err)
{
    char labels[RUN_MAX_LIST][128];
    int nl = split_labels(s->labels, labels, RUN_MAX_LIST);
    for (int o = 0; o < s->noverrides; o++) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", s->overrides[o]);
        char *eq = strchr(buf, '=');
        *eq = '\0';
        const char *value = eq + 1;
        char *dot = strrchr(buf, '.');
        const char *label, *key;
        if (dot) {
            *dot = '\0';
            label = buf;
            key = dot + 1;
        } else if (nl == 1) {
            label = labels[0];
            key = buf;
        } else {
            return spmvlab_errf(err, "--set %s names no instance; write LABEL.%s when several instances run",
                                s->overrides[o], buf),
                   -1;
        }
        if (!label[0] || !key[0])
            return spmvlab_errf(err, "--set %s is not of the form LABEL.KEY=VALUES", s->overrides[o]), -1;
        int listed = 0;
        for (int i = 0; i < nl; i++)
            listed |= strcmp(labels[i], label) == 0;
        if (!listed)
            return spmvlab_errf(err, "--set %s names instance '%s', which is not among the instances (%s)",
                                s->overrides[o], label, s->labels),
                   -1;
        if (strcmp(key, "plugin") == 0 || strcmp(key, "library") == 0)
            return spmvlab_errf(err, "--set %s: the plugin of an instance is chosen in its INI section",
                                s->overrides[o]),
                   -1;
        spmvlab_section *sec = spmvlab_config_section_add(cfg, label);
        if (!sec || spmvlab_section_set(sec, key, value, err))
            return spmvlab_errf(err, "out of host memory for configuration"), -1;
    }
    return 0;
}

void run_settings_free(run_settings *s)
{
    for (int i = 0; i < s->nmatrix_args; i++)
        free(s->matrix_args[i]);
    for (int i = 0; i < s->nset_names; i++)
        free(s->set_names[i]);
    for (int i = 0; i < s->noverrides; i++)
        free(s->overrides[i]);
    for (int i = 0; i < s->nplugin_dirs; i++)
        free(s->plugin_dirs[i]);
    s->nmatrix_args = s->nset_names = s->noverrides = s->nplugin_dirs = 0;
    if (s->engine) {
        spmvlab_optset_free(s->engine);
        free(s->engine);
        s->engine = NULL;
    }
    s->labels = s->output = s->json = s->baseline = s->resume = "";
}
