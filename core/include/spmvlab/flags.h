/*
 * Command-line flags as rows of a table, in the style of a plugin's option
 * table: each row is a spmvlab_option (key, type, default, range or choices,
 * help) plus the commands that take it, a short spelling, the value's name
 * in --help and whether it is also a key of an INI section. The flag is the
 * key with '_' as '-' ("time_budget_ms" is --time-budget-ms). The reader
 * below turns argv into the uses of the rows, typed and range-checked by the
 * core's option parser, and the operands; it prints --help and the Markdown
 * table of a command's flags from the same rows, and refuses an unknown
 * flag with the nearest known one.
 */
#ifndef SPMVLAB_FLAGS_H
#define SPMVLAB_FLAGS_H

#include <stdio.h>

#include "spmvlab/core.h"

/* Bits of spmvlab_flag.flags. */
#define SPMVLAB_FLAG_INI 1u      /* also a key of the command's INI section ([run]) */
#define SPMVLAB_FLAG_INI_ONLY 2u /* only a key of the INI section: no flag */
#define SPMVLAB_FLAG_REPEAT 4u   /* each use counts (a list); else the last use wins */

typedef struct spmvlab_flag {
    spmvlab_option opt;  /* key, type, default, range ("lo..hi") or choices, help */
    unsigned commands;   /* bit set of the commands that take it (the caller's numbering) */
    const char *alias;   /* a short spelling ("-o"), or NULL */
    const char *meta;    /* the value's name in --help ("N", "FILE"); NULL for a switch */
    unsigned flags;      /* SPMVLAB_FLAG_* */
} spmvlab_flag;

/* An old spelling of a row's flag, kept for some commands: a use of it is
 * a use of row `to`, announced with one line on stderr. `when` picks by the
 * value: '=' only a value holding '=', '!' only one without, 0 any. */
typedef struct spmvlab_flag_alias {
    const char *old;
    unsigned commands;
    char when;
    int to;
} spmvlab_flag_alias;

/* One use of a row: the text as given, typed by the row's parser. */
typedef struct spmvlab_flag_use {
    int row;              /* index into rows, or nrows + k for row k of extra */
    const char *text;
    spmvlab_opt_value v;
    const char *file;     /* the INI file of a value read from one, else NULL */
    int line;
} spmvlab_flag_use;

typedef struct spmvlab_flags {
    const spmvlab_flag *rows;           /* ends with opt.key == NULL */
    int nrows;
    const spmvlab_flag_alias *aliases;  /* ends with old == NULL; may be NULL */
    const spmvlab_option *extra;        /* more rows taken as --KEY VALUE (gen's parameters); may be NULL */
    unsigned command;                   /* the command's bit */
    unsigned ini_commands;              /* the commands that read the INI section (0: none) */
    const char *prog;                   /* "spmvlab run", for messages */
    spmvlab_flag_use *uses;             /* in the order given */
    int nuses, cap;
    const char **operands;              /* the arguments that are not flags, in order */
    int noperands;
} spmvlab_flags;

enum { SPMVLAB_FLAGS_GO = 0, SPMVLAB_FLAGS_HELP = 1, SPMVLAB_FLAGS_MARKDOWN = 2 };

/* Starts f over rows (and aliases, may be NULL) for one command; set
 * f->ini_commands for the commands that read an INI section. */
void spmvlab_flags_init(spmvlab_flags *f, const spmvlab_flag *rows, const spmvlab_flag_alias *aliases,
                        unsigned command, const char *prog);
/* Reads argv (argv[0] is the command): --flag VALUE, --flag=VALUE, a
 * switch, a short spelling, an old spelling (its note on stderr), "--"
 * before operands. Returns SPMVLAB_FLAGS_GO, _HELP (-h, --help) or
 * _MARKDOWN (--help=markdown), or -1 with one sentence in err. */
int spmvlab_flags_parse(spmvlab_flags *f, int argc, char **argv, spmvlab_err *err);
/* Adds the use of row as from file:line (file NULL: the command line),
 * checked against its type and range. Returns 0 or -1 with a sentence. */
int spmvlab_flags_add(spmvlab_flags *f, int row, const char *text, const char *file, int line, spmvlab_err *err);
/* The row an INI key of the command names, or -1 with a sentence naming
 * file:line, the nearest key and every key the section knows. */
int spmvlab_flags_ini_row(const spmvlab_flags *f, const char *section, const char *key, const char *file, int line,
                          spmvlab_err *err);
/* The row whose flag (or short or old spelling) is arg for the command, or -1. */
int spmvlab_flags_row_of(const spmvlab_flags *f, const char *arg);
void spmvlab_flags_free(spmvlab_flags *f);

/* How many times row was given. */
int spmvlab_flags_given(const spmvlab_flags *f, int row);
/* The last use of row, or NULL. */
const spmvlab_flag_use *spmvlab_flags_last(const spmvlab_flags *f, int row);
/* The last text given for row, else its default. */
const char *spmvlab_flags_text(const spmvlab_flags *f, int row);
/* The uses of row one by one: *at starts at 0; NULL after the last. */
const spmvlab_flag_use *spmvlab_flags_next(const spmvlab_flags *f, int row, int *at);

/* The command's flags, one a line with the value's name, help and default,
 * wrapped at 100 columns. */
void spmvlab_flags_print(const spmvlab_flags *f, FILE *out);
/* The command's flags as a Markdown table (flag, value, default, INI key,
 * meaning): the README's tables are this output. */
void spmvlab_flags_markdown(const spmvlab_flags *f, FILE *out);
/* The flag of row as written on the command line ("--time-budget-ms"). */
void spmvlab_flag_name(const spmvlab_flag *row, char *out, size_t len);

#endif
