#!/usr/bin/env python3
"""Writes sets/corpus.ini: the broad corpus of generated matrices (a grid over
row-length law, column structure, shape and size) plus the real matrices.
Deterministic: running it again gives the same file. docs/corpus.md explains
the grid and its calibration against the SuiteSparse collection.

usage: tools/corpus-grid.py > sets/corpus.ini
       tools/corpus-grid.py --quantiles   the grid's spread of rows, non-zeros,
                                          non-zeros per row and rows/cols
"""
import math
import sys

# Target non-zeros per size level: from 1e4 to 3e7, denser where the
# collection is (docs/corpus.md); the top level only for the main families.
SIZES = [2e4, 6e4, 2e5, 6e5, 2e6, 6e6, 1.5e7, 3e7]
MID = [6e4, 6e5, 6e6]
SMALL_MID = [2e4, 2e5, 2e6, 1.5e7]

# Real matrices of the shared folder beside the clone that data/ lacks
# (data/ is a folder entry of its own).
SHARED = """494_bus Andrews EX5 Erdos971 G3_circuit G51 GD06_theory GD97_b GD98_a LFAT5
Maragal_6 Pd Trec4 airfoil1 ash219 bcspwr01 bcsstm25 cage11 cage5 conf5_0-4x4-10 cs4
ct2010 cti data de2010 dwt_992 epb1 fe_4elt2 gent113 gre_1107 hangGlider_2 impcol_a
jagmesh7 karate lp_afiro lp_share1b lpi_galenet n3c4-b4 nh2010 nnc1374 olm500 power
problem raefsky1 rajat19 reorientation_1 rgg_n_2_15_s0 uk vt2010 watt_2 west0067 wing
young1c""".split()

out = []
names = set()


def tag(nnz):
    """2e4 -> '2e4', 1.5e7 -> '15e6'."""
    e = int(math.floor(math.log10(nnz) + 1e-9))
    m = nnz / 10**e
    return "%de%d" % (m, e) if m == int(m) else "%de%d" % (round(m * 10), e - 1)


def member(name, kind, seed=1, **params):
    assert name not in names and len(name) < 48, name
    names.add(name)
    out.append("\n[%s]\ngen = %s" % (name, kind))
    for k, v in params.items():
        out.append("%s = %s" % (k, v))
    out.append("seed = %d" % seed)


def rows_for(nnz, per_row):
    return max(64, int(round(nnz / per_row)))


def header(text):
    out.append("\n; ---- " + text)


header("constant row lengths, uniform random columns (square, tall, wide)")
for k in (3, 8, 24, 64):
    for s in SIZES[:-1] if k < 64 else SIZES[1:]:
        member("const-k%d-%s" % (k, tag(s)), "uniform", n=rows_for(s, k), k=k)
for shape, ratio in (("tall", 0.25), ("wide", 4.0), ("xtall", 1 / 32), ("xwide", 32.0)):
    for s in SMALL_MID:
        n = rows_for(s, 8)
        member("const-k8-%s-%s" % (shape, tag(s)), "uniform", n=n, k=8, cols=max(64, int(n * ratio)))

header("long constant rows (the collection's top percentiles of non-zeros per row)")
for k in (128, 256, 512):
    for s in (2e5, 2e6, 6e6, 1.5e7, 3e7):
        n = rows_for(s, k)
        member("const-k%d-%s" % (k, tag(s)), "uniform", n=n, k=k, cols=max(n, 8 * k))

header("row lengths uniform in [k/2, 3k/2], random columns")
for k in (4, 16, 48):
    for s in SIZES[:-1]:
        member("unif-k%d-%s" % (k, tag(s)), "clustered", n=rows_for(s, k), k=k, jitter="uniform", runs=k)

header("power-law row lengths: exponent alpha, mean k")
for alpha in (1.6, 2.0, 2.5, 3.0):
    for k in (4, 16):
        for s in SIZES if k == 16 else SIZES[:-1]:
            member("pl-a%s-k%d-%s" % (alpha, k, tag(s)), "powerlaw", n=rows_for(s, k), k=k, alpha=alpha)
for alpha in (2.0, 2.5):
    for s in (2e5, 2e6, 6e6, 1.5e7, 3e7):
        member("pl-a%s-k64-%s" % (alpha, tag(s)), "powerlaw", n=rows_for(s, 64), k=64, alpha=alpha)
for empty in (0.3, 0.6, 0.9):
    for s in SMALL_MID:
        n = rows_for(s, 8 * (1 - empty))
        member("pl-a2.0-e%s-%s" % (empty, tag(s)), "powerlaw", n=n, k=8, alpha=2.0, empty=empty)
for shape, ratio in (("tall", 0.125), ("wide", 8.0)):
    for s in SMALL_MID:
        n = rows_for(s, 12)
        member("pl-a2.2-%s-%s" % (shape, tag(s)), "powerlaw", n=n, k=12, alpha=2.2, cols=max(256, int(n * ratio)))

