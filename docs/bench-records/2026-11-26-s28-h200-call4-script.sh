#!/usr/bin/env bash
# Session 28 call 3: the [large] tests of sparse_gpu_tests and sort_tests (n = f6ed3f0's test binaries) on the GPU under the Khronos validation layer (tools/device/bench.sh tests).
set -uo pipefail
for t in sparse_gpu_tests sort_tests; do
  bash tools/device/bench.sh tests $t '[large]'
done
