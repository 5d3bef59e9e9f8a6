#!/usr/bin/env python3
"""Replays csrdu's stream-kernel plan (plugins/csrdu/csrdu.c, csrdu_build.c)
on the CPU for Matrix Market files and prints, per matrix and plan, the
tile shape, the long-row limit, the tiles, the row pieces and the longest
chain of dependent additions one thread of a tile makes in the reduction
after the barrier (rows of a tile's trip in parallel, the trips of a tile
in turn).

    replay_stream_plan.py FILE.mtx ... > replay.csv

The plans: before (256 rows, long 256), long (auto long-row limit: the
power of two at or above twice the mean row, 32 to 256), shape (auto tile
rows: halved from 256 while the matrix gives fewer than 2 * 132 tiles,
down to 8) and both (the defaults)."""
import gzip
import sys

import numpy as np

THREADS, PIECE, SMS = 128, 512, 132


def stream_lanes(rows):
    """csrdu_stream_lanes: lanes a row of a tile of `rows` rows."""
    g = 1
    while g < 32 and 2 * g * rows <= THREADS:
        g *= 2
    return g


def auto_long(rp):
    """stream_long_len with long = auto."""
    rows = len(rp) - 1
    mean = rp[-1] / rows if rows else 0
    limit = 32
    while limit < 256 and limit < 2 * mean:
        limit *= 2
    return limit


def tile_entries(rows):
    """stream_tile_entries: 4 a row, 256 to 1024."""
    return min(1024, max(256, 4 * rows))


def auto_rows(rp):
    """choose_stream_shape with tile_rows = auto."""
    rows, nnz, t = len(rp) - 1, rp[-1], 256
    while t > 8 and max(rows // t, nnz // tile_entries(t)) < 2 * SMS:
        t //= 2
    return t


def plan(rp, long_len, tile_rows):
    """csrdu_plan_build's tiles (row ranges) and pieces (count)."""
    TILE, TILE_ROWS = tile_entries(tile_rows), tile_rows
    rows, r, tiles, pieces = len(rp) - 1, 0, [], 0
    while r < rows:
        n = rp[r + 1] - rp[r]
        if n > long_len:
            pieces += -(-n // PIECE)
            r += 1
            continue
        r0 = r
        while (r < rows and r - r0 < TILE_ROWS and rp[r + 1] - rp[r0] <= TILE
               and rp[r + 1] - rp[r] <= long_len):
            r += 1
        tiles.append((r0, r))
    return tiles, pieces


def tile_chain(rp, r0, r1):
    """Dependent additions of the tile's slowest thread: per trip of
    128 / g rows, the longest row over g, summed over the trips."""
    n, lens = r1 - r0, np.diff(rp[r0:r1 + 1])
    g = stream_lanes(n)
    per = THREADS // g
    return sum(int(np.max(-(-lens[f:f + per] // g))) for f in range(0, n, per))


def row_ptr(path):
    """Row pointer of a Matrix Market coordinate file (general storage)."""
    with (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)) as fh:
        line = fh.readline()
        while line.startswith('%'):
            line = fh.readline()
        rows = int(line.split()[0])
        r = np.loadtxt(fh, usecols=(0,), dtype=np.int64, ndmin=1) - 1
    return np.concatenate([[0], np.cumsum(np.bincount(r, minlength=rows))])


def main():
    print('matrix,plan,tile_rows,long,tiles,pieces,chain_max')
    for path in sys.argv[1:]:
        rp = row_ptr(path)
        name = path.rsplit('/', 1)[-1].removesuffix('.gz').removesuffix('.mtx')
        plans = {'before': (256, 256), 'long': (256, auto_long(rp)), 'shape': (auto_rows(rp), 256),
                 'both': (auto_rows(rp), auto_long(rp))}
        for tag, (tile_rows, limit) in plans.items():
            tiles, pieces = plan(rp, limit, tile_rows)
            chain = max((tile_chain(rp, a, b) for a, b in tiles), default=0)
            print(f'{name},{tag},{tile_rows},{limit},{len(tiles)},{pieces},{chain}')


if __name__ == '__main__':
    main()
