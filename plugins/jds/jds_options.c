/*
 * The options of jds: the table the core checks INI and --option values
 * against and prints in `spmvlab list -v`. README.md has the rules behind
 * the choices and what was measured.
 */
#include "jds.h"

const spmvlab_option jds_options[] = {
    SPMVLAB_OPTION(jds_opts, threads_per_row, SPMVLAB_OPT_INT_AUTO, "auto", "1..32", "lanes sharing one short row (1, 2, 4, ..., 32); auto: from the mean short row (README.md)"),
    SPMVLAB_OPTION(jds_opts, long_row, SPMVLAB_OPT_INT_AUTO, "auto", "1..2147483647", "rows longer than this take the warp-per-piece path; auto: max(64, 4 x mean row length)"),
    {NULL},
};
