/*
 * spmvlab merge OUT.csv PARTS...: the result CSVs of shards (run --shard,
 * a Slurm job array, run --devices) as one results file and summary.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "host_options.h"
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

static const char intro[] =
    "usage: spmvlab merge OUT.csv PARTS.csv...\n"
    "Writes the rows of every part to OUT.csv and the summary to OUT-summary.csv.\n"
    "Refuses an OUT.csv that is one of the parts or holds cells no part has (a part named\n"
    "where the output belongs); parts of another column set, commit, version, device or\n"
    "measurement setting; one instance label with two option sets; and a cell that appears twice.\n"
    "Exit status as for one unsharded run: 1 when a merged row is wrong or failed, 2 for an\n"
    "unreadable input's row; a skipped input is counted, not failed.\n";

/* OUT.csv and its parts, merged and summarised. */
static int merge_files(const char *out, const char *const *parts, int nparts)
{
    size_t n = strlen(out);
    if (n < 4 || strcmp(out + n - 4, ".csv") != 0) {
        fprintf(stderr, "spmvlab merge: %s is not a .csv file name; merge writes CSV.\n", out);
        return EXIT_USAGE;
    }
    spmvlab_err err;
    int rows = 0;
    if (merge_parts(out, (char *const *)parts, nparts, MERGE_PRINT | MERGE_NEW_OUTPUT, &rows, &err)) {
        fprintf(stderr, "spmvlab merge: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    char sp[4200];
    summary_path(out, sp, sizeof sp);
    printf("\nmerged %d parts: %s (%d rows); summary: %s\n", nparts, out, rows, sp);
    return merged_exit_code(out);
}

int cmd_merge(int argc, char **argv)
{
    spmvlab_flags f;
    host_options_init(&f, HOST_MERGE, "spmvlab merge");
    int rc = host_options_read(&f, argc, argv, intro);
    if (!rc && f.noperands < 2) {
        fprintf(stderr, "usage: spmvlab merge OUT.csv PARTS.csv...\n");
        rc = -1;
    }
    rc = rc ? (rc > 0 ? EXIT_OK : EXIT_USAGE) : merge_files(f.operands[0], f.operands + 1, f.noperands - 1);
    spmvlab_flags_free(&f);
    return rc;
}
