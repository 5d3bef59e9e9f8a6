/*
 * Shards (--shard I/N, host/run/shard.c): every matrix x dtype cell
 * belongs to exactly one shard, the assignment does not move when other
 * matrices come or go, and the shards together measure exactly the cells
 * of one unsharded run; so do two worker processes (--devices cpu:2); a
 * shard resumes its own part; bad I/N values are refused with a sentence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shard.h"
#include "test_cli_util.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/spmvlab-test-shard-XXXXXX";

static void every_cell_is_in_exactly_one_shard(void)
{
    static const spmvlab_dtype dt[] = {SPMVLAB_F64, SPMVLAB_F32, SPMVLAB_F16};
    for (int count = 1; count <= 7; count++) {
        int per[7] = {0}, once = 1;
        for (int m = 0; m < 300; m++) {
            char label[32];
            snprintf(label, sizeof label, "matrix_%d", m);
            for (int d = 0; d < 3; d++) {
                int owners = 0;
                for (int i = 0; i < count; i++)
                    owners += shard_owns(i, count, label, dt[d]);
                once &= owners == 1;
                per[shard_of(count, label, dt[d])]++;
            }
        }
        TEST_CHECK(once);
        for (int i = 0; i < count; i++) /* 900 cells: each shard near 900 / count */
            TEST_CHECK(per[i] > 900 / count * 3 / 4 && per[i] < 900 / count * 5 / 4);
    }
    /* the shard of a cell is a function of its matrix and dtype alone */
    TEST_CHECK(shard_of(5, "G3_circuit", SPMVLAB_F64) == shard_of(5, "G3_circuit", SPMVLAB_F64));
}

static void bad_shards_are_refused(void)
{
    int i, n;
    spmvlab_err err;
    TEST_CHECK(shard_parse("2/4", &i, &n, &err) == 0 && i == 2 && n == 4);
    TEST_CHECK(shard_parse("4/4", &i, &n, &err) != 0);
    TEST_CONTAINS(err.msg, "numbered from 0");
    TEST_CHECK(shard_parse("1/0", &i, &n, &err) != 0);
    TEST_CONTAINS(err.msg, "shard count");
    TEST_CHECK(shard_parse("1-4", &i, &n, &err) != 0);
    TEST_CONTAINS(err.msg, "I/N");
    TEST_CHECK(cli_run("run -p csr --shard 3/2 x.mtx") == 2);
    TEST_CONTAINS(cli_out, "--shard");
}

static void shards_together_make_one_run(const char *data)
{
    char mats[2048], *whole[64], *merged[64], *workers[64];
    snprintf(mats, sizeof mats, "%s/lp_e226.mtx.gz %s/1138_bus.mtx.gz %s/bcspwr10.mtx.gz %s/dw8192.mtx.gz", data,
             data, data, data);
    TEST_CHECK(cli_run("run -p csr,coo --dtype f64,f32 -o %s/whole.csv %s", tmpdir, mats) == 0);
    for (int k = 0; k < 3; k++)
        TEST_CHECK(cli_run("run -p csr,coo --dtype f64,f32 --shard %d/3 -o %s/part%d.csv %s", k, tmpdir, k, mats) ==
                   0);
    TEST_CHECK(cli_run("merge %s/merged.csv %s/part0.csv %s/part1.csv %s/part2.csv", tmpdir, tmpdir, tmpdir,
                       tmpdir) == 0);
    char p[4200];
    snprintf(p, sizeof p, "%s/whole.csv", tmpdir);
    int nw = csv_cells(p, whole, 64);
    snprintf(p, sizeof p, "%s/merged.csv", tmpdir);
    int nm = csv_cells(p, merged, 64);
    TEST_CHECK(nw == 16 && nm == nw);
    for (int i = 0; i < nw && nm == nw; i++)
        TEST_CHECK(strcmp(whole[i], merged[i]) == 0);
    /* two worker processes, as run --devices starts them on two GPUs */
    TEST_CHECK(cli_run("run -p csr,coo --dtype f64,f32 --devices cpu:2 -o %s/workers.csv %s", tmpdir, mats) == 0);
    TEST_CONTAINS(cli_out, "from 2 workers");
    snprintf(p, sizeof p, "%s/workers.csv", tmpdir);
    int nk = csv_cells(p, workers, 64);
    TEST_CHECK(nk == nw);
    for (int i = 0; i < nw && nk == nw; i++)
        TEST_CHECK(strcmp(whole[i], workers[i]) == 0);
    cells_free_all(whole, nw);
    cells_free_all(merged, nm);
    cells_free_all(workers, nk);
}

static void a_shard_resumes_its_part(const char *data)
{
    char part[4200], *before[64], *after[64];
    snprintf(part, sizeof part, "%s/resumed.csv", tmpdir);
    const char *fmt = "run -p csr --dtype f64,f32 --shard 1/2 --resume %s %s/lp_e226.mtx.gz %s/1138_bus.mtx.gz "
                      "%s/bcspwr10.mtx.gz";
    TEST_CHECK(cli_run(fmt, part, data, data, data) == 0);
    int nb = csv_cells(part, before, 64);
    TEST_CHECK(cli_run(fmt, part, data, data, data) == 0);
    int na = csv_cells(part, after, 64);
    TEST_CHECK(nb > 0 && na == nb);
    cells_free_all(before, nb);
    cells_free_all(after, na);
}

int main(void)
{
    const char *data = getenv("SPMVLAB_DATA_DIR");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 77;
    }
    every_cell_is_in_exactly_one_shard();
    if (getenv("SPMVLAB_HOST") && data) {
        char cache[4200];
        snprintf(cache, sizeof cache, "%s/cache", tmpdir);
        setenv("SPMVLAB_CACHE_DIR", cache, 1);
        bad_shards_are_refused();
        shards_together_make_one_run(data);
        a_shard_resumes_its_part(data);
    }
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_done("test_shard");
}
