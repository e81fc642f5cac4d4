#!/bin/bash
# Session 26: the sparse GPU tests (column blocks, split_columns) on the NVIDIA device under the validation layer.
for f in .device/gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json VK_LAYER_PATH=$PWD/.device/layer LD_LIBRARY_PATH=$PWD/.device/lib:$PWD/.device/layer
xz -dk .device/layer/*.xz
cd .device/t && xz -dkf sparse_gpu_tests.xz; chmod +x sparse_gpu_tests
nvidia-smi -L
t0=$(date +%s); timeout 400 ./sparse_gpu_tests -d yes > $OUT/sparse_gpu_tests.txt 2>&1; echo "rc=$? $(( $(date +%s) - t0 )) s"
tail -n 3 $OUT/sparse_gpu_tests.txt; grep -B3 -A12 "FAILED\|VALIDATION" $OUT/sparse_gpu_tests.txt | head -60
grep -E "column blocks|split_columns|analysis: a large" $OUT/sparse_gpu_tests.txt
