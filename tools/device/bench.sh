#!/usr/bin/env bash
# Runs vkprim's benchmarks and the CUDA references in one call on the GPU machine, so that every
# ratio between them compares figures taken on one device in one run.
#   Here:  cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build-release
#          mkdir -p .device/bin .device/lib .device/real && cp -r ../shared/device/. .device/
#          cp build-release/vkprim .device/bin/
#          the non-glibc libraries `ldd build-release/vkprim` lists -> .device/lib (HDF5 & co.)
#          cp ../shared/matrices/real/*.mtx .device/real/
#          for `tests`: mkdir -p .device/t .device/layer
#            cp build-release/tests/{engine,sort,sparse_gpu}_tests .device/t/
#            cp /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so \
#               /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json .device/layer/
#            (xz -9 the binaries and the layer's library if the tree would pass 64 MiB)
#          for `sass`: cp /usr/bin/zstd .device/bin/ (the driver's cache is zstd-compressed; the
#            GPU machine has no zstd)
#   There: bash tools/device/bench.sh primitives|sparse|solvers   (with .device carried; results in $OUT)
#          bash tools/device/bench.sh check-every [f64|f32]: CG's time per iteration by status-read
#            interval (the basis of KrylovOptions::check_every's default)
#          bash tools/device/bench.sh compare primitives|sparse: a change against its parent, with
#            the parent's build as .device/bin/vkprim.before: both binaries alternately, two
#            rounds (ROUNDS=N for another count), on the same device in one call (every primitive at 2^20, 2^24 and 2^28; or
#            SpMV and the CSR build on the benchmark matrices, f32 and f64)
#          bash tools/device/bench.sh sass COMMAND...: the SASS of the pipelines COMMAND creates
#          bash tools/device/bench.sh probe [ncu V]: vkprim's downsweep in CUDA beside CUB
#            (tools/device/rank_probe.cu), with Nsight Compute profiles
#          bash tools/device/bench.sh tests [BINARY [CATCH ARGUMENTS...]]: the GPU test binaries
#            (all three, or one with its test filter, e.g. sort_tests '[large]') under the
#            Khronos validation layer, as on lavapipe; a log per binary in $OUT. Each binary
#            gets at most 9 minutes: one call's limit is 10.
set -euo pipefail
for f in .device/gl/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
export LD_LIBRARY_PATH=$PWD/.device/lib
out=${OUT:-/tmp/vkprim-bench}
mkdir -p "$out"
vk=.device/bin/vkprim
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"
# The GPU's clocks every 200 ms while the benchmarks run (a slow stretch in a record can be
# checked against them).
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,clocks_event_reasons.active \
  --format=csv -lms 200 > "$out/clocks.csv" 2>&1 &
