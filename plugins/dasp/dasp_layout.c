/*
 * DASP: what the kernel may take from its parameters or a bit a row instead
 * of a 4-byte index: the runs of equally shaped medium row-blocks
 * (med_ranges) and the empty-row modes (empty_rows), with their rules; the
 * irr_gather rule (the kernel fields are filled in dasp.c). The layout is described at the top
 * of dasp.c.
 */
#include <string.h>

#include "dasp_format.h"

int dasp_empty_rule(int64_t empty, int32_t rows, int64_t nnz)
{
    if (rows && nnz >= DASP_LARGE_NNZ && (double)empty >= DASP_EMPTY_STAGE_SHARE * (double)rows)
        return DASP_ER_STAGE;
    return rows && (double)empty >= DASP_EMPTY_BITMAP_SHARE * (double)rows ? DASP_ER_BITMAP : DASP_ER_LIST;
}

int dasp_irr_rule(const dasp_counts *n)
{
    return n->medium > 0 && n->block_nnz + n->irr < (int64_t)DASP_IRR_EARLY_MEAN * n->medium;
}

/* Signature of row-block rb for the ranges: its level widths (quanta) and
 * its rows' common irregular count; 0 when its rows' counts differ or it
 * is the last, partial row-block. */
static int rb_shape(const dasp_format *f, int64_t rb, int32_t sig[DASP_MAX_LEVELS + 1])
{
    const int32_t *rp = f->a[DASP_A_RB_PTR].host;
    sig[f->nlev] = dasp_rb_even_irr(f->a[DASP_A_IRR_PTR].host, rb, f->n.medium);
    if (sig[f->nlev] < 0)
        return 0;
    for (int l = 0; l < f->nlev; l++)
        sig[l] = rp[rb * f->nlev + l + 1] - rp[rb * f->nlev + l];
    return 1;
}

/* med_ranges = on: the DASP_MAX_RANGES longest runs of consecutive
 * row-blocks of one signature (rb_shape), kept in row-block order. */
void dasp_build_ranges(dasp_format *f)
{
    const int nl = f->nlev;
    const int32_t *rp = f->a[DASP_A_RB_PTR].host, *ip = f->a[DASP_A_IRR_PTR].host;
    dasp_range *kept = f->ranges;
    int n = 0;
    for (int64_t rb = 0; rb < f->n.rb;) {
        int32_t sig[DASP_MAX_LEVELS + 1], next[DASP_MAX_LEVELS + 1];
        if (!rb_shape(f, rb, sig)) {
            rb++;
            continue;
        }
        int64_t end = rb + 1;
        while (end < f->n.rb && rb_shape(f, end, next) && !memcmp(sig, next, sizeof(int32_t) * (size_t)(nl + 1)))
            end++;
        dasp_range r = {.rb0 = (int32_t)rb, .rb1 = (int32_t)end, .q0 = rp[rb * nl], .i0 = ip[rb * DASP_BM],
                        .cnt = sig[nl]};
        for (int l = 0; l < nl; l++)
            r.off[l + 1] = r.off[l] + sig[l];
        r.qrb = r.off[nl];
        /* Keep the longest: when full, the shortest kept run makes way. */
        int at = n;
        if (n < DASP_MAX_RANGES) {
            n++;
        } else {
            at = 0;
            for (int k = 1; k < DASP_MAX_RANGES; k++)
                if (kept[k].rb1 - kept[k].rb0 < kept[at].rb1 - kept[at].rb0)
                    at = k;
            if (kept[at].rb1 - kept[at].rb0 >= r.rb1 - r.rb0)
                at = -1;
        }
        if (at >= 0)
            kept[at] = r;
        rb = end;
    }
    for (int i = 1; i < n; i++) /* row-block order */
        for (int k = i; k > 0 && kept[k].rb0 < kept[k - 1].rb0; k--) {
            dasp_range t = kept[k];
            kept[k] = kept[k - 1];
            kept[k - 1] = t;
        }
    f->n_ranges = n;
}
