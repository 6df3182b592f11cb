#!/usr/bin/env bash
# Installs Debian's non-free nvidia-cuda-toolkit (nvcc 11.8, CUDA headers, libcuda.so to link
# against) when nvcc is missing. Adds "contrib non-free" to the existing Debian apt source first.
# Does nothing when nvcc is already on the PATH.
set -euo pipefail
if command -v nvcc >/dev/null 2>&1 && [ -f /usr/include/cuda.h ]; then
  echo "cuda-toolkit: already installed ($(nvcc --version | tail -1))"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
src=/etc/apt/sources.list.d/debian.sources
if [ -f "$src" ]; then
  # deb822 format: extend every "Components: main" line that lacks non-free.
  if ! grep -q 'non-free' "$src"; then
    $SUDO sed -i 's/^Components: main$/Components: main contrib non-free non-free-firmware/' "$src"
  fi
elif [ -f /etc/apt/sources.list ]; then
  if ! grep -q 'non-free' /etc/apt/sources.list; then
    $SUDO sed -i -E 's/^(deb .* main)$/\1 contrib non-free non-free-firmware/' /etc/apt/sources.list
  fi
else
  echo "cuda-toolkit: no Debian apt source found to extend" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit nvidia-cuda-dev >/dev/null
echo "cuda-toolkit: installed ($(nvcc --version | tail -1))"
