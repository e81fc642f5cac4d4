"""Tables of a change against its parent from `bench.sh compare` (one device, one call).

    python3 tools/device/compare.py OUT_DIR

Reads OUT_DIR/compare_primitives.jsonl (vkprim bench JSON lines tagged with "build": before |
after and "round") and OUT_DIR/compare_spmv_<build>_<type>_<round>.json (vkprim spmv --json).
Each figure is the best of the rounds' medians per build; the last column is after / before
(above 1.02: more than 2 % slower, flagged).
"""
import glob, json, os, re, sys
from collections import defaultdict


def table(rows, title):
    print(f"\n{title}\n")
    print(f"| {'case':<58} | {'before ms':>10} | {'after ms':>10} | {'after/before':>12} |")
    print(f"|{'-' * 60}|{'-' * 12}|{'-' * 12}|{'-' * 14}|")
    worst = 0.0
    for key in sorted(rows):
        b, a = rows[key].get("before"), rows[key].get("after")
        if b is None or a is None:
            continue
        r = a / b
        worst = max(worst, r)
        flag = " **slower**" if r > 1.02 else ""
        print(f"| {key:<58} | {b:>10.4f} | {a:>10.4f} | {r:>12.3f}{flag} |")
    print(f"\nlargest after/before: {worst:.3f}")


def best(rows, key, build, ms):
    cur = rows[key].get(build)
    rows[key][build] = ms if cur is None else min(cur, ms)


def main():
    out = sys.argv[1]
    prim = defaultdict(dict)
    path = os.path.join(out, "compare_primitives.jsonl")
    if os.path.exists(path):
        for line in open(path):
            r = json.loads(line)
            if "median_ms" not in r:
                continue
            key = f"{r['operation']} {r.get('type', '')} n={r['n']}"
            if "strategy" in r:
                key += f" {r['strategy']}"
            best(prim, key, r["build"], r["median_ms"])
        table(prim, "Primitives (vkprim bench, median ms, best of rounds)")
    spmv, csr = defaultdict(dict), defaultdict(dict)
    for f in glob.glob(os.path.join(out, "compare_spmv_*.json")):
        build, vt = re.match(r"compare_spmv_(\w+?)_(f32|f64)_\d+\.json", os.path.basename(f)).groups()
        for r in json.load(open(f)):
            if r.get("operation") != "spmv":
                continue
            key = f"{os.path.basename(r['matrix']).split('.')[0]} {vt}"
            best(spmv, key + f" spmv ({r.get('kernel', '')})", build, r["median_ms"])
            if "csr_ms" in r:
                best(csr, key + " csr build", build, r["csr_ms"])
    if spmv:
        table(spmv, "SpMV (vkprim spmv --kernel auto, median ms, best of rounds)")
        table(csr, "CSR build from shuffled COO (median ms, best of rounds)")


if __name__ == "__main__":
    main()
