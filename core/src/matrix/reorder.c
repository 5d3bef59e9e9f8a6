/* Orderings, permuted matrices and bandwidth; see reorder.h. */
#include <stdlib.h>
#include <string.h>

#include "spmvlab/core.h"
#include "spmvlab/reorder.h"

static const char *const names[] = {"none", "rcm", "degree"};

const char *spmvlab_ordering_name(spmvlab_ordering o)
{
    return (unsigned)o < sizeof names / sizeof *names ? names[o] : "?";
}

int spmvlab_ordering_parse(const char *name, spmvlab_ordering *o, spmvlab_err *err)
{
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0) {
            *o = (spmvlab_ordering)i;
            return 0;
        }
    spmvlab_errf(err, "unknown ordering \"%s\" (choose none, rcm or degree)", name);
    return -1;
}

/* The pattern of A + A^T without the diagonal: xadj (n + 1), adj. */
typedef struct graph {
    int32_t n;
    int64_t *xadj;
    int32_t *adj;
    int32_t *degree;
} graph;

static void graph_free(graph *g)
{
    free(g->xadj);
    free(g->adj);
    free(g->degree);
    memset(g, 0, sizeof *g);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int graph_build(const spmvlab_csr *A, graph *g)
{
    int32_t n = A->rows;
    g->n = n;
    g->xadj = calloc((size_t)n + 1, sizeof *g->xadj);
    g->degree = calloc(n ? (size_t)n : 1, sizeof *g->degree);
    int64_t *fill = calloc((size_t)n + 1, sizeof *fill);
    g->adj = malloc(((size_t)A->nnz * 2 + 1) * sizeof *g->adj);
    if (!g->xadj || !g->degree || !fill || !g->adj) {
        free(fill);
        graph_free(g);
        return -1;
    }
    for (int32_t i = 0; i < n; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++)
            if (A->col_idx[k] != i) {
                fill[i + 1]++;
                fill[A->col_idx[k] + 1]++;
            }
    for (int32_t i = 0; i < n; i++)
        fill[i + 1] += fill[i];
    for (int32_t i = 0; i < n; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int32_t j = A->col_idx[k];
            if (j != i) {
                g->adj[fill[i]++] = j;
                g->adj[fill[j]++] = i;
            }
        }
    /* fill[i] now ends row i; sort each row and drop the duplicates that
     * a symmetric pattern gives */
    int64_t out = 0, start = 0;
    for (int32_t i = 0; i < n; i++) {
        int64_t end = fill[i];
        qsort(g->adj + start, (size_t)(end - start), sizeof *g->adj, cmp_i32);
        g->xadj[i] = out;
        for (int64_t k = start; k < end; k++)
            if (k == start || g->adj[k] != g->adj[k - 1])
                g->adj[out++] = g->adj[k];
        g->degree[i] = (int32_t)(out - g->xadj[i]);
        start = end;
    }
    g->xadj[n] = out;
    free(fill);
    return 0;
}

/* Breadth-first levels from root over unnumbered nodes into queue (level
 * in level[], -1 elsewhere before and after). Returns the nodes reached;
 * *depth gets the last level, *last_start where it begins in queue. */
static int32_t bfs_levels(const graph *g, int32_t root, const char *numbered, int32_t *level, int32_t *queue,
                          int32_t *depth, int32_t *last_start)
{
    int32_t head = 0, tail = 0;
    queue[tail++] = root;
    level[root] = 0;
    *last_start = 0;
    while (head < tail) {
        int32_t u = queue[head++];
        for (int64_t k = g->xadj[u]; k < g->xadj[u + 1]; k++) {
            int32_t v = g->adj[k];
            if (level[v] < 0 && !numbered[v]) {
                level[v] = level[u] + 1;
                if (level[v] > level[queue[tail - 1]])
                    *last_start = tail;
                queue[tail++] = v;
            }
        }
    }
    *depth = level[queue[tail - 1]];
    for (int32_t i = 0; i < tail; i++)
        level[queue[i]] = -1;
    return tail;
}

/* George & Liu: from start, move to a least-degree node of the last level
 * while that makes the level structure deeper. */
static int32_t pseudo_peripheral(const graph *g, int32_t start, const char *numbered, int32_t *level, int32_t *queue)
{
    int32_t root = start, depth, last;
    for (;;) {
        int32_t n = bfs_levels(g, root, numbered, level, queue, &depth, &last);
        int32_t best = queue[last];
        for (int32_t i = last; i < n; i++)
            if (g->degree[queue[i]] < g->degree[best])
                best = queue[i];
        int32_t d2, l2;
        bfs_levels(g, best, numbered, level, queue, &d2, &l2);
        if (d2 <= depth)
            return root;
        root = best;
    }
}

/* (degree, node) packed so that one integer sort orders by degree, then index. */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int order_rcm(const spmvlab_csr *A, int32_t *perm, spmvlab_err *err)
{
    graph g = {0};
    int32_t n = A->rows;
    char *numbered = calloc(n ? (size_t)n : 1, 1);
    int32_t *level = malloc((n ? (size_t)n : 1) * sizeof *level);
    int32_t *queue = malloc((n ? (size_t)n : 1) * sizeof *queue);
    int64_t *keys = malloc((n ? (size_t)n : 1) * sizeof *keys);
    if (!numbered || !level || !queue || !keys || graph_build(A, &g)) {
        free(numbered), free(level), free(queue), free(keys);
        return spmvlab_errf(err, "out of host memory for reverse Cuthill-McKee on %d rows", n), -1;
    }
    memset(level, -1, (size_t)n * sizeof *level);
    int32_t done = 0;
    for (int32_t s = 0; s < n; s++) {
        if (numbered[s])
            continue;
        int32_t root = pseudo_peripheral(&g, s, numbered, level, queue);
        int32_t head = done;
        perm[done++] = root;
        numbered[root] = 1;
        while (head < done) {
            int32_t u = perm[head++], nk = 0;
            for (int64_t k = g.xadj[u]; k < g.xadj[u + 1]; k++) {
                int32_t v = g.adj[k];
                if (!numbered[v]) {
                    numbered[v] = 1;
                    keys[nk++] = (int64_t)g.degree[v] << 32 | (uint32_t)v;
                }
            }
            qsort(keys, (size_t)nk, sizeof *keys, cmp_i64);
            for (int32_t i = 0; i < nk; i++)
                perm[done++] = (int32_t)(keys[i] & 0xffffffff);
        }
    }
    for (int32_t i = 0; i < n / 2; i++) {
        int32_t t = perm[i];
        perm[i] = perm[n - 1 - i];
        perm[n - 1 - i] = t;
    }
    free(numbered), free(level), free(queue), free(keys);
    graph_free(&g);
    return 0;
}

static int order_degree(const spmvlab_csr *A, int32_t *perm, spmvlab_err *err)
{
    int32_t n = A->rows;
    int64_t *keys = malloc((n ? (size_t)n : 1) * sizeof *keys);
    graph g = {0};
    int square = A->rows == A->cols;
    if (!keys || (square && graph_build(A, &g))) {
        free(keys);
        return spmvlab_errf(err, "out of host memory for the degree ordering of %d rows", n), -1;
    }
    for (int32_t i = 0; i < n; i++) {
        int32_t d = square ? g.degree[i] : A->row_ptr[i + 1] - A->row_ptr[i];
        keys[i] = (int64_t)(INT32_MAX - d) << 32 | (uint32_t)i; /* decreasing degree, then index */
    }
    qsort(keys, (size_t)n, sizeof *keys, cmp_i64);
    for (int32_t i = 0; i < n; i++)
        perm[i] = (int32_t)(keys[i] & 0xffffffff);
    free(keys);
    graph_free(&g);
    return 0;
}

int spmvlab_order_compute(const spmvlab_csr *A, spmvlab_ordering o, int32_t **perm, spmvlab_err *err)
{
    *perm = NULL;
    if (o == SPMVLAB_ORDER_RCM && A->rows != A->cols)
        return spmvlab_errf(err, "reverse Cuthill-McKee needs a square matrix, not %d x %d", A->rows, A->cols), -1;
    int32_t *p = malloc((A->rows ? (size_t)A->rows : 1) * sizeof *p);
    if (!p)
        return spmvlab_errf(err, "out of host memory for a permutation of %d rows", A->rows), -1;
    int rc = 0;
    if (o == SPMVLAB_ORDER_RCM)
        rc = order_rcm(A, p, err);
    else if (o == SPMVLAB_ORDER_DEGREE)
        rc = order_degree(A, p, err);
    else
        for (int32_t i = 0; i < A->rows; i++)
            p[i] = i;
    if (rc) {
        free(p);
        return -1;
    }
    *perm = p;
    return 0;
}

int spmvlab_is_permutation(const int32_t *p, int32_t n)
{
    char *seen = calloc(n ? (size_t)n : 1, 1);
    if (!seen)
        return 0;
    int ok = 1;
    for (int32_t i = 0; i < n && ok; i++) {
        ok = p[i] >= 0 && p[i] < n && !seen[p[i]];
        if (ok)
            seen[p[i]] = 1;
    }
    free(seen);
    return ok;
}

int spmvlab_csr_permute(const spmvlab_csr *A, const int32_t *perm, spmvlab_csr *B, spmvlab_err *err)
{
    memset(B, 0, sizeof *B);
    if (!spmvlab_is_permutation(perm, A->rows))
        return spmvlab_errf(err, "the row order is not a permutation of %d rows", A->rows), -1;
    int square = A->rows == A->cols;
    int32_t *inv = malloc((A->rows ? (size_t)A->rows : 1) * sizeof *inv);
    spmvlab_triplet *t = malloc((A->nnz ? (size_t)A->nnz : 1) * sizeof *t);
    if (!inv || !t) {
        free(inv), free(t);
        return spmvlab_errf(err, "out of host memory permuting %d non-zeros", A->nnz), -1;
    }
    for (int32_t i = 0; i < A->rows; i++)
        inv[perm[i]] = i;
    size_t n = 0;
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[perm[i]]; k < A->row_ptr[perm[i] + 1]; k++)
            t[n++] = (spmvlab_triplet){i, square ? inv[A->col_idx[k]] : A->col_idx[k], A->val[k]};
    free(inv);
    if (spmvlab_csr_from_triplets(B, A->rows, A->cols, t, n, err))
        return -1;
    memcpy(B->symmetry, A->symmetry, sizeof B->symmetry);
    memcpy(B->field, A->field, sizeof B->field);
    return 0;
}

