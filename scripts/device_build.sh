#!/usr/bin/env bash
# On the H200 machine (through the device tool, after ../shared/device/fetch.sh here):
#   source .device/install.sh && bash scripts/device_build.sh TARGET...
# Configures a Release build in build-gpu with the carried packages and builds the targets.
set -euo pipefail
cd "$(dirname "$0")/.."
export VK_LAYER_PATH=/opt/devdeps/usr/share/vulkan/explicit_layer.d
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DMOTE_TEST_SUBSYSTEMS="${MOTE_TEST_SUBSYSTEMS:-gpu}" \
  -DCMAKE_MAKE_PROGRAM="$(command -v ninja)" > build-gpu.configure.log 2>&1 || { cat build-gpu.configure.log; exit 1; }
cmake --build build-gpu -j "$(nproc)" --target "$@"
