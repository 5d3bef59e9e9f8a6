/* R-MAT / Kronecker graphs in the manner of the Graph500 generator
 * (Chakrabarti, Zhan and Faloutsos, "R-MAT: A Recursive Model for Graph
 * Mining", SDM 2004). Each of edge_factor·2^scale edges picks one quadrant
 * of the adjacency matrix per level with probabilities a, b, c, d; vertex
 * labels are then shuffled (as Graph500 does) so the heavy rows are spread
 * over the matrix. Repeated edges are kept once; the row lengths follow a
 * heavy-tailed (power-law like) distribution. */
#include <math.h>
#include <stdlib.h>

#include "gen_internal.h"
#include "spmvlab/core.h"

typedef struct rmat_params {
    gen_common common;
    int scale, edge_factor;
    double a, b, c, d;
    int permute, undirected;
} rmat_params;

static const spmvlab_option params[] = {
    GEN_PARAM(rmat_params, scale, SPMVLAB_OPT_INT, "14", 0, 30, "2^scale rows and columns"),
    GEN_PARAM(rmat_params, edge_factor, SPMVLAB_OPT_INT, "16", 1, 1048576, "edges drawn per row"),
    GEN_PARAM(rmat_params, a, SPMVLAB_OPT_FLOAT, "0.57", 0, 1, "probability of the top-left quadrant"),
    GEN_PARAM(rmat_params, b, SPMVLAB_OPT_FLOAT, "0.19", 0, 1, "probability of the top-right quadrant"),
    GEN_PARAM(rmat_params, c, SPMVLAB_OPT_FLOAT, "0.19", 0, 1, "probability of the bottom-left quadrant"),
    GEN_PARAM(rmat_params, d, SPMVLAB_OPT_FLOAT, "0.05", 0, 1, "probability of the bottom-right quadrant"),
    GEN_PARAM(rmat_params, permute, SPMVLAB_OPT_INT, "1", 0, 1, "1: shuffle vertex labels (Graph500)"),
    GEN_PARAM(rmat_params, undirected, SPMVLAB_OPT_INT, "0", 0, 1, "1: store every edge both ways"),
    GEN_COMMON_PARAMS(rmat_params),
    {0},
};

static double edges_of(const rmat_params *p)
{
    return p->edge_factor * ldexp(1.0, p->scale) * (p->undirected != 0 ? 2 : 1);
}

static int check(const void *params_, spmvlab_err *err)
{
    const rmat_params *p = params_;
    double sum = p->a + p->b + p->c + p->d;
    if (fabs(sum - 1) > 1e-9)
        return spmvlab_errf(err, "rmat: a + b + c + d = %.17g, not 1", sum), -1;
    return gen_fits("rmat", "edges", edges_of(p), err);
}

/* Draws one edge, returned as row << 32 | col: two quadrant choices (32
 * random bits each) per 64-bit number, from the most significant level down. */
static uint64_t draw_edge(gen_rng *r, int scale, const uint64_t t[3])
{
    uint32_t i = 0, j = 0;
    uint64_t x = 0;
    for (int level = 0; level < scale; level++) {
        if (!(level & 1))
            x = gen_next(r);
        uint64_t u = level & 1 ? x & 0xffffffffu : x >> 32;
        uint32_t bi = u >= t[1], bj = (u >= t[0]) & (u < t[1] || u >= t[2]);
        i = (i << 1) | bi;
        j = (j << 1) | bj;
    }
    return (uint64_t)i << 32 | j;
}

/* Counting sort of (key, other) pairs by key into (key_out, other_out);
 * stable. cnt has n + 1 zeroed slots and is left as the bucket starts. */
