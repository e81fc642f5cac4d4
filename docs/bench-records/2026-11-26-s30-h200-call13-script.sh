#!/usr/bin/env bash
# Session 30 call 13: partition's build with the rejected elements behind a push-constant test
# (as in call 10) instead of the preprocessor alone (calls 11-12: device lost): each size under
# a timeout, verified; select and partition against main's head (b1842d2), two rounds; the
# select tests under the validation layer (not the [large] ones).
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for z in .device/bin/*.xz; do xz -dkf $z; done; chmod +x .device/bin/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
for n in 2^20 2^24 2^28; do
  echo "== partition $n"; timeout 40 .device/bin/vkprim bench partition select -n $n --runs 10 --pipeline-stats 2>&1 | grep -E "partition|select|error" | grep -v "^  [a-rt-z]" | head -6; echo "rc=$?"
done
run() { local v=$1 b=$2 f=$3; shift 3
  timeout 60 .device/bin/$b bench "$@" --json - | grep '^{' | sed "s/^{/{\"variant\":\"$v\",/" >> $OUT/$f; }
for r in 1 2; do
  run head vkprim_head ab.jsonl select partition -n 2^28 --runs 20 --no-verify
  run final vkprim ab.jsonl select partition -n 2^28 --runs 20 --no-verify
done
python3 - <<'PY'
import json,os,collections
d=collections.defaultdict(list)
for l in open(os.environ['OUT']+'/ab.jsonl'):
  j=json.loads(l)
  if 'operation' not in j or 'type' not in j: continue
  d[(j['operation'],j['n'],j['variant'])].append(round(j['median_ms'],4))
for k in sorted(d): print(k, d[k])
PY
export VK_LAYER_PATH=$PWD/.device/layer LD_LIBRARY_PATH=$PWD/.device/lib:$PWD/.device/layer
xz -dkf .device/layer/libVkLayer_khronos_validation.so.xz; xz -dkf .device/t/sort_tests.xz; chmod +x .device/t/sort_tests
timeout 150 .device/t/sort_tests '[select]~[large]' -d yes 2>&1 | tail -18
