#!/usr/bin/env bash
# The main job: set up, build, then describe the chosen Vulkan device and prove it computes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh build
./build/tools/mote/mote info
./build/tools/mote/mote selftest
