/* Row-level pieces the newer generator families share: empty rows at
 * random positions and a window of columns around a row's diagonal. */
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

int gen_pick_empty(gen_rng *r, int32_t n, double frac, unsigned char *empty, const char *kind,
                   spmvlab_err *err)
{
    memset(empty, 0, (size_t)n);
    /* An exact count, not a coin per row, so the share is what was asked. */
    int32_t count = (int32_t)(frac * n + 0.5);
    if (count <= 0)
        return 0;
    int32_t *at = malloc((size_t)count * sizeof *at);
    if (!at)
        return spmvlab_errf(err, "%s: out of host memory for %d empty rows", kind, count), -1;
    gen_sample_sorted(r, n, count, at);
    for (int32_t q = 0; q < count; q++)
        empty[at[q]] = 1;
    free(at);
    return 0;
}

gen_window gen_row_window(int32_t row, int32_t rows, int32_t cols, int64_t spread, int32_t need)
{
    gen_window w = {0, cols};
    if (spread > 0 && 2 * spread + 1 < cols) {
        int64_t width = 2 * spread + 1, centre = (int64_t)row * cols / rows;
        width = width < need ? need : width;
        width = width > cols ? cols : width;
        int64_t lo = centre - width / 2;
        lo = lo < 0 ? 0 : lo > cols - width ? cols - width : lo;
        w.lo = (int32_t)lo;
        w.width = (int32_t)width;
    }
    return w;
}

void gen_place_runs(gen_rng *r, gen_window w, int32_t len, int32_t runs, int32_t *gap, int32_t *out)
{
    runs = runs < 1 ? 1 : runs > len ? len : runs;
    /* Stars and bars: runs distinct sorted draws from [0, width - len + runs)
     * minus their rank are non-decreasing gaps, so runs never overlap. */
    gen_sample_sorted(r, w.width - len + runs, runs, gap);
    int32_t k = 0, base = len / runs, extra = len % runs;
    for (int32_t j = 0; j < runs; j++) {
        int32_t start = w.lo + gap[j] - j + k, run_len = base + (j < extra);
        for (int32_t t = 0; t < run_len; t++)
            out[k++] = start + t;
    }
}
