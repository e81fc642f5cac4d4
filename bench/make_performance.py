#!/usr/bin/env python3
"""Writes docs/performance.md from the result files in bench/results/ (Python 3 standard library).

    python3 bench/make_performance.py            # regenerate docs/performance.md
    python3 bench/make_performance.py --check    # exit 1 if docs/performance.md is out of date
    python3 bench/make_performance.py import DEVICE-SUITE FILE... [options]
                                                 # one GPU call's output -> bench/results/

A result file, bench/results/<device>-<suite>.jsonl (device: h200, h100, ...; suite: any name,
e.g. primitives, sort, sparse), holds ONE call on one GPU: vkprim's records and the anchors'
records of that call, one JSON object a line, each tagged with its "source":

    run           the call: date, gpu (nvidia-smi's line), vkprim (commit), cuda, cub_timing,
                  inputs (the files it came from), selected (the import's filters)
    vkprim        `vkprim bench --json` / `vkprim spmv --json` records (fields the page uses)
    cub           ../shared/device/cub_anchors.cu's lines, its {"device", "cub": CUB_VERSION} too
    cusparse      ../shared/device/cusparse_spmv.cu's lines (cuSPARSE SpMV called directly)
    spmv_anchors  ../shared/device/spmv_anchors.py's lines (cuSPARSE through CuPy, torch, matrices)
    cupyx         tools/device/cupyx_cg.py's lines (cupyx.scipy.sparse.linalg.cg)

A line without "source" is recognized by its fields, so the tools' own output can be
concatenated as it is. `import` does that, keeps the fields the page uses, and writes the run
line. Each primitive family (scan, select, sort, spmv, csr, solvers) of a device must come from one file:
two files of one device that both hold a family are an error (keep the newer call's file).
docs/tuning.md describes the whole procedure.
"""
import argparse
import datetime
import json
import math
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")
PAGE = os.path.join(ROOT, "docs", "performance.md")

DEVICE_ORDER = ["h200", "h100"]
CUB_TIMING_NOW = "lower of the median single call and the per-call time of 10 calls back to back"

# vkprim's (operation, type) -> case key.
VKPRIM_CASES = {
    ("copy", "u32"): "copy",
    ("scan exclusive", "u32"): "scan u32",
    ("scan exclusive", "f32"): "scan f32",
    ("scan exclusive", "u64"): "scan u64",
    ("scan deterministic", "f32"): "scan f32 deterministic",
    ("segmented scan", "f32"): "segmented scan f32",
    ("reduce", "u32"): "reduce u32",
    ("reduce", "f32"): "reduce f32",
    ("select", "u32"): "select",
    ("partition", "u32"): "partition",
    ("partition rejected reversed", "u32"): "partition reversed",
    ("histogram", "u32"): "histogram",
    ("summed-area table", "u32"): "sat u32",
    ("sort keys", "u32"): "sort u32 keys",
    ("sort pairs", "u32"): "sort u32 pairs",
    ("sort keys", "u64"): "sort u64 keys",
    ("sort pairs", "u64"): "sort u64 pairs",
}
# cub_anchors.cu's names (the part before " (") -> case key.
CUB_CASES = {
    "copy u32 (cudaMemcpy D2D)": "copy",
    "scan u32 exclusive": "scan u32",
    "scan f32 inclusive": "scan f32",
    "scan u64 exclusive": "scan u64",
    "segmented scan f32 exclusive by u32 key": "segmented scan f32",
    "reduce u32 sum": "reduce u32",
    "select u32 50%": "select",
    "partition u32 50%": "partition reversed",
    "histogram u32 256 bins": "histogram",
    "sort u32 keys": "sort u32 keys",
    "sort u32 pairs u32": "sort u32 pairs",
    "sort u64 keys": "sort u64 keys",
    "sort u64 pairs u64": "sort u64 pairs",
}
# case key -> (row label, whether cub_anchors.cu times a counterpart)
LABELS = {
    "copy": ("copy u32 (CUB column: cudaMemcpy)", True),
    "scan u32": ("exclusive scan u32", True),
    "scan f32": ("exclusive scan f32 (CUB: inclusive)", True),
    "scan u64": ("exclusive scan u64", True),
    "scan f32 deterministic": ("deterministic scan f32 (reduce-then-scan)", False),
    "segmented scan f32": ("segmented exclusive scan f32, a head in 64 (CUB: ExclusiveSumByKey)", True),
    "reduce u32": ("reduce u32, sum", True),
    "reduce f32": ("reduce f32, sum", False),
    "select": ("select u32, 50 %", True),
    "partition": ("partition u32, 50 %, stable", False),
    "partition reversed": ("partition u32, 50 %, rejected reversed (CUB: DevicePartition::If)", True),
    "histogram": ("histogram u32, 256 bins", True),
    "sat u32": ("summed-area table of a u32 image, u32 sums", False),
    "sort u32 keys": ("u32 keys", True),
    "sort u32 pairs": ("u32 keys, u32 values", True),
    "sort u64 keys": ("u64 keys", True),
    "sort u64 pairs": ("u64 keys, u64 values", True),
}
FAMILIES = [
    ("scan", "Scan and reduce",
     ["copy", "scan u32", "scan f32", "scan u64", "scan f32 deterministic", "segmented scan f32",
      "reduce u32", "reduce f32"]),
    ("select", "Select, partition, histogram",
     ["copy", "select", "partition reversed", "partition", "histogram"]),
    ("sort", "Radix sort", ["sort u32 keys", "sort u32 pairs", "sort u64 keys", "sort u64 pairs"]),
    ("sat", "Summed-area table", ["copy", "sat u32"]),
]
SPMV_MATRICES = ["poisson2d", "band27", "uniform_k16", "powerlaw", "arrow", "sparse_rows", "short_k2"]

