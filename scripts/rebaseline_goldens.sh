#!/usr/bin/env bash
# Rewrites tests/graph/golden/*.masm from their .json documents (the golden test writes each
# disassembly when MOTE_REBASELINE_GOLDENS=1). Run after an intended compiler change and review
# the diff before committing. Usage: scripts/rebaseline_goldens.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build-graph}"
ninja -C "$build" test_graph
MOTE_REBASELINE_GOLDENS=1 "$build/tests/graph/test_graph" --gtest_filter='Golden.*'
