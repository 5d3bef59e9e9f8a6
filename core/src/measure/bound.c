/* Gather sectors and the per-cell bound; see bound.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "spmvlab/bound.h"

double spmvlab_gather_sectors(const spmvlab_csr *A, size_t value_size)
{
    if (value_size != 2 && value_size != 4 && value_size != 8)
        return -1;
    size_t per_sector = SPMVLAB_SECTOR_BYTES / value_size;
    size_t nsectors = ((size_t)A->cols + per_sector - 1) / per_sector;
    /* stamp[s] = the last group that touched sector s, plus one: each
     * group counts a sector once without clearing anything between groups */
    int32_t *stamp = calloc(nsectors ? nsectors : 1, sizeof *stamp);
    if (!stamp)
        return -1;
    double total = 0;
    for (int first = 0, group = 1; first < A->rows; first += SPMVLAB_GATHER_ROWS, group++) {
        int last = first + SPMVLAB_GATHER_ROWS < A->rows ? first + SPMVLAB_GATHER_ROWS : A->rows;
        for (int k = A->row_ptr[first]; k < A->row_ptr[last]; k++) {
            size_t s = (size_t)A->col_idx[k] / per_sector;
            if (stamp[s] != group) {
                stamp[s] = group;
                total++;
            }
        }
    }
    free(stamp);
    return total;
}

static int known(double v) { return isfinite(v) && v > 0; }

int spmvlab_bound_of(const spmvlab_ceilings *c, const spmvlab_bound_work *w, spmvlab_bound *out)
{
    *out = (spmvlab_bound){NAN, NAN, NAN, NAN, SPMVLAB_BOUND_DRAM};
    int in_l2 = known(c->l2_bytes) && w->stream_bytes <= c->l2_bytes;
    int x_in_l2 = known(c->l2_bytes) && w->x_bytes <= c->l2_bytes;
    double stream_gbs = in_l2 ? c->l2_gbs : c->dram_gbs;
    double gather_gps = x_in_l2 ? c->gather_l2_gps : c->gather_dram_gps;
    double floor_us = w->single ? c->launch_us : c->replay_us;
    if (!known(stream_gbs) || !known(gather_gps) || !known(floor_us))
        return -1;
    out->stream_us = w->stream_bytes / (stream_gbs * 1e3); /* 1e9 bytes/s = 1e3 bytes/us */
    out->gather_us = w->sectors / (gather_gps * 1e3);
    out->launch_us = floor_us;
    out->us = out->stream_us;
    out->kind = in_l2 ? SPMVLAB_BOUND_L2 : SPMVLAB_BOUND_DRAM;
    if (out->gather_us > out->us) {
        out->us = out->gather_us;
        out->kind = SPMVLAB_BOUND_GATHER;
    }
    if (out->launch_us > out->us) {
        out->us = out->launch_us;
        out->kind = SPMVLAB_BOUND_LAUNCH;
    }
    return 0;
}

const char *spmvlab_bound_kind_name(spmvlab_bound_kind k)
{
    switch (k) {
    case SPMVLAB_BOUND_DRAM: return "dram";
    case SPMVLAB_BOUND_L2: return "l2";
    case SPMVLAB_BOUND_GATHER: return "gather";
    case SPMVLAB_BOUND_LAUNCH: return "launch";
    }
    return "?";
}
