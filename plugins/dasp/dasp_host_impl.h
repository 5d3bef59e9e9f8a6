/*
 * DASP on the CPU, written once for both dtypes: dasp_host.c includes this
 * file twice with
 *   DASP_ACC           accumulator type (double for f64, float for f16)
 *   DASP_FN(name)      name with the dtype suffix
 *   DASP_LOAD(p, i)    value i of a value array, as DASP_ACC
 *   DASP_STORE(y, i, v) y[i] = v rounded to the dtype
 *   DASP_FMA(a, b, c)  a * b + c rounded once (fma / fmaf)
 *
 * Every part runs as its kernel does, from the format's own arrays: the
 * same blocks and tiles, the same masks, the same lane partial sums and the
 * same shuffle-tree orders, so the CUDA-core parts give the device's bits.
 * Inside one MMA the hardware's order of the products is not specified; the
 * CPU adds them slot by slot in block order with fused multiply-adds.
 */

/* A 32-lane butterfly as the kernels' __shfl_xor_sync loop: every lane adds
 * the lane off away, off = 16, 8, 4, 2, 1; all lanes end with lane 0's sum. */
static DASP_ACC DASP_FN(butterfly)(DASP_ACC v[32])
{
    for (int off = 16; off > 0; off >>= 1) {
        DASP_ACC w[32];
        for (int l = 0; l < 32; l++)
            w[l] = v[l] + v[l ^ off];
        memcpy(v, w, sizeof w);
    }
    return v[0];
}

/* The kernels' warp_seg_scan over 32 lanes: lane l adds the partial of
 * lane l - off when both end in the same row (key), off = 1, 2, 4, 8, 16. */
static void DASP_FN(seg_scan)(DASP_ACC sc[32], const int32_t key[32])
{
    for (int off = 1; off < 32; off <<= 1) {
        DASP_ACC nsc[32];
        for (int l = 0; l < 32; l++)
            nsc[l] = l >= off && key[l - off] == key[l] ? sc[l - off] + sc[l] : sc[l];
        memcpy(sc, nsc, 32 * sizeof *sc);
    }
}

/* x[c], or 0 for a padding slot. */
static inline DASP_ACC DASP_FN(xat)(const void *x, int32_t c) { return c >= 0 ? DASP_LOAD(x, c) : (DASP_ACC)0; }

/* Medium row-blocks: row g's diagonal result accumulates the MMA blocks of
 * every level (widths bk, bk/2, ..., 4) in order. The irregular entries of
 * a row go to LPR = 32 / rows_per_warp lanes (lane s takes entries s,
 * s + LPR, ...), summed by a butterfly over those lanes, then added to the
 * MMA result. */
