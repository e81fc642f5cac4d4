#!/usr/bin/env bash
# Session 29 call 7: the small real matrices' SpMV latency (GPU time per product, automatic
# kernel, f32 and f64) at the session's final code (f = 16f4527's code; d776749 changes only
# docs), against h = 7810c68, with cuSPARSE on the same matrices in the same call
# (spmv_anchors.py --real). young1c (complex values) is left out: vkprim reads real, integer and
# pattern matrices.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in h f; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
xz -d -k -f .device/real/*.mtx.xz
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
python3 .device/spmv_anchors.py /tmp/spmv --only arrow --real .device/real > $OUT/spmv_anchors.txt 2>&1
for t in f32 f64; do for v in f h; do
  .device/bin/vkprim_$v spmv $(ls .device/real/*.mtx | grep -v young1c) --values $t --runs 50 --json - 2>>$log | python3 -c "
import json,sys
t=sys.stdin.read(); i=t.find('[')
for d in json.loads(t[i:]):
    d['variant']='$v'; print(json.dumps(d))
" >> $OUT/spmv_real.jsonl
done; done
python3 - $OUT/spmv_real.jsonl $OUT/spmv_anchors.txt <<'PY'
import json,sys,re
cus={}
for l in open(sys.argv[2]):
    if l.startswith("{"):
        d=json.loads(l)
        if d.get("op")=="spmv": cus[(d["matrix"],d["dtype"])]=d["ms"]
for l in open(sys.argv[1]):
    d=json.loads(l)
    if d.get("operation")!="spmv": continue
    m=d["matrix"].split("/")[-1][:-4]; c=cus.get((m,"float32" if d["type"]=="f32" else "float64"))
    print(d["variant"], m, d["type"], d["kernel"], d["nnz"], round(d["median_ms"],4), c, d["verified"])
PY