clocks_pid=$!
trap 'kill $clocks_pid 2>/dev/null || true' EXIT
case "${1:-primitives}" in
  primitives)
    nvcc -O3 -std=c++17 -arch=native -o /tmp/cub_anchors .device/cub_anchors.cu
    /tmp/cub_anchors 28 | tee "$out/cub.jsonl"
    # 2^28 u32 (2^27 for 64-bit), verified except the sorts (verified at 2^24 below)
    $vk bench copy fill scan scan-f32 scan-u64 scan-deterministic segmented-scan reduce reduce-f32 \
      select partition partition-reversed histogram -n 2^28 --runs 20 --pipeline-stats --json "$out/vkprim28.jsonl"
    # Both sort algorithms (auto picks by key width and values: include/vkprim/sort.hpp); u64
    # keys with u64 values are the CSR build's f64 sorts
    for a in auto onesweep reduce-then-scan; do
      $vk bench sort sort-pairs sort-u64 sort-u64-pairs -n 2^28 --runs 10 --no-verify --sort-algorithm $a \
        --pipeline-stats --json -
    done | grep '^{' > "$out/vkprim28sort.jsonl"
    # Scan layers and strategies (--subgroup: the subgroup layer even where tuning prefers
    # shared memory; --no-subgroup: shared memory only).
    { $vk bench scan -n 2^28 --runs 20 --no-verify --strategy reduce-then-scan --json -
      $vk bench scan -n 2^28 --runs 20 --no-verify --no-subgroup --json -
      $vk bench scan -n 2^28 --runs 20 --no-verify --no-subgroup --strategy reduce-then-scan --json -
      $vk bench scan segmented-scan -n 2^28 --runs 20 --no-verify --subgroup --json -
      $vk bench scan scan scan -n 2^28 --runs 20 --no-verify --json -
      for g in 1024 4096 16384; do
        $vk bench scan reduce -n 2^28 --runs 20 --no-verify --subgroup --strategy reduce-then-scan --range-groups $g --json -
      done
      $vk bench sort select -n 2^28 --runs 10 --no-verify --no-subgroup --json -
      # The 64-bit offset passes that sorts of 2^32 keys and more run, at 2^28 (what they cost)
      $vk bench sort sort-pairs sort-u64 -n 2^28 --runs 10 --no-verify --sort-wide --json - ; } \
      | grep '^{' > "$out/vkprim28variants.jsonl"
    $vk bench scan reduce segmented-scan sort sort-pairs sort-u64 sort-u64-pairs select partition partition-reversed histogram -n 2^24 -n 2^20 \
      --runs 20 --json "$out/vkprim24.jsonl"
    /tmp/cub_anchors 24 > "$out/cub24.jsonl"
    ;;
  sparse)
    python3 .device/spmv_anchors.py /tmp/spmv > "$out/spmv_anchors.txt" 2>&1
    # Every kernel on each CSR built once from the shuffled triplets: merge path, nonzero tiles,
    # row kernel, stream kernel, split kernel (row kernel + long rows over workgroups), the
    # automatic choice. The driver's statistics of every pipeline (registers a thread: a change
    # in a pass's registers explains a change in its time).
    $vk spmv /tmp/spmv/*.coo.bsp.h5 --values f32 --kernel merge,nnz,rows,stream,split,auto \
      --runs 20 --pipeline-stats --json "$out/vkprim_spmv_f32.json"
    $vk spmv /tmp/spmv/*.coo.bsp.h5 --values f64 --kernel merge,nnz,rows,stream,split,auto \
      --runs 20 --pipeline-stats --json "$out/vkprim_spmv_f64.json"
    $vk spmv .device/real/*.mtx --values f32 --kernel auto --runs 50 --json "$out/vkprim_spmv_real.json"
    ;;
  solvers)
    # The CG iteration against its bandwidth floor (`vkprim solve` reports the bytes an iteration
    # moves at the least; priced at the copy's bandwidth from this call) and against
    # cupyx.scipy.sparse.linalg.cg (tools/device/cupyx_cg.py) on the same systems: the 2-D and
    # 3-D Laplacians of 2^24 unknowns solved to the default tolerance of each value type, and a
    # real SPD matrix (.device/real/bcsstk33.mtx) for 2000 iterations. b = 1, x0 = 0.
    # `solvers f64` or `solvers f32`: one value type (a call's time limit may not hold both).
    $vk bench copy -n 2^28 --runs 20 --json - | grep '^{' >> "$out/solver_copy.jsonl"
    for t in ${2:-f64 f32}; do
      tol=1e-8; [ $t = f32 ] && tol=1e-5
      for pre in none jacobi; do
        for g in poisson2d:4096 poisson3d:256 .device/real/bcsstk33.mtx; do
          src=(--generate "$g"); lim=(); climit=()
          case $g in *.mtx) src=("$g"); lim=(--max-iterations 2000); climit=(2000) ;; esac
          $vk solve "${src[@]}" --values $t --precond $pre --tol $tol "${lim[@]}" --no-check \
            --json - 2> "$out/solve.log" | python3 -c 'import json,sys; [print(json.dumps(r)) for r in json.load(sys.stdin)]' \
            >> "$out/solver_vkprim.jsonl" || tail -n 3 "$out/solve.log"
          python3 tools/device/cupyx_cg.py "$g" $t $pre $tol "${climit[@]}" >> "$out/solver_cupyx.jsonl"
        done
      done
    done
    ;;
  check-every)
    # The simple loop's status-read interval (KrylovOptions::check_every): CG's wall time per
    # iteration (submissions, waits and the iterations a block runs past the stop included) at
    # K = 1, 4, 16, 64, 256 on a short solve (3-D Laplacian of 2^18 unknowns), a real SPD matrix
    # (2000 iterations) and a long one (2-D Laplacian of 2^24 unknowns). `check-every f32`: f32.
    t=${2:-f64}; tol=1e-8; [ $t = f32 ] && tol=1e-5
    for g in poisson3d:64 .device/real/bcsstk33.mtx poisson2d:4096; do
      src=(--generate "$g"); lim=()
      case $g in *.mtx) src=("$g"); lim=(--max-iterations 2000) ;; esac
      for k in 1 4 16 64 256; do
        $vk solve "${src[@]}" --values $t --tol $tol "${lim[@]}" --check-every $k --no-check \
          --json - 2> "$out/solve.log" | python3 -c 'import json,sys; [print(json.dumps(dict(r, sweep="check_every"))) for r in json.load(sys.stdin)]' \
          >> "$out/solver_check_every.jsonl" || tail -n 3 "$out/solve.log"
      done
    done
    ;;
  compare)
    before=.device/bin/vkprim.before
    chmod +x "$before" "$vk"
    ops="copy fill scan scan-f32 scan-u64 scan-deterministic segmented-scan reduce reduce-f32 sort sort-pairs sort-u64 sort-u64-pairs select partition histogram"
    case "${2:-primitives}" in
      primitives)
        for round in $(seq "${ROUNDS:-2}"); do
          for b in before after; do
            bin=$vk; [ $b = before ] && bin=$before
            for n in 2^20 2^24; do
              $bin bench $ops -n $n --runs 20 --no-verify --json - | grep '^{' | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/"
            done
            $bin bench $ops -n 2^28 --runs 10 --no-verify --json - | grep '^{' | sed "s/^{/{\"build\":\"$b\",\"round\":$round,/"
          done
        done > "$out/compare_primitives.jsonl"
        ;;
      sparse)
        python3 .device/spmv_anchors.py /tmp/spmv > "$out/spmv_anchors.txt" 2>&1
        for round in $(seq "${ROUNDS:-2}"); do
          for b in before after; do
            bin=$vk; [ $b = before ] && bin=$before
            for t in f32 f64; do
              $bin spmv /tmp/spmv/*.coo.bsp.h5 --values $t --kernel auto --runs 20 \
                --json "$out/compare_spmv_${b}_${t}_$round.json" > /dev/null
            done
          done
        done
        ;;
    esac
    python3 tools/device/compare.py "$out" | tee "$out/compare.txt"
    ;;
  tests)
    export VK_LAYER_PATH=$PWD/.device/layer LD_LIBRARY_PATH=$PWD/.device/lib:$PWD/.device/layer
    for z in .device/layer/*.xz .device/t/*.xz; do [ -e "$z" ] && xz -dkf "$z"; done
    binaries=(engine_tests sort_tests sparse_gpu_tests)
    [ $# -ge 2 ] && binaries=("$2")
    for t in "${binaries[@]}"; do
      chmod +x ".device/t/$t"
      t0=$(date +%s)
      rc=0
      timeout 540 ".device/t/$t" -d yes "${@:3}" > "$out/$t.txt" 2>&1 || rc=$?
      echo "$t: rc=$rc in $(( $(date +%s) - t0 )) s"
      tail -n 3 "$out/$t.txt"
      grep -B3 -A12 "FAILED\|VALIDATION" "$out/$t.txt" | head -60 || true
    done
    ;;
  sass)
    # The machine code of every pipeline one vkprim command creates, as the driver compiled it
    # (tools/device/sass.py: read from a fresh shader disk cache, disassembled by the CUDA
    # toolkit's nvdisasm), one .sass file per pipeline in $out/sass.tgz. The command gets
    # --pipeline-stats and --json, so it is `bench ...` or `spmv ...`:
    #   bash tools/device/bench.sh sass bench sort -n 2^20 --runs 1 --no-verify
    cache=$(mktemp -d)
    __GL_SHADER_DISK_CACHE_PATH=$cache __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
      $vk "${@:2}" --pipeline-stats --json - | grep '^{' > "$out/sass-stats.jsonl"
    PATH=$PATH:/usr/local/cuda/bin:$PWD/.device/bin python3 tools/device/sass.py "$cache" "$out/sass-stats.jsonl" "$out/sass"
    tar czf "$out/sass.tgz" -C "$out" sass && rm -rf "$out/sass"  # one file: a call returns few
    ;;
  probe)
    # vkprim's u32 downsweep written in CUDA (tools/device/rank_probe.cu) timed beside CUB at
    # 2^28 keys; `probe ncu V` also takes Nsight Compute profiles (which do not cover Vulkan) of
    # variant V and of CUB's onesweep pass: details and per-instruction SASS counts, $out/ncu.tgz.
    export PATH=$PATH:/usr/local/cuda/bin
    nvcc -O3 -std=c++17 -arch=native -lineinfo -o /tmp/rank_probe tools/device/rank_probe.cu
    /tmp/rank_probe 28 | tee "$out/probe.jsonl"
    if [ "${2:-}" = ncu ]; then
      mkdir -p "$out/ncu"
      ncu --kernel-name regex:downsweep --launch-skip 2 --launch-count 1 --set full --import-source yes \
        -o "$out/ncu/probe" /tmp/rank_probe 28 "${3:-0}" > "$out/ncu/probe.log" 2>&1
      ncu --kernel-name regex:Onesweep --launch-skip 2 --launch-count 1 --set full \
        -o "$out/ncu/cub" /tmp/rank_probe 28 9 > "$out/ncu/cub.log" 2>&1
      for r in probe cub; do
        ncu --import "$out/ncu/$r.ncu-rep" --page details > "$out/ncu/$r-details.txt" 2>&1
        ncu --import "$out/ncu/$r.ncu-rep" --page source --csv --print-source sass > "$out/ncu/$r-sass.csv" 2>&1
      done
      tar czf "$out/ncu.tgz" -C "$out" ncu && rm -rf "$out/ncu"
    fi
    ;;
  *)
    echo "usage: $0 primitives|sparse|solvers|compare primitives|sparse|tests [BINARY [CATCH ARGUMENTS...]]|sass COMMAND...|probe [ncu V]" >&2
    exit 2
    ;;
esac
