#!/usr/bin/env bash
# Session 29 call 2: h = 7810c68; y = h + the row kernel's old y loaded before the row's entries
# (spmv_rows.comp) + a second bin in its window build (rows longer than T summed after the
# others by lane groups of 2^S lanes), off unless VKPRIM_X_BIN=S:T (an experiment switch, not
# committed, which also sends the row and split kernels through the window build).
# cuSPARSE rounds interleaved.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in h y; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
python3 .device/spmv_anchors.py /tmp/spmv --only uniform_k16,powerlaw,sparse_rows,arrow,poisson2d > $OUT/spmv_anchors.txt 2>&1
D=/tmp/spmv
run() { local tag=$1; shift; echo "== $tag $*" >> $log; "$@" --json - 2>>$log | python3 -c "
import json,sys
t=sys.stdin.read(); i=t.find('[')
for d in json.loads(t[i:]):
    d['variant']='$tag'; print(json.dumps(d))
" >> $OUT/spmv.jsonl; }
M="$D/uniform_k16.csr.bsp.h5 $D/powerlaw.csr.bsp.h5 $D/sparse_rows.csr.bsp.h5 $D/arrow.csr.bsp.h5 $D/poisson2d.csr.bsp.h5"
for r in 1 2; do
  python3 .device/cusparse_time.py r$r $M >> $OUT/cusparse_rounds.jsonl 2>>$log
  run h-r$r .device/bin/vkprim_h spmv $M --values f64 --runs 20
  run y-r$r .device/bin/vkprim_y spmv $M --values f64 --runs 20
  run h-r$r-f32 .device/bin/vkprim_h spmv $M --values f32 --runs 20
  run y-r$r-f32 .device/bin/vkprim_y spmv $M --values f32 --runs 20
done
P="$D/powerlaw.csr.bsp.h5 $D/arrow.csr.bsp.h5"
for b in 3:16 3:8 4:16 5:32 2:8 3:32; do
  VKPRIM_X_BIN=$b run b$b .device/bin/vkprim_y spmv $P --values f64 --runs 20 --kernel auto,split
  VKPRIM_X_BIN=$b run b$b-f32 .device/bin/vkprim_y spmv $P --values f32 --runs 20 --kernel auto,split
done
cat $OUT/cusparse_rounds.jsonl
python3 - $OUT/spmv.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l)
    if d.get("operation")!="spmv": continue
    print(d.get("variant"), d["matrix"].split(".")[0], d["type"], d["kernel_option"], d["kernel"], "L%s"%d.get("row_lanes"), "B%s"%d.get("column_blocks"), round(d["median_ms"],4), d["verified"])
PY
echo done >> $log