VKPRIM_FIELDS = [
    "device", "driver", "subgroup_size", "operation", "type", "n", "median_ms", "min_ms", "verified",
    "retimed", "strategy", "subgroup_ops", "algorithm", "sort_algorithm_option", "value_bytes",
    "wide_offsets", "selected", "bins", "matrix", "rows", "cols", "nnz", "kernel", "kernel_option",
    "row_lanes", "column_blocks", "csr_build", "csr_ms", "rel_err", "round", "GBps", "method",
    "preconditioner", "tol", "iterations", "stop_reason", "true_residual", "ms_per_iteration",
    "iteration_bytes", "width", "height", "wall_ms", "check_every", "recorded_iterations",
    "product_sums_dot", "sweep"]


def fail(msg):
    sys.stderr.write("make_performance.py: " + msg + "\n")
    sys.exit(2)


def source_of(r):
    if "source" in r:
        return r["source"]
    if r.get("operation") == "cupyx_cg":
        return "cupyx"
    if "operation" in r:
        return "vkprim"
    if "pipeline" in r and "statistics" in r:
        return "statistics"
    if "cub" in r or str(r.get("name", "")).startswith(("copy u32 (", "scan ", "reduce ", "sort ",
                                                          "select ", "partition ", "histogram ",
                                                          "segmented ")):
        return "cub"
    if str(r.get("impl", "")).startswith("cusparseSpMV"):
        return "cusparse"
    if r.get("op") in ("spmv", "coo_to_csr", "matrix"):
        return "spmv_anchors"
    return "other"


def case_of(r):
    s = source_of(r)
    if s == "vkprim":
        return VKPRIM_CASES.get((r.get("operation"), r.get("type")))
    if s == "cub" and "name" in r:
        name = r["name"]
        return CUB_CASES.get(name) or CUB_CASES.get(name.split(" (")[0])
    return None


def family_of_case(case):
    return [f for f, _, cases in FAMILIES if case in cases]


def matrix_name(m):
    return os.path.basename(str(m)).split(".")[0]


# ---------------------------------------------------------------------------------------------
# Reading result files

def read_results():
    runs = []
    if not os.path.isdir(RESULTS):
        fail("no %s" % os.path.relpath(RESULTS, ROOT))
    for fn in sorted(os.listdir(RESULTS)):
        if not fn.endswith(".jsonl"):
            continue
        m = re.match(r"([a-z0-9]+)-([a-z0-9_-]+)\.jsonl$", fn)
        if not m:
            fail("%s: a result file is named <device>-<suite>.jsonl" % fn)
        recs = []
        with open(os.path.join(RESULTS, fn), encoding="utf-8") as f:
            for i, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    recs.append(json.loads(line))
                except ValueError as e:
                    fail("%s:%d: %s" % (fn, i, e))
        runs.append(Run(fn, m.group(1), recs))
    if not runs:
        fail("no result files in bench/results/")
    return runs


