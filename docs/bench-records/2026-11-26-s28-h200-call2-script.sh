#!/usr/bin/env bash
# Session 28 call 2: SpMV and CSR build vs cuSPARSE/torch (spmv_anchors.py, same call), n = f6ed3f0, m = 77871e1 for the CSR build's compaction; three interleaved rounds of the f64 products of uniform_k16 and powerlaw against cuSPARSE; the kernels and lanes on powerlaw's two column blocks.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in m n; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
python3 .device/spmv_anchors.py /tmp/spmv > $OUT/spmv_anchors.txt 2>&1
D=/tmp/spmv
run() { local tag=$1; shift; echo "== $tag $*" >> $log; "$@" --json - 2>>$log | python3 -c "
import json,sys
t=sys.stdin.read(); i=t.find('[')
for d in json.loads(t[i:]):
    d['variant']='$tag'; print(json.dumps(d))
" >> $OUT/vk.jsonl; }
run n-f64 .device/bin/vkprim_n spmv $D/*.coo.bsp.h5 --values f64 --runs 20
run n-f32 .device/bin/vkprim_n spmv $D/*.coo.bsp.h5 --values f32 --runs 20
run m-f64 .device/bin/vkprim_m spmv $D/poisson2d.coo.bsp.h5 $D/powerlaw.coo.bsp.h5 $D/short_k2.coo.bsp.h5 --values f64 --runs 5
run n-f64b .device/bin/vkprim_n spmv $D/poisson2d.coo.bsp.h5 $D/powerlaw.coo.bsp.h5 $D/short_k2.coo.bsp.h5 --values f64 --runs 5
for r in 1 2 3; do
  python3 .device/cusparse_time.py r$r $D/uniform_k16.csr.bsp.h5 $D/powerlaw.csr.bsp.h5 >> $OUT/cusparse_rounds.jsonl 2>>$log
  run n-r$r .device/bin/vkprim_n spmv $D/uniform_k16.csr.bsp.h5 $D/powerlaw.csr.bsp.h5 --values f64 --runs 20
  run n-r$r-f32 .device/bin/vkprim_n spmv $D/uniform_k16.csr.bsp.h5 $D/powerlaw.csr.bsp.h5 --values f32 --runs 20
done
# powerlaw f64 over 2 column blocks: every kernel, and the split kernel's lanes
run x-kernels .device/bin/vkprim_n spmv $D/powerlaw.csr.bsp.h5 --values f64 --runs 20 --column-blocks 2 --kernel nnz,merge,rows,split,stream
for l in 1 4 8; do run x-split-L$l .device/bin/vkprim_n spmv $D/powerlaw.csr.bsp.h5 --values f64 --runs 20 --column-blocks 2 --kernel split --row-lanes $l; done
run x-kernels-1 .device/bin/vkprim_n spmv $D/powerlaw.csr.bsp.h5 --values f64 --runs 20 --column-blocks 1 --kernel nnz,merge,split
run x-blocks3 .device/bin/vkprim_n spmv $D/powerlaw.csr.bsp.h5 --values f64 --runs 20 --column-blocks 3 --kernel nnz,split
grep "spmv  \|coo_to_csr" $OUT/spmv_anchors.txt | tail -21
cat $OUT/cusparse_rounds.jsonl
python3 - $OUT/vk.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l); print(d.get("variant"), {k:v for k,v in d.items() if k in ("matrix","type","kernel","row_lanes","column_blocks","median_ms","verified","csr_ms")})
PY
echo done >> $log
