/*
 * spmvlab info INPUT...: shape, non-zeros, symmetry and row-length
 * statistics. The inputs are those of run (files, SuiteSparse archives,
 * folders, list files), gathered by the same collector (host/run/collect.c).
 */
#include <stdio.h>
#include <string.h>

#include "spmvlab/cache.h"
#include "commands.h"
#include "host_options.h"
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

static const char intro[] =
    "usage: spmvlab info INPUT...\n"
    "       spmvlab info --ceilings [--remeasure]\n"
    "       spmvlab info --reorder none,rcm,degree INPUT...\n"
    "INPUT: a .mtx or .mtx.gz file, a SuiteSparse archive Name.tar.gz, a folder of them\n"
    "(also ssget's Group/Name/ layout) or a list file (.txt or .list), as for run.\n"
    "Prints rows, columns, stored non-zeros (after symmetric expansion), symmetry and\n"
    "row-length statistics: min, mean, max, standard deviation, empty rows. A file of a kind\n"
    "spmvlab does not handle (complex, dense array) is skipped with its reason and counted.\n";

/* The flags' combination: ceilings without inputs, else inputs. Returns
 * 0, or an exit status after saying why. */
static int check_combination(const spmvlab_flags *f)
{
    int ceilings = spmvlab_flags_given(f, OPT_CEILINGS) > 0;
    if (ceilings && f->noperands) {
        fprintf(stderr, "spmvlab info: --ceilings takes no inputs, not \"%s\".\n", f->operands[0]);
        return EXIT_USAGE;
    }
    if (!ceilings && spmvlab_flags_given(f, OPT_REMEASURE)) {
        fprintf(stderr, "spmvlab info: --remeasure goes with --ceilings.\n");
        return EXIT_USAGE;
    }
    if (!ceilings && !f->noperands) {
        fputs(intro, stderr);
        return EXIT_USAGE;
    }
    return 0;
}

/* One matrix's line; a kind spmvlab does not handle is counted in
 * *skipped, as run counts it. Returns 0, or -1 after saying why. */
static int print_one(const char *path, void *skipped)
{
    spmvlab_csr A;
    spmvlab_err err;
    int lrc = spmvlab_matrix_load(path, &A, &err);
    if (lrc == -2) {
        fprintf(stderr, "spmvlab info: skipping %s: %s.\n", path, err.msg);
        ++*(int *)skipped;
        return 0;
    }
    if (lrc) {
        fprintf(stderr, "spmvlab info: %s.\n", err.msg);
        return -1;
    }
    print_matrix(path, &A);
    spmvlab_csr_free(&A);
    return 0;
}

/* The statistics of every matrix of the inputs. */
static int print_inputs(const char *const *inputs, int n)
{
    int skipped = 0;
    printf("%-24s %10s %10s %12s %-15s %6s %9s %8s %9s %8s\n", "matrix", "rows", "cols", "nnz", "symmetry",
           "min", "mean", "max", "stddev", "empty");
    int rc = info_each_matrix(inputs, n, print_one, &skipped);
    if (skipped)
        printf("\ninputs not run: %d skipped; the lines above say why\n", skipped);
    return rc;
}

int cmd_info(int argc, char **argv)
{
    spmvlab_flags f;
    host_options_init(&f, HOST_INFO, "spmvlab info");
    int rc = host_options_read(&f, argc, argv, intro);
    if (rc)
        rc = rc > 0 ? EXIT_OK : EXIT_USAGE;
    else if (!(rc = check_combination(&f)))
        rc = spmvlab_flags_given(&f, OPT_CEILINGS) ? cmd_info_device(spmvlab_flags_given(&f, OPT_REMEASURE) > 0)
             : spmvlab_flags_given(&f, OPT_REORDER)
                 ? cmd_info_reorder(spmvlab_flags_text(&f, OPT_REORDER), f.operands, f.noperands)
                 : print_inputs(f.operands, f.noperands);
    spmvlab_flags_free(&f);
    return rc;
}
