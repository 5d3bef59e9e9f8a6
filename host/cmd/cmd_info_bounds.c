/* spmvlab info --ceilings (the device ceilings) and info --reorder (what an
 * ordering does to a matrix's bandwidth and gather sectors; its inputs are
 * those of run and info: files, archives, folders and list files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spmvlab/cache.h"
#include "collect.h"
#include "commands.h"
#include "spmvlab/bound.h"
#include "spmvlab/ceilings.h"
#include "spmvlab/reorder.h"

/* info's inputs, one matrix file at a time (commands.h); here beside
 * --reorder, its second user, so the two info files call one way only. */
int info_each_matrix(const char *const *inputs, int n, int (*each)(const char *path, void *arg), void *arg)
{
    int rc = EXIT_OK;
    for (int i = 0; i < n; i++) {
        char **paths = NULL;
        int npaths = 0;
        spmvlab_err err;
        int got = collect_inputs(inputs[i], &paths, &npaths, &err);
        if (got <= 0) {
            if (got == 0)
                spmvlab_errf(&err, "%s holds no .mtx, .mtx.gz or .tar.gz files", inputs[i]);
            fprintf(stderr, "spmvlab info: %s.\n", err.msg);
            rc = EXIT_USAGE;
        }
        for (int k = 0; k < npaths; k++)
            if (each(paths[k], arg))
                rc = EXIT_USAGE;
        free_paths(paths, npaths);
    }
    return rc;
}

int cmd_info_device(int remeasure)
{
    spmvlab_runtime rt;
    spmvlab_err err;
    if (spmvlab_runtime_open(&rt, 1, 0, &err) < 0) {
        fprintf(stderr, "spmvlab info: %s.\n", err.msg);
        return EXIT_FAILED;
    }
    spmvlab_ceilings c;
    int rc = spmvlab_ceilings_get(&rt, remeasure, &c, &err);
    int present = rt.device.present;
    spmvlab_runtime_close(&rt);
    if (rc) {
        fprintf(stderr, "spmvlab info: %s.\n", err.msg);
        return present ? EXIT_FAILED : EXIT_SKIPPED;
    }
    printf("device       %s (%s)\n", c.key, c.source);
    printf("dram         %9.1f GB/s        triad over arrays far larger than L2\n", c.dram_gbs);
    printf("l2 stream    %9.1f GB/s        reads of a buffer a quarter of L2 (%.0f MiB)\n", c.l2_gbs,
           c.l2_bytes / 1048576);
    printf("gather l2    %9.2f G loads/s   random 8-byte loads from a vector resident in L2\n", c.gather_l2_gps);
    printf("gather dram  %9.2f G loads/s   random 8-byte loads from a vector far larger than L2\n",
           c.gather_dram_gps);
    printf("launch       %9.2f us          one empty kernel between its own events\n", c.launch_us);
    printf("replay       %9.2f us          one empty kernel inside a replayed CUDA graph\n", c.replay_us);
    return EXIT_OK;
}

/* Parses "rcm,degree" into orders (at most max); returns the count, or -1
 * with a sentence. */
static int parse_orders(const char *list, spmvlab_ordering *orders, int max, spmvlab_err *err)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == max)
            return spmvlab_errf(err, "at most %d orderings at once", max), -1;
        if (spmvlab_ordering_parse(tok, &orders[n++], err))
            return -1;
    }
    if (n == 0)
        return spmvlab_errf(err, "--reorder needs a list of orderings (none, rcm, degree)"), -1;
    return n;
}

/* One line: the matrix under ordering o; its numbers, or the sentence of
 * why o does not apply. Returns 0, or -1 after printing the reason. */
static int report_order(const char *label, const spmvlab_csr *A, spmvlab_ordering o)
{
    spmvlab_err err;
    int32_t *perm;
    double t0 = spmvlab_now_ms();
    if (spmvlab_order_compute(A, o, &perm, &err)) {
        fprintf(stderr, "spmvlab info: %s: %s.\n", label, err.msg);
        return -1;
    }
    spmvlab_csr B;
    int rc = spmvlab_csr_permute(A, perm, &B, &err);
    double ms = spmvlab_now_ms() - t0;
    free(perm);
    if (rc) {
        fprintf(stderr, "spmvlab info: %s: %s.\n", label, err.msg);
        return -1;
    }
    printf("%-24s %-8s %12lld %14.0f %14.0f %10.1f\n", label, spmvlab_ordering_name(o),
           (long long)spmvlab_csr_bandwidth(&B), spmvlab_gather_sectors(&B, 8), spmvlab_gather_sectors(&B, 4), ms);
    spmvlab_csr_free(&B);
    return 0;
}

/* The orderings info --reorder shows. */
typedef struct info_orders {
    spmvlab_ordering v[8];
    int n;
} info_orders;

/* The lines of one matrix file under each ordering (arg: the orderings).
 * Returns 0, or -1 after printing why the file or an ordering failed. */
static int reorder_one(const char *path, void *arg)
{
    const info_orders *orders = arg;
    spmvlab_csr A;
    spmvlab_err err;
    if (spmvlab_matrix_load(path, &A, &err)) {
        fprintf(stderr, "spmvlab info: %s.\n", err.msg);
        return -1;
    }
    char label[128];
    spmvlab_matrix_label(path, label, sizeof label);
    int rc = 0;
    for (int k = 0; k < orders->n; k++)
        rc |= report_order(label, &A, orders->v[k]);
    spmvlab_csr_free(&A);
    return rc;
}

int cmd_info_reorder(const char *list, const char *const *inputs, int n)
{
    info_orders orders;
    spmvlab_err err;
    orders.n = parse_orders(list, orders.v, 8, &err);
    if (orders.n < 0) {
        fprintf(stderr, "spmvlab info: %s.\n", err.msg);
        return EXIT_USAGE;
    }
    printf("%-24s %-8s %12s %14s %14s %10s\n", "matrix", "ordering", "bandwidth", "sectors_f64", "sectors_f32",
           "order_ms");
    return info_each_matrix(inputs, n, reorder_one, &orders);
}
