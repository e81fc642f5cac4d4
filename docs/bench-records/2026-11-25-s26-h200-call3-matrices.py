# Session 26 call 3: uniform_k16 (spmv_anchors' seed) split by column into halves (col < 2^21,
# col >= 2^21), each a full-shape CSR file: the lower bound of a blocked copy of the matrix.
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
rs = np.random.RandomState(zlib.crc32(b"uniform_k16"))
R = np.repeat(np.arange(n), 16); C = rs.randint(0, n, R.size); V = rs.rand(R.size)
for name, sel in (("full", np.ones(R.size, bool)), ("lo", C < (1 << 21)), ("hi", C >= (1 << 21))):
    A = cps.coo_matrix((cp.asarray(V[sel]), (cp.asarray(R[sel].astype(np.int32)), cp.asarray(C[sel].astype(np.int32)))), shape=(n, n)).tocsr()
    A.sum_duplicates(); A.sort_indices()
    write_csr(os.path.join(d, f"u16_{name}.csr.bsp.h5"), n, cp.asnumpy(A.indptr).astype(np.int64), cp.asnumpy(A.indices).astype(np.int32), cp.asnumpy(A.data))
    for dt in (np.float64,):
        B = A.astype(dt); x = cp.random.rand(n).astype(dt)
        print(json.dumps({"matrix": f"u16_{name}", "dtype": "float64", "impl": "cuSPARSE", "nnz": int(A.nnz), "ms": round(bench(lambda: B @ x), 4)}), flush=True)
    del A, B; cp.get_default_memory_pool().free_all_blocks()
