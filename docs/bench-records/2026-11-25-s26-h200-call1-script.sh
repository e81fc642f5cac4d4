#!/usr/bin/env bash
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
xz -d -k -f .device/bin/vkprim_m.xz; chmod +x .device/bin/*
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $log
python3 .device/ex26a.py /tmp/m > $OUT/cusparse.jsonl 2>>$log
for r in 1 2; do
for v in f64 f32; do
  .device/bin/vkprim_m spmv /tmp/m/*.csr.bsp.h5 --values $v --kernel auto --runs 20 --json - 2>>$log | sed "s/^{/{\"round\":$r,/" >> $OUT/vk.jsonl
done
.device/bin/vkprim_m spmv /tmp/m/uniform_k16_R2*.csr.bsp.h5 --values f64 --kernel rows --column-blocks 2 --runs 20 --json - 2>>$log | sed "s/^{/{\"round\":$r,\"cb\":2,/" >> $OUT/vk.jsonl
done
echo done >> $log
