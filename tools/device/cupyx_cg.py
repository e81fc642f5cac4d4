"""cupyx.scipy.sparse.linalg.cg on the systems `vkprim solve` benchmarks (tools/device/bench.sh
solvers): what a Python user of cuSPARSE runs for the same solve.

    python3 tools/device/cupyx_cg.py poisson2d:N|poisson3d:N|FILE.mtx f32|f64 none|jacobi TOL [MAXITER]

The matrix is the one `vkprim solve --generate` builds (the 5- and 7-point Laplacians with
Dirichlet boundaries) or a Matrix Market file (symmetric storage expanded); b is all ones, x0 is
0, the stop is ||r|| <= TOL ||b||. A first solve of a few iterations warms CuPy's kernels up;
the timed solve runs between two device synchronizations, and the time per iteration is its
wall time over the iterations its callback counted. One JSON line on stdout.
"""
import json
import sys
import time

import cupy as cp
import cupyx.scipy.sparse as csp
import cupyx.scipy.sparse.linalg as cspl
import numpy as np


def laplacian(kind, n):
    if kind == "poisson2d":
        idx = np.arange(n * n, dtype=np.int64).reshape(n, n)
        rows, cols, vals = [idx.ravel()], [idx.ravel()], [np.full(n * n, 4.0)]
        for a, b in ((idx[1:, :], idx[:-1, :]), (idx[:, 1:], idx[:, :-1])):
            rows += [a.ravel(), b.ravel()]
            cols += [b.ravel(), a.ravel()]
            vals += [np.full(a.size, -1.0)] * 2
    else:
        idx = np.arange(n ** 3, dtype=np.int64).reshape(n, n, n)
        rows, cols, vals = [idx.ravel()], [idx.ravel()], [np.full(n ** 3, 6.0)]
        for a, b in ((idx[1:], idx[:-1]), (idx[:, 1:], idx[:, :-1]), (idx[:, :, 1:], idx[:, :, :-1])):
            rows += [a.ravel(), b.ravel()]
            cols += [b.ravel(), a.ravel()]
            vals += [np.full(a.size, -1.0)] * 2
    size = n * n if kind == "poisson2d" else n ** 3
    return size, np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)


def read_mtx(path):
    with open(path) as f:
        banner = f.readline().lower().split()
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        nr, nc, nnz = map(int, line.split())
        data = np.loadtxt(f, ndmin=2, max_rows=nnz)
    r, c = data[:, 0].astype(np.int64) - 1, data[:, 1].astype(np.int64) - 1
    v = data[:, 2] if banner[3] != "pattern" else np.ones(len(r))
    if banner[4] in ("symmetric", "hermitian"):
        off = r != c
        r, c, v = np.concatenate([r, c[off]]), np.concatenate([c, r[off]]), np.concatenate([v, v[off]])
    return nr, r, c, v


def main():
    spec, vt, pre, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    maxiter = int(sys.argv[5]) if len(sys.argv) > 5 else None
    dtype = np.float32 if vt == "f32" else np.float64
    if spec.endswith(".mtx"):
        n, r, c, v = read_mtx(spec)
        name = spec.rsplit("/", 1)[-1]
    else:
        kind, side = spec.split(":")
        n, r, c, v = laplacian(kind, int(side))
        name = spec
    a = csp.coo_matrix((cp.asarray(v.astype(dtype)), (cp.asarray(r), cp.asarray(c))), shape=(n, n)).tocsr()
    a.sum_duplicates()
    b = cp.ones(n, dtype=dtype)
    m = None
    if pre == "jacobi":
        inv = 1 / a.diagonal()
        m = cspl.LinearOperator((n, n), matvec=lambda x: inv * x, dtype=dtype)
    count = [0]

    def callback(_):
        count[0] += 1

    def solve(limit):
        count[0] = 0
        try:
            return cspl.cg(a, b, rtol=tol, atol=0.0, maxiter=limit, M=m, callback=callback)
        except TypeError:  # CuPy releases before rtol
            return cspl.cg(a, b, tol=tol, atol=0.0, maxiter=limit, M=m, callback=callback)

    solve(5)
    cp.cuda.Device().synchronize()
    t0 = time.perf_counter()
    x, info = solve(maxiter)
    cp.cuda.Device().synchronize()
    wall = (time.perf_counter() - t0) * 1e3
    res = float(cp.linalg.norm(b - a @ x) / cp.linalg.norm(b))
    print(json.dumps({"operation": "cupyx_cg", "matrix": name, "type": vt, "rows": n, "nnz": int(a.nnz),
                      "preconditioner": pre, "tol": tol, "iterations": count[0], "info": int(info),
                      "wall_ms": wall, "ms_per_iteration": wall / max(count[0], 1), "true_residual": res,
                      "cupy": cp.__version__}))


if __name__ == "__main__":
    main()