class Run:
    def __init__(self, fn, device, recs):
        self.file = "bench/results/" + fn
        self.device = device
        self.meta = {}
        for r in recs:
            if source_of(r) == "run":
                self.meta.update(r)
        self.vk = [r for r in recs if source_of(r) == "vkprim"]
        self.cub = [r for r in recs if source_of(r) == "cub" and "name" in r]
        self.cub_version = next((r["cub"] for r in recs if source_of(r) == "cub" and "cub" in r), None)
        self.csp = [r for r in recs if source_of(r) == "cusparse"]
        self.anchors = [r for r in recs if source_of(r) == "spmv_anchors"]
        self.spmv = [r for r in self.vk if r.get("operation") == "spmv"
                     and r.get("kernel_option", "auto") == "auto"]
        self.solves = [r for r in self.vk if r.get("operation") == "solve" and "sweep" not in r]
        # `bench.sh check-every`: the same solve at several status-read intervals
        self.sweeps = [r for r in self.vk if r.get("operation") == "solve" and "sweep" in r]
        self.cupyx = [r for r in recs if source_of(r) == "cupyx"]

    def families(self):
        fams = set()
        for r in self.vk:
            c = case_of(r)
            if c and c != "copy":
                fams.update(family_of_case(c))
        if any(matrix_name(r["matrix"]) in SPMV_MATRICES for r in self.spmv):
            fams.add("spmv")
        if self.real_matrices():
            fams.add("spmv_real")
        if any(r.get("csr_build") == "GPU" and r.get("csr_ms", 0) > 0
               and matrix_name(r["matrix"]) in SPMV_MATRICES for r in self.spmv):
            fams.add("csr")
        if self.solves:
            fams.add("solvers")
        return fams

    def real_matrices(self):
        """The other matrices of the run's SpMV records (the real ones), where the direct anchor
        timed them too."""
        return sorted({matrix_name(r["matrix"]) for r in self.spmv} - set(SPMV_MATRICES)
                      & {matrix_name(r.get("matrix")) for r in self.csp})

    def gpu_name(self):
        gpu = self.meta.get("gpu", "")
        if gpu:
            return gpu.split(",")[0].strip()
        for r in self.vk:
            if r.get("device"):
                return r["device"]
        return self.device

    def driver(self):
        for r in self.vk:
            if r.get("driver"):
                return re.sub(r"^NVIDIA\s+", "", r["driver"])
        m = re.search(r"\b(\d{3}\.\d+(?:\.\d+)?)\b", self.meta.get("gpu", ""))
        return m.group(1) if m else "not recorded"

    def run_line(self, anchors):
        date = self.meta.get("date", "date not recorded")
        line = "Run of %s (`%s`): %s, driver %s, vkprim %s" % (
            date, self.file, self.gpu_name(), self.driver(), self.meta.get("vkprim", "commit not recorded"))
        if anchors == "copy":
            line += "."
        elif anchors == "cub":
            line += "; CUB_VERSION %s, CUDA %s; CUB timed as the %s." % (
                self.cub_version if self.cub_version is not None else "not recorded",
                self.meta.get("cuda", "not recorded"), self.meta.get("cub_timing", CUB_TIMING_NOW))
        else:
            line += "; CUDA %s." % self.meta.get("cuda", "not recorded")
        if self.meta.get("note"):
            line += " " + self.meta["note"]
        return line


# ---------------------------------------------------------------------------------------------
# Formatting

def fmt_ms(v):
    if v >= 100:
        return "%.1f" % v
    if v >= 10:
        return "%.2f" % v
    if v >= 1:
        return "%.3f" % v
    return "%.4f" % v if v >= 0.001 else "%.2g" % v


def fmt_range(vals, f):
    lo, hi = f(min(vals)), f(max(vals))
    return lo if lo == hi else "%s-%s" % (lo, hi)


def fmt_n(n):
    if n > 0 and n & (n - 1) == 0:
        return "2^%d" % (n.bit_length() - 1)
    return str(n)


def ratio(vals, anchor):
    return fmt_range([v / anchor for v in vals], lambda x: "%.2f" % x)


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


# ---------------------------------------------------------------------------------------------
# Sections

def primitive_table(run, family, cases):
    cub = {}
    for r in run.cub:
        c = case_of(r)
        if c:
            cub[(c, r["n"])] = r["ms"]
    groups = {}  # (case, n, forced algorithm or "") -> [records]
    for r in run.vk:
        c = case_of(r)
        if c not in cases:
            continue
        if r.get("wide_offsets") and r["n"] <= 0xFFFFFFFF:
            continue  # the 64-bit offset passes forced at a small size: not what a caller gets
        opt = r.get("sort_algorithm_option", "auto")
        groups.setdefault((c, r["n"], "" if opt == "auto" else opt), []).append(r)
    sort = family == "sort"
    rows, missing_anchor = [], []
    for c in cases:
        label, counterpart = LABELS[c]
        keys = sorted((k for k in groups if k[0] == c), key=lambda k: (-k[1], k[2]))
        if not keys:
            continue
        if counterpart and not any((c, k[1]) in cub for k in keys) and c != "copy":
            missing_anchor.append(label.split(" (")[0])
        for _, n, forced in keys:
            recs = groups[(c, n, forced)]
            algos = {r.get("algorithm", "").split(" per ")[0] for r in recs}
            if forced:
                auto = groups.get((c, n, ""))
                if auto and {r.get("algorithm", "").split(" per ")[0] for r in auto} == algos:
                    continue  # the automatic choice already ran it
            ms = [r["median_ms"] for r in recs]
            a = cub.get((c, n))
            row = [label + (", %s forced" % forced if forced else ""), fmt_n(n)]
            if sort:
                row.append(", ".join(sorted(x for x in algos if x)) or "-")
            row += [fmt_range(ms, fmt_ms), fmt_ms(a) if a else "-",
                    ratio(ms, a) if a else ("-" if counterpart else "no counterpart")]
            rows.append(row)
    header = ["operation", "n"] + (["vkprim algorithm"] if sort else []) + ["vkprim ms", "CUB ms", "vkprim / CUB"]
    out = table(header, rows)
    notes = []
    if missing_anchor:
        notes.append("No CUB figure in this run for: %s." % "; ".join(missing_anchor))
    absent = [LABELS[c][0].split(" (")[0] for c in cases
              if c != "copy" and not any(k[0] == c for k in groups)]
    if absent:
        notes.append("Not in this run: %s." % "; ".join(absent))
    if notes:
        out += ["", " ".join(notes)]
    return out


