#!/usr/bin/env bash
# Session 26 call 6: the final code's automatic choice (e = 0b60293 + docs) on the benchmark suite; cuSPARSE/torch same call.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
xz -d -k -f .device/bin/vkprim_e.xz; chmod +x .device/bin/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
python3 .device/spmv_anchors.py /tmp/spmv > $OUT/spmv_anchors.txt 2>&1
for v in f64 f32; do
  .device/bin/vkprim_e spmv /tmp/spmv/*.coo.bsp.h5 --values $v --runs 20 --json $OUT/vkprim_spmv_$v.json > $OUT/vkprim_spmv_$v.txt 2>&1
done
grep -E " f(32|64) |split into" $OUT/vkprim_spmv_*.txt; grep "spmv  \|coo_to_csr" $OUT/spmv_anchors.txt | tail -21
