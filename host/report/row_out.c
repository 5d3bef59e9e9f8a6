/* CSV, JSON and the terminal table of result rows; see row_out.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "origin.h"
#include "row_out.h"

void csv_append(FILE *f, const run_row *r)
{
    if (!f)
        return;
    run_csv_row(f, r);
    fflush(f);
    fsync(fileno(f));
}

void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c == '\t')
            fputs("\\t", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void json_number(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else if (v == floor(v) && fabs(v) < 9e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.9g", v);
}

static void json_array(FILE *f, const double *v, int n)
{
    fputc('[', f);
    for (int i = 0; v && i < n; i++) {
        if (i)
            fputs(", ", f);
        json_number(f, v[i]);
    }
    fputc(']', f);
}

void json_row(FILE *f, const run_row *r, const char *indent)
{
    fprintf(f, "%s{", indent);
    char buf[4096];
    for (int c = 0; c < run_column_count(); c++) {
        const run_column *col = run_column_at(c);
        fputs(c ? ", " : "", f);
        json_string(f, col->name);
        fputs(": ", f);
        if (col->type == RUN_COL_STR) {
            run_row_field(r, c, buf, sizeof buf);
            json_string(f, buf);
        } else {
            json_number(f, *(const double *)((const char *)r + col->offset));
        }
    }
    fputs(", \"samples\": {\"single_ms\": ", f);
    json_array(f, r->single_samples, r->nsamples);
    fputs(", \"batch_ms\": ", f);
    json_array(f, r->batch_samples, r->nsamples);
    fputs("}}", f);
}

void json_meta(FILE *f, const run_meta *m, const char *indent)
{
    fprintf(f, "{\n%s  \"device\": ", indent);
    json_string(f, m->device);
    fprintf(f, ",\n%s  \"cc\": ", indent);
    json_string(f, m->cc);
    fprintf(f, ",\n%s  \"l2_bytes\": ", indent);
    json_number(f, m->l2_bytes);
    fprintf(f, ",\n%s  \"memory_bytes\": ", indent);
    json_number(f, m->mem_bytes);
    fprintf(f, ",\n%s  \"sm_count\": ", indent);
    json_number(f, m->sm_count);
    fprintf(f, ",\n%s  \"driver\": ", indent);
    json_string(f, m->driver);
    fprintf(f, ",\n%s  \"cuda_runtime\": ", indent);
    json_string(f, m->cuda_runtime);
    fprintf(f, ",\n%s  \"peak_gbs\": ", indent);
    json_number(f, m->peak_gbs);
    fprintf(f, ",\n%s  \"peak_median_gbs\": ", indent);
    json_number(f, m->peak_median_gbs);
    fprintf(f, ",\n%s  \"peak_source\": ", indent);
    json_string(f, m->peak_source);
    const spmvlab_ceilings *c = &m->ceilings; /* what the bound columns were computed with */
    const double rate[] = {c->dram_gbs, c->l2_gbs, c->gather_l2_gps, c->gather_dram_gps, c->launch_us, c->replay_us};
    const char *rate_name[] = {"dram_gbs", "l2_gbs", "gather_l2_gps", "gather_dram_gps", "launch_us", "replay_us"};
    fprintf(f, ",\n%s  \"ceilings\": {\"key\": ", indent);
    json_string(f, c->key);
    for (int i = 0; i < 6; i++) {
        fprintf(f, ", \"%s\": ", rate_name[i]);
        json_number(f, rate[i]);
    }
    fprintf(f, "}");
    fprintf(f, ",\n%s  \"commit\": ", indent);
    json_string(f, m->commit);
    fprintf(f, ",\n%s  \"version\": ", indent);
    json_string(f, m->version);
    fprintf(f, ",\n%s  \"date\": ", indent);
    json_string(f, m->date);
    fprintf(f, ",\n%s  \"command\": ", indent);
    json_string(f, m->command);
    fprintf(f, "\n%s}", indent);
}

/* ---- terminal ------------------------------------------------------------ */

const char *human_bytes(double b, char *buf, size_t len)
{
    static const char *unit[] = {"B", "kB", "MB", "GB", "TB"};
    if (isnan(b)) {
        snprintf(buf, len, "-");
        return buf;
    }
    int u = 0;
    while (b >= 1000 && u < 4) {
        b /= 1000;
        u++;
    }
    snprintf(buf, len, u ? "%.3g%s" : "%.0f%s", b, unit[u]);
    return buf;
}

