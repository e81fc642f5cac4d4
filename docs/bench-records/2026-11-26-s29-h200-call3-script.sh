#!/usr/bin/env bash
# Session 29 call 3: z = 5a65f4a (the row kernel's old y loaded early, 25c9568; the split blocks'
# lists made together and one fill of the list counts, 5a65f4a) against h = 7810c68 (the
# session's start): the record (spmv_anchors.py and z on every shuffled COO file, f32 and f64,
# CSR build from the triplets), then two interleaved rounds of cuSPARSE, h and z on the CSR files.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in h z; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
python3 .device/spmv_anchors.py /tmp/spmv > $OUT/spmv_anchors.txt 2>&1
D=/tmp/spmv
run() { local tag=$1; shift; echo "== $tag $*" >> $log; "$@" --json - 2>>$log | python3 -c "
import json,sys
t=sys.stdin.read(); i=t.find('[')
for d in json.loads(t[i:]):
    d['variant']='$tag'; print(json.dumps(d))
" >> $OUT/spmv.jsonl; }
run z-f32 .device/bin/vkprim_z spmv $D/*.coo.bsp.h5 --values f32 --runs 20 --pipeline-stats
run z-f64 .device/bin/vkprim_z spmv $D/*.coo.bsp.h5 --values f64 --runs 20 --pipeline-stats
M="$D/uniform_k16.csr.bsp.h5 $D/powerlaw.csr.bsp.h5 $D/sparse_rows.csr.bsp.h5 $D/arrow.csr.bsp.h5"
for r in 1 2; do
  python3 .device/cusparse_time.py r$r $M >> $OUT/cusparse_rounds.jsonl 2>>$log
  run h-r$r .device/bin/vkprim_h spmv $M --values f64 --runs 20
  run z-r$r .device/bin/vkprim_z spmv $M --values f64 --runs 20
  run z-r$r-f32 .device/bin/vkprim_z spmv $D/arrow.csr.bsp.h5 --values f32 --runs 20
done
grep "spmv  \|coo_to_csr" $OUT/spmv_anchors.txt | tail -21
cat $OUT/cusparse_rounds.jsonl
python3 - $OUT/spmv.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l)
    if d.get("operation")!="spmv": continue
    print(d.get("variant"), d["matrix"].split(".")[0], d["type"], d["kernel"], "L%s"%d.get("row_lanes"), "B%s"%d.get("column_blocks"), round(d["median_ms"],4), d["verified"], "csr %.3f"%d.get("csr_ms",0), [(p["pass"], round(p["ms"],4), p.get("dispatches")) for p in d.get("passes",[]) if "fill" in p["pass"] or "list" in p["pass"]])
PY
echo done >> $log