header("mixed short, medium and long rows")
for name, sl, ml, ll, sf, mf in (("a", 4, 32, 512, 0.9, 0.09), ("b", 8, 128, 2048, 0.95, 0.045),
                                 ("c", 2, 16, 256, 0.6, 0.3)):
    mean = sf * sl + mf * ml + (1 - sf - mf) * ll
    for s in SIZES[:-1]:
        n = rows_for(s, mean)
        member("mixed-%s-%s" % (name, tag(s)), "mixed", n=n, short_len=sl, medium_len=ml,
               long_len=min(ll, n), short_frac=sf, medium_frac=mf)

header("a few very long rows among short ones")
for long_len in (1000, 10000, 100000):
    for s in SMALL_MID:
        n = rows_for(s, 6)
        member("longrows-l%d-%s" % (long_len, tag(s)), "longrows", n=n, k=5,
               long_rows=4, long_len=min(long_len, n))

header("empty-row share from 0 to 90 %, clustered columns")
for empty in (0.0, 0.1, 0.3, 0.5, 0.7, 0.9):
    for k in (8, 32):
        for s in MID:
            n = rows_for(s, k * (1 - empty))
            member("empty-e%s-k%d-%s" % (empty, k, tag(s)), "clustered", n=n, k=k, runs=max(1, k // 4),
                   spread=max(k, n // 64), empty=empty)

header("stencils")
for s in SIZES:
    member("st2d5-%s" % tag(s), "stencil2d5", n=int(math.sqrt(s / 5)))
    member("st3d7-%s" % tag(s), "stencil3d7", n=int((s / 7) ** (1 / 3)))
    member("st3d27-%s" % tag(s), "stencil3d27", n=int((s / 27) ** (1 / 3)))

header("bands of several widths")
for bw in (1, 4, 16, 64):
    for s in SIZES if bw in (4, 16) else SIZES[:-1]:
        member("band-bw%d-%s" % (bw, tag(s)), "banded", n=rows_for(s, 2 * bw + 1), bandwidth=bw)

header("dense blocks of one shape")
for r, c in ((2, 2), (3, 3), (4, 4), (6, 6), (8, 8), (2, 6), (6, 2)):
    for s in MID + [2e7]:
        bpr = 6
        member("blocks-%dx%d-%s" % (r, c, tag(s)), "blocks", block_rows=rows_for(s, r * c * bpr),
               bpr=bpr, r=r, c=c, spread=40)

header("dense blocks of mixed sizes and partial fill")
for sizes, (rmin, rmax, cmin, cmax) in (("s", (1, 4, 1, 4)), ("m", (2, 8, 2, 8)), ("w", (1, 3, 4, 12))):
    for fill in (1.0, 0.7, 0.4):
        for s in MID:
            per_row = 6 * (cmin + cmax) / 2 * fill
            member("bmix-%s-f%s-%s" % (sizes, fill, tag(s)), "blockmix", n=rows_for(s, per_row),
                   r_min=rmin, r_max=rmax, c_min=cmin, c_max=cmax, bpr=6, fill=fill, spread=600)

header("clustered columns: runs per row and reach from the diagonal")
for runs in (1, 4, 16):
    for reach in ("near", "mid", "any"):
        for s in MID:
            n = rows_for(s, 32)
            spread = {"near": 256, "mid": max(512, n // 16), "any": 0}[reach]
            member("clus-r%d-%s-%s" % (runs, reach, tag(s)), "clustered", n=n, k=32, runs=runs, spread=spread)
for shape, ratio in (("tall", 0.125), ("wide", 8.0)):
    for runs in (2, 8):
        for s in MID:
            n = rows_for(s, 24)
            member("clus-r%d-%s-%s" % (runs, shape, tag(s)), "clustered", n=n, k=24, runs=runs,
                   cols=max(64, int(n * ratio)), spread=max(256, int(n * ratio) // 32))

header("wide matrices (rows / cols from 1/2 to 1/4, as the collection's linear programs)")
for ratio in (2, 3, 4):
    for k in (4, 16):
        for s in MID + [2e6]:
            n = rows_for(s, k)
            member("wide%d-k%d-%s" % (ratio, k, tag(s)), "clustered", n=n, k=k, jitter="uniform",
                   runs=max(1, k // 2), cols=n * ratio)
for ratio in (2, 4):
    for s in MID:
        n = rows_for(s, 10)
        member("wide%d-pl-%s" % (ratio, tag(s)), "powerlaw", n=n, k=10, alpha=2.2, cols=n * ratio)

header("R-MAT graphs: heavy-tailed rows, many empty")
for ef in (4, 16):
    for scale in (12, 14, 16, 18, 20, 21):
        member("rmat-s%d-ef%d" % (scale, ef), "rmat", scale=scale, edge_factor=ef)
for scale in (13, 17, 20):
    member("rmat-s%d-ef8-und" % scale, "rmat", scale=scale, edge_factor=8, undirected=1)

header("few distinct values and patterns (all values equal) of the main families")
# Real discretisations hold a few distinct values (a stencil's coefficients,
# a band's weights) and graphs are often patterns; the structures are the
# families' own, so a value storage is measured on its own effect.
FEW = (("st2d5", "stencil2d5", 5), ("st3d7", "stencil3d7", 7), ("st3d27", "stencil3d27", 27),
       ("band-bw4", "banded", 9), ("band-bw16", "banded", 17), ("blocks-3x3", "blocks", 9),
       ("const-k8", "uniform", 4), ("pl-a2.0-k16", "powerlaw", 16))
for fam, kind, k in FEW:
    for s in MID:
        if kind.startswith("stencil"):
            dim, pts = (2, 5) if kind == "stencil2d5" else (3, int(kind[9:]))
            params = {"n": int((s / pts) ** (1 / dim))}
        elif kind == "banded":
            bw = int(fam[7:])
            params = {"n": rows_for(s, 2 * bw + 1), "bandwidth": bw}
        elif kind == "blocks":
            params = {"block_rows": rows_for(s, 9 * 6), "bpr": 6, "r": 3, "c": 3, "spread": 40}
        elif kind == "uniform":
            params = {"n": rows_for(s, 8), "k": 8}
        else:
            params = {"n": rows_for(s, 16), "k": 16, "alpha": 2.0}
        member("%s-fv%d-%s" % (fam, k, tag(s)), kind, values="few:%d" % k, **params)
        member("%s-pat-%s" % (fam, tag(s)), kind, values="ones", **params)
for scale, ef in ((16, 8), (18, 16)):
    member("rmat-s%d-ef%d-pat" % (scale, ef), "rmat", scale=scale, edge_factor=ef, values="ones")


def planned_size(kind, p):
    """(rows, cols, non-zeros) a member's parameters plan; R-MAT loses some
    edges to repeats, the rest are within a few per cent of this."""
    g = lambda k, d=0: float(p.get(k, d))
    n = g("n")
    cols = g("cols") or n
    filled = n * (1 - g("empty"))
    if kind == "uniform":
        return n, cols, n * g("k")
    if kind in ("clustered", "powerlaw"):
        return n, cols, filled * g("k", 16)
    if kind == "mixed":
        sf, mf = g("short_frac"), g("medium_frac")
        return n, cols, n * (sf * g("short_len") + mf * g("medium_len") + (1 - sf - mf) * g("long_len"))
    if kind == "longrows":
        return n, cols, n * g("k") + g("long_rows") * g("long_len")
    if kind.startswith("stencil"):
        dim, pts = (2, 5) if kind == "stencil2d5" else (3, int(kind[9:]))
        return n ** dim, n ** dim, pts * n ** dim
    if kind == "banded":
        return n, n, n * (2 * g("bandwidth") + 1)
    if kind == "blocks":
        b = g("block_rows")
        return b * g("r"), b * g("c"), b * g("r") * g("bpr") * g("c")
    if kind == "blockmix":
        return n, cols, n * g("bpr") * (g("c_min") + g("c_max")) / 2 * g("fill")
    if kind == "rmat":
        v = 2 ** g("scale")
        return v, v, v * g("edge_factor") * (2 if g("undirected") else 1)
    raise ValueError(kind)


def quantiles():
    members, cur = [], None
    for line in "\n".join(out).split("\n"):
        if line.startswith("["):
            cur = {}
            members.append(cur)
        elif " = " in line and cur is not None:
            k, v = line.split(" = ")
            cur[k] = v
    sizes = [planned_size(m.pop("gen"), m) for m in members]
    ps = (0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95)
    def q(v):
        v = sorted(v)
        return " | ".join("%.3g" % v[min(len(v) - 1, int(p * len(v)))] for p in ps)
    print("| quantile | " + " | ".join("%g" % p for p in ps) + " |")
    print("|---" * (len(ps) + 1) + "|")
    print("| rows | %s |" % q([r for r, c, z in sizes]))
    print("| non-zeros | %s |" % q([z for r, c, z in sizes]))
    print("| non-zeros per row | %s |" % q([z / r for r, c, z in sizes]))
    print("| rows / cols | %s |" % q([r / c for r, c, z in sizes]))
    print("square %d, tall %d, wide %d of %d" % (sum(r == c for r, c, z in sizes),
          sum(r > c for r, c, z in sizes), sum(r < c for r, c, z in sizes), len(sizes)))


if sys.argv[1:] == ["--quantiles"]:
    quantiles()
    sys.exit(0)

print("""; The corpus: %d generated matrices over row-length law (constant, uniform,
; power law with four exponents, mixed, very long rows, 0 - 90 %% empty rows),
; column structure (stencils, bands, dense blocks of one and of mixed shapes
; and fills, clustered and uniform random columns), shape (square, tall,
; wide) and size (1e4 - 3e7 non-zeros), plus the real matrices of data/ and
; of the shared folder beside the clone when it exists. Written by
; tools/corpus-grid.py; the grid and its calibration: docs/corpus.md.
; The split: `spmvlab gen --list corpus` shows each member's part.

[set]
description = the broad corpus: generated grid of %d matrices, plus the real matrices
root = ..""" % (len(names), len(names)))
print("\n".join(out))
print("""
; ---- real matrices: the bundled ones, then the shared folder (optional)

[bundled]
dir = data
optional = true""")
for name in SHARED:
    print("\n[%s]\npath = ../shared/matrices/%s.mtx.gz\noptional = true" % (name, name))