static void DASP_FN(host_medium)(const dasp_format *f, const void *x, void *y)
{
    const int nl = f->nlev, lpr = 32 / f->rows_per_warp;
    const void *val = f->a[DASP_A_MED_VAL].host, *ival = f->a[DASP_A_IRR_VAL].host;
    const int32_t *col = f->a[DASP_A_MED_COL].host, *rb_ptr = f->a[DASP_A_RB_PTR].host,
                  *med_row = f->a[DASP_A_MED_ROW].host, *irr_ptr = f->a[DASP_A_IRR_PTR].host,
                  *icol = f->a[DASP_A_IRR_COL].host;
    for (int64_t rb = 0; rb < f->n.rb; rb++) {
        /* med_ranges = on: the offsets of a row-block in a run of equal
         * shape come from the run, as in the kernel. */
        const dasp_range *rg = NULL;
        for (int k = 0; k < f->n_ranges; k++)
            if (rb >= f->ranges[k].rb0 && rb < f->ranges[k].rb1)
                rg = &f->ranges[k];
        for (int g = 0; g < DASP_BM; g++) {
            DASP_ACC acc = 0;
            for (int lv = 0; lv < nl; lv++) {
                const int64_t bk = dasp_shape_bk(f->lev[lv]), tile = DASP_BM * bk;
                const int64_t qr = rg ? rg->q0 + (rb - rg->rb0) * rg->qrb : 0;
                const int64_t q0 = rg ? qr + rg->off[lv] : rb_ptr[rb * nl + lv],
                              q1 = rg ? qr + rg->off[lv + 1] : rb_ptr[rb * nl + lv + 1];
                for (int64_t b = q0 * 32; b < q1 * 32; b += tile)
                    for (int64_t e = 0; e < bk; e++) {
                        int64_t p = b + g * bk + e;
                        acc = DASP_FMA(DASP_LOAD(val, p), DASP_FN(xat)(x, col[p]), acc);
                    }
            }
            int64_t r = rb * DASP_BM + g;
            const int32_t *ri = f->a[DASP_A_RB_IRR].host; /* med_rows = runs: {offset, count} */
            int64_t i0 = ri && ri[2 * rb + 1] >= 0 ? ri[2 * rb] + (int64_t)g * ri[2 * rb + 1] : irr_ptr[r],
                    i1 = ri && ri[2 * rb + 1] >= 0 ? i0 + ri[2 * rb + 1] : irr_ptr[r + 1];
            if (rg) {
                i0 = rg->i0 + ((rb - rg->rb0) * DASP_BM + g) * rg->cnt;
                i1 = i0 + rg->cnt;
            }
            DASP_ACC part[4] = {0, 0, 0, 0};
            for (int s = 0; s < lpr; s++)
                for (int64_t i = i0 + s; i < i1; i += lpr)
                    part[s] = DASP_FMA(DASP_LOAD(ival, i), DASP_LOAD(x, icol[i]), part[s]);
            DASP_ACC irr = lpr == 4   ? (part[0] + part[1]) + (part[2] + part[3])
                           : lpr == 2 ? part[0] + part[1]
                                      : part[0];
            const int32_t *base = f->a[DASP_A_RB_BASE].host; /* med_rows = runs */
            const int32_t row = base && base[rb] >= 0 ? base[rb] + g : med_row[r];
            if (row >= 0)
                DASP_STORE(y, row, acc + irr);
        }
    }
}

/* Short tiles: one MMA per segment of the 4 slots with x masked to that
 * segment ({0},{1,2,3} for 1&3; {0,1},{2,3} for 2&2; {0..3} for 4-tiles),
 * from a zero accumulator; the diagonal gives one row per tile row. */
static void DASP_FN(host_short)(const dasp_format *f, const void *x, void *y)
{
    const void *val = f->a[DASP_A_SH_VAL].host;
    const int32_t *col = f->a[DASP_A_SH_COL].host, *ids = f->a[DASP_A_SH_ROW].host;
    const int64_t n13 = f->n.tiles13, n2 = n13 + f->n.tiles22, nt = n2 + f->n.tiles4;
    for (int64_t t = 0; t < nt; t++) {
        int split = t < n13 ? 1 : t < n2 ? 2 : DASP_SHORT_K;
        int nseg = split < DASP_SHORT_K ? 2 : 1;
        int64_t id0 = t < n2 ? t * DASP_SHORT_IDS2 : n2 * DASP_SHORT_IDS2 + (t - n2) * DASP_SHORT_IDS1;
        for (int s = 0; s < nseg; s++) {
            int lo = s ? split : 0, hi = s ? DASP_SHORT_K : split;
            for (int g = 0; g < DASP_BM; g++) {
                DASP_ACC acc = 0;
                for (int k = lo; k < hi; k++) {
                    int64_t p = t * DASP_SHORT_TILE + g * DASP_SHORT_K + k;
                    acc = DASP_FMA(DASP_LOAD(val, p), DASP_FN(xat)(x, col[p]), acc);
                }
                int32_t row = ids[id0 + s * DASP_BM + g];
                if (row >= 0)
                    DASP_STORE(y, row, acc);
            }
        }
    }
}