void spmvlab_permute_vector(const double *v, const int32_t *perm, int32_t n, double *v_new)
{
    for (int32_t i = 0; i < n; i++)
        v_new[i] = v[perm[i]];
}

void spmvlab_gather_values(void *out, const void *in, const int32_t *perm, int32_t n, size_t value_size)
{
    char *o = out;
    const char *v = in;
    for (int32_t i = 0; i < n; i++)
        memcpy(o + (size_t)i * value_size, v + (size_t)perm[i] * value_size, value_size);
}

void spmvlab_scatter_values(void *out, const void *in, const int32_t *perm, int32_t n, size_t value_size)
{
    char *o = out;
    const char *v = in;
    for (int32_t i = 0; i < n; i++)
        memcpy(o + (size_t)perm[i] * value_size, v + (size_t)i * value_size, value_size);
}

int64_t spmvlab_csr_bandwidth(const spmvlab_csr *A)
{
    int64_t bw = 0;
    for (int32_t i = 0; i < A->rows; i++)
        for (int32_t k = A->row_ptr[i]; k < A->row_ptr[i + 1]; k++) {
            int64_t d = (int64_t)A->col_idx[k] - i;
            if (d < 0)
                d = -d;
            if (d > bw)
                bw = d;
        }
    return bw;
}
