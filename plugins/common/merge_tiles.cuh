// Merge-path SpMV (merge, tilespmv): the tile kernel. One block of
// MERGE_THREADS threads a tile of MERGE_THREADS * ITEMS path items; thread t
// walks the ITEMS items from the tile's diagonal t * ITEMS. The tile's row
// ends are staged in shared memory, where each thread searches its start
// and decides its steps; the products come either staged in shared memory
// too (STAGED) or loaded by each thread for the steps it decided (direct).
// Every thread issues all of its loads before it uses any, so ITEMS gathers
// of x are in flight per thread. The row a thread leaves open passes to the
// next thread by the block scan, the row the tile leaves open is its carry
// (the fix-up adds it). V: the stored values' type (A unless a caller
// stores them narrower, e.g. f32 values of an f64 run), widened to A as
// they are loaded.
#ifndef SPMVLAB_PLUGINS_COMMON_MERGE_TILES_CUH
#define SPMVLAB_PLUGINS_COMMON_MERGE_TILES_CUH

#include "merge_block.cuh"

// The tile's two ends: read from d.coords, or searched by warps 0 and 1
// (d.coords NULL), which costs one __syncthreads.
template <int PATH_TILE>
__device__ __forceinline__ void merge_tile_ends(const merge_dev &d, merge_coord (&s_coord)[2], merge_coord &c0,
                                                merge_coord &c1)
{
    if (d.coords) {
        c0 = d.coords[blockIdx.x];
        c1 = d.coords[blockIdx.x + 1];
        return;
    }
    const int warp = threadIdx.x >> 5;
    if (warp < 2) {
        const int64_t length = (int64_t)d.rows + d.nnz, diag = (int64_t)(blockIdx.x + warp) * PATH_TILE;
        const merge_coord c = merge_path_search_warp(diag < length ? diag : length, d.row_ptr + 1, d.rows, d.nnz);
        if ((threadIdx.x & 31) == 0)
            s_coord[warp] = c;
    }
    __syncthreads();
    c0 = s_coord[0];
    c1 = s_coord[1];
}

// The thread's walk, first pass: its `steps` path items from (row, nz),
// tile-relative, decided from the row ends alone. Bit s of the result: step
// s ends a row; a step below `steps` without its bit consumes a non-zero.
// row and nz advance to the point reached.
template <int ITEMS>
__device__ __forceinline__ unsigned merge_plan(int32_t steps, const int32_t *s_end, int32_t &row, int32_t &nz)
{
    unsigned ends = 0;
    int32_t row_end = s_end[row];
#pragma unroll
    for (int s = 0; s < ITEMS; s++)
        if (s < steps) {
            if (nz < row_end) {
                nz++;
            } else {
                ends |= 1u << s;
                row_end = s_end[++row];
            }
        }
    return ends;
}

// The second pass, without branches: sums[s] is the sum of the row that
// step s ends (bit s of ends); returns the partial sum of the row left
// open. prod(j, down): the product of the thread's non-zero j when down
// (step s consumes it), else 0.
template <typename A, int ITEMS, typename Prod>
__device__ __forceinline__ A merge_sum(int32_t steps, unsigned ends, A (&sums)[ITEMS], Prod prod)
{
    A acc = 0;
    int32_t j = 0;
#pragma unroll
    for (int s = 0; s < ITEMS; s++) {
        const bool end = ends & (1u << s), down = s < steps && !end;
        const A p = prod(s, j, down);
        j += down;
        sums[s] = acc;
        acc = end ? A(0) : acc + p;
    }
    return acc;
}

// The tile's row ends, relative to its first non-zero, into s_end[0 ..
// tile_rows]: all loads first (indices clamped to the tile's last row, so
// lanes past it read one address), then the stores. Past the matrix's last
// row the walk only meets non-zeros, so the end there is never reached.
template <int ITEMS>
__device__ __forceinline__ void merge_stage_row_ends(const merge_dev &d, merge_coord c0, merge_coord c1,
                                                     int32_t *s_end)
{
    const int32_t tile_rows = c1.row - c0.row, last = c1.row < d.rows ? c1.row : d.rows - 1;
    int32_t e[ITEMS + 1];
#pragma unroll
    for (int i = 0; i <= ITEMS; i++) {
        const int32_t r = c0.row + threadIdx.x + i * MERGE_THREADS;
        if (i * MERGE_THREADS <= tile_rows) // the same for the whole block
            e[i] = merge_ldg(d.row_ptr + 1 + (r < last ? r : last));
    }
#pragma unroll
    for (int i = 0; i <= ITEMS; i++) {
        const int32_t r = threadIdx.x + i * MERGE_THREADS;
        if (r <= tile_rows)
            s_end[r] = c0.row + r < d.rows ? e[i] - c0.nz : INT32_MAX;
    }
}

// The products of the tile's tile_nz (> 0) non-zeros from col_at and
// val_at into s_prod, coalesced: every column and value, then every x,
// then the products.
template <typename A, int ITEMS, typename V>
__device__ __forceinline__ void merge_stage_products(const int32_t *col_at, const V *val_at, const A *x,
                                                     int32_t tile_nz, A *s_prod)
{
    int32_t col[ITEMS];
    A v[ITEMS], xv[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const int32_t j = threadIdx.x + i * MERGE_THREADS, k = j < tile_nz ? j : tile_nz - 1;
        if (i * MERGE_THREADS < tile_nz) { // the same for the whole block
            col[i] = merge_ldg(col_at + k);
            v[i] = static_cast<A>(merge_ldg(val_at + k));
        }
    }
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
        if (i * MERGE_THREADS < tile_nz)
            xv[i] = merge_ldg(x + col[i]);
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        const int32_t j = threadIdx.x + i * MERGE_THREADS;
        if (j < tile_nz)
            s_prod[j] = v[i] * xv[i];
    }
}

