#!/usr/bin/env bash
# Session 30 call 7: the paired single pass written inline (no helper functions taking the tile
# arrays: registers), one tile staged, against main's head (b1842d2), two rounds.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for z in .device/bin/*.xz; do xz -dkf $z; done; chmod +x .device/bin/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
run() { local v=$1 b=$2; shift 2
  .device/bin/$b bench "$@" --json - | grep '^{' | sed "s/^{/{\"variant\":\"$v\",/" >> $OUT/scan.jsonl; }
.device/bin/vkprim bench scan -n 2^24 --runs 3 --scan-tiles-per-workgroup 2 --pipeline-stats 2>&1 | grep scan_tiles
for r in 1 2; do
  run head vkprim_head copy scan scan-f32 -n 2^28 --runs 20 --no-verify
  run t2 vkprim copy scan scan-f32 -n 2^28 --runs 20 --no-verify --scan-tiles-per-workgroup 2
done
run t2 vkprim scan -n 2^24 -n 2^26 --runs 30 --scan-tiles-per-workgroup 2
python3 - <<'PY'
import json,os,collections
d=collections.defaultdict(list)
for l in open(os.environ['OUT']+'/scan.jsonl'):
  j=json.loads(l); d[(j['operation'],j['type'],j['n'],j['variant'])].append(round(j['median_ms'],4))
for k in sorted(d): print(k, d[k])
PY
