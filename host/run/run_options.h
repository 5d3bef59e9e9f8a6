/*
 * Settings of `spmvlab run` and `spmvlab tune`: the command line, the [run]
 * section of an INI file (command-line flags win), instance overrides
 * (--option LABEL.KEY=VALUES) and matrix sets (--matrix-set NAME). Each
 * setting is one row of the option table of every command (host/options),
 * which gives its flag, its INI key, its type, range and help.
 */
#ifndef SPMVLAB_HOST_RUN_OPTIONS_H
#define SPMVLAB_HOST_RUN_OPTIONS_H

#include "run_settings.h"

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

/* How many values the command-line flag arg takes: 0 (a switch), 1, or -1
 * when run does not know it (then it is a matrix when it does not start
 * with '-'). For the workers of --devices, which pass flags on. */
int run_flag_values(const char *arg);

#endif
