/*
 * run --devices: one worker process per device, each the spmvlab binary
 * itself running its shard (--shard k/N --device d) into a part file, the
 * parts merged into -o OUT.csv at the end. The parts and the workers' logs
 * live in OUT.parts/; with --resume each worker resumes its own part.
 */
#ifndef SPMVLAB_HOST_WORKERS_H
#define SPMVLAB_HOST_WORKERS_H

#include "run_options.h"

/* Runs the workers of s over the matrices paths (this process's shard,
 * nspecs instances each), shows one progress line with a part per device
 * on a terminal, then merges the parts into s->output and prints the
 * summary. argv is run's own (argv[0] "run"). Returns the exit code: the
 * worst of the workers' (2 before 1 before 0; 130 when interrupted), or
 * 2 when the merge is refused. */
int workers_run(const run_settings *s, char **paths, int npaths, int nspecs, int argc, char **argv);

#endif
