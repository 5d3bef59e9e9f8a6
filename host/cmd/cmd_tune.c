/*
 * spmvlab tune: measures every combination of the swept options of an
 * instance (--option LABEL.KEY=V1,V2,... or value lists in INI) on each matrix
 * and reports the fastest, with the search's cost: its wall time (also in
 * SpMVs of the winner) and the largest device memory one combination
 * needed (the survey's criteria 9 and 10). Rows, CSV and JSON as in run;
 * the table of winners is report/tune_table.c.
 */
#include "commands.h"
#include "run_driver.h"

int cmd_tune(int argc, char **argv) { return run_command(argc, argv, RUN_MODE_TUNE); }
