#!/usr/bin/env bash
# Session 30 call 1: the single pass at one and two tiles per workgroup (scan_tiles_paired),
# alternated in three rounds at 2^28, then 2^20-2^24; CUB in the same call; the tests under
# the validation layer.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
xz -dkf .device/bin/vkprim.xz; chmod +x .device/bin/vkprim; vk=.device/bin/vkprim
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=native -o /tmp/cub .device/cub_anchors.cu && /tmp/cub 28 > $OUT/cub28.jsonl
grep -E '"(scan|copy|memcpy|reduce)' $OUT/cub28.jsonl | head; cat $OUT/cub28.jsonl | head -3
for r in 1 2 3; do
  for t in 1 2; do
    $vk bench copy scan scan-f32 -n 2^28 --runs 20 --no-verify --strategy single-pass --scan-tiles-per-workgroup $t --json - | grep '^{' | sed "s/^{/{\"variant\":\"t$t\",\"round\":$r,/" >> $OUT/scan28.jsonl
  done
done
$vk bench scan scan-f32 -n 2^28 --runs 5 --strategy single-pass --scan-tiles-per-workgroup 2 --pipeline-stats 2>&1 | tail -30
for t in 1 2; do
  $vk bench scan scan-f32 -n 2^20 -n 2^22 -n 2^23 -n 2^24 -n 2^26 --runs 30 --strategy single-pass --scan-tiles-per-workgroup $t --json - | grep '^{' | sed "s/^{/{\"variant\":\"t$t\",/" >> $OUT/scan_small.jsonl
done
python3 - <<'PY'
import json,os,collections
d=collections.defaultdict(list)
for f in ['scan28.jsonl','scan_small.jsonl']:
  for l in open(os.environ['OUT']+'/'+f):
    j=json.loads(l); d[(j['operation'],j['type'],j['n'],j['variant'])].append(round(j['median_ms'],4))
for k in sorted(d): print(k, d[k])
PY
export VK_LAYER_PATH=$PWD/.device/layer LD_LIBRARY_PATH=$PWD/.device/lib:$PWD/.device/layer
xz -dkf .device/layer/libVkLayer_khronos_validation.so.xz; xz -dkf .device/t/engine_tests.xz
chmod +x .device/t/engine_tests .device/bin/vkprim; timeout 200 .device/t/engine_tests '[paired],[fallback],[tails]' 2>&1 | tail -5
