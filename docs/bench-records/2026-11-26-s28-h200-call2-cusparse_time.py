"""cuSPARSE SpMV (CuPy csr @ x) on Binsparse CSR files, median ms of 20 after 3 warm-ups; one JSON line per (file, type)."""
import json, sys, h5py, numpy as np, cupy as cp, cupyx.scipy.sparse as cps
tag = sys.argv[1]
for path in sys.argv[2:]:
    with h5py.File(path, "r") as f:
        shape = json.loads(f.attrs["binsparse"])["binsparse"]["shape"]
        ip, ix, vv = f["pointers_to_1"][...], f["indices_1"][...], f["values"][...]
    A = cps.csr_matrix((cp.asarray(vv), cp.asarray(ix.astype(np.int32)), cp.asarray(ip.astype(np.int32))), shape=tuple(shape))
    for dt in (np.float64, np.float32):
        B = A.astype(dt); x = cp.random.rand(shape[1]).astype(dt)
        for _ in range(3): B @ x
        cp.cuda.Device().synchronize(); ts = []
        for _ in range(20):
            a, b = cp.cuda.Event(), cp.cuda.Event(); a.record(); B @ x; b.record(); b.synchronize()
            ts.append(cp.cuda.get_elapsed_time(a, b))
        print(json.dumps({"impl": "cuSPARSE", "round": tag, "matrix": path.split("/")[-1].split(".")[0],
                          "dtype": np.dtype(dt).name, "ms": round(float(np.median(ts)), 4), "min_ms": round(float(min(ts)), 4)}), flush=True)
