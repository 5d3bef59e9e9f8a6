/* Command line and [run] section of run / tune; see run_options.h. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "run_options.h"

/* Flags given on the command line, which the [run] section may not change. */
enum {
    GIVEN_LABELS = 1 << 0, GIVEN_DTYPE = 1 << 1, GIVEN_OUTPUT = 1 << 2, GIVEN_JSON = 1 << 3,
    GIVEN_BASELINE = 1 << 4, GIVEN_REPS = 1 << 5, GIVEN_WARMUP = 1 << 6, GIVEN_BUDGET = 1 << 7,
    GIVEN_FLUSH = 1 << 8, GIVEN_ISOLATE = 1 << 9, GIVEN_TIMEOUT = 1 << 10, GIVEN_SEED = 1 << 11,
    GIVEN_MEMLIMIT = 1 << 12, GIVEN_MATRICES = 1 << 13, GIVEN_TIMING = 1 << 14, GIVEN_NOISE = 1 << 15
};

static int parse_int(const char *t, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (end == t || *end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_double(const char *t, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || *end || errno || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

static int parse_u64(const char *t, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)t[0]))
        return -1;
    unsigned long long v = strtoull(t, &end, 10);
    if (*end || errno)
        return -1;
    *out = v;
    return 0;
}

static int parse_bool(const char *t, int *out)
{
    static const char *yes[] = {"1", "true", "yes", "on"}, *no[] = {"0", "false", "no", "off"};
    for (int k = 0; k < 4; k++) {
        if (strcasecmp(t, yes[k]) == 0)
            return *out = 1, 0;
        if (strcasecmp(t, no[k]) == 0)
            return *out = 0, 0;
    }
    return -1;
}

int run_parse_bytes(const char *text, size_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)text[0]))
        return -1;
    double v = strtod(text, &end);
    if (end == text || errno || v < 0)
        return -1;
    double mult = 1;
    if (*end) {
        switch (tolower((unsigned char)*end)) {
        case 'k': mult = 1024.0; break;
        case 'm': mult = 1024.0 * 1024; break;
        case 'g': mult = 1024.0 * 1024 * 1024; break;
        case 't': mult = 1024.0 * 1024 * 1024 * 1024; break;
        default: return -1;
        }
        end++;
        if (*end == 'i' || *end == 'I')
            end++;
        if (*end == 'b' || *end == 'B')
            end++;
        if (*end)
            return -1;
    }
    v *= mult;
    if (v > 1.8e19)
        return -1;
    *out = (size_t)v;
    return 0;
}

static int parse_dtypes(run_settings *s, const char *text, spmvlab_err *err)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    s->ndtypes = 0;
    for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
        spmvlab_dtype d;
        if (spmvlab_dtype_parse(t, &d))
            return spmvlab_errf(err, "unknown dtype '%s'; use f64, f32 or f16", t), -1;
        int seen = 0;
        for (int k = 0; k < s->ndtypes; k++)
            seen |= s->dtypes[k] == d;
        if (!seen)
            s->dtypes[s->ndtypes++] = d;
    }
    if (!s->ndtypes)
        return spmvlab_errf(err, "no dtype given; use f64, f32 or f16"), -1;
    return 0;
}

static int parse_timing(run_settings *s, const char *t, spmvlab_err *err)
{
    if (strcmp(t, "batch") == 0)
        s->timing = RUN_TIMING_BATCH;
    else if (strcmp(t, "single") == 0)
        s->timing = RUN_TIMING_SINGLE;
    else
        return spmvlab_errf(err, "unknown timing '%s'; use batch or single", t), -1;
    return 0;
}

static int push_str(char **list, int *n, int max, const char *v, const char *what, spmvlab_err *err)
{
    if (*n == max)
        return spmvlab_errf(err, "more than %d %s", max, what), -1;
    list[*n] = strdup(v);
    if (!list[*n])
        return spmvlab_errf(err, "out of host memory"), -1;
    (*n)++;
    return 0;
}

