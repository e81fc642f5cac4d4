#!/usr/bin/env bash
# Session 29 call 4: sparse_gpu_tests at 5a65f4a (+ the column-block test's final form) on the
# H200 under the Khronos validation layer with synchronization validation, as on lavapipe.
bash tools/device/bench.sh tests sparse_gpu_tests
