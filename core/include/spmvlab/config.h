/*
 * Configuration: INI files read with inih (line numbers counted here, since
 * Debian's inih does not pass them), instance sections, the [run] section,
 * command-line overrides and sweeps (value lists expand to one instance per
 * combination).
 */
#ifndef SPMVLAB_CONFIG_H
#define SPMVLAB_CONFIG_H

#include "spmvlab/core.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPMVLAB_NAME_MAX 48 /* inih keeps 49 characters of names; longer ones are refused */

/* One key = value as written, with where it was written. */
typedef struct spmvlab_kv {
    char key[64];
    char *value;        /* owned; continuation lines joined with a space */
    char file[512];     /* "" for the command line */
    int line;           /* 0 for the command line */
    int cont_line;      /* last line a continuation was joined from */
} spmvlab_kv;

/* A section of the file: [run] or an instance label. */
typedef struct spmvlab_section {
    char label[64];
    char file[512];
    int line;
    spmvlab_kv *kv;
    int nkv;
} spmvlab_section;

typedef struct spmvlab_config {
    spmvlab_section *sections;
    int nsections;
} spmvlab_config;

/* Reads an INI file and appends its sections to cfg (a label seen again
 * extends the earlier section). Returns 0, or -1 with "FILE:LINE: cause". */
int spmvlab_config_read(spmvlab_config *cfg, const char *path, spmvlab_err *err);
/* Same from a string (for tests), with name standing in for the file. */
int spmvlab_config_read_string(spmvlab_config *cfg, const char *text, const char *name, spmvlab_err *err);
void spmvlab_config_free(spmvlab_config *cfg);
spmvlab_section *spmvlab_config_section(spmvlab_config *cfg, const char *label);
/* Value of key in section, or NULL. */
const spmvlab_kv *spmvlab_section_get(const spmvlab_section *s, const char *key);
/* Adds or replaces key = value (a command-line override). */
int spmvlab_section_set(spmvlab_section *s, const char *key, const char *value, spmvlab_err *err);
/* Section with that label, created when missing. */
spmvlab_section *spmvlab_config_section_add(spmvlab_config *cfg, const char *label);

/* The settings of a selector instance (a section with `plugin = select`):
 * it has no plugin of its own; per matrix, `spmvlab run` takes the plugin
 * and options that the corpus's results favour (host/select/select.h). */
typedef struct spmvlab_selector_spec {
    char results[512];          /* results CSV of the corpus */
    char features[512];         /* corpus features file, or "" */
    int k;                      /* neighbours weighed; 0: the selector's default */
    int part;                   /* corpus members of this spmvlab_part only, or -1: all */
} spmvlab_selector_spec;

/* A resolved instance: its plugin and validated options. */
typedef struct spmvlab_instance_spec {
    char label[128];            /* e.g. "sell-sigma1" or "sell[sigma=32]" in sweeps */
    char base_label[64];        /* the section it came from */
    const spmvlab_loaded *plugin; /* NULL for a selector */
    spmvlab_optset opts;
    char options_text[512];     /* "key=value ..." of every option, for results */
    int selector;               /* 1: a selector instance; see select below */
    spmvlab_selector_spec select;
} spmvlab_instance_spec;

/* The plugin name that makes a section a selector instance. */
#define SPMVLAB_SELECTOR_PLUGIN "select"
#define SPMVLAB_SELECTOR_MAX_K 32 /* most neighbours one choice weighs */

/* Resolves the labels (comma list) against cfg: a label without a section is
 * the plugin of that name with defaults. `plugin =` and `library =` choose the
 * plugin; every other key is validated against the plugin's table; value
 * lists (a, b, c) expand into sweeps. A section with `plugin = select` is a
 * selector instance: its keys are results (required), features, k and part. Returns the count, or -1 with a
 * sentence naming file and line. */
int spmvlab_config_resolve(spmvlab_config *cfg, spmvlab_registry *reg, const char *labels,
                           spmvlab_instance_spec **out, spmvlab_err *err);
void spmvlab_instance_specs_free(spmvlab_instance_spec *specs, int n);

#ifdef __cplusplus
}
#endif
#endif
