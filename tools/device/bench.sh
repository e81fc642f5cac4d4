#!/usr/bin/env bash
# Runs vkprim's benchmarks and the CUDA references in one call on the GPU machine, so every
# ratio in docs/benchmarks.md compares figures taken on one device in one run.
#   Here:  cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build-release
#          mkdir -p .device/bin && cp -r ../shared/device/. .device/ && cp build-release/vkprim .device/bin/
#   There: bash tools/device/bench.sh   (with .device carried; results under $OUT)
set -euo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
out=${OUT:-/tmp/vkprim-bench}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"
.device/bin/vkprim devices | tee "$out/devices.txt"
nvcc -O3 -std=c++17 -arch=native -o /tmp/cub_anchors .device/cub_anchors.cu
/tmp/cub_anchors 28 | tee "$out/cub.jsonl"
.device/bin/vkprim bench copy fill scan scan-f32 scan-u64 scan-deterministic segmented-scan reduce reduce-f32 \
  -n 2^28 -n 2^24 -n 2^20 --runs 50 --json "$out/vkprim.jsonl"
