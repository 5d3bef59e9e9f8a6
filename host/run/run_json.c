/* The JSON document of a run; see run_json.h. */
#include "speedup.h"
#include "run_json.h"
#include "row_out.h"

int json_write_run(FILE *f, const char *path, const run_document *doc, spmvlab_err *err)
{
    const run_settings *s = doc->s;
    fputs("{\n  \"spmvlab\": ", f);
    json_string(f, doc->meta->version);
    fputs(",\n  \"command\": ", f);
    json_string(f, s->prog);
    fprintf(f, ",\n  \"interrupted\": %s,\n  \"meta\": ", doc->interrupted ? "true" : "false");
    json_meta(f, doc->meta, "  ");
    fputs(",\n  \"settings\": {\"reps\": ", f);
    fprintf(f, "%d, \"warmup\": %d, \"time_budget_ms\": ", s->reps, s->warmup);
    json_number(f, s->time_budget_ms);
    fprintf(f, ", \"timing\": \"%s\", \"flush_l2\": %s, \"isolate\": %s, \"seed\": %llu, \"bootstrap_iterations\": %d, "
               "\"confidence\": %g, \"noise\": %g},\n  \"rows\": [",
            s->timing == RUN_TIMING_SINGLE ? "single" : "batch", s->flush_l2 ? "true" : "false",
            s->isolate ? "true" : "false", (unsigned long long)s->seed, RUN_BOOTSTRAP_ITERS, RUN_CI_LEVEL, s->noise);
    for (int i = 0; i < doc->rows->n; i++) {
        fputs(i ? ",\n" : "\n", f);
        json_row(f, &doc->rows->v[i], "    ");
    }
    fputs("\n  ],\n  \"summary\": ", f);
    summary_write_json(f, doc->sum);
    fputs("\n}\n", f);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad)
        return spmvlab_errf(err, "writing %s failed", path), -1;
    return 0;
}
