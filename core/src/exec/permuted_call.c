/* A permutation kept inside every call of an instance; see permuted_call.h. */
#include <stdlib.h>
#include <string.h>

#include "spmvlab/permuted_call.h"
#include "spmvlab/reorder.h"

spmvlab_status spmvlab_permuted_call_open(spmvlab_permuted_call *c, spmvlab_runtime *rt, const int32_t *perm,
                                          int32_t rows, int32_t cols, spmvlab_dtype dtype, spmvlab_err *err)
{
    memset(c, 0, sizeof *c);
    c->rt = rt;
    c->dtype = dtype;
    c->rows = rows;
    c->cols = cols;
    c->permute_x = rows == cols;
    size_t vs = spmvlab_dtype_size(dtype), pbytes = (size_t)rows * sizeof *perm;
    size_t xbytes = c->permute_x ? (size_t)cols * vs : 0, ybytes = (size_t)rows * vs;
    c->perm = malloc(pbytes ? pbytes : 1);
    c->host_xp = malloc(xbytes ? xbytes : 1);
    c->host_yp = malloc(ybytes ? ybytes : 1);
    if (!c->perm || !c->host_xp || !c->host_yp) {
        spmvlab_permuted_call_close(c);
        spmvlab_errf(err, "out of host memory for the per-call permutation of %d rows", rows);
        return SPMVLAB_NOMEM;
    }
    memcpy(c->perm, perm, pbytes);
    spmvlab_err why = {{0}};
    void *dperm = NULL;
    spmvlab_status st = spmvlab_dev_malloc(rt, &dperm, pbytes, &why);
    c->dev_perm = dperm;
    if (st == SPMVLAB_OK)
        st = spmvlab_dev_upload(rt, c->dev_perm, perm, pbytes, &why);
    if (st == SPMVLAB_OK && xbytes)
        st = spmvlab_dev_malloc(rt, &c->dev_xp, xbytes, &why);
    if (st == SPMVLAB_OK)
        st = spmvlab_dev_malloc(rt, &c->dev_yp, ybytes, &why);
    if (st != SPMVLAB_OK) {
        spmvlab_permuted_call_close(c);
        spmvlab_errf(err, "the per-call permutation on the device: %s", why.msg);
    }
    return st;
}

void spmvlab_permuted_call_close(spmvlab_permuted_call *c)
{
    if (c->rt) {
        spmvlab_dev_free(c->rt, c->dev_perm);
        spmvlab_dev_free(c->rt, c->dev_xp);
        spmvlab_dev_free(c->rt, c->dev_yp);
    }
    free(c->perm);
    free(c->host_xp);
    free(c->host_yp);
    memset(c, 0, sizeof *c);
}

spmvlab_status spmvlab_permuted_call_poison(spmvlab_permuted_call *c, int device, spmvlab_err *err)
{
    if (!device) {
        spmvlab_poison_host(c->host_yp, (size_t)c->rows, c->dtype);
        return SPMVLAB_OK;
    }
    return spmvlab_dev_poison(c->rt, c->dev_yp, (size_t)c->rows, c->dtype, err);
}

/* The instance's sentence around a failed permutation. */
static spmvlab_status failed(const spmvlab_instance *in, spmvlab_status st, const spmvlab_err *why,
                             spmvlab_err *err)
{
    spmvlab_errf(err, "%s on %s: %s", in->label, in->matrix ? in->matrix->name : "?", why->msg);
    return st;
}

spmvlab_status spmvlab_instance_spmv(const spmvlab_instance *in, const void *x, void *y, spmvlab_err *err)
{
    const spmvlab_plugin *p = in->plugin->desc;
    const spmvlab_permuted_call *c = in->call;
    if (!c)
        return p->spmv(in->fmt, x, y, in->rt->stream, err);
    size_t vs = spmvlab_dtype_size(c->dtype);
    spmvlab_err why = {{0}};
    spmvlab_status st = SPMVLAB_OK;
    const void *xp = x;
    if (c->permute_x) {
        if ((st = spmvlab_dev_gather(c->rt, c->dev_xp, x, c->dev_perm, c->cols, vs, &why)) != SPMVLAB_OK)
            return failed(in, st, &why, err);
        xp = c->dev_xp;
    }
    if ((st = p->spmv(in->fmt, xp, c->dev_yp, in->rt->stream, err)) != SPMVLAB_OK)
        return st;
    if ((st = spmvlab_dev_scatter(c->rt, y, c->dev_yp, c->dev_perm, c->rows, vs, &why)) != SPMVLAB_OK)
        return failed(in, st, &why, err);
    return SPMVLAB_OK;
}

spmvlab_status spmvlab_instance_spmv_host(const spmvlab_instance *in, const void *x, void *y, spmvlab_err *err)
{
    const spmvlab_plugin *p = in->plugin->desc;
    const spmvlab_permuted_call *c = in->call;
    if (!c)
        return p->spmv_host(in->fmt, x, y, err);
    size_t vs = spmvlab_dtype_size(c->dtype);
    const void *xp = x;
    if (c->permute_x) {
        spmvlab_gather_values(c->host_xp, x, c->perm, c->cols, vs);
        xp = c->host_xp;
    }
    spmvlab_status st = p->spmv_host(in->fmt, xp, c->host_yp, err);
    if (st == SPMVLAB_OK)
        spmvlab_scatter_values(y, c->host_yp, c->perm, c->rows, vs);
    return st;
}
