/* The C side of launch.cuh: declarations, for a plugin's shared header, of
 * what its .cu defines there and its .c hands to spmvlab_launched. */
#ifndef SPMVLAB_PLUGINS_COMMON_LAUNCH_H
#define SPMVLAB_PLUGINS_COMMON_LAUNCH_H

/* Declares P##_launch(const F *f, x, y, stream), which launches P's kernels
 * on stream (a cudaStream_t) and returns 0 or the cudaError_t code (defined
 * by SPMVLAB_TYPED_LAUNCHER or by hand), and P##_error_string(code), the
 * text of such a code (SPMVLAB_CUDA_ERROR_STRING). */
#define SPMVLAB_LAUNCHER_DECLS(P, F)                                      \
    int P##_launch(const F *f, const void *x, void *y, void *stream);     \
    const char *P##_error_string(int code);

/* Defines `static spmvlab_status P##_spmv(fmt, x, y, stream, err)` of a
 * format F (with its ctx member) whose device work is P##_launch(arg, ...),
 * arg an expression of f: its status by spmvlab_launched, CUDA_ERROR with
 * "P kernel launch failed: <text>" when the launch failed. */
#define SPMVLAB_SPMV_BY_LAUNCHER(P, F, arg)                                                         \
    static spmvlab_status P##_spmv(void *fmt, const void *x, void *y, void *stream, spmvlab_err *err) \
    {                                                                                               \
        F *f = (F *)fmt;                                                                            \
        return spmvlab_launched(f->ctx, err, P##_launch(arg, x, y, stream), P##_error_string,       \
                                #P " kernel launch");                                               \
    }

#endif
