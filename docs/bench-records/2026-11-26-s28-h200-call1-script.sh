#!/usr/bin/env bash
# Session 28 call 1: primitives vs CUB (same call); main at the session's start (n = f6ed3f0) against session 26's head (m = 77871e1) for the passes session 27 changed (select, sort, histogram); the wide sort's cost.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in m n; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee $OUT/gpu.txt
nvcc -O3 -std=c++17 -arch=native -o /tmp/cub .device/cub_anchors.cu && /tmp/cub 28 | tee $OUT/cub28.jsonl
tagged() { local tag=$1; shift; "$@" --json - 2>>$log | grep '^{' | sed "s/^{/{\"variant\":\"$tag\",/" >> $OUT/bench.jsonl; }
# n: everything at 2^28, verified (sorts verified at 2^24 below)
tagged n .device/bin/vkprim_n bench copy scan scan-u64 segmented-scan reduce select histogram -n 2^28 --runs 20
tagged n .device/bin/vkprim_n bench sort sort-pairs sort-u64 sort-u64-pairs -n 2^28 --runs 10 --no-verify
# m against n, alternating, three rounds
for r in 1 2 3; do
  for v in m n; do
    tagged $v$r .device/bin/vkprim_$v bench select histogram -n 2^28 --runs 20 --no-verify
    tagged $v$r .device/bin/vkprim_$v bench sort sort-pairs sort-u64 -n 2^28 --runs 10 --no-verify
  done
done
tagged n-wide .device/bin/vkprim_n bench sort sort-pairs sort-u64 -n 2^28 --runs 10 --no-verify --sort-wide
tagged n-wide-check .device/bin/vkprim_n bench sort sort-pairs sort-u64 -n 2^24 --runs 5 --sort-wide
tagged n24 .device/bin/vkprim_n bench scan reduce sort sort-pairs sort-u64 sort-u64-pairs select histogram -n 2^24 -n 2^20 --runs 20
/tmp/cub 24 > $OUT/cub24.jsonl
python3 - $OUT/bench.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l); print(d.get("variant"), d.get("operation"), d.get("n"), d.get("median_ms"), d.get("verified"))
PY
echo done >> $log