/* Long rows: each segment of seg_tiles tiles is one warp's MMA chain; its 8
 * diagonal sums meet in a 32-lane butterfly (the other lanes hold 0). A row
 * of one segment stores that; otherwise lane l of the last warp adds the
 * partials l, l+32, ... in order and a butterfly gives the row. */
static void DASP_FN(host_long)(const dasp_format *f, const void *x, void *y)
{
    const int bk = f->bk;
    const int64_t tile = (int64_t)DASP_BM * bk, seg_tiles = f->long_chunk / tile;
    const void *val = f->a[DASP_A_LONG_VAL].host;
    const int32_t *col = f->a[DASP_A_LONG_COL].host, *lrow = f->a[DASP_A_LONG_ROW].host,
                  *sp = f->a[DASP_A_SEG_PTR].host;
    const int64_t *lp = f->a[DASP_A_LONG_PTR].host;
    for (int64_t k = 0; k < f->n.long_rows; k++) {
        const int64_t base = lp[k], len = lp[k + 1] - base, ntiles = (len + tile - 1) / tile;
        const int64_t nseg = sp[k + 1] - sp[k];
        DASP_ACC lanes[32] = {0};
        for (int64_t s = 0; s < nseg; s++) {
            int64_t t0 = s * seg_tiles, t1 = t0 + seg_tiles < ntiles ? t0 + seg_tiles : ntiles;
            DASP_ACC v[32] = {0};
            for (int g = 0; g < DASP_BM; g++) {
                DASP_ACC d = 0;
                for (int64_t t = t0; t < t1; t++)
                    for (int e = 0; e < bk; e++) {
                        int64_t p = t * tile + g * bk + e;
                        if (p < len)
                            d = DASP_FMA(DASP_LOAD(val, base + p), DASP_FN(xat)(x, col[base + p]), d);
                    }
                v[4 * g + (g >> 1)] = d;
            }
            DASP_ACC total = DASP_FN(butterfly)(v);
            if (nseg == 1)
                DASP_STORE(y, lrow[k], total);
            else
                lanes[s % 32] = lanes[s % 32] + total;
        }
        if (nseg > 1)
            DASP_STORE(y, lrow[k], DASP_FN(butterfly)(lanes));
    }
}

/* Leftover rows of one entry (one product each) and empty rows (0). */
static void DASP_FN(host_tail)(const dasp_format *f, const void *x, void *y)
{
    const void *sval = f->a[DASP_A_SINGLE_VAL].host;
    const int32_t *srow = f->a[DASP_A_SINGLE_ROW].host, *scol = f->a[DASP_A_SINGLE_COL].host,
                  *erow = f->a[DASP_A_EMPTY_ROW].host;
    for (int64_t k = 0; k < f->n.singles; k++)
        DASP_STORE(y, srow[k], DASP_LOAD(sval, k) * DASP_LOAD(x, scol[k]));
    if (dasp_empty_listed(f))
        for (int64_t k = 0; k < f->n.empty; k++)
            DASP_STORE(y, erow[k], (DASP_ACC)0);
}

/* empty_runs = 1: each run of consecutive empty rows written whole with 0. */
static void DASP_FN(host_runs)(const dasp_format *f, void *y)
{
    const int32_t *rs = f->a[DASP_A_RUN_START].host, *rl = f->a[DASP_A_RUN_LEN].host;
    for (int64_t k = 0; k < f->n.runs; k++)
        for (int32_t i = 0; i < rl[k]; i++)
            DASP_STORE(y, rs[k] + i, (DASP_ACC)0);
}

/* empty_rows = bitmap: every row whose bit is set written with 0;
 * empty_rows = memset: every row 0 before the other parts store theirs. */
static void DASP_FN(host_zero)(const dasp_format *f, void *y)
{
    const uint32_t *bits = f->a[DASP_A_EMPTY_BITS].host;
    for (int32_t r = 0; r < f->rows; r++)
        if (f->empty_mode == DASP_ER_MEMSET || (f->empty_mode == DASP_ER_BITMAP && (bits[r / 32] >> (r % 32)) & 1u))
            DASP_STORE(y, r, (DASP_ACC)0);
}

