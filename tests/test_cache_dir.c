/*
 * The binary cache stays out of the user's folders: `spmvlab run` over a
 * read-only folder of inputs works and leaves the folder as it was, the
 * entries land in SPMVLAB_CACHE_DIR, a second run reads them, and
 * `spmvlab cache list|clear` shows and removes them.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_cli_util.h"
#include "testlib.h"

static char tmpdir[] = "/tmp/spmvlab-test-cache-dir-XXXXXX";

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    const char *data = getenv("SPMVLAB_DATA_DIR");
    if (!getenv("SPMVLAB_HOST") || !data) {
        printf("test_cache_dir: skipped, SPMVLAB_HOST or SPMVLAB_DATA_DIR is not set\n");
        return 77;
    }
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 77;
    }
    char in[4200], cache[4200], csr[4300], cmd[24000];
    snprintf(in, sizeof in, "%s/inputs", tmpdir);
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    snprintf(csr, sizeof csr, "%s/csr", cache);
    setenv("SPMVLAB_CACHE_DIR", cache, 1);
    unsetenv("SPMVLAB_NO_CACHE");
    snprintf(cmd, sizeof cmd, "mkdir -p %s && cp %s/lp_e226.mtx.gz %s/1138_bus.mtx.gz %s/ && chmod 555 %s", in, data,
             data, in, in);
    TEST_CHECK(system(cmd) == 0);
    TEST_CHECK(cli_run("run -p csr %s", in) == 0);
    TEST_CHECK(entries(in) == 2);
    TEST_CHECK(entries(csr) == 2);
    /* a writable folder is left alone too */
    chmod(in, 0755);
    TEST_CHECK(cli_run("run -p csr -v %s", in) == 0);
    TEST_CHECK(entries(in) == 2 && entries(csr) == 2);
    TEST_CHECK(cli_run("cache list") == 0);
    TEST_CONTAINS(cli_out, "2 entries");
    TEST_CONTAINS(cli_out, cache);
    TEST_CHECK(cli_run("cache clear") == 0);
    TEST_CONTAINS(cli_out, "removed 2 files");
    TEST_CHECK(entries(csr) == 0);
    TEST_CHECK(cli_run("cache frobnicate") == 2);
    TEST_CONTAINS(cli_out, "use list or clear");
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return test_done("test_cache_dir");
}
