/*
 * spmvlab merge OUT.csv PARTS...: the result CSVs of shards (run --shard,
 * a Slurm job array, run --devices) as one results file and summary.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "spmvlab/core.h"
#include "status.h"
#include "merge.h"
#include "summary.h"

/* The merged rows' verdict: the exit code one unsharded run would give. */
static int merged_exit_code(const char *out)
{
    run_rows merged;
    spmvlab_err err;
    if (run_rows_read(out, &merged, NULL, &err)) {
        fprintf(stderr, "spmvlab merge: reading back %s: %s.\n", out, err.msg);
        return EXIT_FAILED;
    }
    int rc = rows_exit_code(&merged);
    run_rows_free(&merged);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: spmvlab merge OUT.csv PARTS.csv...\n"
               "Writes the rows of every part to OUT.csv and the summary to OUT-summary.csv.\n"
               "Refuses an OUT.csv that is one of the parts or holds cells no part has (a part named\n"
               "where the output belongs); parts of another column set, commit, version, device or\n"
               "measurement setting; one instance label with two option sets; and a cell that appears twice.\n"
               "Exit status as for one unsharded run: 1 when a merged row is wrong or failed, 2 for an\n"
               "unreadable input's row; a skipped input is counted, not failed.\n");
        return EXIT_OK;
    }
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-') {
            static const char *const flags[] = {"--help"};
            char hint[96];
            spmvlab_did_you_mean(argv[i], flags, 1, hint, sizeof hint);
            fprintf(stderr, "spmvlab merge: unknown option '%s'%s; see spmvlab merge --help.\n", argv[i], hint);
            return EXIT_USAGE;
        }
    if (argc < 3) {
        fprintf(stderr, "usage: spmvlab merge OUT.csv PARTS.csv...\n");
        return EXIT_USAGE;
    }
    size_t n = strlen(argv[1]);
    if (n < 4 || strcmp(argv[1] + n - 4, ".csv") != 0) {
        fprintf(stderr, "spmvlab merge: %s is not a .csv file name; merge writes CSV.\n", argv[1]);
        return EXIT_USAGE;
    }
    spmvlab_err err;
    int rows = 0;
    if (merge_parts(argv[1], argv + 2, argc - 2, MERGE_PRINT | MERGE_NEW_OUTPUT, &rows, &err)) {
        fprintf(stderr, "spmvlab merge: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    char sp[4200];
    summary_path(argv[1], sp, sizeof sp);
    printf("\nmerged %d parts: %s (%d rows); summary: %s\n", argc - 2, argv[1], rows, sp);
    return merged_exit_code(argv[1]);
}
