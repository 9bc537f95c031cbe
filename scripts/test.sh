#!/usr/bin/env bash
# The tests: set up, build (warnings as errors), run the whole suite on the chosen Vulkan device
# (lavapipe on a machine without a GPU) with validation layers on.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh build -DMOTE_WERROR=ON
cd build
ctest --output-on-failure -j "$(nproc)" --timeout 1500