def spmv_anchor(run, matrix, dtype):
    """(ms, what) for the SpMV anchor of one matrix and value type, or (None, None)."""
    direct = [r for r in run.csp if matrix_name(r.get("matrix")) == matrix and r.get("type") == dtype]
    if direct:
        best = min(min(r["median_ms"], r.get("back_to_back_ms", r["median_ms"])) for r in direct)
        return best, "direct"
    np_type = {"f32": "float32", "f64": "float64"}[dtype]
    cupy = [r for r in run.anchors if r.get("op") == "spmv" and r.get("matrix") == matrix
            and r.get("dtype") == np_type]
    if cupy:
        return cupy[0]["ms"], "cupy"
    return None, None


def kernel_text(r):
    k = {"rows": "rows", "split": "split", "nnz": "nonzero tiles", "merge": "merge path",
         "stream": "stream"}.get(r.get("kernel"), r.get("kernel", "?"))
    if r.get("kernel") in ("rows", "split") and r.get("row_lanes"):
        k += " L%d" % r["row_lanes"]
    if r.get("column_blocks", 1) > 1:
        k += ", %d column blocks" % r["column_blocks"]
    return k


def fmt_nnz(nnz):
    return "%.1f M" % (nnz / 1e6) if nnz >= 1e6 else "%.1f k" % (nnz / 1e3)


def spmv_section(run, real=False):
    """The benchmark matrices' table, or (real) the other matrices' with a direct anchor, and for
    those the geometric mean of the ratios."""
    by = {}
    for r in run.spmv:
        by.setdefault((matrix_name(r["matrix"]), r["type"]), []).append(r)
    names = run.real_matrices() if real else [m for m in SPMV_MATRICES if any(k[0] == m for k in by)]
    kinds = set()
    rows = []
    ratios = {"f32": [], "f64": []}
    for m in names:
        nnz = next((r["nnz"] for k, rs in by.items() if k[0] == m for r in rs), 0)
        row = [m, fmt_nnz(nnz)]
        for t in ("f32", "f64"):
            recs = by.get((m, t))
            if not recs:
                row += ["-", "-", "-", "-"]
                continue
            ms = [r["median_ms"] for r in recs]
            a, kind = spmv_anchor(run, m, t)
            if kind:
                kinds.add(kind)
                ratios[t].append(min(ms) / a)
            row += [fmt_range(ms, fmt_ms), kernel_text(recs[0]), fmt_ms(a) if a else "-",
                    ratio(ms, a) if a else "-"]
        rows.append(row)
    if kinds == {"direct"}:
        anchor = "cuSPARSE"
    elif kinds == {"cupy"}:
        anchor = "CuPy"
    else:
        anchor = "anchor"
    header = ["matrix", "nnz", "f32 vkprim ms", "kernel", "%s ms" % anchor, "vkprim / %s" % anchor,
              "f64 vkprim ms", "kernel", "%s ms" % anchor, "vkprim / %s" % anchor]
    out = table(header, rows)
    if real:
        means = ["%s %.2f (%d of %d above 1)" % (t, math.exp(sum(map(math.log, v)) / len(v)),
                                                  sum(x > 1 for x in v), len(v))
                 for t, v in ratios.items() if v]
        out += ["", "Geometric mean of vkprim / cuSPARSE: " + "; ".join(means) + "."]
    if "direct" not in kinds:
        out += ["", "No direct-cuSPARSE figure (`cusparse_spmv.cu`) in this run. " +
                ("The anchor here is cuSPARSE through CuPy (`csr @ x`, spmv_anchors.py): its time "
                 "includes CuPy's host work on every call, so it overstates cuSPARSE's own time, "
                 "most on the smaller products." if "cupy" in kinds else "")]
    elif kinds != {"direct"}:
        out += ["", "Rows whose anchor is not the direct call use CuPy's `csr @ x`."]
    return out


