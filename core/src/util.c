/* Error sentences, names of statuses, dtypes and corpus parts, the clock. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "spmvlab/core.h"
#include "spmvlab/gen.h"

void spmvlab_verrf(spmvlab_err *err, const char *fmt, va_list ap)
{
    if (!err)
        return;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
}

void spmvlab_errf(spmvlab_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    spmvlab_verrf(err, fmt, ap);
    va_end(ap);
}

const char *spmvlab_status_name(spmvlab_status st)
{
    switch (st) {
    case SPMVLAB_OK: return "ok";
    case SPMVLAB_UNSUPPORTED: return "unsupported";
    case SPMVLAB_INVALID_OPTION: return "invalid-option";
    case SPMVLAB_LIMIT: return "limit";
    case SPMVLAB_NOMEM: return "oom";
    case SPMVLAB_CUDA_ERROR: return "cuda-error";
    case SPMVLAB_INTERNAL: return "internal";
    }
    return "unknown";
}

const char *spmvlab_result_name(spmvlab_result o)
{
    switch (o) {
    case SPMVLAB_RESULT_WRONG: return "wrong";
    case SPMVLAB_RESULT_BAD_INPUT: return "bad-input";
    case SPMVLAB_RESULT_IO: return "io";
    case SPMVLAB_RESULT_CRASH: return "crash";
    case SPMVLAB_RESULT_TIMEOUT: return "timeout";
    case SPMVLAB_RESULT_DEVICE_FAULT: return "device-fault";
    default: return spmvlab_status_name((spmvlab_status)o);
    }
}

int spmvlab_result_parse(const char *name, spmvlab_result *out)
{
    static const spmvlab_result all[] = {
        SPMVLAB_RESULT_OK,        SPMVLAB_RESULT_UNSUPPORTED, SPMVLAB_RESULT_INVALID_OPTION,
        SPMVLAB_RESULT_LIMIT,     SPMVLAB_RESULT_NOMEM,       SPMVLAB_RESULT_CUDA_ERROR,
        SPMVLAB_RESULT_INTERNAL,  SPMVLAB_RESULT_WRONG,       SPMVLAB_RESULT_BAD_INPUT,
        SPMVLAB_RESULT_IO,        SPMVLAB_RESULT_CRASH,       SPMVLAB_RESULT_TIMEOUT,
        SPMVLAB_RESULT_DEVICE_FAULT};
    for (size_t k = 0; name && k < sizeof all / sizeof *all; k++)
        if (strcmp(name, spmvlab_result_name(all[k])) == 0) {
            *out = all[k];
            return 0;
        }
    return -1;
}

int spmvlab_dtype_parse(const char *s, spmvlab_dtype *out)
{
    static const struct { const char *name; spmvlab_dtype d; } names[] = {
        {"f64", SPMVLAB_F64}, {"double", SPMVLAB_F64}, {"f32", SPMVLAB_F32},
        {"float", SPMVLAB_F32}, {"f16", SPMVLAB_F16}, {"half", SPMVLAB_F16}};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (strcmp(s, names[k].name) == 0) {
            *out = names[k].d;
            return 0;
        }
    return -1;
}

const char *spmvlab_part_name(spmvlab_part part)
{
    return part == SPMVLAB_PART_HELDOUT ? "heldout" : "tune";
}

int spmvlab_part_parse(const char *text, spmvlab_part *out, spmvlab_err *err)
{
    if (strcmp(text, "tune") == 0 || strcmp(text, "heldout") == 0) {
        *out = text[0] == 't' ? SPMVLAB_PART_TUNE : SPMVLAB_PART_HELDOUT;
        return 0;
    }
    return spmvlab_errf(err, "part '%s' is not tune or heldout", text), -1;
}

double spmvlab_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}
