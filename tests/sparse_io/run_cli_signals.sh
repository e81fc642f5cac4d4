#!/usr/bin/env bash
# `vkprim convert` and `vkprim spy` killed part-way (SIGKILL, SIGTERM, SIGINT) leave the previous
# output byte-identical; SIGTERM and SIGINT also remove the temporary (ctest: sparse_io.cli_signals).
# Deterministic: VKPRIM_TEST_STOP_BEFORE_COMMIT makes the command line's test build
# (vkprim_test_cli, tools/vkprim/test_hooks.cpp) stop itself (SIGSTOP) once its output is written
# to the temporary and before the flush and rename; the script waits for the stop, checks that
# the temporary exists, then sends the signal. The installed vkprim ignores the variable.
# Usage: run_cli_signals.sh <vkprim_test_cli binary> <scratch dir>
set -u
vkprim=$1
work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# waits (up to 60 s) until process $1 is stopped; fails if it ends instead.
wait_stopped() {
  local state
  for ((tries = 0; tries < 600; ++tries)); do
    state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || state=gone
    case $state in
      T) return 0 ;;
      Z | gone) fail "vkprim ended before committing its output (no stop): $(cat stderr.txt)" ;;
    esac
    sleep 0.1
  done
  fail "vkprim did not reach its commit within 60 s"
}

printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n3 2 -2\n' > small.mtx
{
  echo '%%MatrixMarket matrix coordinate real general'
  echo '3000 3000 3000'
  for ((i = 1; i <= 3000; ++i)); do echo "$i $(((i * 7) % 3000 + 1)) 0.${i}7"; done
} > big.mtx

for sig in KILL TERM INT; do
  for out in out.mtx out.mtx.gz out.bsp.h5 out.png; do
    command=convert
    [ "$out" = out.png ] && command=spy
    rm -f "$out" ."$out".*
    "$vkprim" $command small.mtx "$out" || fail "$command small.mtx $out"
    cp "$out" ref
    # Background jobs of a non-interactive shell start with SIGINT ignored; env restores it.
    VKPRIM_TEST_STOP_BEFORE_COMMIT=1 env --default-signal=INT "$vkprim" $command big.mtx "$out" 2>stderr.txt &
    pid=$!
    wait_stopped $pid
    temporaries=(."$out".??????)
    [ -f "${temporaries[0]}" ] || fail "$command $out: no temporary file while writing"
    kill -s $sig $pid
    [ $sig = KILL ] || kill -s CONT $pid
    wait $pid
    rc=$?
    [ $rc -eq $((128 + $(kill -l $sig))) ] || fail "$command $out: exit $rc after SIG$sig"
    cmp -s "$out" ref || fail "SIG$sig during '$command big.mtx $out' changed $out"
    left=(."$out".??????)
    if [ $sig = KILL ]; then
      [ -f "${left[0]}" ] || fail "SIGKILL: the temporary is gone, so the test did not kill mid-write"
      rm -f "${left[@]}"
    else
      [ -f "${left[0]}" ] && fail "SIG$sig left the temporary ${left[*]}"
    fi
  done
done

# Not stopped, the same command replaces the output (so the comparisons above can tell).
"$vkprim" convert big.mtx out.mtx || fail "convert big.mtx out.mtx"
cmp -s out.mtx big.mtx || fail "convert big.mtx out.mtx did not replace out.mtx"
echo "signal checks passed"