def csr_section(run):
    coo = {r["matrix"]: r.get("coo_entries") for r in run.anchors if r.get("op") == "matrix"}
    torch = {r["matrix"]: r["ms"] for r in run.anchors
             if r.get("op") == "coo_to_csr" and str(r.get("impl", "")).startswith("torch")}
    by = {}
    for r in run.spmv:
        if r.get("csr_build") == "GPU" and r.get("csr_ms", 0) > 0:
            by.setdefault((matrix_name(r["matrix"]), r["type"]), []).append(r["csr_ms"])
    names = [m for m in SPMV_MATRICES if any(k[0] == m for k in by)]
    rows = []
    for m in names:
        entries = coo.get(m)
        row = [m, "%.1f M" % (entries / 1e6) if entries else "-"]
        for t in ("f32", "f64"):
            ms = by.get((m, t))
            if not ms:
                row += ["-", "-"]
                continue
            row.append(fmt_range(ms, fmt_ms))
            row.append(fmt_range([entries / x * 1e-6 for x in ms], lambda g: "%.1f" % g) if entries else "-")
        tm = torch.get(m)
        row.append(fmt_ms(tm) if tm else "-")
        row.append("%.1f" % (entries / tm * 1e-6) if tm and entries else "-")
        rows.append(row)
    header = ["matrix", "COO entries", "f32 vkprim ms", "G entries/s", "f64 vkprim ms", "G entries/s",
              "torch ms", "torch G entries/s"]
    return table(header, rows)


def solver_section(run):
    copies = [r["GBps"] for r in run.vk if r.get("operation") == "copy" and r.get("GBps")]
    if not copies:
        fail("%s: the solver records need the call's `vkprim bench copy` record" % run.file)
    gbps = sum(copies) / len(copies)
    cupyx = {(r["matrix"], r["type"], r["preconditioner"]): r for r in run.cupyx}
    rows = []
    order = {"f64": 0, "f32": 1}
    for r in sorted(run.solves, key=lambda r: (order.get(r["type"], 2), r["preconditioner"] != "none")):
        name = matrix_name(r["matrix"]) if r["matrix"].endswith(".mtx") else r["matrix"]
        floor = r["iteration_bytes"] / (gbps * 1e6)
        c = cupyx.get((os.path.basename(r["matrix"]), r["type"], r["preconditioner"]))
        if "wall_ms" not in r:
            fail("%s: a solve record without wall_ms (`vkprim solve --json` writes it)" % run.file)
        wall = r["wall_ms"] / r["iterations"]
        rows.append([name, r["type"], r["preconditioner"],
                     "%d / %s" % (r["iterations"], c["iterations"] if c else "-"),
                     "%.3f" % r["ms_per_iteration"], "%.3f" % floor,
                     "%.2f" % (r["ms_per_iteration"] / floor), "%.3f" % wall,
                     "%.3f" % c["ms_per_iteration"] if c else "-",
                     "%.2f" % (c["ms_per_iteration"] / wall) if c else "-",
                     "%.1e / %s" % (r["true_residual"], "%.1e" % c["true_residual"] if c else "-")])
    header = ["matrix", "type", "preconditioner", "iterations vkprim / cupyx", "vkprim GPU ms per iteration",
              "floor ms", "vkprim GPU / floor", "vkprim wall ms per iteration", "cupyx wall ms per iteration",
              "cupyx / vkprim (wall)", "true residual vkprim / cupyx"]
    out = ["The floor prices bytes at %.0f GB/s, the copy's (`vkprim bench copy`, 2^28 u32)." % gbps, ""]
    out += table(header, rows)
    if run.sweeps:
        out += ["", "**Status-read interval** (`KrylovOptions::check_every`, `tools/device/bench.sh",
                "check-every`): CG without a preconditioner, wall ms per iteration of the whole loop",
                "(submissions, status reads and the iterations recorded past the stop included) by the",
                "interval K; the 3-D Laplacian of 2^18 unknowns, bcsstk33 for 2000 iterations and the",
                "2-D Laplacian of 2^24 unknowns. `-`: not in the call.", ""]
        ks = sorted({r["check_every"] for r in run.sweeps})
        cases = {}  # (matrix, type) -> {K: record}, in the call's order
        for r in run.sweeps:
            cases.setdefault((r["matrix"], r["type"]), {})[r["check_every"]] = r
        srows = []
        for (m, t), byk in sorted(cases.items(), key=lambda c: order.get(c[0][1], 2)):
            its = next(iter(byk.values()))["iterations"]
            srows.append([matrix_name(m) if m.endswith(".mtx") else m, t, str(its)] +
                         ["%.3f" % (byk[k]["wall_ms"] / byk[k]["iterations"]) if k in byk else "-"
                          for k in ks])
        out += table(["matrix", "type", "iterations"] + ["K = %d" % k for k in ks], srows)
    return out


