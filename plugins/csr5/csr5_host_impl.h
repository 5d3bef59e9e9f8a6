/*
 * The body of spmv_host for one value type, included by csr5_host.c once per
 * dtype with CSR5_V (the type), CSR5_FMA (fma / fmaf) and CSR5_FN(name)
 * (the function name with the type's suffix) defined.
 *
 * Each function performs the operations of its kernel counterpart in
 * csr5_spmv.cu in the same order: per-lane fused multiply-adds, the shuffle
 * trees and the segmented scan are simulated lane by lane, so host and
 * device results agree bit for bit.
 */

/* Lane 0's value after `v += shfl_down(v, off)` for off = 16, 8, 4, 2, 1. */
static CSR5_V CSR5_FN(tree)(CSR5_V *v)
{
    for (int off = CSR5_OMEGA / 2; off > 0; off /= 2)
        for (int l = 0; l < off; l++)
            v[l] += v[l + off];
    return v[0];
}

/* One tile (kernel: csr5_tile). */
static void CSR5_FN(tile)(const csr5_fmt *f, int32_t t, const CSR5_V *x, CSR5_V *y, CSR5_V *out_pc,
                          CSR5_V *head_pc)
{
    const csr5_arrays *h = &f->h;
    const int S = f->sigma, W = f->W;
    const size_t base = (size_t)t * CSR5_OMEGA * S;
    const int32_t *col = h->col + base;
    const CSR5_V *val = (const CSR5_V *)h->val + base;
    const uint32_t *desc = h->desc + (size_t)t * CSR5_OMEGA * W;
    const uint32_t tp0 = h->tile_ptr[t];
    const int32_t row0 = (int32_t)(tp0 & CSR5_ROW_MASK);
    const int32_t next_row = (int32_t)(h->tile_ptr[t + 1] & CSR5_ROW_MASK);
    CSR5_V v[CSR5_OMEGA], rest[CSR5_OMEGA];

    if (row0 == next_row) { /* one row covers the whole tile */
        for (int l = 0; l < CSR5_OMEGA; l++) {
            CSR5_V sum = 0;
            for (int j = 0; j < S; j++)
                sum = CSR5_FMA(val[j * CSR5_OMEGA + l], x[col[j * CSR5_OMEGA + l]], sum);
            v[l] = sum;
        }
        CSR5_V sum = CSR5_FN(tree)(v);
        if (desc[0] & 1u)
            out_pc[t] = sum;
        else
            head_pc[t] = sum;
        return;
    }

    const int32_t *slot_row = (tp0 & CSR5_EMPTY_FLAG) ? h->empty_offset + h->eo_ptr[t] : NULL;
    uint32_t flags[CSR5_OMEGA], seg[CSR5_OMEGA], yoff[CSR5_OMEGA];
    for (int l = 0; l < CSR5_OMEGA; l++) {
        const uint32_t w0 = desc[l], meta = W == 2 ? desc[CSR5_OMEGA + l] : w0 >> S;
        flags[l] = S == 32 ? w0 : w0 & ((1u << S) - 1u);
        seg[l] = meta & 31u;
        yoff[l] = meta >> 5;
        CSR5_V sum = 0, head = 0;
        int k = 0;
        for (int j = 0; j < S; j++) {
            if (flags[l] >> j & 1u) {
                if (k == 0) {
                    head = sum;
                } else {
                    int32_t s = (int32_t)yoff[l] + k - 1;
                    y[CSR5_YROW(h, slot_row ? slot_row[s] : row0 + s)] = sum;
                }
                k++;
                sum = 0;
            }
            sum = CSR5_FMA(val[j * CSR5_OMEGA + l], x[col[j * CSR5_OMEGA + l]], sum);
        }
        v[l] = k ? head : sum;
        rest[l] = sum;
    }
    /* Segmented suffix scan: lane l adds lane l + d while d <= seg_offset. */
    for (int d = 1; d < CSR5_OMEGA; d *= 2) {
        CSR5_V old[CSR5_OMEGA];
        memcpy(old, v, sizeof old);
        for (int l = 0; l < CSR5_OMEGA; l++)
            if ((uint32_t)d <= seg[l])
                v[l] = old[l] + old[l + d];
    }
    for (int l = 0; l < CSR5_OMEGA; l++) {
        int n = csr5_popc(flags[l]);
        if (!n)
            continue;
        CSR5_V next = l == CSR5_OMEGA - 1 ? (CSR5_V)0 : v[l + 1];
        CSR5_V total = rest[l] + next;
        int32_t s = (int32_t)yoff[l] + n - 1;
        int32_t r = slot_row ? slot_row[s] : row0 + s;
        if (r != next_row)
            y[CSR5_YROW(h, r)] = total;
        else
            out_pc[t] = total;
    }
    if (!(flags[0] & 1u))
        head_pc[t] = v[0];
}

