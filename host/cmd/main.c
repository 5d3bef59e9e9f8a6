/* spmvlab: the host program. Dispatches to one command per file. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "spmvlab/core.h"

#ifndef SPMVLAB_VERSION
#define SPMVLAB_VERSION "0"
#endif

static const struct command {
    const char *name;
    int (*run)(int, char **);
    const char *help;
} commands[] = {
    {"run", cmd_run, "measure plugin instances over matrices (A/B)"},
    {"list", cmd_list, "list the plugins found (-v: with their options)"},
    {"check", cmd_check, "conformance suite for one plugin"},
    {"info", cmd_info, "shape, symmetry and row statistics of matrices"},
    {"gen", cmd_gen, "generate a synthetic matrix"},
    {"tune", cmd_tune, "pick the fastest option combination per matrix (sweeps)"},
    {"report", cmd_report, "summary and plots of a results CSV"},
    {"new-plugin", cmd_new_plugin, "write a working plugin to start a new format from"},
    {"select", cmd_select, "recommend a plugin and options per matrix from a corpus's results"},
    {"merge", cmd_merge, "merge the result CSVs of shards into one, with its summary"},
    {"cache", cmd_cache, "list or clear the binary matrix cache"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: spmvlab COMMAND [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(out, "\n'spmvlab COMMAND --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    /* Line-buffered so every result line survives a crash or Ctrl-C. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("spmvlab %s\n", SPMVLAB_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    enum { NCOMMANDS = sizeof commands / sizeof *commands };
    const char *names[NCOMMANDS];
    for (size_t i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    char hint[96];
    spmvlab_did_you_mean(argv[1], names, NCOMMANDS, hint, sizeof hint);
    fprintf(stderr, "spmvlab: unknown command '%s'%s; 'spmvlab --help' lists the commands.\n", argv[1], hint);
    return EXIT_USAGE;
}