def devices_of(runs):
    found = sorted({r.device for r in runs})
    return [d for d in DEVICE_ORDER if d in found] + [d for d in found if d not in DEVICE_ORDER]


def family_runs(runs):
    """(device, family) -> the one run holding it."""
    owner = {}
    for run in runs:
        for fam in sorted(run.families()):
            key = (run.device, fam)
            if key in owner:
                fail("%s and %s both hold %s for %s: one call per family and device (keep the newer)"
                     % (owner[key].file, run.file, fam, run.device))
            owner[key] = run
    return owner


def sat_section(run):
    copy = {r["n"]: r["median_ms"] for r in run.vk if case_of(r) == "copy"}
    rows = []
    for r in sorted((r for r in run.vk if case_of(r) == "sat u32"), key=lambda r: -r["n"]):
        c = copy.get(r["n"])
        rows.append([fmt_n(r["n"]), "%d x %d" % (r.get("width", 0), r.get("height", 0)),
                     fmt_ms(r["median_ms"]), fmt_ms(c) if c else "-",
                     "%.2f" % (r["median_ms"] / (2 * c)) if c else "-"])
    return table(["n", "width x height", "vkprim ms", "copy ms", "vkprim / two copies"], rows)


def render(runs):
    owner = family_runs(runs)
    devices = devices_of(runs)
    name_of = {}
    for d in devices:
        name_of[d] = next(r.gpu_name() for r in runs if r.device == d)
    out = []
    w = out.append
    w("# Performance")
    w("")
    w("<!-- Generated by bench/make_performance.py from bench/results/*.jsonl. Do not edit by hand:")
    w("     change the result files or the script, then run `python3 bench/make_performance.py`. -->")
    w("")
    w("vkprim against the CUDA libraries on NVIDIA GPUs: every table comes from one GPU held for")
    w("one call, in which vkprim and the anchor ran one after the other, unless its run line says")
    w("how the work was split over calls on that GPU. Only ratios within a table mean")
    w("anything; absolute times move between machines and calls. **vkprim / anchor** is vkprim's")
    w("time over the anchor's: below 1 vkprim is faster. `a-b` is the spread of the rounds one call")
    w("ran. n counts elements (64-bit keys and values: half as many, the same bytes).")
    w("")
    w("**How the result files are made.** On the GPU machine, `tools/device/bench.sh primitives`")
    w("builds `cub_anchors.cu` (`../shared/device/`) with nvcc and runs it at 2^28 and 2^24")
    w("(`cub.jsonl`, `cub24.jsonl`), then `vkprim bench` over every primitive at 2^28")
    w("(`vkprim28.jsonl`; sorts by each algorithm in `vkprim28sort.jsonl`) and at 2^24 and 2^20")
    w("(`vkprim24.jsonl`), all into `$OUT` with the GPU's name and driver (`gpu.txt`).")
    w("`tools/device/bench.sh sparse` writes the SpMV matrices and times cuSPARSE through CuPy and")
    w("torch's CSR build on them (`spmv_anchors.py`: `spmv_anchors.txt`), then `vkprim spmv` on the")
    w("same files, f32 and f64 (`vkprim_spmv_f32.json`, `vkprim_spmv_f64.json`). The direct")
    w("cuSPARSE anchor (`cusparse_spmv.cu`) belongs in the same call, after `spmv_anchors.py`;")
    w("`bench.sh` does not run it, [tuning.md](tuning.md) has the commands.")
    w("`python3 bench/make_performance.py import h200-primitives $OUT/...` turns one call's files")
    w("into `bench/results/h200-primitives.jsonl`; `python3 bench/make_performance.py` writes this")
    w("page from `bench/results/`.")
    w("")
    w("**How each side is timed.** vkprim: `vkprim bench` / `vkprim spmv`, the median of runs timed")
    w("by GPU timestamps around each run in one command buffer, after at least one second of")
    w("warm-up. Results are checked against the CPU in the same call (`bench.sh` checks the 2^28")
    w("sorts at 2^24). CUB (`cub_anchors.cu`): temporary storage allocated once; timed as each")
    w("table's line says. `cub_anchors.cu` now reports the lower of the median single call and the")
    w("per-call time of 10 calls back to back; a single call's time also holds the gaps while the")
    w("host launches CUB's kernels, which count at 2^20-2^22. cuSPARSE (`cusparse_spmv.cu`):")
    w("descriptors, buffer and `cusparseSpMV_preprocess` made once; the best of CSR_ALG1 and")
    w("CSR_ALG2, each the lower of the median of 50 single calls and the per-call time of 10 calls")
    w("back to back. CuPy (`spmv_anchors.py`): `csr @ x`, median of 20 event-timed calls. torch:")
    w("`coalesce().to_sparse_csr()`, median of 5 event-timed builds.")
    sections = [(f, title) for f, title, _ in FAMILIES if f != "sat"] + [
        ("sat", "Summed-area table"), ("spmv", "SpMV"), ("spmv_real", "SpMV on real matrices"),
        ("csr", "CSR construction"), ("solvers", "Krylov solvers")]
    for fam, title in sections:
        w("")
        w("## " + title)
        if fam == "spmv":
            w("")
            w("y = A x on the seven benchmark matrices of `spmv_anchors.py` (16-113 M nonzeros), CSR")
            w("built on the GPU from shuffled triplets; the kernel is vkprim's automatic choice; every")
            w("result checked against Eigen.")
        if fam == "spmv_real":
            w("")
            w("y = A x on the real SuiteSparse matrices of `../shared/matrices/real/` (2.6 k-592 k")
            w("nonzeros; young1c is complex, which `cusparse_spmv.cu` does not take), read from their")
            w("Matrix Market files, CSR built on the GPU; the kernel is vkprim's automatic choice; every")
            w("result checked against Eigen. At these sizes a product is mostly fixed cost. vkprim: the")
            w("median of single products (`vkprim spmv --back-to-back K` times K products recorded")
            w("back to back instead, a full barrier after each); cuSPARSE: as above, the lower of its")
            w("single-call median and its time per call of 10 calls back to back.")
        if fam == "csr":
            w("")
            w("CSR built on the GPU from the matrices' shuffled COO triplets (1 % duplicates, summed):")
            w("the median of GPU-timestamp-timed builds; G entries/s = COO entries / time. torch's build")
            w("of the same triplets ran in the same call.")
        if fam == "sat":
            w("")
            w("`SummedAreaTable` on a u32 image of n elements, as square as n allows (`vkprim bench sat`),")
            w("against the copy of the image timed in the same call: two copies are what a row pass and a")
            w("column pass that each read and write the image once would move. No CUDA library has a")
            w("counterpart.")
        if fam == "solvers":
            w("")
            w("CG (`vkprim solve --no-check`, `tools/device/bench.sh solvers`) on the 2-D and 3-D")
            w("Laplacians of 2^24 unknowns, solved to the value type's default tolerance (f64 1e-8, f32")
            w("1e-5), and on bcsstk33 for 2000 iterations; b = 1, x0 = 0. vkprim's GPU time per iteration")
            w("is GPU-timestamped blocks of 16 iterations over the iterations run; its wall time is the")
            w("host's clock over the whole loop, status reads included. **floor**: the bytes an")
            w("iteration moves at the least (the SpMV's matrix and vectors once, and every vector each")
            w("vector pass reads or writes once: `iteration_bytes` in `tools/vkprim/cmd_solve.cpp`) at")
            w("the copy's bandwidth. cupyx: `cupyx.scipy.sparse.linalg.cg` on the same system")
            w("(`tools/device/cupyx_cg.py`), wall time between two device synchronizations over its")
            w("iterations, against vkprim's wall time. The true residual ||b - A x|| / ||b|| is")
            w("recomputed in f64; in f32 it drifts from the recursive one that stops the solve, on both")
            w("sides.")
        for d in devices:
            w("")
            w("### " + name_of[d])
            w("")
            run = owner.get((d, fam))
            if not run:
                w("No result file holds this for the %s." % name_of[d])
                continue
            if fam == "sat":
                w(run.run_line("copy"))
                w("")
                out.extend(sat_section(run))
            elif fam in ("spmv", "spmv_real", "csr", "solvers"):
                w(run.run_line("sparse"))
                w("")
                out.extend(spmv_section(run) if fam == "spmv" else spmv_section(run, real=True)
                           if fam == "spmv_real" else csr_section(run) if fam == "csr"
                           else solver_section(run))
            else:
                w(run.run_line("cub"))
                w("")
                cases = next(c for f, _, c in FAMILIES if f == fam)
                out.extend(primitive_table(run, fam, cases))
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# import: one call's output files -> one result file

