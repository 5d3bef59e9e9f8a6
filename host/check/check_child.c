/* Checks in child processes; see check_child.h. */
#define _GNU_SOURCE /* strsignal */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_child.h"

int check_write_result(int fd, const check_result *r)
{
    const char *p = (const char *)r;
    size_t left = sizeof *r;
    while (left) {
        ssize_t n = write(fd, p, left);
        if (n <= 0)
            return -1;
        p += n;
        left -= (size_t)n;
    }
    return 0;
}

static int child_main(void *arg, int out_fd)
{
    dup2(STDERR_FILENO, STDOUT_FILENO); /* a plugin that prints adds to its last words */
    check_result r;
    check_job_execute(arg, &r);
    return check_write_result(out_fd, &r) ? 3 : 0;
}

/* Splits a child's stderr tail into the last "stage: " it announced and
 * the rest (what the plugin or a sanitizer printed), on one line. */
static void read_last_words(const char *words, char *stage, size_t slen, char *rest, size_t rlen)
{
    snprintf(stage, slen, "startup");
    rest[0] = '\0';
    size_t used = 0;
    for (const char *line = words; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        if (n > 7 && strncmp(line, "stage: ", 7) == 0)
            snprintf(stage, slen, "%.*s", (int)(n - 7), line + 7);
        else if (n && used + 4 < rlen)
            used += (size_t)snprintf(rest + used, rlen - used, "%s%.*s", used ? " | " : "", (int)n, line);
        line = nl ? nl + 1 : NULL;
    }
    if (used >= rlen)
        rest[rlen - 1] = '\0';
}

/* Runs one check in a child (or here with --no-fork) and fills r; a child
 * that crashes, hangs or exits without a result becomes a FAIL saying how
 * and during which step. */
void check_run_job(const check_settings *o, check_job *j, check_result *r)
{
    if (o->no_fork) {
        j->sandboxed = 0;
        check_job_execute(j, r);
        return;
    }
    j->sandboxed = 1;
    spmvlab_sandbox_result sr;
    spmvlab_err err = {{0}};
    if (spmvlab_sandbox_run(child_main, j, o->timeout_s, &sr, &err)) {
        r->verdict = CHECK_FAIL;
        snprintf(r->detail, sizeof r->detail, "%s", err.msg);
        return;
    }
    if (sr.end == SPMVLAB_SANDBOX_EXITED && sr.exit_code == 0 && sr.output_len == sizeof *r) {
        memcpy(r, sr.output, sizeof *r);
        free(sr.output);
        return;
    }
    check_child_failure(&sr, o->timeout_s, r);
    free(sr.output);
}

void check_child_failure(const spmvlab_sandbox_result *sr, double timeout_s, check_result *r)
{
    char stage[128], rest[640], how[320];
    read_last_words(sr->last_words, stage, sizeof stage, rest, sizeof rest);
    if (sr->end == SPMVLAB_SANDBOX_CRASHED)
        snprintf(how, sizeof how, "crashed (signal %d) during %s: %s", sr->signal, stage, strsignal(sr->signal));
    else if (sr->end == SPMVLAB_SANDBOX_TIMEOUT)
        snprintf(how, sizeof how, "timed out after %g s during %s", timeout_s, stage);
    else
        snprintf(how, sizeof how, "exited with status %d during %s without a result", sr->exit_code, stage);
    r->verdict = CHECK_FAIL;
    snprintf(r->detail, sizeof r->detail, "%s%s%s", how, rest[0] ? "; last words: " : "", rest);
}
