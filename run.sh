#!/usr/bin/env bash
# vkprim quick start on Debian 12 (lavapipe when there is no GPU):
#   ./run.sh demo   install what is missing, build, list devices, run the main job (SpMV: a CSR
#                   built on the GPU from triplets, y = A x, checked against Eigen) and a bench
#   ./run.sh test   install what is missing, build, run the whole test suite
set -euo pipefail
cd "$(dirname "$0")"
BUILD=${VKPRIM_BUILD_DIR:-build-release}

install_missing() {
  local pkgs missing=()
  pkgs=$(grep -v '^\s*#' .ci/debian-packages | grep -v '^\s*$')
  for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "run.sh: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
  fi
}

build() {
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release
  cmake --build "$BUILD"
}

case "${1:-}" in
  demo)
    install_missing
    build
    "$BUILD/vkprim" devices
    "$BUILD/vkprim" spmv --generate poisson2d:256 --generate powerlaw:20000 --runs 10
    "$BUILD/vkprim" bench copy scan reduce -n 2^22 --runs 10
    ;;
  test)
    install_missing
    build
    ctest --test-dir "$BUILD" --output-on-failure -j "$(nproc)"
    ;;
  *)
    echo "usage: $0 demo|test" >&2
    exit 2
    ;;
esac
