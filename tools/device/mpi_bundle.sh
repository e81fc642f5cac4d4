#!/usr/bin/env bash
# Debian's Open MPI under a private prefix, for the GPU machine, which has no MPI: the packages
# that orterun, its plugins, PMIx's plugins and vkprim-mpi need, unpacked (dpkg -x) into one
# folder with an env.sh that points Open MPI (OPAL_PREFIX) and PMIx at it.
#   Here:  bash tools/device/mpi_bundle.sh .device/mpi.tar.xz     (needs the Debian mirror)
#          xz -k build-release/vkprim-mpi -> .device/bin/, beside vkprim's .device/lib
#   There: mkdir -p /tmp/ompi && tar xJf .device/mpi.tar.xz -C /tmp/ompi && source /tmp/ompi/env.sh
#          export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/.device/lib
#          orterun -np 2 --allow-run-as-root --bind-to none .device/bin/vkprim-mpi spmv poisson3d:512
#          (ranks take the GPUs by node-local rank; the Debian packages leave `mpirun` to
#          update-alternatives, so the launcher is orterun)
set -euo pipefail
out=$(realpath -m "${1:?usage: mpi_bundle.sh OUT.tar.xz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
binary=${VKPRIM_MPI:-build-release/vkprim-mpi}
ml=/usr/lib/x86_64-linux-gnu
# The packages that own every library the launcher, the plugins and vkprim-mpi load.
ldd /usr/bin/orterun "$binary" $ml/openmpi/lib/openmpi3/*.so $ml/pmix2/lib/pmix/*.so 2>/dev/null |
  awk '/=>/ {print $3}' | sort -u | xargs -r readlink -f | xargs -r dpkg -S 2>/dev/null |
  cut -d: -f1 | sort -u | grep -v -E '^(libc6|libstdc\+\+6|libgcc-s1)$' > "$work/packages" || true
printf '%s\n' openmpi-bin libopenmpi3 openmpi-common libpmix2 libnl-3-200 zlib1g >> "$work/packages"
mkdir -p "$work/debs" "$work/bundle/root"
(cd "$work/debs" && apt-get download $(sort -u "$work/packages"))
for f in "$work"/debs/*.deb; do dpkg -x "$f" "$work/bundle/root"; done
cat > "$work/bundle/env.sh" <<'ENV'
# Source me: Open MPI and PMIx from this folder's root/ instead of their configured /usr.
P=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/root
export OPAL_PREFIX=$P/usr PMIX_INSTALL_PREFIX=$P/usr/lib/x86_64-linux-gnu/pmix2
export PMIX_MCA_mca_base_component_path=$P/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
export PATH=$P/usr/bin:$PATH
export LD_LIBRARY_PATH=$P/usr/lib/x86_64-linux-gnu:$P/lib/x86_64-linux-gnu:$P/usr/lib/x86_64-linux-gnu/openmpi/lib:$P/usr/lib/x86_64-linux-gnu/pmix2/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ENV
tar cJf "$out.tmp" -C "$work/bundle" root env.sh
mv "$out.tmp" "$out"
echo "wrote $out ($(du -h "$out" | cut -f1))"
