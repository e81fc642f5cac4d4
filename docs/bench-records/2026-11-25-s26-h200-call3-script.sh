#!/usr/bin/env bash
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in m c s; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
log=$OUT/log.txt
python3 .device/ex26c.py /tmp/h > $OUT/cusparse.jsonl 2>>$log
run() { local tag=$1; shift; "$@" --runs 20 --json - 2>/dev/null | python3 -c "
import json,sys
t=sys.stdin.read(); i=t.find('[')
for d in json.loads(t[i:]):
    d['variant']='$tag'; print(json.dumps(d))
    print('$tag', d['matrix'][:12], d.get('type'), d['kernel'], 'L', d.get('row_lanes'), 'B', d.get('column_blocks'), round(d['median_ms'],4), d.get('verified'), file=sys.stderr)
" >> $OUT/vk.jsonl 2>>$log; }
for r in 1 2; do
  for f in full lo hi; do run m$r .device/bin/vkprim_m spmv /tmp/h/u16_$f.csr.bsp.h5 --values f64; done
  for f in lo hi; do run m$r-L4 .device/bin/vkprim_m spmv /tmp/h/u16_$f.csr.bsp.h5 --values f64 --row-lanes 4; done
  run c$r .device/bin/vkprim_c spmv /tmp/h/u16_full.csr.bsp.h5 --values f64
  run s$r .device/bin/vkprim_s spmv /tmp/h/u16_full.csr.bsp.h5 --values f64
  run s$r-L8 .device/bin/vkprim_s spmv /tmp/h/u16_full.csr.bsp.h5 --values f64 --row-lanes 8
  run s$r-L2 .device/bin/vkprim_s spmv /tmp/h/u16_full.csr.bsp.h5 --values f64 --row-lanes 2
done
echo done >> $log
