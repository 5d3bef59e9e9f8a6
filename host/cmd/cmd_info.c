/* spmvlab info FILE...: shape, non-zeros, symmetry and row-length statistics. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "host_util.h"

int cmd_info(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        printf("usage: spmvlab info FILE.mtx[.gz]...\n"
               "       spmvlab info --device [--remeasure]\n"
               "       spmvlab info --reorder none,rcm,degree FILE...\n"
               "Prints rows, columns, stored non-zeros (after symmetric expansion), symmetry and\n"
               "row-length statistics: min, mean, max, standard deviation, empty rows.\n"
               "--device: the device ceilings behind the bound columns (cached per device).\n"
               "--reorder: bandwidth and x-gather sectors of each ordering of each matrix.\n");
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (strcmp(argv[1], "--device") == 0)
        return cmd_info_device(argc - 1, argv + 1);
    if (strcmp(argv[1], "--reorder") == 0)
        return cmd_info_reorder(argc - 1, argv + 1);
    int rc = EXIT_OK;
    printf("%-24s %10s %10s %12s %-15s %6s %9s %8s %9s %8s\n", "matrix", "rows", "cols", "nnz", "symmetry",
           "min", "mean", "max", "stddev", "empty");
    for (int i = 1; i < argc; i++) {
        spmvlab_csr A;
        spmvlab_err err;
        if (load_matrix(argv[i], &A, &err)) {
            fprintf(stderr, "spmvlab info: %s.\n", err.msg);
            rc = EXIT_USAGE;
            continue;
        }
        spmvlab_row_stats s;
        spmvlab_row_stats_of(&A, &s);
        char label[128];
        spmvlab_matrix_label(argv[i], label, sizeof label);
        printf("%-24s %10d %10d %12d %-15s %6d %9.2f %8d %9.2f %8d\n", label, A.rows, A.cols, A.nnz, A.symmetry,
               s.min, s.mean, s.max, s.stddev, s.empty);
        spmvlab_csr_free(&A);
    }
    return rc;
}
