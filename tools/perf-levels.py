#!/usr/bin/env python3
"""Tables for a perf record from `spmvlab run` CSVs (docs/perf/).

  tools/perf-levels.py RESULTS.csv [--sets sets.txt]

Prints markdown: for every instance, its ratio to the vendor baseline of its
format family (time of the baseline / time of the instance, per matrix) as
geometric mean, minimum and maximum over each matrix set, and the per-matrix
table of speedups over cuSPARSE CSR_ALG1 with bytes per non-zero and the
fraction of the measured peak. A cell counts only when both rows are `ok`.
--sets names a file of "matrix set" lines (bundled, small, large); without
it every matrix is in one set "all".
"""
import csv
import math
import sys
from collections import defaultdict

# The vendor baseline of each instance's format family (instance label prefix
# -> baseline instance label); everything else is compared with cusparse.
FAMILY = [
    ("cusparse", "cusparse"),
    ("coo", "cusparse-coo"), ("hyb", "cusparse-coo"),
    ("ell", "cusparse-sell"), ("sell", "cusparse-sell"), ("jds", "cusparse-sell"),
    ("bcsr", "cusparse-bsr"),
    ("csrdu-f32", "cusparse-f32val"), ("sell-f32", "cusparse-f32val"),
]


def family_of(inst):
    best = "cusparse"
    for prefix, base in FAMILY:
        if inst.startswith(prefix) and not inst.startswith("cusparse-"):
            best = base
    return best


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def main():
    path = sys.argv[1]
    sets = {}
    if "--sets" in sys.argv:
        for line in open(sys.argv[sys.argv.index("--sets") + 1]):
            if line.strip():
                m, s = line.split()
                sets[m] = s
    rows = list(csv.DictReader(open(path)))
    ms = {}
    order_m, order_i = [], []
    for r in rows:
        if r["matrix"] not in order_m:
            order_m.append(r["matrix"])
        if r["instance"] not in order_i:
            order_i.append(r["instance"])
        if r["status"] == "ok" and r["ms"] not in ("", "nan"):
            ms[(r["matrix"], r["instance"])] = (float(r["ms"]), r)
    set_names = sorted(set(sets.get(m, "all") for m in order_m), key=lambda s: ["bundled", "small", "large", "all"].index(s) if s in ["bundled", "small", "large", "all"] else 9)
    print("| instance | vendor baseline | " + " | ".join(f"{s}: geomean (min-max, n)" for s in set_names) + " |")
    print("|---|---|" + "---|" * len(set_names))
    for inst in order_i:
        base = family_of(inst)
        if inst == base:
            continue
        cells = []
        for s in set_names:
            v = [ms[(m, base)][0] / ms[(m, inst)][0] for m in order_m
                 if sets.get(m, "all") == s and (m, inst) in ms and (m, base) in ms]
            cells.append(f"{geomean(v):.2f} ({min(v):.2f}-{max(v):.2f}, {len(v)})" if v else "-")
        print(f"| {inst} | {base} | " + " | ".join(cells) + " |")
    print()
    # Best of the registry (in-tree formats, f64 storage) per matrix against cusparse.
    print("| matrix | set | cuSPARSE us (% peak) | best in-tree instance | speedup | B/nnz |")
    print("|---|---|---:|---|---:|---:|")
    per_set = defaultdict(list)
    for m in order_m:
        if (m, "cusparse") not in ms:
            continue
        t0, r0 = ms[(m, "cusparse")]
        best = None
        for inst in order_i:
            if inst.startswith("cusparse") or (m, inst) not in ms:
                continue
            t, r = ms[(m, inst)]
            if r.get("value_storage", r["dtype"]) not in ("", r["dtype"]):
                continue  # narrow storage is not an f64 result
            if best is None or t < best[0]:
                best = (t, inst, r)
        if best:
            per_set[sets.get(m, "all")].append(t0 / best[0])
            print(f"| {m} | {sets.get(m, 'all')} | {t0 * 1000:.1f} ({float(r0['peak_frac']) * 100:.0f} %) | "
                  f"{best[1]} | {t0 / best[0]:.2f} | {float(best[2]['bytes_per_nnz']):.2f} |")
    print()
    for s, v in per_set.items():
        print(f"Best in-tree instance per matrix, {s} set: geomean {geomean(v):.3f} over {len(v)} matrices.")


if __name__ == "__main__":
    main()