/* --set VALUE: an instance override when it holds '=', else a matrix set. */
static int add_set(run_settings *s, const char *v, spmvlab_err *err)
{
    if (!v[0])
        return spmvlab_errf(err, "--set needs LABEL.KEY=VALUES or the name of a matrix set"), -1;
    if (strchr(v, '='))
        return push_str(s->overrides, &s->noverrides, RUN_MAX_LIST, v, "--set overrides", err);
    return push_str(s->set_names, &s->nset_names, RUN_MAX_LIST, v, "matrix sets", err);
}

static void usage(FILE *out, run_mode mode)
{
    if (mode == RUN_MODE_TUNE)
        fprintf(out,
                "usage: spmvlab tune -p LABEL --set LABEL.KEY=V1,V2,... [options] MATRICES...\n"
                "Measures every combination of the swept options on each matrix and picks the\n"
                "fastest; reports the search time and memory. Takes the options of run.\n\n");
    else
        fprintf(out, "usage: spmvlab run -p LABELS [options] MATRICES...\n"
                     "Converts, verifies and times plugin instances over matrices (A/B).\n\n");
    fprintf(out,
            "MATRICES are .mtx / .mtx.gz files or folders of them.\n"
            "  -p LABELS              instances: plugin names or INI section labels, comma list\n"
            "                         (default: plugins = in [run], else every section of -c FILE)\n"
            "  -c FILE.ini            instance sections and a [run] section (flags win)\n"
            "  --dtype f64|f32|f16    value type(s), comma list (default f64)\n"
            "  -o OUT.csv             one row per matrix x instance x dtype, appended as measured\n"
            "                         (the summary goes to OUT-summary.csv)\n"
            "  --json OUT.json        rows, samples and summary\n"
            "  --baseline LABEL       speedups relative to LABEL (default cusparse, else csr, else first)\n"
            "  --set LABEL.KEY=V[,V]  set or sweep an option of an instance (repeatable)\n"
            "  --set NAME             add the matrices of a set: small, large or FILE.ini\n"
            "  --plugin-dir DIR       search DIR for plugins first\n"
            "  --reps N               most rounds per matrix (default 100)\n"
            "  --warmup N             untimed launches per instance (default 10)\n"
            "  --time-budget-ms T     stop a matrix after T ms per instance, >= 10 rounds (default 1000;\n"
            "                         0: only --reps counts)\n"
            "  --timing batch|single  which timing drives speedups and summaries (default batch)\n"
            "  --noise F              a win or loss also needs the speedup beyond 1 +- F (default 0.01)\n"
            "  --flush-l2             overwrite a buffer larger than L2 before every sample\n"
            "  --isolate              each instance x matrix in a child process (crash, timeout)\n"
            "  --timeout SECONDS      per child with --isolate (default 120)\n"
            "  --resume OUT.csv       keep the cells already in OUT.csv, measure and append the rest\n"
            "  --seed N               seed of the random x (default 1)\n"
            "  --mem-limit BYTES      device bytes one instance may hold (e.g. 4G)\n"
            "  --columns              print the CSV columns with their meaning and exit\n"
            "  -v                     plugin log lines and format facts\n"
            "Without a GPU, run says so once and checks each instance's spmv_host (no timings).\n");
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

/* A relative matrix path of the INI file: as given when it exists, else
 * beside the INI file. */
static void resolve_ini_path(const char *ini, const char *p, char *out, size_t len)
{
    struct stat st;
    snprintf(out, len, "%s", p);
    if (p[0] == '/' || stat(p, &st) == 0)
        return;
    const char *slash = strrchr(ini, '/');
    if (slash)
        snprintf(out, len, "%.*s/%s", (int)(slash - ini), ini, p);
}

static int run_key(run_settings *s, const spmvlab_kv *kv, unsigned given, spmvlab_err *err)
{
    char at[600];
    snprintf(at, sizeof at, "%s:%d: [run] %s", kv->file, kv->line, kv->key);
    const char *v = kv->value, *k = kv->key;
    spmvlab_err why;
    if (strcmp(k, "plugins") == 0) {
        if (!(given & GIVEN_LABELS))
            snprintf(s->labels, sizeof s->labels, "%s", v);
    } else if (strcmp(k, "matrices") == 0) {
        if (given & GIVEN_MATRICES)
            return 0;
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", v);
        for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
            char p[4096];
            resolve_ini_path(kv->file, t, p, sizeof p);
            if (push_str(s->matrix_args, &s->nmatrix_args, RUN_MAX_LIST, p, "matrix arguments", &why))
                return spmvlab_errf(err, "%s: %s", at, why.msg), -1;
        }
    } else if (strcmp(k, "set") == 0) {
        if (given & GIVEN_MATRICES)
            return 0;
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", v);
        for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
            if (strchr(t, '='))
                return spmvlab_errf(err, "%s names matrix sets; options belong in the instance's section", at), -1;
            char p[4096];
            if (strstr(t, ".ini"))
                resolve_ini_path(kv->file, t, p, sizeof p);
            else
                snprintf(p, sizeof p, "%s", t);
            if (push_str(s->set_names, &s->nset_names, RUN_MAX_LIST, p, "matrix sets", &why))
                return spmvlab_errf(err, "%s: %s", at, why.msg), -1;
        }
    } else if (strcmp(k, "dtype") == 0) {
        if (!(given & GIVEN_DTYPE) && parse_dtypes(s, v, &why))
            return spmvlab_errf(err, "%s: %s", at, why.msg), -1;
    } else if (strcmp(k, "reps") == 0) {
        if (!(given & GIVEN_REPS) && parse_int(v, 1, 100000000, &s->reps))
            return spmvlab_errf(err, "%s = %s is not a whole number from 1 on", at, v), -1;
    } else if (strcmp(k, "warmup") == 0) {
        if (!(given & GIVEN_WARMUP) && parse_int(v, 0, 100000000, &s->warmup))
            return spmvlab_errf(err, "%s = %s is not a whole number from 0 on", at, v), -1;
    } else if (strcmp(k, "time_budget_ms") == 0) {
        if (!(given & GIVEN_BUDGET) && parse_double(v, 0, 1e12, &s->time_budget_ms))
            return spmvlab_errf(err, "%s = %s is not a number of milliseconds >= 0", at, v), -1;
    } else if (strcmp(k, "baseline") == 0) {
        if (!(given & GIVEN_BASELINE))
            snprintf(s->baseline, sizeof s->baseline, "%s", v);
    } else if (strcmp(k, "output") == 0) {
        if (!(given & GIVEN_OUTPUT))
            snprintf(s->output, sizeof s->output, "%s", v);
    } else if (strcmp(k, "json") == 0) {
        if (!(given & GIVEN_JSON))
            snprintf(s->json, sizeof s->json, "%s", v);
    } else if (strcmp(k, "flush_l2") == 0) {
        if (!(given & GIVEN_FLUSH) && parse_bool(v, &s->flush_l2))
            return spmvlab_errf(err, "%s = %s is not true or false", at, v), -1;
    } else if (strcmp(k, "isolate") == 0) {
        if (!(given & GIVEN_ISOLATE) && parse_bool(v, &s->isolate))
            return spmvlab_errf(err, "%s = %s is not true or false", at, v), -1;
    } else if (strcmp(k, "timeout") == 0) {
        if (!(given & GIVEN_TIMEOUT) && parse_double(v, 0.001, 1e9, &s->timeout_s))
            return spmvlab_errf(err, "%s = %s is not a number of seconds > 0", at, v), -1;
    } else if (strcmp(k, "seed") == 0) {
        if (!(given & GIVEN_SEED) && parse_u64(v, &s->seed))
            return spmvlab_errf(err, "%s = %s is not a whole number >= 0", at, v), -1;
    } else if (strcmp(k, "mem_limit") == 0) {
        if (!(given & GIVEN_MEMLIMIT) && run_parse_bytes(v, &s->mem_limit))
            return spmvlab_errf(err, "%s = %s is not a byte count (e.g. 4G)", at, v), -1;
    } else if (strcmp(k, "timing") == 0) {
        if (!(given & GIVEN_TIMING) && parse_timing(s, v, &why))
            return spmvlab_errf(err, "%s: %s", at, why.msg), -1;
    } else if (strcmp(k, "noise") == 0) {
        if (!(given & GIVEN_NOISE) && parse_double(v, 0, 1, &s->noise))
            return spmvlab_errf(err, "%s = %s is not a fraction from 0 to 1", at, v), -1;
    } else if (strcmp(k, "plugin_dir") == 0) {
        char p[4096];
        resolve_ini_path(kv->file, v, p, sizeof p);
        if (push_str(s->plugin_dirs, &s->nplugin_dirs, 32, p, "plugin folders", &why))
            return spmvlab_errf(err, "%s: %s", at, why.msg), -1;
    } else {
        return spmvlab_errf(err,
                            "%s:%d: unknown key '%s' in [run]; known: plugins, matrices, set, dtype, reps, "
                            "warmup, time_budget_ms, timing, noise, baseline, output, json, flush_l2, isolate, "
                            "timeout, seed, mem_limit, plugin_dir",
                            kv->file, kv->line, k),
               -1;
    }
    return 0;
}

