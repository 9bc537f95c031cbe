#!/usr/bin/env bash
# The main job: set up, build, then render the bonfire scene (scenes/bonfire.json: four emitters
# over a ground with a few objects) headless to out/ on whatever Vulkan device is present —
# lavapipe (CPU) included. Writes out/frame_NNNN.png, out/contact_sheet.png and out/frames.gif
# (always), and out/frames.mp4 when ffmpeg is installed. Extra arguments go to `mote render`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh build
./build/tools/mote/mote info
./build/tools/mote/mote render scenes/bonfire.json --out out "$@"
