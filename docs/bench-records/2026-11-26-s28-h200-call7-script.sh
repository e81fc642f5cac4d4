#!/usr/bin/env bash
# Session 28 call 5: the CSR build's compaction with chunk-local 32-bit indices (p) against session 27's 64-bit indices (n = f6ed3f0) and session 26 (m = 77871e1): generated matrices, f64, two rounds alternating.
set -uo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json LD_LIBRARY_PATH=$PWD/.device/lib
for v in m n p; do xz -d -k -f .device/bin/vkprim_$v.xz; done; chmod +x .device/bin/*
log=$OUT/log.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
run() { local tag=$1; shift; echo "== $tag $*" >> $log; "$@" --json - 2>>$log | python3 -c "
import json,sys
t=sys.stdin.read(); i=t.find('[')
for d in json.loads(t[i:]):
    d['variant']='$tag'; print(json.dumps(d))
" >> $OUT/vk.jsonl; }
for r in 1 2; do for v in m n p; do
  run $v$r .device/bin/vkprim_$v spmv --generate poisson2d:4096 --generate powerlaw:4194304 --values f64 --runs 3
done; done
python3 - $OUT/vk.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l); c=[p for p in d['csr_passes'] if p['pass'].startswith('csr_compact')][0]
    print(d['variant'], d['matrix'], d['nnz'], round(d['csr_ms'],3), c['pass'], round(c['ms'],4), d['verified'])
PY
