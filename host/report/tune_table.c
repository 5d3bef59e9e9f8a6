/* The table of spmvlab tune; see tune_table.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "row_out.h"
#include "tune_table.h"

/* The label a sweep instance came from: "sell[sigma=32]" -> "sell". */
static void base_label(const char *instance, char *out, size_t len)
{
    const char *b = strchr(instance, '[');
    snprintf(out, len, "%.*s", (int)(b ? (size_t)(b - instance) : strlen(instance)), instance);
}

static int same_group(const run_row *a, const run_row *b)
{
    char la[128], lb[128];
    base_label(a->instance, la, sizeof la);
    base_label(b->instance, lb, sizeof lb);
    return strcmp(a->matrix, b->matrix) == 0 && strcmp(a->dtype, b->dtype) == 0 && strcmp(la, lb) == 0;
}

void tune_print(FILE *f, const run_rows *rows)
{
    int any_timed = 0;
    for (int i = 0; i < rows->n; i++)
        any_timed |= rows->v[i].tune_best == 1;
    if (!any_timed) {
        fprintf(f, "\ntune: no timings (no GPU, or no combination passed its check); nothing to choose from\n");
        return;
    }
    fprintf(f,
            "\nbest combination per matrix: search = wall time of converting, checking and timing every\n"
            "combination (also in SpMVs of the winner); memory = the largest peak of one combination;\n"
            "spread = slowest / fastest combination that passed\n");
    fprintf(f, "%-24s %-4s %-36s %9s %8s %6s %10s %9s %9s %6s\n", "matrix", "type", "best", "ms", "GFLOP/s",
            "combos", "search ms", "in SpMVs", "memory", "spread");
    for (int i = 0; i < rows->n; i++) {
        const run_row *r = &rows->v[i];
        if (r->tune_best != 1)
            continue;
        int combos = 0;
        double worst = 0;
        for (int j = 0; j < rows->n; j++)
            if (same_group(r, &rows->v[j])) {
                combos++;
                if (strcmp(rows->v[j].status, "ok") == 0 && rows->v[j].ms > worst)
                    worst = rows->v[j].ms;
            }
        char mem[32];
        fprintf(f, "%-24s %-4s %-36s %9.4g %8.1f %6d %10.1f %9.0f %9s %6.2f\n", r->matrix, r->dtype, r->instance,
                r->ms, r->gflops, combos, r->tune_ms, r->tune_spmvs, human_bytes(r->tune_peak_bytes, mem, sizeof mem),
                worst > 0 ? worst / r->ms : NAN);
    }
}
