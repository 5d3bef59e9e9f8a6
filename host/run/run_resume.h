/* --resume: the file's rows checked against the run that continues them. */
#ifndef SPMVLAB_HOST_RUN_RESUME_H
#define SPMVLAB_HOST_RUN_RESUME_H

#include "machine.h"
#include "run_options.h"
#include "row.h"
#include "spmvlab/config.h"

/* Sets the columns of the settings r is measured with (ORIGIN_SETTINGS in
 * origin.h) from s; gpu: whether a GPU measures (without one, timing
 * is "none" and warmup empty). */
void run_settings_to_row(const run_settings *s, int gpu, run_row *r);

/* Checks rows (read from s->resume) against this run, as merge checks its
 * parts (origin.h): its commit, version and device (m), its settings,
 * its dtypes and the options of each of its instances. Returns 0, or -1
 * with a sentence naming the difference. */
int resume_check(const run_settings *s, const run_meta *m, const spmvlab_instance_spec *specs, int nspecs,
                 const run_rows *rows, spmvlab_err *err);

#endif
