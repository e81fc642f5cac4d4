#!/usr/bin/env bash
# Session 29 call 1: the CSR build after 19deec3 (h = 7810c68) against session 26's m = 77871e1 (compaction
# registers and time), the full SpMV/CSR record vs spmv_anchors.py (same call), and an experiment on
# the f64 products over column blocks: x = h plus env switches (not committed): VKPRIM_X_PREFETCH=1
# reads each block's part of x (a u32 reduce over it) right before the block's product;
# VKPRIM_X_ONLY=b runs block b alone (timing only: results wrong); interleaved with cuSPARSE rounds.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in h m x; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
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
run h-f32 .device/bin/vkprim_h spmv $D/*.coo.bsp.h5 --values f32 --runs 20 --pipeline-stats
run h-f64 .device/bin/vkprim_h spmv $D/*.coo.bsp.h5 --values f64 --runs 20 --pipeline-stats
run m-f64 .device/bin/vkprim_m spmv $D/poisson2d.coo.bsp.h5 $D/powerlaw.coo.bsp.h5 $D/short_k2.coo.bsp.h5 --values f64 --runs 5 --pipeline-stats
run h-f64b .device/bin/vkprim_h spmv $D/poisson2d.coo.bsp.h5 $D/powerlaw.coo.bsp.h5 $D/short_k2.coo.bsp.h5 --values f64 --runs 5
M="$D/uniform_k16.csr.bsp.h5 $D/powerlaw.csr.bsp.h5 $D/sparse_rows.csr.bsp.h5"
for r in 1 2; do
  python3 .device/cusparse_time.py r$r $M >> $OUT/cusparse_rounds.jsonl 2>>$log
  run x0-r$r .device/bin/vkprim_x spmv $M --values f64 --runs 20
  VKPRIM_X_PREFETCH=1 run x1-r$r .device/bin/vkprim_x spmv $M --values f64 --runs 20
done
VKPRIM_X_ONLY=0 run only0 .device/bin/vkprim_x spmv $M --values f64 --runs 20
VKPRIM_X_ONLY=1 run only1 .device/bin/vkprim_x spmv $M --values f64 --runs 20
grep "spmv  \|coo_to_csr" $OUT/spmv_anchors.txt | tail -21
cat $OUT/cusparse_rounds.jsonl
python3 - $OUT/spmv.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l)
    if d.get("operation")=="pipeline statistics": continue
    print(d.get("variant"), {k:v for k,v in d.items() if k in ("matrix","type","kernel","row_lanes","column_blocks","median_ms","verified","csr_ms")}, "nnz/csr_ms G/s", round(d.get("nnz",0)/max(d.get("csr_ms",1e-9),1e-9)/1e6,2), [(x["pass"],round(x["ms"],3)) for x in d.get("csr_passes",[]) if "compact" in x["pass"]])
PY
grep -h "csr_compact" $log | sort | uniq | head
echo done >> $log
