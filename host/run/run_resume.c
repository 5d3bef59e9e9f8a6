/* The resumed file against this run; see run_resume.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "origin.h"
#include "run_resume.h"

void run_settings_to_row(const run_settings *s, int gpu, run_row *r)
{
    snprintf(r->timing, sizeof r->timing, "%s", !gpu ? "none" : s->timing == RUN_TIMING_SINGLE ? "single" : "batch");
    r->flush_l2 = s->flush_l2;
    r->warmup = gpu ? s->warmup : NAN;
    snprintf(r->seed, sizeof r->seed, "%llu", (unsigned long long)s->seed);
    r->noise = s->noise;
}

int resume_check(const run_settings *s, const run_meta *m, const spmvlab_instance_spec *specs, int nspecs,
                 const run_rows *rows, spmvlab_err *err)
{
    char dtypes[64] = "";
    for (int d = 0; d < s->ndtypes; d++)
        snprintf(dtypes + strlen(dtypes), sizeof dtypes - strlen(dtypes), "%s%s", d ? "," : "",
                 spmvlab_dtype_name(s->dtypes[d]));
    run_origin run;
    origin_init(&run);
    origin_set_run(&run, m->commit, m->version, m->device, dtypes, "this run");
    run_row settings;
    run_row_init(&settings);
    run_settings_to_row(s, m->gpu, &settings);
    origin_set_settings(&run, &settings, "this run");
    int rc = 0;
    for (int k = 0; k < nspecs && !rc; k++)
        rc = origin_add_label(&run, specs[k].label, specs[k].selector ? ORIGIN_ANY : specs[k].options_text, "this run");
    if (rc)
        spmvlab_errf(err, "out of host memory");
    else
        rc = origin_check_rows(&run, rows, s->resume, err);
    origin_free(&run);
    return rc ? -1 : 0;
}
