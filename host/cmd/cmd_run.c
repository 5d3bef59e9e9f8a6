/*
 * spmvlab run: the A/B tool. Converts every instance on every matrix,
 * verifies its result against the reference, times it round by round with
 * the other instances, and writes a table, CSV, JSON and a summary with
 * speedups and their confidence intervals (docs/methodology.md).
 */
#include "commands.h"
#include "run_driver.h"

int cmd_run(int argc, char **argv) { return run_command(argc, argv, RUN_MODE_RUN); }