/* Crossing rows of the balanced path: the last warp to arrive adds the
 * tail pieces lane-strided (lane l: pieces l, l + 32, ... in order), then a
 * butterfly, then the head piece. */
static void DASP_FN(host_cross)(const dasp_format *f, void *y)
{
    const int32_t *xr = f->a[DASP_A_BAL_X_ROW].host, *x0 = f->a[DASP_A_BAL_X_W0].host,
                  *x1 = f->a[DASP_A_BAL_X_W1].host;
    const DASP_ACC *tails = f->a[DASP_A_BAL_TAIL].host, *heads = f->a[DASP_A_BAL_HEAD].host;
    for (int64_t c = 0; c < f->bal_cross; c++) {
        DASP_ACC lanes[32] = {0};
        for (int32_t t = x0[c]; t < x1[c]; t++)
            lanes[(t - x0[c]) % 32] = lanes[(t - x0[c]) % 32] + tails[t];
        DASP_STORE(y, xr[c], DASP_FN(butterfly)(lanes) + heads[c]);
    }
}

/* Balanced path, stream kernel: warp by warp as dasp_stream.cu, lane by
 * lane: the lane's K items from its tile slots, fused into the running sum
 * of its row, rows closed at their ends (the first one a lane closes held
 * for the carry), the segmented scan over the lanes, then the pieces. */
static void DASP_FN(host_stream)(const dasp_format *f, const void *x, void *y)
{
    const int32_t *rp = f->a[DASP_A_BAL_ROW_PTR].host, *col = f->a[DASP_A_BAL_COL].host,
                  *lr = f->a[DASP_A_BAL_LANE_ROW].host, *wc = f->a[DASP_A_BAL_W_CROSS].host;
    const void *val = f->a[DASP_A_BAL_VAL].host;
    const int es = f->dtype == SPMVLAB_F64 ? 8 : 2;
    DASP_ACC *tails = f->a[DASP_A_BAL_TAIL].host, *heads = f->a[DASP_A_BAL_HEAD].host;
    for (int64_t w = 0; w < f->bal_warps; w++) {
        const int K = f->str_k;
        const int64_t t0 = w * 32 * K;
        DASP_ACC sc[32], first_sum[32];
        int32_t key[32], first_row[32];
        for (int l = 0; l < 32; l++) {
            const int64_t a = t0 + (int64_t)l * K;
            const int nk = a >= f->nnz ? 0 : f->nnz - a < K ? (int)(f->nnz - a) : K;
            int32_t r = lr[32 * w + l], e = r < f->rows ? rp[r + 1] : INT32_MAX;
            DASP_ACC run = 0;
            first_row[l] = -1;
            first_sum[l] = 0;
            for (int k = 0; k <= nk; k++) {
                const int64_t j = a + k; /* k == nk: the rows ending at the lane's end */
                while (e <= j && (k < nk || r < f->rows)) {
                    if (first_row[l] < 0)
                        first_row[l] = r, first_sum[l] = run;
                    else
                        DASP_STORE(y, r, run);
                    run = 0;
                    r++;
                    e = r < f->rows ? rp[r + 1] : INT32_MAX;
                }
                if (k < nk)
                    run = DASP_FMA(DASP_LOAD(val, t0 + dasp_str_index(l, k, es)),
                                   DASP_LOAD(x, col[t0 + dasp_str_index(l, k, 4)]), run);
            }
            sc[l] = run;
            key[l] = r;
        }
        DASP_FN(seg_scan)(sc, key);
        const int32_t ct = wc[2 * w], ch = wc[2 * w + 1], r0 = lr[32 * w];
        for (int l = 0; l < 32; l++) {
            if (first_row[l] < 0)
                continue;
            DASP_ACC v = l > 0 ? sc[l - 1] + first_sum[l] : first_sum[l];
            if (first_row[l] == r0 && ch >= 0)
                heads[ch] = v;
            else
                DASP_STORE(y, first_row[l], v);
        }
        if (ct >= 0)
            tails[w] = sc[31];
    }
    DASP_FN(host_cross)(f, y);
}

