#!/usr/bin/env bash
# Session 26 call 4: column blocks as separate CSR matrices (split_columns; d) against main (m); cuSPARSE/torch same call.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in m d; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $log
python3 .device/spmv_anchors.py /tmp/spmv > $OUT/spmv_anchors.txt 2>&1
run() { local tag=$1; shift; echo "== $tag $*" >> $log; "$@" --runs 20 --json - 2>>$log | python3 -c "
import json,sys
t=sys.stdin.read(); i=t.find('[')
for d in json.loads(t[i:]):
    d['variant']='$tag'; print(json.dumps(d))
" >> $OUT/vk.jsonl; }
D=/tmp/spmv
run d-auto .device/bin/vkprim_d spmv $D/*.coo.bsp.h5 --values f64
run m-auto .device/bin/vkprim_m spmv $D/*.coo.bsp.h5 --values f64
run d-auto .device/bin/vkprim_d spmv $D/*.coo.bsp.h5 --values f32
for r in 1 2; do
  run m$r .device/bin/vkprim_m spmv $D/uniform_k16.coo.bsp.h5 $D/powerlaw.coo.bsp.h5 --values f64
  run d$r .device/bin/vkprim_d spmv $D/uniform_k16.coo.bsp.h5 --values f64
  for b in 2 3 4; do run d$r-B$b .device/bin/vkprim_d spmv $D/uniform_k16.coo.bsp.h5 $D/powerlaw.coo.bsp.h5 $D/sparse_rows.coo.bsp.h5 --values f64 --column-blocks $b; done
  run d$r-B2f32 .device/bin/vkprim_d spmv $D/uniform_k16.coo.bsp.h5 $D/powerlaw.coo.bsp.h5 --values f32 --column-blocks 2
done
echo done >> $log
