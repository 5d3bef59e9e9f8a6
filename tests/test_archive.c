/*
 * Matrices as SuiteSparse ships them: Name.tar.gz holding Name/Name.mtx
 * reads as the matrix itself (side files such as Name_b.mtx ignored), an
 * archive without its matrix and a truncated one are refused with a
 * sentence, an ssget-layout folder (Group/Name/Name.mtx, Group/Name.tar.gz)
 * and a list file (a path or Group/Name a line) give the same matrices.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spmvlab/cache.h"
#include "test_cli_util.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/spmvlab-test-archive-XXXXXX";

static int sh(const char *fmt, const char *a)
{
    char cmd[8400];
    snprintf(cmd, sizeof cmd, fmt, a, a, a);
    return system(cmd);
}

/* dir/name with the matrix of n rows (distinct per n). */
static int write_matrix(const char *dir, const char *name, int n, spmvlab_csr *keep)
{
    char p[4300];
    spmvlab_csr A;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    if (test_gen_uniform(&A, n, n, 3, (uint64_t)n))
        return -1;
    spmvlab_err err;
    int rc = spmvlab_mtx_write(p, &A, NULL, &err);
    if (keep)
        *keep = A;
    else
        spmvlab_csr_free(&A);
    return rc;
}

static void archive_reads_as_its_matrix(void)
{
    char dir[4200], tgz[4300];
    spmvlab_csr want, got;
    spmvlab_err err;
    snprintf(dir, sizeof dir, "%s/Foo", tmpdir);
    mkdir(dir, 0755);
    TEST_CHECK(write_matrix(dir, "Foo_b.mtx", 9, NULL) == 0 && write_matrix(dir, "Foo.mtx", 40, &want) == 0 &&
               write_matrix(dir, "Foo_x.mtx", 11, NULL) == 0);
    TEST_CHECK(sh("cd %s && tar czf Foo.tar.gz Foo_b.mtx Foo 2>/dev/null", tmpdir) == 0 ||
               sh("cd %s && tar czf Foo.tar.gz Foo", tmpdir) == 0);
    snprintf(tgz, sizeof tgz, "%s/Foo.tar.gz", tmpdir);
    int rc = spmvlab_mtx_read(tgz, &got, &err);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
    TEST_CHECK(rc == 0);
    if (rc == 0) {
        TEST_CHECK(spmvlab_csr_hash(&got) == spmvlab_csr_hash(&want));
        spmvlab_csr_free(&got);
    }
    char label[64];
    spmvlab_matrix_label(tgz, label, sizeof label);
    TEST_CHECK(strcmp(label, "Foo") == 0);
    spmvlab_load_info info;
    TEST_CHECK(spmvlab_matrix_load_ex(tgz, &got, &info, &err) == 0 && info.cache_written == 1);
    if (info.cache_written)
        spmvlab_csr_free(&got);
    spmvlab_csr_free(&want);
}

static void broken_archives_are_refused(void)
{
    char dir[4200], p[4300];
    spmvlab_csr A;
    spmvlab_err err;
    snprintf(dir, sizeof dir, "%s/Bar", tmpdir);
    mkdir(dir, 0755);
    TEST_CHECK(write_matrix(dir, "Bar_b.mtx", 7, NULL) == 0 && write_matrix(dir, "Other.mtx", 8, NULL) == 0);
    TEST_CHECK(sh("cd %s && tar czf Bar.tar.gz Bar", tmpdir) == 0);
    snprintf(p, sizeof p, "%s/Bar.tar.gz", tmpdir);
    TEST_CHECK(spmvlab_mtx_read(p, &A, &err) != 0);
    TEST_CONTAINS(err.msg, "holds no Bar/Bar.mtx");
    TEST_CONTAINS(err.msg, "Bar/Bar_b.mtx");
    TEST_CHECK(sh("cd %s && head -c 300 Foo.tar.gz > Cut.tar.gz", tmpdir) == 0);
    snprintf(p, sizeof p, "%s/Cut.tar.gz", tmpdir);
    TEST_CHECK(spmvlab_mtx_read(p, &A, &err) != 0);
    TEST_CONTAINS(err.msg, "Cut.tar.gz");
}

static void ssget_folders_and_lists_are_collections(const char *data)
{
    char mm[4200], *cells[16], *listed[16];
    snprintf(mm, sizeof mm, "%s/MM", tmpdir);
    TEST_CHECK(sh("mkdir -p %s/G1/Foo %s/G2 && true", mm) == 0);
    char g1[4300];
    snprintf(g1, sizeof g1, "%s/G1/Foo", mm);
    TEST_CHECK(write_matrix(g1, "Foo.mtx", 30, NULL) == 0 && write_matrix(g1, "Foo_b.mtx", 5, NULL) == 0);
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "cp %s/Foo.tar.gz %s/G2/Baz.tar.gz", tmpdir, mm);
    TEST_CHECK(system(cmd) == 0);
    /* Baz.tar.gz holds Foo/Foo.mtx: the one matrix that is no side file */
    TEST_CHECK(cli_run("run -p csr -o %s/mm.csv %s", tmpdir, mm) == 0);
    char p[4300];
    snprintf(p, sizeof p, "%s/mm.csv", tmpdir);
    int n = csv_cells(p, cells, 16);
    TEST_CHECK(n == 2);
    if (n == 2)
        TEST_CHECK(strncmp(cells[0], "Baz|", 4) == 0 && strncmp(cells[1], "Foo|", 4) == 0);
    snprintf(p, sizeof p, "%s/list.txt", mm);
    FILE *f = fopen(p, "w");
    if (f) {
        fprintf(f, "# two matrices\nG1/Foo\n\n  G2/Baz  \n%s/lp_e226.mtx.gz\n", data);
        fclose(f);
    }
    TEST_CHECK(cli_run("run -p csr -o %s/list.csv %s", tmpdir, p) == 0);
    snprintf(p, sizeof p, "%s/list.csv", tmpdir);
    int m = csv_cells(p, listed, 16);
    TEST_CHECK(m == 3);
    snprintf(p, sizeof p, "%s/bad.txt", mm);
    f = fopen(p, "w");
    if (f) {
        fprintf(f, "G1/Foo\nG9/Nowhere\n");
        fclose(f);
    }
    TEST_CHECK(cli_run("run -p csr %s", p) == 2);
    TEST_CONTAINS(cli_out, "bad.txt line 2: 'G9/Nowhere' names no matrix file, folder or archive");
    cells_free_all(cells, n > 0 ? n : 0);
    cells_free_all(listed, m > 0 ? m : 0);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 77;
    }
    if (system("tar --version > /dev/null 2>&1") != 0) {
        printf("test_archive: skipped, no tar to build archives with\n");
        return 77;
    }
    char cache[4200];
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    setenv("SPMVLAB_CACHE_DIR", cache, 1);
    archive_reads_as_its_matrix();
    broken_archives_are_refused();
    const char *data = getenv("SPMVLAB_DATA_DIR");
    if (getenv("SPMVLAB_HOST") && data)
        ssget_folders_and_lists_are_collections(data);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_done("test_archive");
}