def load_any(path):
    """Records of a file: a JSON array or object, or the JSON objects among its lines."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    s = text.lstrip()
    if s.startswith("["):
        try:
            data = json.loads(s)
            return [r for r in data if isinstance(r, dict)], None
        except ValueError:
            pass
    recs, other = [], []
    for line in text.splitlines():
        t = line.strip()
        if t.startswith("{"):
            try:
                recs.append(json.loads(t))
                continue
            except ValueError:
                pass
        if t:
            other.append(t)
    gpu = next((t for t in other if re.match(r"NVIDIA|AMD|Intel", t)), None)
    return recs, gpu


def do_import(argv):
    ap = argparse.ArgumentParser(prog="make_performance.py import",
                                 description="Write bench/results/DEVICE-SUITE.jsonl from one call's files")
    ap.add_argument("name", help="DEVICE-SUITE, e.g. h200-primitives")
    ap.add_argument("files", nargs="+", help="the call's files: cub*.jsonl, vkprim*.json(l), gpu.txt, "
                    "spmv_anchors.txt, cusparse_spmv.cu's output")
    ap.add_argument("--date", default=datetime.date.today().isoformat(), help="the call's date")
    ap.add_argument("--vkprim", help="the commit vkprim was built from")
    ap.add_argument("--cuda", help="the CUDA version the anchors were built with")
    ap.add_argument("--cub-timing", help="how cub_anchors.cu timed (default: %s)" % CUB_TIMING_NOW)
    ap.add_argument("--note", help="a sentence the page prints after the run's line (e.g. how the "
                    "call was split)")
    ap.add_argument("--only", help="keep these families: scan,select,sort,sat,spmv,csr,solvers")
    ap.add_argument("--where", action="append", default=[],
                    help="KEY=V1[,V2...]: keep records whose KEY is one of these (records without KEY stay)")
    a = ap.parse_args(argv)
    if not re.match(r"[a-z0-9]+-[a-z0-9_-]+$", a.name):
        fail("the name is DEVICE-SUITE, lower case, e.g. h200-primitives")
    only = set(a.only.split(",")) if a.only else None
    where = []
    for w in a.where:
        k, _, v = w.partition("=")
        where.append((k, set(v.split(","))))
    run = {"source": "run", "date": a.date, "inputs": [os.path.basename(f) for f in a.files]}
    for k in ("vkprim", "cuda", "cub_timing", "note"):
        if getattr(a, k):
            run[k] = getattr(a, k)
    if a.only or a.where:
        run["selected"] = " ".join((["only=" + a.only] if a.only else []) + a.where)
    out, seen = [], set()
    for path in a.files:
        recs, gpu = load_any(path)
        if gpu and "gpu" not in run:
            run["gpu"] = gpu
        for r in recs:
            s = source_of(r)
            if s in ("statistics", "other", "run"):
                continue
            if any(k in r and str(r[k]) not in vs for k, vs in where):
                continue
            if s == "vkprim":
                c = case_of(r)
                fams = set(family_of_case(c)) if c else set()
                if r.get("operation") == "spmv":
                    fams = {"spmv", "csr"}
                if r.get("operation") in ("solve", "copy"):
                    fams |= {"solvers"}
                if not fams or (only is not None and not fams & only):
                    continue
                r = {k: r[k] for k in VKPRIM_FIELDS if k in r}
            elif s == "cub" and "name" in r:
                c = case_of(r)
                if not c or (only is not None and not set(family_of_case(c)) & only):
                    continue
                r = {k: r[k] for k in ("name", "n", "ms") if k in r}
            elif s == "cub":
                r = {k: r[k] for k in ("device", "cub") if k in r}
            elif s in ("cusparse", "spmv_anchors") and only is not None and not {"spmv", "csr"} & only:
                continue
            elif s == "cupyx" and only is not None and "solvers" not in only:
                continue
            r = dict(r, source=s)
            key = json.dumps(r, sort_keys=True)
            if s != "vkprim" and key in seen:
                continue  # an anchor line given twice (e.g. spmv_anchors.txt and .json)
            seen.add(key)
            out.append(r)
    if not any(r["source"] == "vkprim" for r in out):
        fail("no vkprim record among the files (or the filters removed them all)")
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, a.name + ".jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for r in [run] + out:
            f.write(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n")
    print("wrote %s: %d records" % (os.path.relpath(path, ROOT), len(out)))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "import":
        do_import(sys.argv[2:])
        return
    ap = argparse.ArgumentParser(description="Write docs/performance.md from bench/results/")
    ap.add_argument("--check", action="store_true", help="only check that the page is up to date")
    a = ap.parse_args()
    page = render(read_results())
    if a.check:
        with open(PAGE, encoding="utf-8") as f:
            if f.read() != page:
                sys.stderr.write("docs/performance.md is out of date: run python3 bench/make_performance.py\n")
                sys.exit(1)
        return
    with open(PAGE, "w", encoding="utf-8") as f:
        f.write(page)
    print("wrote docs/performance.md (%d lines)" % page.count("\n"))


if __name__ == "__main__":
    main()