/* Balanced path: warp by warp as dasp_balanced.cu, lane by lane: products
 * rounded once, each lane's walk of DASP_BAL_K merge items from its
 * diagonal, the segmented scan of the lanes' carries (Hillis-Steele, keyed
 * by row), each lane's first closed row plus the scan of the lane before;
 * then every crossing row from its tail pieces (lane l adds pieces l, l+32,
 * ... in order, then a butterfly) and its head piece. */
static void DASP_FN(host_balanced)(const dasp_format *f, const void *x, void *y)
{
    const int32_t *rp = f->a[DASP_A_BAL_ROW_PTR].host, *col = f->a[DASP_A_BAL_COL].host,
                  *wr = f->a[DASP_A_BAL_W_ROW].host, *wn = f->a[DASP_A_BAL_W_NZ].host,
                  *wc = f->a[DASP_A_BAL_W_CROSS].host;
    const void *val = f->a[DASP_A_BAL_VAL].host;
    /* The pieces go to the host copies of the device scratch (one spmv at a
     * time per instance, as on the device). */
    DASP_ACC *tails = f->a[DASP_A_BAL_TAIL].host, *heads = f->a[DASP_A_BAL_HEAD].host, prod[DASP_BAL_ITEMS];
    for (int64_t w = 0; w < f->bal_warps; w++) {
        const int32_t r0 = wr[w], n0 = wn[w], alen = wr[w + 1] - r0, blen = wn[w + 1] - n0, total = alen + blen;
        for (int32_t j = 0; j < blen; j++)
            prod[j] = DASP_LOAD(val, n0 + j) * DASP_LOAD(x, col[n0 + j]);
        DASP_ACC sc[32], done[32][DASP_BAL_K], out[DASP_BAL_ITEMS];
        int32_t key[32], start[32], drow[32][DASP_BAL_K];
        for (int l = 0; l < 32; l++) {
            int32_t d = l * DASP_BAL_K < total ? l * DASP_BAL_K : total;
            int32_t lo = d - blen > 0 ? d - blen : 0, hi = d < alen ? d : alen;
            while (lo < hi) {
                int32_t p = (lo + hi) >> 1;
                if (rp[r0 + p + 1] <= n0 + d - p - 1)
                    lo = p + 1;
                else
                    hi = p;
            }
            int32_t i = lo, j = d - lo;
            DASP_ACC run = 0;
            start[l] = lo;
            for (int k = 0; k < DASP_BAL_K; k++) {
                drow[l][k] = -1;
                if (d + k >= total)
                    continue;
                if (j < blen && (i == alen || n0 + j < rp[r0 + i + 1])) {
                    run = run + prod[j++];
                } else {
                    done[l][k] = run;
                    drow[l][k] = i++;
                    run = 0;
                }
            }
            sc[l] = run;
            key[l] = i;
        }
        DASP_FN(seg_scan)(sc, key);
        for (int l = 0; l < 32; l++)
            for (int k = 0, first = 1; k < DASP_BAL_K; k++)
                if (drow[l][k] >= 0) {
                    out[drow[l][k]] = first && l > 0 && drow[l][k] == start[l] ? sc[l - 1] + done[l][k] : done[l][k];
                    first = 0;
                }
        const int32_t ct = wc[2 * w], ch = wc[2 * w + 1];
        for (int32_t r = 0; r < alen; r++)
            if (r > 0 || ch < 0)
                DASP_STORE(y, r0 + r, out[r]);
        if (ct >= 0)
            tails[w] = sc[31];
        if (ch >= 0)
            heads[ch] = out[0];
    }
    DASP_FN(host_cross)(f, y);
}
