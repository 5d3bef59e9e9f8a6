/*
 * The reader of command lines declared as flag rows (spmvlab/flags.h):
 * argv into typed uses of the rows and operands, the INI keys of the same
 * rows, --help and the Markdown table, all from the one table.
 */
#include <stdlib.h>
#include <string.h>

#include "spmvlab/flags.h"

void spmvlab_flag_name(const spmvlab_flag *row, char *out, size_t len)
{
    snprintf(out, len, "--%s", row->opt.key);
    for (char *p = out + 2; *p; p++)
        if (*p == '_')
            *p = '-';
}

/* Whether row is a key of the INI section f's command reads. */
static int is_key(const spmvlab_flags *f, const spmvlab_flag *row)
{
    return (row->commands & f->command & f->ini_commands) &&
           (row->flags & (SPMVLAB_FLAG_INI | SPMVLAB_FLAG_INI_ONLY));
}

/* Whether row is a flag of f's command on the command line. */
static int takes(const spmvlab_flags *f, const spmvlab_flag *row)
{
    return (row->commands & f->command) && !(row->flags & SPMVLAB_FLAG_INI_ONLY);
}

void spmvlab_flags_init(spmvlab_flags *f, const spmvlab_flag *rows, const spmvlab_flag_alias *aliases,
                        unsigned command, const char *prog)
{
    memset(f, 0, sizeof *f);
    f->rows = rows;
    f->aliases = aliases;
    f->command = command;
    f->prog = prog;
    while (rows[f->nrows].opt.key)
        f->nrows++;
}

/* The option row of use index row: a table row or a row of extra. */
static const spmvlab_option *option_of(const spmvlab_flags *f, int row)
{
    return row < f->nrows ? &f->rows[row].opt : &f->extra[row - f->nrows];
}

int spmvlab_flags_row_of(const spmvlab_flags *f, const char *arg)
{
    char flag[80];
    for (int k = 0; k < f->nrows; k++) {
        if (!takes(f, &f->rows[k]))
            continue;
        spmvlab_flag_name(&f->rows[k], flag, sizeof flag);
        if (strcmp(arg, flag) == 0 || (f->rows[k].alias && strcmp(arg, f->rows[k].alias) == 0))
            return k;
    }
    for (int k = 0; f->extra && f->extra[k].key; k++)
        if (strncmp(arg, "--", 2) == 0 && strcmp(arg + 2, f->extra[k].key) == 0)
            return f->nrows + k;
    for (const spmvlab_flag_alias *a = f->aliases; a && a->old; a++)
        if ((a->commands & f->command) && strcmp(arg, a->old) == 0)
            return a->to;
    return -1;
}

/* An old spelling's row, chosen by the value; prints its note. -1 when arg
 * is no old spelling of the command. */
static int alias_row(const spmvlab_flags *f, const char *arg, const char *value)
{
    for (const spmvlab_flag_alias *a = f->aliases; a && a->old; a++) {
        if (!(a->commands & f->command) || strcmp(arg, a->old) != 0)
            continue;
        int eq = value && strchr(value, '=') != NULL;
        if ((a->when == '=' && !eq) || (a->when == '!' && eq))
            continue;
        char flag[80];
        spmvlab_flag_name(&f->rows[a->to], flag, sizeof flag);
        fprintf(stderr, "%s: note: %s is now spelled %s here; the old spelling still works.\n", f->prog, arg, flag);
        return a->to;
    }
    return -1;
}

int spmvlab_flags_add(spmvlab_flags *f, int row, const char *text, const char *file, int line, spmvlab_err *err)
{
    const spmvlab_option *o = option_of(f, row);
    spmvlab_flag_use u = {row, text, {0}, file, line};
    /* extra rows are read by their owner's parser (gen's few:K values) */
    spmvlab_opt_problem problem = row < f->nrows ? spmvlab_option_parse(o, text, &u.v) : SPMVLAB_OPT_FINE;
    if (problem != SPMVLAB_OPT_FINE) {
        char flag[80], allowed[400];
        snprintf(flag, sizeof flag, "--%s", o->key);
        if (row < f->nrows)
            spmvlab_flag_name(&f->rows[row], flag, sizeof flag);
        spmvlab_option_expected(o, problem, allowed, sizeof allowed);
        if (file)
            spmvlab_errf(err, "%s:%d: [run] %s = '%s' is invalid: expected %s", file, line, o->key, text, allowed);
        else
            spmvlab_errf(err, "%s '%s' is invalid: expected %s", flag, text, allowed);
        return -1;
    }
    u.v.s = text;
    if (f->nuses == f->cap) {
        int cap = f->cap ? 2 * f->cap : 16;
        spmvlab_flag_use *g = realloc(f->uses, (size_t)cap * sizeof *g);
        if (!g)
            return spmvlab_errf(err, "out of host memory"), -1;
        f->uses = g;
        f->cap = cap;
    }
    f->uses[f->nuses++] = u;
    return 0;
}

