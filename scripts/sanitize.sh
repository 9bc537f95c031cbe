#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer over the test suites (docs/design/reliability.md).
# Configures BUILD_DIR (default build-asan) with MOTE_SANITIZE=address,undefined, builds the test
# binaries it runs, and runs them; any sanitizer report fails its test.
#   scripts/sanitize.sh          the CPU suites (no Vulkan device needed)
#   scripts/sanitize.sh --gpu    every suite, the GPU ones on the chosen Vulkan device (lavapipe
#                                here) with the validation layer on, through ctest
# JOBS (default: the core count) sets the build's and ctest's parallelism; extra arguments go to
# ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

gpu=0
if [ "${1:-}" = "--gpu" ]; then
  gpu=1
  shift
fi
build_dir="${BUILD_DIR:-build-asan}"
jobs="${JOBS:-$(nproc)}"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# RelWithDebInfo: optimised enough for the suites' timeouts, with line numbers in reports.
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOTE_WERROR=ON \
  -DMOTE_SANITIZE=address,undefined -DMOTE_BUILD_BENCH=OFF "${launcher[@]}" > /dev/null

# Leaks are errors in Mote's code; the Vulkan loader, Mesa's lavapipe and the validation layer
# keep allocations to process exit, which scripts/sanitizers/lsan.supp names.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

# The suites that need no Vulkan device, by test binary (the CTest names they register).
cpu_binaries=(core/test_core isa/test_isa vm/test_vm graph/test_graph sim/test_sim scene/test_scene
              assets/test_assets runtime/bookkeeping/test_runtime_bookkeeping reliability/test_reliability
              reliability/test_reliability_alloc)
if [ "$gpu" -eq 0 ]; then
  targets=()
  for b in "${cpu_binaries[@]}"; do targets+=("$(basename "$b")"); done
  cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}"
  cd "$build_dir"
  # Exactly the tests those binaries registered, plus the layout check.
  regex=$(for b in "${cpu_binaries[@]}"; do
    grep -o '^add_test(\[=\[[^]]*' "tests/${b}[1]_tests.cmake" | cut -c13-
  done | sed 's/[][\\.^$*+?(){}|]/\\&/g' | paste -sd'|')
  exec ctest -j "$jobs" --output-on-failure --timeout 1500 -R "^(${regex}|layout\..*)$" "$@"
fi
cmake --build "$build_dir" -j "$jobs"
cd "$build_dir"
exec ctest -j "$jobs" --output-on-failure --timeout 3000 "$@"