// The direct loads of a thread whose walk from the tile's non-zero nz0 has
// the row ends `ends` over `steps` steps: column, value and x of the
// non-zero each step consumes, all issued before the first is used. A step
// that consumes none reads the thread's next non-zero again (clamped to the
// tile's last, tile_nz > 0), so every load is valid and none branches.
template <typename A, int ITEMS, typename V>
__device__ __forceinline__ void merge_load_direct(const int32_t *col_at, const V *val_at, const A *x, int32_t tile_nz,
                                                  int32_t nz0, int32_t steps, unsigned ends, A (&v)[ITEMS],
                                                  A (&xv)[ITEMS])
{
    int32_t col[ITEMS], j = nz0;
#pragma unroll
    for (int s = 0; s < ITEMS; s++) {
        const int32_t k = j < tile_nz ? j : tile_nz - 1;
        col[s] = merge_ldg(col_at + k);
        v[s] = static_cast<A>(merge_ldg(val_at + k));
        j += s < steps && !(ends & (1u << s));
    }
#pragma unroll
    for (int s = 0; s < ITEMS; s++)
        xv[s] = merge_ldg(x + col[s]);
}

template <typename A, int ITEMS, bool STAGED, typename V = A>
__global__ void __launch_bounds__(MERGE_THREADS) merge_tiles_kernel(const merge_dev d, const A *__restrict__ x,
                                                                    A *__restrict__ y)
{
    constexpr int PATH_TILE = MERGE_THREADS * ITEMS;
    // STAGED: row ends (int32) at the front, products (A) after them, and
    // after the walk the tile's row sums from the front; else row ends only.
    // rows + non-zeros = PATH_TILE, so PATH_TILE + 1 slots of A hold both.
    constexpr int SLOTS = STAGED ? PATH_TILE + 1 : (PATH_TILE + 1) * 4 / (int)sizeof(A) + 1;
    __shared__ A s_buf[SLOTS];
    __shared__ merge_scan_smem<A> s_scan;
    __shared__ merge_coord s_coord[2];
    const int32_t *col_at;
    const V *val_at;

    merge_coord c0, c1;
    merge_tile_ends<PATH_TILE>(d, s_coord, c0, c1);
    const int32_t tile_rows = c1.row - c0.row, tile_nz = c1.nz - c0.nz;
    col_at = d.col_idx + c0.nz;
    val_at = static_cast<const V *>(d.val) + c0.nz;
    int32_t *s_end = reinterpret_cast<int32_t *>(s_buf);
    merge_stage_row_ends<ITEMS>(d, c0, c1, s_end);
    A *s_prod = s_buf + (4 * (tile_rows + 1) + (int)sizeof(A) - 1) / (int)sizeof(A);
    if (STAGED && tile_nz > 0)
        merge_stage_products<A, ITEMS, V>(col_at, val_at, x, tile_nz, s_prod);
    __syncthreads();

    const int32_t length = tile_rows + tile_nz;
    const int32_t diag = threadIdx.x * ITEMS < length ? threadIdx.x * ITEMS : length;
    const int32_t steps = length - diag < ITEMS ? length - diag : ITEMS;
    const merge_coord p = merge_tile_search(diag, s_end, tile_rows, tile_nz);
    int32_t row = p.row, nz = p.nz;
    const unsigned ends = merge_plan<ITEMS>(steps, s_end, row, nz);
    A sums[ITEMS], acc;
    if (STAGED) {
        acc = merge_sum<A, ITEMS>(steps, ends, sums,
                                  [&](int, int32_t j, bool down) { return down ? s_prod[p.nz + j] : A(0); });
    } else {
        A v[ITEMS], xv[ITEMS];
        if (tile_nz > 0)
            merge_load_direct<A, ITEMS, V>(col_at, val_at, x, tile_nz, p.nz, steps, ends, v, xv);
        acc = merge_sum<A, ITEMS>(steps, ends, sums,
                                  [&](int s, int32_t, bool down) { return down ? v[s] * xv[s] : A(0); });
    }

    // Thread t's open row is where thread t + 1 starts, so the scan's value
    // before t belongs to t's first row. After the scan's barrier no thread
    // reads s_buf any more: the row sums may take its place.
    A excl, incl;
    merge_block_scan<A>(row, acc, s_scan, excl, incl);
    if (threadIdx.x == MERGE_THREADS - 1) {
        d.carry_row[blockIdx.x] = c0.row + row;
        static_cast<A *>(d.carry_val)[blockIdx.x] = incl;
    }
    int32_t r = p.row;
    bool first = true;
#pragma unroll
    for (int s = 0; s < ITEMS; s++)
        if (ends & (1u << s)) {
            const A sum = first ? sums[s] + excl : sums[s];
            first = false;
            if (STAGED)
                s_buf[r++] = sum;
            else
                y[c0.row + r++] = sum;
        }
    if (STAGED) { // the tile's rows to y, coalesced
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const int32_t r = threadIdx.x + i * MERGE_THREADS;
            if (r < tile_rows)
                y[c0.row + r] = s_buf[r];
        }
    }
}

#endif