/* Refuses an unknown flag with the nearest flag of the command. Returns -1. */
static int unknown_flag(const spmvlab_flags *f, const char *arg, spmvlab_err *err)
{
    char names[256][80], hint[96];
    const char *list[258];
    int n = 0;
    for (int k = 0; k < f->nrows && n < 254; k++)
        if (takes(f, &f->rows[k])) {
            spmvlab_flag_name(&f->rows[k], names[n], sizeof names[n]);
            list[n] = names[n];
            n++;
        }
    for (int k = 0; f->extra && f->extra[k].key && n < 254; k++, n++) {
        snprintf(names[n], sizeof names[n], "--%s", f->extra[k].key);
        list[n] = names[n];
    }
    for (const spmvlab_flag_alias *a = f->aliases; a && a->old && n < 255; a++)
        if (a->commands & f->command)
            list[n++] = a->old;
    list[n++] = "--help";
    spmvlab_did_you_mean(arg, list, n, hint, sizeof hint);
    return spmvlab_errf(err, "unknown option '%s'%s; see %s --help", arg, hint, f->prog), -1;
}

/* Whether row takes a value (a switch does not). */
static int wants_value(const spmvlab_flags *f, int row)
{
    return row >= f->nrows || f->rows[row].meta != NULL;
}

int spmvlab_flags_parse(spmvlab_flags *f, int argc, char **argv, spmvlab_err *err)
{
    f->operands = calloc((size_t)argc + 1, sizeof *f->operands);
    if (!f->operands)
        return spmvlab_errf(err, "out of host memory"), -1;
    int operands_only = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (operands_only || a[0] != '-' || !a[1]) {
            f->operands[f->noperands++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            operands_only = 1;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return SPMVLAB_FLAGS_HELP;
        if (strcmp(a, "--help=markdown") == 0)
            return SPMVLAB_FLAGS_MARKDOWN;
        /* --flag=value: the flag is the text before '=' */
        char name[80];
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
        int row = spmvlab_flags_row_of(f, name);
        if (row < 0)
            return unknown_flag(f, a, err);
        const char *value = eq ? eq + 1 : NULL;
        if (!value && wants_value(f, row)) {
            if (i + 1 >= argc)
                return spmvlab_errf(err, "%s needs a value; see %s --help", name, f->prog), -1;
            value = argv[++i];
        }
        if (value && !wants_value(f, row))
            return spmvlab_errf(err, "%s is a switch and takes no value; see %s --help", name, f->prog), -1;
        int aliased = alias_row(f, name, value);
        if (aliased >= 0)
            row = aliased;
        if (spmvlab_flags_add(f, row, value ? value : "true", NULL, 0, err))
            return -1;
    }
    return SPMVLAB_FLAGS_GO;
}

int spmvlab_flags_ini_row(const spmvlab_flags *f, const char *section, const char *key, const char *file, int line,
                          spmvlab_err *err)
{
    const char *list[256];
    char known[1200] = "", hint[96];
    size_t used = 0;
    int n = 0;
    for (int k = 0; k < f->nrows; k++) {
        const spmvlab_flag *r = &f->rows[k];
        if (!is_key(f, r))
            continue;
        if (strcmp(r->opt.key, key) == 0)
            return k;
        if (n < 256)
            list[n++] = r->opt.key;
        if (used < sizeof known)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", used ? ", " : "", r->opt.key);
    }
    /* An old key: the old flag without "--", '-' as '_', naming a key of the section. */
    for (const spmvlab_flag_alias *a = f->aliases; a && a->old; a++) {
        char old[80];
        snprintf(old, sizeof old, "%s", a->old + 2);
        for (char *p = old; *p; p++)
            *p = *p == '-' ? '_' : *p;
        const spmvlab_flag *to = &f->rows[a->to];
        if ((a->commands & f->command) && is_key(f, to) && strcmp(old, key) == 0) {
            fprintf(stderr, "%s: note: %s:%d: [%s] %s = is now %s =; the old key still works.\n", f->prog, file,
                    line, section, key, to->opt.key);
            return a->to;
        }
    }
    spmvlab_did_you_mean(key, list, n, hint, sizeof hint);
    return spmvlab_errf(err, "%s:%d: unknown key '%s'%s in [%s]; known: %s", file, line, key, hint, section, known),
           -1;
}

void spmvlab_flags_free(spmvlab_flags *f)
{
    free(f->uses);
    free(f->operands);
    f->uses = NULL;
    f->operands = NULL;
    f->nuses = f->cap = f->noperands = 0;
}

int spmvlab_flags_given(const spmvlab_flags *f, int row)
{
    int n = 0;
    for (int u = 0; u < f->nuses; u++)
        n += f->uses[u].row == row;
    return n;
}

const spmvlab_flag_use *spmvlab_flags_last(const spmvlab_flags *f, int row)
{
    for (int u = f->nuses - 1; u >= 0; u--)
        if (f->uses[u].row == row)
            return &f->uses[u];
    return NULL;
}

const char *spmvlab_flags_text(const spmvlab_flags *f, int row)
{
    const spmvlab_flag_use *u = spmvlab_flags_last(f, row);
    const char *def = option_of(f, row)->def;
    return u ? u->text : def ? def : "";
}

const spmvlab_flag_use *spmvlab_flags_next(const spmvlab_flags *f, int row, int *at)
{
    while (*at < f->nuses)
        if (f->uses[(*at)++].row == row)
            return &f->uses[*at - 1];
    return NULL;
}

/* "-o, --output OUT" of row: its spellings and the value's name. */
static void left_column(const spmvlab_flag *r, char *out, size_t len)
{
    char flag[80];
    spmvlab_flag_name(r, flag, sizeof flag);
    snprintf(out, len, "%s%s%s%s%s", r->alias ? r->alias : "", r->alias ? ", " : "", flag, r->meta ? " " : "",
             r->meta ? r->meta : "");
}

/* "1..8" for a numeric row with a range, else "". */
static void range_of(const spmvlab_flag *r, char *out, size_t len)
{
    int numeric = r->opt.type == SPMVLAB_OPT_INT || r->opt.type == SPMVLAB_OPT_FLOAT ||
                  r->opt.type == SPMVLAB_OPT_INT_AUTO;
    if (numeric && r->opt.min < r->opt.max)
        snprintf(out, len, "%.15g..%.15g", r->opt.min, r->opt.max);
    else if (len)
        out[0] = '\0';
}

/* The default worth saying: not a switch's, not an empty one. */
static const char *shown_default(const spmvlab_flag *r)
{
    return r->meta && r->opt.def && r->opt.def[0] ? r->opt.def : NULL;
}

/* Prints text from column indent on, wrapped before column width. */
static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
    int col = indent;
    char buf[800];
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

void spmvlab_flags_print(const spmvlab_flags *f, FILE *out)
{
    for (int k = 0; k < f->nrows; k++) {
        const spmvlab_flag *r = &f->rows[k];
        if (!takes(f, r))
            continue;
        char left[160], help[800], range[80], notes[200] = "";
        left_column(r, left, sizeof left);
        range_of(r, range, sizeof range);
        const char *def = shown_default(r);
        const char *repeat = r->flags & SPMVLAB_FLAG_REPEAT ? "repeatable" : "";
        snprintf(notes, sizeof notes, "%s%s%s", range, range[0] && repeat[0] ? "; " : "", repeat);
        if (def)
            snprintf(notes + strlen(notes), sizeof notes - strlen(notes), "%sdefault %s", notes[0] ? "; " : "", def);
        snprintf(help, sizeof help, "%s%s%s%s", r->opt.help, notes[0] ? " (" : "", notes, notes[0] ? ")" : "");
        if (strlen(left) > 24)
            fprintf(out, "  %s\n%26s", left, "");
        else
            fprintf(out, "  %-24s", left);
        print_wrapped(out, help, 26, 100);
    }
}

/* Text for a Markdown cell: '|' written as "\|". */
static void cell(FILE *out, const char *text)
{
    for (; text && *text; text++)
        fputs(*text == '|' ? "\\|" : (char[2]){*text, 0}, out);
}

void spmvlab_flags_markdown(const spmvlab_flags *f, FILE *out)
{
    int ini = (f->command & f->ini_commands) != 0;
    fprintf(out, "| flag | value | default |%s meaning |\n|---|---|---|%s---|\n", ini ? " INI key |" : "",
            ini ? "---|" : "");
    for (int k = 0; k < f->nrows; k++) {
        const spmvlab_flag *r = &f->rows[k];
        if (!(r->commands & f->command))
            continue;
        char flag[80];
        spmvlab_flag_name(r, flag, sizeof flag);
        fputs("| ", out);
        if (r->flags & SPMVLAB_FLAG_INI_ONLY)
            fputs("(INI only)", out);
        else if (r->alias)
            fprintf(out, "`%s`, `%s`", r->alias, flag);
        else
            fprintf(out, "`%s`", flag);
        char range[80];
        range_of(r, range, sizeof range);
        fputs(" | ", out);
        cell(out, r->meta ? r->meta : "");
        if (range[0])
            fprintf(out, ", %s", range);
        if (r->flags & SPMVLAB_FLAG_REPEAT)
            fputs(", repeatable", out);
        fputs(" | ", out);
        cell(out, shown_default(r));
        int key = is_key(f, r);
        if (ini)
            fprintf(out, " | %s%s%s", key ? "`" : "", key ? r->opt.key : "", key ? "`" : "");
        fputs(" | ", out);
        cell(out, r->opt.help);
        fputs(" |\n", out);
    }
}
