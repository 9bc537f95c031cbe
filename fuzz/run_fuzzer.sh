#!/usr/bin/env bash
# Runs one libFuzzer target from its seed corpus for the given options, keeping what it finds in
# WORK_DIR (new inputs in WORK_DIR/corpus, crashes in WORK_DIR/artifacts), never in the source
# tree. Exits with the fuzzer's status: 0 when no input crashed, leaked or timed out.
#   run_fuzzer.sh FUZZER SEED_DIR WORK_DIR [libFuzzer options...]
set -euo pipefail
fuzzer="$1" seeds="$2" work="$3"
shift 3
mkdir -p "$work/corpus" "$work/artifacts"
# -seed fixes the mutation sequence: a CI run is repeatable. Leak checking stays on.
exec "$fuzzer" -seed=1 -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" "$seeds"
