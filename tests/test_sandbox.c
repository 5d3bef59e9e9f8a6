/*
 * The child-process sandbox: a child that returns hands back its output and
 * exit code; one that crashes or aborts is reported as crashed with its
 * signal and its last words (the tail of its stderr); one that hangs is
 * killed at the time limit and reported as a timeout, with what it wrote
 * before; the parent carries on after each.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spmvlab/sandbox.h"
#include "testlib.h"

static int returns_normally(void *arg, int out_fd)
{
    const char *text = arg;
    fprintf(stderr, "a note on stderr\n");
    if (write(out_fd, text, strlen(text)) < 0)
        return 9;
    return 3;
}

static int writes_a_lot(void *arg, int out_fd)
{
    (void)arg;
    char block[4096];
    memset(block, 'x', sizeof block);
    for (int k = 0; k < 256; k++) /* 1 MiB: more than a pipe holds */
        if (write(out_fd, block, sizeof block) < 0)
            return 9;
    for (int k = 0; k < 2000; k++)
        fprintf(stderr, "noise line %d\n", k);
    fprintf(stderr, "the very last line\n");
    return 0;
}

static int crashes(void *arg, int out_fd)
{
    (void)arg;
    if (write(out_fd, "partial", 7) < 0)
        return 9;
    fprintf(stderr, "about to dereference a null pointer\n");
    fflush(stderr);
    /* A sanitizer would turn a null store or the signal into an exit; the
     * test is about what the sandbox sees of a real segfault. */
    signal(SIGSEGV, SIG_DFL);
    volatile char *volatile nowhere = (volatile char *)16;
    *nowhere = 1;
    return 0;
}

static int aborts(void *arg, int out_fd)
{
    (void)arg, (void)out_fd;
    fprintf(stderr, "invariant broken: rows != 0\n");
    abort();
}

static int hangs(void *arg, int out_fd)
{
    (void)arg;
    if (write(out_fd, "started", 7) < 0)
        return 9;
    fprintf(stderr, "spinning forever\n");
    volatile int forever = 1;
    while (forever)
        ;
    return 0;
}

static int sleeps_in_a_grandchild(void *arg, int out_fd)
{
    (void)arg, (void)out_fd;
    if (fork() == 0) { /* holds the pipes open; must be killed with the child */
        sleep(600);
        _exit(0);
    }
    sleep(600);
    return 0;
}

static void run(int (*fn)(void *, int), void *arg, double timeout_s, spmvlab_sandbox_result *r)
{
    spmvlab_err err;
    int rc = spmvlab_sandbox_run(fn, arg, timeout_s, r, &err);
    TEST_CHECK(rc == 0);
    if (rc)
        fprintf(stderr, "%s\n", err.msg);
}

int main(void)
{
    spmvlab_sandbox_result r;

    run(returns_normally, "the result line\n", 10, &r);
    TEST_CHECK(r.end == SPMVLAB_SANDBOX_EXITED && r.exit_code == 3);
    TEST_CHECK(r.output && strcmp(r.output, "the result line\n") == 0 && r.output_len == 16);
    TEST_CONTAINS(r.last_words, "a note on stderr");
    TEST_CHECK(r.wall_ms >= 0 && r.wall_ms < 10000);
    free(r.output);

    run(writes_a_lot, NULL, 30, &r);
    TEST_CHECK(r.end == SPMVLAB_SANDBOX_EXITED && r.exit_code == 0);
    TEST_CHECK(r.output_len == 1u << 20);
    TEST_CONTAINS(r.last_words, "the very last line"); /* the tail, not the head */
    TEST_CHECK(strstr(r.last_words, "noise line 0\n") == NULL);
    free(r.output);

    run(crashes, NULL, 10, &r);
    TEST_CHECK(r.end == SPMVLAB_SANDBOX_CRASHED && r.signal == SIGSEGV);
    TEST_CHECK(r.output && strcmp(r.output, "partial") == 0);
    TEST_CONTAINS(r.last_words, "about to dereference a null pointer");
    free(r.output);

    run(aborts, NULL, 10, &r);
    TEST_CHECK(r.end == SPMVLAB_SANDBOX_CRASHED && r.signal == SIGABRT);
    TEST_CONTAINS(r.last_words, "invariant broken: rows != 0");
    TEST_CHECK(r.output && r.output_len == 0);
    free(r.output);

    double t0 = spmvlab_now_ms();
    run(hangs, NULL, 0.5, &r);
    double took = spmvlab_now_ms() - t0;
    TEST_CHECK(r.end == SPMVLAB_SANDBOX_TIMEOUT);
    TEST_CHECK(took >= 450 && took < 5000);
    TEST_CHECK(r.output && strcmp(r.output, "started") == 0);
    TEST_CONTAINS(r.last_words, "spinning forever");
    free(r.output);

    t0 = spmvlab_now_ms();
    run(sleeps_in_a_grandchild, NULL, 0.3, &r);
    TEST_CHECK(r.end == SPMVLAB_SANDBOX_TIMEOUT);
    TEST_CHECK(spmvlab_now_ms() - t0 < 5000);
    free(r.output);

    /* The parent is unharmed and can sandbox again. */
    run(returns_normally, "again", 10, &r);
    TEST_CHECK(r.end == SPMVLAB_SANDBOX_EXITED && strcmp(r.output, "again") == 0);
    free(r.output);
    return test_done("test_sandbox");
}
