/*
 * Command line and [run] section of run / tune; see run_options.h.
 *
 * The settings are rows of the one option table (host/options): name,
 * type, default, range or choices, help, the [run] key. The command line
 * and the [run] section are read by the table's reader; each use goes
 * where run_values.c keeps its row's value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_options.h"
#include "run_options.h"
#include "run_values.h"
#include "spmvlab/core.h"

/* What run_settings.engine holds: the flags read and copies of the INI
 * file's texts, which string members point into. */
typedef struct run_read {
    spmvlab_flags flags;
    char **texts;
    int ntexts;
} run_read;

int run_flag_values(const char *arg)
{
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
        return 0;
    spmvlab_flags f;
    host_options_init(&f, HOST_RUN, "spmvlab run");
    int k = spmvlab_flags_row_of(&f, arg);
    return k < 0 ? -1 : host_options[k].meta != NULL;
}

/* run's or tune's --help: what it does, then the table's flags. */
static void usage(const spmvlab_flags *f, FILE *out, run_mode mode)
{
    const char *intro =
        mode == RUN_MODE_TUNE
            ? "usage: spmvlab tune -p LABEL --option LABEL.KEY=V1,V2,... [options] MATRICES...\n"
              "Measures every combination of the swept options on each matrix and picks the\n"
              "fastest; reports the search time and memory. Takes the options of run.\n\n"
            : "usage: spmvlab run -p LABELS [options] MATRICES...\n"
              "Converts, verifies and times plugin instances over matrices (A/B).\n\n";
    fputs(intro, out);
    host_options_help(f, "MATRICES are .mtx / .mtx.gz files, SuiteSparse archives (Name.tar.gz), folders of them\n"
                         "(also in the ssget layout Group/Name/), or list files (.txt: a path or Group/Name a line).\n"
                         "Every option with a value and every switch is also a key of the [run] section of\n"
                         "-c FILE.ini (key: the flag without '--', '-' as '_'; not -c, --option, --device,\n"
                         "--columns); flags win. Without a GPU, run says so once and checks each instance's\n"
                         "spmv_host (no timings).\n",
                      out);
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

/* The command line into s; given[k] marks the rows it set. Returns 0, 1
 * (help printed) or -1 with a sentence. */
static int parse_argv(run_settings *s, spmvlab_flags *f, int argc, char **argv, char *given, spmvlab_err *err)
{
    int rc = spmvlab_flags_parse(f, argc, argv, err);
    if (rc == SPMVLAB_FLAGS_HELP)
        usage(f, stdout, s->mode);
    else if (rc == SPMVLAB_FLAGS_MARKDOWN)
        spmvlab_flags_markdown(f, stdout);
    if (rc)
        return rc < 0 ? -1 : 1;
    for (int i = 0; i < f->noperands; i++) {
        if (run_push_str(s->matrix_args, &s->nmatrix_args, RUN_MAX_LIST, f->operands[i], "matrix arguments", err))
            return -1;
        s->matrices_given = 1;
    }
    for (int u = 0; u < f->nuses; u++) {
        if (run_store(s, &f->uses[u], err))
            return -1;
        given[f->uses[u].row] = 1;
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
            for (int k = 0; k < OPT_COUNT; k++)
                if ((host_options[k].commands & HOST_RUN) &&
                    (host_options[k].flags & (SPMVLAB_FLAG_INI | SPMVLAB_FLAG_INI_ONLY)) &&
                    strcmp(host_options[k].opt.key, sec->kv[i].key) == 0)
                    return spmvlab_errf(err, "%s:%d: section [%s] (did you mean [run]?) is neither [run] nor an "
                                        "instance: its '%s =' is a key of [run]", sec->file, sec->line, sec->label,
                                        sec->kv[i].key),
                           -1;
    }
    return 0;
}

/* The [run] section of the INI file, for the rows the command line left. */
static int parse_ini(run_settings *s, run_read *r, spmvlab_config *cfg, const char *given, spmvlab_err *err)
{
    const spmvlab_section *run = spmvlab_config_section(cfg, "run");
    for (int j = 0; run && j < run->nkv; j++) {
        const spmvlab_kv *kv = &run->kv[j];
        int k = spmvlab_flags_ini_row(&r->flags, "run", kv->key, kv->file, kv->line, err);
        if (k < 0)
            return -1;
        /* Plugin folders add up; any other flag replaces the file's value. */
        if (given[k] && k != OPT_PLUGIN_DIR)
            continue;
        char **g = realloc(r->texts, (size_t)(r->ntexts + 1) * sizeof *g);
        char *text = strdup(kv->value);
        if (!g || !text) {
            free(text);
            if (g)
                r->texts = g;
            return spmvlab_errf(err, "out of host memory"), -1;
        }
        r->texts = g;
        r->texts[r->ntexts++] = text;
        if (spmvlab_flags_add(&r->flags, k, text, kv->file, kv->line, err) ||
            run_store(s, &r->flags.uses[r->flags.nuses - 1], err))
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
        if (s->output[0] && strcmp(s->output, s->resume) != 0 && given[OPT_OUTPUT])
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
        return spmvlab_errf(err, "no matrices given: name files, folders or --matrix-set NAME (or matrices = in [run])"),
               -1;
    return 0;
}

int run_settings_parse(run_settings *s, spmvlab_config *cfg, run_mode mode, int argc, char **argv,
                       spmvlab_err *err)
{
    memset(s, 0, sizeof *s);
    s->mode = mode;
    s->prog = mode == RUN_MODE_TUNE ? "spmvlab tune" : "spmvlab run";
    s->shard_count = 1;
    s->part = -1;
    build_command(s, argc, argv);
    run_read *r = calloc(1, sizeof *r);
    if (!r)
        return spmvlab_errf(err, "out of host memory"), -1;
    s->engine = r;
    host_options_init(&r->flags, mode == RUN_MODE_TUNE ? HOST_TUNE : HOST_RUN, s->prog);
    if (run_store_defaults(s, err))
        return -1;
    char given[OPT_COUNT] = {0};
    int rc = parse_argv(s, &r->flags, argc, argv, given, err);
    if (rc == 0 && !s->show_columns && s->config_path[0])
        rc = spmvlab_config_read(cfg, s->config_path, err) ? -1 : parse_ini(s, r, cfg, given, err);
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
            return spmvlab_errf(err, "--option %s names no instance; write LABEL.%s when several instances run",
                                s->overrides[o], buf),
                   -1;
        }
        if (!label[0] || !key[0])
            return spmvlab_errf(err, "--option %s is not of the form LABEL.KEY=VALUES", s->overrides[o]), -1;
        int listed = 0;
        for (int i = 0; i < nl; i++)
            listed |= strcmp(labels[i], label) == 0;
        if (!listed)
            return spmvlab_errf(err, "--option %s names instance '%s', which is not among the instances (%s)",
                                s->overrides[o], label, s->labels),
                   -1;
        if (strcmp(key, "plugin") == 0 || strcmp(key, "library") == 0)
            return spmvlab_errf(err, "--option %s: the plugin of an instance is chosen in its INI section",
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
    run_read *r = s->engine;
    if (r) {
        spmvlab_flags_free(&r->flags);
        for (int i = 0; i < r->ntexts; i++)
            free(r->texts[i]);
        free(r->texts);
        free(r);
        s->engine = NULL;
    }
    s->labels = s->output = s->json = s->baseline = s->resume = "";
}