/* One row of the tail (kernel: csr5_tail_row). */
static void CSR5_FN(tail_row)(const csr5_fmt *f, int32_t r, const CSR5_V *x, CSR5_V *y, CSR5_V *head_pc)
{
    const csr5_arrays *h = &f->h;
    const int32_t lo = h->row_ptr[r], hi = h->row_ptr[r + 1];
    if (lo == hi)
        return;
    const int continued = lo < f->d.tail_start;
    const int32_t k0 = continued ? f->d.tail_start : lo;
    const CSR5_V *val = h->val;
    CSR5_V acc[CSR5_OMEGA];
    for (int l = 0; l < CSR5_OMEGA; l++) {
        acc[l] = 0;
        for (int32_t k = k0 + l; k < hi; k += CSR5_OMEGA)
            acc[l] = CSR5_FMA(val[k], x[h->col[k]], acc[l]);
    }
    CSR5_V sum = CSR5_FN(tree)(acc);
    if (continued)
        head_pc[f->d.tiles] = sum;
    else
        y[CSR5_YROW(h, r)] = sum;
}

/* The row crossing out of tile t, if t owns one (kernel: csr5_calibrate and
 * c5_finish_rows): up to CSR5_SEQ_PIECES pieces summed in order, more
 * lane-strided, then the tree. */
static void CSR5_FN(calibrate)(const csr5_fmt *f, int32_t t, CSR5_V *y, const CSR5_V *out_pc,
                               const CSR5_V *head_pc)
{
    const int64_t T = (int64_t)CSR5_OMEGA * f->sigma;
    const int32_t *rp = f->h.row_ptr;
    const int32_t r = (int32_t)(f->h.tile_ptr[t + 1] & CSR5_ROW_MASK);
    if (r >= f->rows || rp[r] < t * T || rp[r] >= (t + 1) * T)
        return;
    int64_t te = ((int64_t)rp[r + 1] - 1) / T;
    if (te > f->d.tiles)
        te = f->d.tiles;
    if (te - t + 1 <= CSR5_SEQ_PIECES) { /* in order, one thread */
        CSR5_V sum = out_pc[t];
        for (int64_t i = 1; i <= te - t; i++)
            sum += head_pc[t + i];
        y[CSR5_YROW(&f->h, r)] = sum;
        return;
    }
    CSR5_V acc[CSR5_OMEGA];
    for (int l = 0; l < CSR5_OMEGA; l++) {
        acc[l] = 0;
        for (int64_t i = l; i <= te - t; i += CSR5_OMEGA)
            acc[l] += i == 0 ? out_pc[t] : head_pc[t + i];
    }
    y[CSR5_YROW(&f->h, r)] = CSR5_FN(tree)(acc);
}

/* y = A x on the host; pieces is scratch of 2 tiles + 1 values. */
static void CSR5_FN(spmv)(const csr5_fmt *f, const CSR5_V *x, CSR5_V *y, CSR5_V *pieces)
{
    CSR5_V *out_pc = pieces, *head_pc = pieces + f->d.tiles;
    for (int32_t t = 0; t < f->d.tiles; t++)
        CSR5_FN(tile)(f, t, x, y, out_pc, head_pc);
    for (int32_t g = 0; g < f->d.tail_rows; g++)
        CSR5_FN(tail_row)(f, f->d.tail_row0 + g, x, y, head_pc);
    for (int32_t i = 0; i < f->h.n_empty; i++)
        y[f->h.empty_rows[i]] = 0;
    for (int32_t i = 0; i < f->h.n_runs; i++) /* empty = compress */
        for (int32_t k = 0; k < f->h.run_len[i]; k++)
            y[f->h.run_start[i] + k] = 0;
    for (int32_t t = 0; t < f->d.tiles; t++)
        CSR5_FN(calibrate)(f, t, y, out_pc, head_pc);
}
