/*
 * The CPU replay of a warp's butterfly sum, shared by the long-row pieces
 * (long_rows.h: sell, jds) and tilespmv's deferred rows, so that the host
 * adds in the kernels' order and agrees with them bit for bit. Header only.
 */
#ifndef SPMVLAB_PLUGINS_LANE_TREE_H
#define SPMVLAB_PLUGINS_LANE_TREE_H

/* Defines static V NAME(V *v, int n): lane 0's value after the butterfly
 * __shfl_xor_sync tree over n lanes (offsets n/2, ..., 1); v overwritten. */
#define LANE_TREE_HOST(NAME, V)                                 \
    static V NAME(V *v, int n)                                  \
    {                                                           \
        for (int h = n / 2; h >= 1; h /= 2)                     \
            for (int t = 0; t < h; t++)                         \
                v[t] = v[t] + v[t + h];                         \
        return v[0];                                            \
    }

#endif