static void count_sort(int32_t *key, int32_t *other, size_t m, int32_t n, int64_t *cnt,
                       int32_t *key_out, int32_t *other_out)
{
    for (size_t e = 0; e < m; e++)
        cnt[key[e] + 1]++;
    for (int32_t i = 0; i < n; i++)
        cnt[i + 1] += cnt[i];
    for (size_t e = 0; e < m; e++) {
        int64_t at = cnt[key[e]]++;
        if (key_out)
            key_out[at] = key[e];
        other_out[at] = other[e];
    }
}

static int generate(const void *params_, spmvlab_csr *A, spmvlab_err *err)
{
    const rmat_params *p = params_;
    int scale = p->scale;
    int32_t n = (int32_t)1 << scale;
    size_t drawn = (size_t)p->edge_factor << scale, m = drawn * (p->undirected != 0 ? 2 : 1);
    /* Quadrant thresholds on 32-bit uniforms: [0,a) [a,a+b) [a+b,a+b+c) rest. */
    uint64_t t[3] = {(uint64_t)ldexp(p->a, 32), (uint64_t)ldexp(p->a + p->b, 32),
                     (uint64_t)ldexp(p->a + p->b + p->c, 32)};
    int32_t *er = malloc(m * sizeof *er), *ec = malloc(m * sizeof *ec);
    int32_t *sr = malloc(m * sizeof *sr), *sc = malloc(m * sizeof *sc);
    int32_t *perm = malloc((size_t)n * sizeof *perm);
    int64_t *cnt = calloc((size_t)n + 1, sizeof *cnt);
    int rc = -1;
    if (!er || !ec || !sr || !sc || !perm || !cnt) {
        spmvlab_errf(err, "rmat: out of host memory for %zu edges", m);
        goto done;
    }
    gen_rng r;
    gen_rng_seed(&r, (uint64_t)p->common.seed, gen_salt("rmat"));
    for (size_t e = 0; e < drawn; e++) {
        uint64_t ij = draw_edge(&r, scale, t);
        er[e] = (int32_t)(ij >> 32);
        ec[e] = (int32_t)(ij & 0xffffffffu);
    }
    for (int32_t i = 0; i < n; i++)
        perm[i] = i;
    if (p->permute != 0)
        for (int32_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
            int32_t j = (int32_t)gen_below(&r, (uint64_t)i + 1), tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
    for (size_t e = 0; e < drawn; e++) {
        er[e] = perm[er[e]];
        ec[e] = perm[ec[e]];
        if (m > drawn) {
            er[drawn + e] = ec[e];
            ec[drawn + e] = er[e];
        }
    }
    /* Sort by column, then stably by row: rows in order, columns sorted. */
    count_sort(ec, er, m, n, cnt, sc, sr);
    for (int32_t i = 0; i <= n; i++)
        cnt[i] = 0;
    count_sort(sr, sc, m, n, cnt, NULL, ec);
    /* cnt[i] is now the end of row i; drop repeated columns in place. */
    size_t out = 0, begin = 0;
    for (int32_t i = 0; i < n; i++) {
        size_t end = (size_t)cnt[i];
        sr[i] = (int32_t)out; /* reuse sr as row starts */
        for (size_t e = begin; e < end; e++)
            if (out == (size_t)sr[i] || ec[out - 1] != ec[e])
                ec[out++] = ec[e];
        begin = end;
    }
    if (gen_csr_alloc(A, "rmat", n, n, (int64_t)out, err))
        goto done;
    for (int32_t i = 0; i < n; i++)
        A->row_ptr[i] = sr[i];
    A->row_ptr[n] = (int32_t)out;
    for (size_t e = 0; e < out; e++)
        A->col_idx[e] = ec[e];
    rc = 0;
done:
    free(er);
    free(ec);
    free(sr);
    free(sc);
    free(perm);
    free(cnt);
    return rc;
}

const spmvlab_gen_kind gen_kind_rmat = {
    "rmat", "R-MAT / Kronecker graph as in Graph500: 2^scale rows, heavy-tailed rows",
    params, 1, check, generate, sizeof(rmat_params),
};
