#!/usr/bin/env bash
# Session 29 call 5: the count read of the primitives' passes (device_count(): a u32 or, where
# bit 0 of the address is set, a u64) measured against the session's start: n = the working tree
# of the u64 device-count commit, h = 7810c68; CUB in the same call (cub_anchors.cu 28);
# registers of every pipeline (--pipeline-stats); then the [large] test of a scan and a reduce of
# 2^32 + 1003 elements with a u64 count on the GPU, under the validation layer.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in h n; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=native -o /tmp/cub_anchors .device/cub_anchors.cu && /tmp/cub_anchors 28 > $OUT/cub28.jsonl
for r in 1 2; do
  for v in h n; do
    .device/bin/vkprim_$v bench copy scan scan-f32 reduce select partition histogram -n 2^28 --runs 20 --json - 2>>$OUT/log.txt \
      | grep '^{' | sed "s/^{/{\"variant\":\"$v\",\"round\":$r,/" >> $OUT/bench.jsonl
    .device/bin/vkprim_$v bench sort sort-pairs sort-u64 -n 2^28 --runs 10 --no-verify --json - 2>>$OUT/log.txt \
      | grep '^{' | sed "s/^{/{\"variant\":\"$v\",\"round\":$r,/" >> $OUT/bench.jsonl
  done
done
.device/bin/vkprim_n bench scan select histogram sort -n 2^24 --runs 3 --pipeline-stats 2>&1 | grep -E "Register" | sort -u > $OUT/pipeline-stats-n.txt
.device/bin/vkprim_h bench scan select histogram sort -n 2^24 --runs 3 --pipeline-stats 2>&1 | grep -E "Register" | sort -u > $OUT/pipeline-stats-h.txt
diff $OUT/pipeline-stats-h.txt $OUT/pipeline-stats-n.txt > $OUT/pipeline-stats-diff.txt
cat $OUT/pipeline-stats-diff.txt | head -40
python3 - $OUT/bench.jsonl $OUT/cub28.jsonl <<'PY'
import json,sys
for l in open(sys.argv[2]): print(l.strip()[:200])
for l in open(sys.argv[1]):
    d=json.loads(l)
    if "operation" in d: print(d["variant"], d["round"], d["operation"], d.get("algorithm","")[:20], round(d["median_ms"],4), d.get("verified"))
PY
bash tools/device/bench.sh tests engine_tests '[large][indirect]'
