/* Children for --isolate and their answers; see run_isolate.h. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "run_answer.h"
#include "run_isolate.h"
#include "status.h"
#include "spmvlab/sandbox.h"

/* The running child's pid, written by the child itself into a page shared
 * with the parent, so that Ctrl-C can end it at once. */
static volatile pid_t *running_child;

static void track_children(void)
{
    if (running_child)
        return;
    void *p = mmap(NULL, sizeof(pid_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
        running_child = p;
        *running_child = 0;
    }
}

void isolate_interrupt(void)
{
    pid_t pid = running_child ? *running_child : 0;
    if (pid > 0) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
}

typedef struct member_job {
    const run_group *g;
    const spmvlab_instance_spec *spec;
} member_job;

/* The answer: one row (run_answer.h). */
static void write_answer(int fd, const run_row *r)
{
    FILE *f = fdopen(fd, "w");
    if (!f)
        return;
    answer_write(f, r);
    fclose(f);
}

static int child_member(void *arg, int fd)
{
    member_job *j = arg;
    if (running_child)
        *running_child = getpid();
    run_group g = *j->g;
    spmvlab_runtime rt;
    spmvlab_err err = {{0}};
    run_member mb;
    memset(&mb, 0, sizeof mb);
    mb.spec = j->spec;
    mb.emit = 1;
    g.rt = &rt;
    g.m = &mb;
    g.n = 1;
    g.progress = NULL;
    g.stop = NULL;
    g.flush_buf = NULL;
    if (spmvlab_runtime_open(&rt, 1, 0, &err) < 0) {
        identity_to_row(g.identity, j->spec, &mb.row);
        run_row_fail(&mb.row, SPMVLAB_RESULT_CUDA_ERROR, err.msg);
        write_answer(fd, &mb.row);
        return 0;
    }
    if (g.s->mem_limit)
        rt.mem_limit = g.s->mem_limit;
    if (rt.device.present && g.s->flush_l2) {
        g.flush_bytes = 2 * rt.device.l2_bytes;
        if (spmvlab_dev_malloc(&rt, &g.flush_buf, g.flush_bytes, &err))
            g.flush_buf = NULL;
    }
    group_execute(&g);
    write_answer(fd, &mb.row);
    spmvlab_dev_free(&rt, g.flush_buf);
    spmvlab_runtime_close(&rt);
    return 0;
}

/* Reads the child's answer into row. Returns 0 when complete. */
static int read_answer(const char *text, size_t len, run_row *row)
{
    if (!len)
        return -1;
    FILE *f = fmemopen((void *)text, len, "r");
    if (!f)
        return -1;
    char **v = NULL;
    int n = 0, lines = 0, rc = -1;
    answer_reader a;
    answer_begin(&a, row);
    while (rc != 0 && csv_read_record(f, &v, &n, &lines) == 1) {
        if (answer_take(&a, v, n) == 1)
            rc = 0;
        csv_free_record(v, n);
        v = NULL;
    }
    answer_abort(&a);
    fclose(f);
    return rc;
}

/* The child's stderr tail on one line, at most len - 1 characters. */
static void last_words(const char *raw, char *out, size_t len)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", raw);
    for (char *p = tmp; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
    char *s = tmp;
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && s[n - 1] == ' ')
        s[--n] = '\0';
    if (n + 1 > len)
        s += n + 1 - len;
    snprintf(out, len, "%s", s);
}

int isolate_member(const run_group *g, const spmvlab_instance_spec *spec, run_row *row)
{
    identity_to_row(g->identity, spec, row);
    member_job job = {g, spec};
    spmvlab_sandbox_result r;
    spmvlab_err err = {{0}};
    track_children();
    int started = spmvlab_sandbox_run(child_member, &job, g->s->timeout_s, &r, &err);
    if (running_child)
        *running_child = 0;
    if (started) {
        run_row_fail(row, SPMVLAB_RESULT_INTERNAL, err.msg);
        return -1;
    }
    char words[400];
    last_words(r.last_words, words, sizeof words);
    const char *sep = words[0] ? "; last words: " : "";
    if (r.end == SPMVLAB_SANDBOX_EXITED && r.exit_code == 0 && read_answer(r.output, r.output_len, row) == 0) {
        if (words[0] && g->s->verbose)
            fprintf(stderr, "%s on %s said: %s\n", spec->label, g->matrix, words);
    } else {
        run_row_clear(row);
        identity_to_row(g->identity, spec, row);
        row->wall_ms = r.wall_ms;
        /* The way the child ended decides the status; its last words are
         * only reported. A child that exits without a result (a plugin
         * calling exit, a sanitizer's report) broke the rules: internal. */
        char msg[sizeof row->message];
        spmvlab_result o = SPMVLAB_RESULT_INTERNAL;
        if (r.end == SPMVLAB_SANDBOX_CRASHED) {
            o = SPMVLAB_RESULT_CRASH;
            snprintf(msg, sizeof msg, "the child was killed by signal %d (%s)%s%s", r.signal, strsignal(r.signal), sep,
                     words);
        } else if (r.end == SPMVLAB_SANDBOX_TIMEOUT) {
            o = SPMVLAB_RESULT_TIMEOUT;
            snprintf(msg, sizeof msg, "no result within %g s; the child was killed%s%s", g->s->timeout_s, sep, words);
        } else {
            snprintf(msg, sizeof msg, "the child exited with code %d without a result%s%s", r.exit_code, sep, words);
        }
        run_row_fail(row, o, msg);
    }
    free(r.output);
    return 0;
}

static int child_meta(void *arg, int fd)
{
    run_meta *m = arg;
    spmvlab_runtime rt;
    spmvlab_err err = {{0}};
    if (spmvlab_runtime_open(&rt, 1, 0, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return 3;
    }
    run_meta_device(m, &rt);
    if (rt.device.present)
        run_meta_peak(m, &rt);
    run_meta_write(m, fd);
    spmvlab_runtime_close(&rt);
    return 0;
}

int isolate_meta(run_meta *m, double timeout_s, spmvlab_err *err)
{
    spmvlab_sandbox_result r;
    if (spmvlab_sandbox_run(child_meta, m, timeout_s, &r, err))
        return -1;
    char words[400];
    last_words(r.last_words, words, sizeof words);
    int rc = -1;
    if (r.end == SPMVLAB_SANDBOX_CRASHED)
        spmvlab_errf(err, "the child opening the device was killed by signal %d (%s): %s", r.signal,
                     strsignal(r.signal), words);
    else if (r.end == SPMVLAB_SANDBOX_TIMEOUT)
        spmvlab_errf(err, "the child opening the device gave no answer within %g s", timeout_s);
    else if (r.exit_code != 0 || run_meta_read(m, r.output))
        spmvlab_errf(err, "opening the device failed: %s", words[0] ? words : "no answer");
    else
        rc = 0;
    free(r.output);
    return rc;
}