const char *table_num(double v, const char *fmt, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, fmt, v);
    return buf;
}

#define TABLE_FMT "%-24s %-22s %-4s %-8s %9s %9s %8s %8s %6s %13s %9s %6s %9s %9s %3s\n"

void table_header(FILE *f, const run_meta *m, const char *timing)
{
    if (m->gpu) {
        char l2[32];
        fprintf(f, "device: %s (cc %s, L2 %s), driver %s, CUDA runtime %s; commit %s\n", m->device, m->cc,
                human_bytes(m->l2_bytes, l2, sizeof l2), m->driver, m->cuda_runtime, m->commit);
        if (isnan(m->peak_gbs))
            fprintf(f, "peak bandwidth: unknown (%s); %%peak stays empty\n", m->peak_source);
        else
            fprintf(f, "peak bandwidth: %.0f GB/s (%s)\n", m->peak_gbs, m->peak_source);
        if (isnan(m->ceilings.dram_gbs))
            fprintf(f, "device ceilings: unknown; the bound columns stay empty\n");
        else
            fprintf(f, "device ceilings (%s): gathers %.1f G/s from L2, %.1f G/s from DRAM; replay floor %.2f us\n",
                    m->ceilings.source, m->ceilings.gather_l2_gps, m->ceilings.gather_dram_gps, m->ceilings.replay_us);
        fprintf(f, "ms: %s; 1x ms: single launches, host launch cost included. Medians over rounds.\n",
                strcmp(timing, "single") == 0 ? "single launches (primary timing)"
                                               : "back-to-back launches (graph replay), the primary timing");
    } else {
        fprintf(f, "no GPU: functional check of spmv_host only; no timings (commit %s)\n", m->commit);
    }
    fprintf(f, TABLE_FMT, "matrix", "instance", "type", "status", "ms", "1x ms", "GFLOP/s", "GB/s", "%peak",
            "speedup", "dev bytes", "B/nnz", "conv ms", "err/bound", "L2");
}

void table_row(FILE *f, const run_row *r)
{
    char ms[32], one[32], gf[32], gb[32], pk[32], sp[48], db[32], bn[32], cv[32], er[32];
    table_num(r->ms, "%.4g", ms, sizeof ms);
    table_num(r->single_ms, "%.4g", one, sizeof one);
    table_num(r->gflops, "%.1f", gf, sizeof gf);
    table_num(r->gbs, "%.1f", gb, sizeof gb);
    table_num(r->peak_frac * 100, "%.0f%%", pk, sizeof pk);
    if (isnan(r->speedup))
        snprintf(sp, sizeof sp, "-");
    else if (strcmp(r->outcome, "baseline") == 0)
        snprintf(sp, sizeof sp, "base");
    else
        snprintf(sp, sizeof sp, "%.3f %s", r->speedup, r->outcome);
    human_bytes(r->device_bytes, db, sizeof db);
    table_num(r->bytes_per_nnz, "%.2f", bn, sizeof bn);
    table_num(r->convert_ms, "%.3g", cv, sizeof cv);
    table_num(r->error_ratio, "%.2g", er, sizeof er);
    /* Narrow storage shows as "f64/f32" so it never reads as a plain f64 result. */
    char type[24];
    if (r->value_storage[0] && strcmp(r->value_storage, r->dtype) != 0)
        snprintf(type, sizeof type, "%s/%s", r->dtype, r->value_storage);
    else
        snprintf(type, sizeof type, "%s", r->dtype);
    fprintf(f, TABLE_FMT, r->matrix, r->instance, type, r->status, ms, one, gf, gb, pk, sp, db, bn, cv, er,
            r->fits_l2 == 1 ? "in" : "");
    if (strcmp(r->status, "ok") != 0 && r->message[0])
        fprintf(f, "    %s: %s\n", r->status, r->message);
    /* A selector's row carries its own label: the line below names what it ran. */
    else if (strncmp(r->message, ORIGIN_SELECTED, strlen(ORIGIN_SELECTED)) == 0)
        fprintf(f, "    select: chose %s (%s);%s\n", r->plugin, r->options[0] ? r->options : "its defaults",
                r->message + strlen(ORIGIN_SELECTED));
}

void columns_print(FILE *f)
{
    for (int c = 0; c < run_column_count(); c++) {
        const run_column *col = run_column_at(c);
        fprintf(f, "%-20s %-4s %s\n", col->name,
                col->type == RUN_COL_STR ? "text" : col->type == RUN_COL_INT ? "int" : "real", col->doc);
    }
}