int run_settings_parse(run_settings *s, spmvlab_config *cfg, run_mode mode, int argc, char **argv,
                       spmvlab_err *err)
{
    memset(s, 0, sizeof *s);
    s->mode = mode;
    s->prog = mode == RUN_MODE_TUNE ? "spmvlab tune" : "spmvlab run";
    s->dtypes[0] = SPMVLAB_F64;
    s->ndtypes = 1;
    s->reps = 100;
    s->warmup = 10;
    s->time_budget_ms = 1000;
    s->timeout_s = 120;
    s->seed = 1;
    s->noise = 0.01;
    build_command(s, argc, argv);
    unsigned given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
#define NEED()                                                                         \
    do {                                                                               \
        if (!v)                                                                        \
            return spmvlab_errf(err, "%s needs a value; see --help", a), -1;            \
    } while (0)
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout, mode);
            return 1;
        } else if (strcmp(a, "--columns") == 0) {
            s->show_columns = 1;
            takes = 0;
        } else if (strcmp(a, "-p") == 0 || strcmp(a, "--plugins") == 0) {
            NEED();
            snprintf(s->labels, sizeof s->labels, "%s", v);
            given |= GIVEN_LABELS;
        } else if (strcmp(a, "-c") == 0 || strcmp(a, "--config") == 0) {
            NEED();
            snprintf(s->config_path, sizeof s->config_path, "%s", v);
        } else if (strcmp(a, "--dtype") == 0) {
            NEED();
            if (parse_dtypes(s, v, err))
                return -1;
            given |= GIVEN_DTYPE;
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            NEED();
            snprintf(s->output, sizeof s->output, "%s", v);
            given |= GIVEN_OUTPUT;
        } else if (strcmp(a, "--json") == 0) {
            NEED();
            snprintf(s->json, sizeof s->json, "%s", v);
            given |= GIVEN_JSON;
        } else if (strcmp(a, "--baseline") == 0) {
            NEED();
            snprintf(s->baseline, sizeof s->baseline, "%s", v);
            given |= GIVEN_BASELINE;
        } else if (strcmp(a, "--set") == 0) {
            NEED();
            if (add_set(s, v, err))
                return -1;
            if (!strchr(v, '='))
                given |= GIVEN_MATRICES;
        } else if (strcmp(a, "--plugin-dir") == 0) {
            NEED();
            if (push_str(s->plugin_dirs, &s->nplugin_dirs, 32, v, "plugin folders", err))
                return -1;
        } else if (strcmp(a, "--reps") == 0) {
            NEED();
            if (parse_int(v, 1, 100000000, &s->reps))
                return spmvlab_errf(err, "--reps %s is not a whole number from 1 on", v), -1;
            given |= GIVEN_REPS;
        } else if (strcmp(a, "--warmup") == 0) {
            NEED();
            if (parse_int(v, 0, 100000000, &s->warmup))
                return spmvlab_errf(err, "--warmup %s is not a whole number from 0 on", v), -1;
            given |= GIVEN_WARMUP;
        } else if (strcmp(a, "--time-budget-ms") == 0) {
            NEED();
            if (parse_double(v, 0, 1e12, &s->time_budget_ms))
                return spmvlab_errf(err, "--time-budget-ms %s is not a number of milliseconds >= 0", v), -1;
            given |= GIVEN_BUDGET;
        } else if (strcmp(a, "--timing") == 0) {
            NEED();
            if (parse_timing(s, v, err))
                return -1;
            given |= GIVEN_TIMING;
        } else if (strcmp(a, "--noise") == 0) {
            NEED();
            if (parse_double(v, 0, 1, &s->noise))
                return spmvlab_errf(err, "--noise %s is not a fraction from 0 to 1", v), -1;
            given |= GIVEN_NOISE;
        } else if (strcmp(a, "--flush-l2") == 0) {
            s->flush_l2 = 1;
            given |= GIVEN_FLUSH;
            takes = 0;
        } else if (strcmp(a, "--isolate") == 0) {
            s->isolate = 1;
            given |= GIVEN_ISOLATE;
            takes = 0;
        } else if (strcmp(a, "--timeout") == 0) {
            NEED();
            if (parse_double(v, 0.001, 1e9, &s->timeout_s))
                return spmvlab_errf(err, "--timeout %s is not a number of seconds > 0", v), -1;
            given |= GIVEN_TIMEOUT;
        } else if (strcmp(a, "--resume") == 0) {
            NEED();
            snprintf(s->resume, sizeof s->resume, "%s", v);
        } else if (strcmp(a, "--seed") == 0) {
            NEED();
            if (parse_u64(v, &s->seed))
                return spmvlab_errf(err, "--seed %s is not a whole number >= 0", v), -1;
            given |= GIVEN_SEED;
        } else if (strcmp(a, "--mem-limit") == 0) {
            NEED();
            if (run_parse_bytes(v, &s->mem_limit))
                return spmvlab_errf(err, "--mem-limit %s is not a byte count (e.g. 4G)", v), -1;
            given |= GIVEN_MEMLIMIT;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            s->verbose = 1;
            takes = 0;
        } else if (a[0] == '-' && a[1]) {
            return spmvlab_errf(err, "unknown option '%s'; see %s --help", a, s->prog), -1;
        } else {
            if (push_str(s->matrix_args, &s->nmatrix_args, RUN_MAX_LIST, a, "matrix arguments", err))
                return -1;
            given |= GIVEN_MATRICES;
            takes = 0;
        }
