/*
 * spmvlab info INPUT...: shape, non-zeros, symmetry and row-length
 * statistics. The inputs are those of run (files, SuiteSparse archives,
 * folders, list files), gathered by the same collector (host/run/collect.c).
 */
#include <stdio.h>
#include <string.h>

#include "spmvlab/cache.h"
#include "collect.h"
#include "commands.h"
#include "spmvlab/core.h"

static void print_matrix(const char *path, const spmvlab_csr *A)
{
    spmvlab_row_stats s;
    spmvlab_row_stats_of(A, &s);
    char label[128];
    spmvlab_matrix_label(path, label, sizeof label);
    printf("%-24s %10d %10d %12d %-15s %6d %9.2f %8d %9.2f %8d\n", label, A->rows, A->cols, A->nnz, A->symmetry,
           s.min, s.mean, s.max, s.stddev, s.empty);
}

int cmd_info(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("usage: spmvlab info INPUT...\n"
               "       spmvlab info --device [--remeasure]\n"
               "       spmvlab info --reorder none,rcm,degree INPUT...\n"
               "INPUT: a .mtx or .mtx.gz file, a SuiteSparse archive Name.tar.gz, a folder of them\n"
               "(also ssget's Group/Name/ layout) or a list file (.txt or .list), as for run.\n"
               "Prints rows, columns, stored non-zeros (after symmetric expansion), symmetry and\n"
               "row-length statistics: min, mean, max, standard deviation, empty rows. A file of a kind\n"
               "spmvlab does not handle (complex, dense array) is skipped with its reason and counted.\n"
               "--device: the device ceilings behind the bound columns (cached per device).\n"
               "--reorder: bandwidth and x-gather sectors of each ordering of each matrix.\n");
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (strcmp(argv[1], "--device") == 0)
        return cmd_info_device(argc - 1, argv + 1);
    if (strcmp(argv[1], "--reorder") == 0)
        return cmd_info_reorder(argc - 1, argv + 1);
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-') {
            static const char *const flags[] = {"--device", "--reorder", "--remeasure", "--help"};
            char hint[96];
            spmvlab_did_you_mean(argv[i], flags, 4, hint, sizeof hint);
            fprintf(stderr, "spmvlab info: unknown option '%s'%s; see spmvlab info --help.\n", argv[i], hint);
            return EXIT_USAGE;
        }
    int rc = EXIT_OK, skipped = 0;
    printf("%-24s %10s %10s %12s %-15s %6s %9s %8s %9s %8s\n", "matrix", "rows", "cols", "nnz", "symmetry",
           "min", "mean", "max", "stddev", "empty");
    for (int i = 1; i < argc; i++) {
        char **paths = NULL;
        int npaths = 0;
        spmvlab_err err;
        int got = collect_inputs(argv[i], &paths, &npaths, &err);
        if (got <= 0) {
            if (got == 0)
                spmvlab_errf(&err, "%s holds no .mtx, .mtx.gz or .tar.gz files", argv[i]);
            fprintf(stderr, "spmvlab info: %s.\n", err.msg);
            rc = EXIT_USAGE;
        }
        for (int k = 0; k < npaths; k++) {
            spmvlab_csr A;
            int lrc = spmvlab_matrix_load(paths[k], &A, &err);
            if (lrc == -2) { /* a kind spmvlab does not handle: counted, as run counts it */
                fprintf(stderr, "spmvlab info: skipping %s: %s.\n", paths[k], err.msg);
                skipped++;
                continue;
            }
            if (lrc) {
                fprintf(stderr, "spmvlab info: %s.\n", err.msg);
                rc = EXIT_USAGE;
                continue;
            }
            print_matrix(paths[k], &A);
            spmvlab_csr_free(&A);
        }
        free_paths(paths, npaths);
    }
    if (skipped)
        printf("\ninputs not run: %d skipped; the lines above say why\n", skipped);
    return rc;
}
