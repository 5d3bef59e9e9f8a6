/* Child-process isolation with a time limit; see sandbox.h. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spmvlab/core.h"
#include "spmvlab/sandbox.h"

/* Appends what is readable on fd; returns 0 at end of file. */
static int drain(int fd, char **buf, size_t *len, size_t *cap)
{
    char chunk[4096];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : 0;
    if (n == 0)
        return 0;
    if (*len + (size_t)n + 1 > *cap) {
        size_t c = (*cap ? *cap * 2 : 8192) + (size_t)n;
        char *g = realloc(*buf, c);
        if (!g)
            return 0;
        *buf = g;
        *cap = c;
    }
    memcpy(*buf + *len, chunk, (size_t)n);
    *len += (size_t)n;
    (*buf)[*len] = '\0';
    return 1;
}

int spmvlab_sandbox_run(int (*fn)(void *, int), void *arg, double timeout_s, spmvlab_sandbox_result *r,
                        spmvlab_err *err)
{
    return spmvlab_sandbox_run_ex(fn, arg, timeout_s, 0, r, err);
}

int spmvlab_sandbox_run_ex(int (*fn)(void *, int), void *arg, double timeout_s, int idle,
                           spmvlab_sandbox_result *r, spmvlab_err *err)
{
    memset(r, 0, sizeof *r);
    int out[2], errp[2];
    if (pipe(out))
        return spmvlab_errf(err, "cannot create a pipe: %s", strerror(errno)), -1;
    if (pipe(errp)) {
        close(out[0]);
        close(out[1]);
        return spmvlab_errf(err, "cannot create a pipe: %s", strerror(errno)), -1;
    }
    fflush(NULL);
    double t0 = spmvlab_now_ms();
    pid_t pid = fork();
    if (pid < 0) {
        close(out[0]), close(out[1]), close(errp[0]), close(errp[1]);
        return spmvlab_errf(err, "cannot start a child process: %s", strerror(errno)), -1;
    }
    if (pid == 0) {
        close(out[0]);
        close(errp[0]);
        dup2(errp[1], STDERR_FILENO);
        setpgid(0, 0);
        int rc = fn(arg, out[1]);
        fflush(NULL);
        _exit(rc & 0xff);
    }
    close(out[1]);
    close(errp[1]);
    char *obuf = NULL, *ebuf = NULL;
    size_t olen = 0, ocap = 0, elen = 0, ecap = 0;
    int open_out = 1, open_err = 1, timed_out = 0;
    double since = t0; /* start of the time limit */
    while (open_out || open_err) {
        struct pollfd fds[2] = {{out[0], POLLIN, 0}, {errp[0], POLLIN, 0}};
        int wait_ms = -1;
        if (timeout_s > 0) {
            double left = timeout_s * 1e3 - (spmvlab_now_ms() - since);
            if (left <= 0) {
                timed_out = 1;
                break;
            }
            wait_ms = (int)left + 1;
        }
        fds[0].fd = open_out ? out[0] : -1;
        fds[1].fd = open_err ? errp[0] : -1;
        int n = poll(fds, 2, wait_ms);
        if (n < 0 && errno != EINTR)
            break;
        if (n <= 0)
            continue;
        if (open_out && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            size_t before = olen;
            open_out = drain(out[0], &obuf, &olen, &ocap);
            if (idle && olen > before)
                since = spmvlab_now_ms();
        }
        if (open_err && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            open_err = drain(errp[0], &ebuf, &elen, &ecap);
    }
    if (timed_out) {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    close(out[0]);
    close(errp[0]);
    r->wall_ms = spmvlab_now_ms() - t0;
    if (timed_out)
        r->end = SPMVLAB_SANDBOX_TIMEOUT;
    else if (WIFSIGNALED(status)) {
        r->end = SPMVLAB_SANDBOX_CRASHED;
        r->signal = WTERMSIG(status);
    } else {
        r->end = SPMVLAB_SANDBOX_EXITED;
        r->exit_code = WEXITSTATUS(status);
    }
    r->output = obuf ? obuf : calloc(1, 1);
    r->output_len = olen;
    if (ebuf) {
        size_t keep = elen < sizeof r->last_words - 1 ? elen : sizeof r->last_words - 1;
        memcpy(r->last_words, ebuf + elen - keep, keep);
        r->last_words[keep] = '\0';
        free(ebuf);
    }
    return 0;
}