#undef NEED
        i += takes;
    }
    if (s->show_columns)
        return 1;
    if (s->config_path[0]) {
        if (spmvlab_config_read(cfg, s->config_path, err))
            return -1;
        const spmvlab_section *run = spmvlab_config_section(cfg, "run");
        for (int k = 0; run && k < run->nkv; k++)
            if (run_key(s, &run->kv[k], given, err))
                return -1;
    }
    if (s->resume[0]) {
        if (s->output[0] && strcmp(s->output, s->resume) != 0 && (given & GIVEN_OUTPUT))
            return spmvlab_errf(err, "--resume %s and -o %s name different files; resume appends to the file it reads",
                                s->resume, s->output),
                   -1;
        snprintf(s->output, sizeof s->output, "%s", s->resume);
    }
    /* Without -p or plugins =, every instance section of the file runs. */
    for (int j = 0, from_file = !s->labels[0]; from_file && j < cfg->nsections; j++) {
        size_t n = strlen(s->labels);
        if (strcmp(cfg->sections[j].label, "run") != 0)
            snprintf(s->labels + n, sizeof s->labels - n, "%s%s", n ? "," : "", cfg->sections[j].label);
    }
    if (!s->labels[0])
        return spmvlab_errf(err, "no instances given: use -p LABELS (or plugins = in [run], or instance sections in -c FILE)"),
               -1;
    if (!s->nmatrix_args && !s->nset_names)
        return spmvlab_errf(err, "no matrices given: name files, folders or --set NAME (or matrices = in [run])"), -1;
    return 0;
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
}
