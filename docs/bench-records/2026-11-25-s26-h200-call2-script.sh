#!/usr/bin/env bash
# Session 26 call 2: column blocks over sorted rows (c) against main (m); cuSPARSE and torch in the same call.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in m c; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $log
python3 .device/spmv_anchors.py /tmp/spmv > $OUT/spmv_anchors.txt 2>&1
U=/tmp/spmv/uniform_k16.coo.bsp.h5
run() { # tag file args...
  local tag=$1; shift
  "$@" --runs 20 --json - 2>>$log | python3 -c "
import json,sys
t=sys.stdin.read(); i=t.find('[')
for d in json.loads(t[i:]):
    d['variant']='$tag'; print(json.dumps(d))
    print('$tag', d['matrix'][:12], d['values'], d['kernel'], 'L', d.get('row_lanes'), 'B', d.get('column_blocks'), round(d['median_ms'],4), d.get('verified'), file=sys.stderr)
" >> $OUT/vk.jsonl 2>>$log
}
for r in 1 2; do
  echo "round $r" >> $log
  run m$r .device/bin/vkprim_m spmv $U --values f64
  run c$r .device/bin/vkprim_c spmv $U --values f64
  run c$r-B2L8 .device/bin/vkprim_c spmv $U --values f64 --column-blocks 2 --row-lanes 8
  run c$r-B2L2 .device/bin/vkprim_c spmv $U --values f64 --column-blocks 2 --row-lanes 2
  run c$r-B3 .device/bin/vkprim_c spmv $U --values f64 --column-blocks 3 --row-lanes 4
  run c$r-B4 .device/bin/vkprim_c spmv $U --values f64 --column-blocks 4 --row-lanes 2
  run c$r-B4L4 .device/bin/vkprim_c spmv $U --values f64 --column-blocks 4 --row-lanes 4
  run m$r .device/bin/vkprim_m spmv $U --values f32
  run c$r-B2 .device/bin/vkprim_c spmv $U --values f32 --column-blocks 2
  run c$r-B2L2 .device/bin/vkprim_c spmv $U --values f32 --column-blocks 2 --row-lanes 2
done
run c-all .device/bin/vkprim_c spmv /tmp/spmv/*.coo.bsp.h5 --values f64
run m-all .device/bin/vkprim_m spmv /tmp/spmv/*.coo.bsp.h5 --values f64
echo done >> $log
