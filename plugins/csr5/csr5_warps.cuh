/*
 * CSR5 SpMV, the warp roles (see csr5_kernels.cuh's file comment): one row
 * of the tail per warp, the main launch's dispatch of a warp to a tile, a
 * tail row or empty rows, and the calibration kernel's warp. Included by
 * csr5_kernels.cuh inside its anonymous namespace, after the tile code.
 */
/* One row of the tail: lanes stride through the row, then the tree. A row
 * begun in the last tile leaves its tail part as head piece `tiles`. */
template <typename V>
C5_FN void c5_tail_row(const csr5_dev &d, int32_t r, int lane, const V *__restrict__ x, V *__restrict__ y)
{
    const int32_t lo = c5_ldg(d.row_ptr + r), hi = c5_ldg(d.row_ptr + r + 1);
    if (lo == hi)
        return; /* empty rows are zeroed from the list */
    const bool continued = lo < d.tail_start;
    const V *val = static_cast<const V *>(d.val);
    V acc = 0;
    for (int32_t k = (continued ? d.tail_start : lo) + lane; k < hi; k += CSR5_OMEGA)
        acc = c5_fma(c5_ldg(val + k), c5_ldg(x + c5_ldg(d.col + k)), acc);
    acc = c5_tree(acc);
    V *out_pc = static_cast<V *>(d.pieces), *head_pc = out_pc + d.tiles;
    bool last = false;
    int32_t ts = 0;
    if (lane == 0) {
        if (!continued) {
            y[c5_yrow(d, r)] = acc;
        } else {
            head_pc[d.tiles] = acc;
            if (d.calib_inline) {
                ts = (int32_t)(lo / ((int64_t)CSR5_OMEGA * d.sigma));
                last = c5_arrive(d, ts, d.tiles);
            }
        }
    }
    if (d.calib_inline)
        c5_finish_rows(d, last, r, ts, d.tiles, out_pc, head_pc, lane, y);
}

/* Warp g of the main launch (see the file comment); lane in 0..31. */
template <typename V, int S>
C5_FN void csr5_main_warp(const csr5_dev &d, int64_t g, int lane, const V *__restrict__ x, V *__restrict__ y,
                          V *stage)
{
    if (g < d.tiles) {
        c5_tile<V, S>(d, (int32_t)g, lane, x, y, stage);
        return;
    }
    g -= d.tiles;
    if (g < d.tail_rows) {
        c5_tail_row<V>(d, d.tail_row0 + (int32_t)g, lane, x, y);
        return;
    }
    g -= d.tail_rows;
    const int64_t i = g * CSR5_OMEGA + lane;
    if (i < d.n_empty) {
        y[c5_ldg(d.empty_rows + i)] = V(0);
    } else if (i - d.n_empty < d.n_runs) {
        /* empty = compress: one run of up to CSR5_RUN_MAX empty rows per
         * thread; neighbouring lanes hold neighbouring runs. */
        const int32_t r0 = c5_ldg(d.run_start + (i - d.n_empty)), n = c5_ldg(d.run_len + (i - d.n_empty));
        for (int32_t k = 0; k < n; k++)
            y[r0 + k] = V(0);
    }
}

/* calibrate = kernel, warp w: lane l checks whether a row starts in tile
 * t = 32 w + l and continues past it, and finishes it (c5_finish_rows). */
template <typename V>
C5_FN void csr5_calibrate_warp(const csr5_dev &d, int64_t w, int lane, V *__restrict__ y)
{
    const int64_t t = w * CSR5_OMEGA + lane, T = (int64_t)CSR5_OMEGA * d.sigma;
    bool own = false;
    int32_t r = 0, te = 0;
    if (t < d.tiles) {
        r = (int32_t)(c5_ldg(d.tile_ptr + t + 1) & CSR5_ROW_MASK);
        if (r < d.rows) {
            /* Both ends of the row at once (one round trip, not two). */
            const int64_t s = c5_ldg(d.row_ptr + r), e = c5_ldg(d.row_ptr + r + 1);
            own = s >= t * T && s < (t + 1) * T;
            const int64_t last = (e - 1) / T;
            te = last < d.tiles ? (int32_t)last : d.tiles;
        }
    }
    /* Above: only what the conversion wrote; below: the pieces. */
    c5_grid_wait();
    const V *out_pc = static_cast<const V *>(d.pieces), *head_pc = out_pc + d.tiles;
    /* 16 pieces a lane in flight: a row over thousands of tiles (one very
     * long row) is the calibration's longest chain. */
    c5_finish_rows<V, 16, true>(d, own, r, (int32_t)t, te, out_pc, head_pc, lane, y);
}

