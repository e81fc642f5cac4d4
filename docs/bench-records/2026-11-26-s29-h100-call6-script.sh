#!/usr/bin/env bash
# Session 29 call 6: p = the column blocks' list passes pipelined (each later block's alongside the
# products before it) against z = 5a65f4a (all lists first) and h = 7810c68, with cuSPARSE in
# three interleaved rounds, on the f64 products over column blocks (powerlaw: split kernel;
# sparse_rows, uniform_k16: row kernel).
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in h z p; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
python3 .device/spmv_anchors.py /tmp/spmv --only powerlaw,sparse_rows,uniform_k16 > $OUT/spmv_anchors.txt 2>&1
D=/tmp/spmv
run() { local tag=$1; shift; echo "== $tag $*" >> $log; "$@" --json - 2>>$log | python3 -c "
import json,sys
t=sys.stdin.read(); i=t.find('[')
for d in json.loads(t[i:]):
    d['variant']='$tag'; print(json.dumps(d))
" >> $OUT/spmv.jsonl; }
M="$D/powerlaw.csr.bsp.h5 $D/sparse_rows.csr.bsp.h5 $D/uniform_k16.csr.bsp.h5"
for r in 1 2 3; do
  python3 .device/cusparse_time.py r$r $M >> $OUT/cusparse_rounds.jsonl 2>>$log
  for v in h z p; do run $v-r$r .device/bin/vkprim_$v spmv $M --values f64 --runs 20; done
done
grep "spmv  " $OUT/spmv_anchors.txt
grep float64 $OUT/cusparse_rounds.jsonl
python3 - $OUT/spmv.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l)
    if d.get("operation")!="spmv": continue
    print(d.get("variant"), d["matrix"].split(".")[0], d["type"], d["kernel"], "B%s"%d.get("column_blocks"), round(d["median_ms"],4), d["verified"], [(p["pass"], round(p["ms"],4), p.get("dispatches")) for p in d.get("passes",[]) if "fill" in p["pass"] or "list" in p["pass"]])
PY
echo done >> $log
