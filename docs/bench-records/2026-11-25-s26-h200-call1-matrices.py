# Session 26 call 1: uniform_k16 / powerlaw with columns confined to [0, 2^R): how fast SpMV
# gets when x's gathered part is smaller (upper bound for column blocks). cuSPARSE on the same.
import json, os, sys, zlib
import numpy as np, h5py, cupy as cp, cupyx.scipy.sparse as cps
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
def write_csr(path, n, ip, ix, vv):
    with h5py.File(path, "w") as f:
        f.create_dataset("pointers_to_1", data=ip); f.create_dataset("indices_1", data=ix); f.create_dataset("values", data=vv)
        f.attrs["binsparse"] = json.dumps({"binsparse": {"version": "0.1", "format": "CSR", "shape": [n, n],
            "number_of_stored_values": int(len(vv)), "data_types": {"pointers_to_1": "int64", "indices_1": "int32", "values": "float64"}}})
def bench(fn, reps=20, warm=3):
    for _ in range(warm): fn()
    cp.cuda.Device().synchronize(); ts = []
    for _ in range(reps):
        a, b = cp.cuda.Event(), cp.cuda.Event(); a.record(); fn(); b.record(); b.synchronize(); ts.append(cp.cuda.get_elapsed_time(a, b))
    return float(np.median(ts))
n = 1 << 22
for name in ("uniform_k16", "powerlaw"):
    for R in (22, 21, 20):
        rs = np.random.RandomState(zlib.crc32(name.encode()))
        if name == "uniform_k16": Rw = np.repeat(np.arange(n), 16)
        else:
            lens = np.minimum((rs.pareto(1.5, n) + 1) * 16 / 3, n // 4).astype(np.int64); Rw = np.repeat(np.arange(n), lens)
        C = rs.randint(0, 1 << R, Rw.size); V = rs.rand(Rw.size)
        A = cps.coo_matrix((cp.asarray(V), (cp.asarray(Rw.astype(np.int32)), cp.asarray(C.astype(np.int32)))), shape=(n, n)).tocsr()
        A.sum_duplicates(); A.sort_indices()
        write_csr(os.path.join(d, f"{name}_R{R}.csr.bsp.h5"), n, cp.asnumpy(A.indptr).astype(np.int64), cp.asnumpy(A.indices).astype(np.int32), cp.asnumpy(A.data))
        for dt in (np.float32, np.float64):
            B = A.astype(dt); x = cp.random.rand(n).astype(dt)
            print(json.dumps({"op": "spmv", "matrix": f"{name}_R{R}", "dtype": np.dtype(dt).name, "impl": "cuSPARSE", "nnz": int(A.nnz), "ms": round(bench(lambda: B @ x), 4)}), flush=True)
        del A, B; cp.get_default_memory_pool().free_all_blocks()
