#!/usr/bin/env bash
# Rewrites the golden outputs after an intended change, then leaves the review to you: look at
# `git diff --stat`, open the changed pictures, and commit only what you meant to change.
#
#   scripts/rebaseline_goldens.sh [BUILD_DIR] [SUITE...]      SUITE: graph, render (default: both)
#
#   graph   tests/graph/golden/*.masm — each .json document's disassembly (test_graph,
#           Golden.*), and tests/graph/golden/modules/*.json — each module's expansion
#           (ModuleGolden.*).
#   render  tests/render/golden/*.png — the scene renderer's pictures (test_render_scene,
#           Scenes/GoldenTest.*: every scene in scenes/ and tests/render/scenes/ at 160 x 90, raster
#           OIT, and some on the compute and sorted raster paths). Rendered on the device the build
#           chooses (MOTE_DEVICE; lavapipe on a machine without a GPU — the goldens in the tree
#           come from lavapipe, and other drivers are held to them only within the test's
#           tolerance, so rebaseline on lavapipe). Validation stays on: a validation message fails
#           the run and nothing is trusted from it.
#
# Both tests write instead of compare when MOTE_REBASELINE_GOLDENS=1 is set; this script builds
# the test targets in BUILD_DIR (default: build, as scripts/test.sh makes it) and runs only the
# golden tests that way. A suite whose test target is not configured in BUILD_DIR is an error
# (configure it with -DMOTE_TEST_SUBSYSTEMS including that folder).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
shift || true
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(graph render)

for suite in "${suites[@]}"; do
  case "$suite" in
    graph)
      ninja -C "$build" test_graph
      MOTE_REBASELINE_GOLDENS=1 "$build/tests/graph/test_graph" --gtest_filter='Golden.*:ModuleGolden.*'
      ;;
    render)
      ninja -C "$build" test_render_scene
      MOTE_REBASELINE_GOLDENS=1 "$build/tests/render/test_render_scene" --gtest_filter='Scenes/GoldenTest.*'
      ;;
    *)
      echo "rebaseline_goldens.sh: unknown suite '$suite' (graph or render)" >&2
      exit 2
      ;;
  esac
done
echo "goldens rewritten; review: git -C '$root' status --short -- tests/graph/golden tests/render/golden"
