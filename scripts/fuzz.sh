#!/usr/bin/env bash
# libFuzzer over every decoder of untrusted input (fuzz/, docs/design/reliability.md). Configures
# build-fuzz with clang, MOTE_FUZZ=ON and MOTE_SANITIZE=address,undefined (installing clang and
# libFuzzer from Debian when missing), builds the fuzz_* targets, then:
#   scripts/fuzz.sh                     runs the CTest label `fuzz`: each target a fixed number of
#                                       executions from its seeds (MOTE_FUZZ_RUNS, default 20000)
#   scripts/fuzz.sh --long TARGET ARGS  runs one target for a long campaign with libFuzzer's ARGS
#                                       (e.g. -runs=10000000, -max_total_time=3600, -jobs=2), its
#                                       corpus kept in build-fuzz/fuzz/long/TARGET
# BUILD_DIR (default build-fuzz) and JOBS (default: the core count) choose the folder and the
# parallelism.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang libclang-rt-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "fuzz: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

build_dir="${BUILD_DIR:-build-fuzz}"
jobs="${JOBS:-$(nproc)}"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DMOTE_FUZZ=ON -DMOTE_SANITIZE=address,undefined -DMOTE_BUILD_TESTS=OFF -DMOTE_BUILD_BENCH=OFF \
  -DMOTE_BUILD_EXAMPLES=OFF ${MOTE_FUZZ_RUNS:+-DMOTE_FUZZ_RUNS=$MOTE_FUZZ_RUNS} "${launcher[@]}" > /dev/null
targets=(fuzz_mfx fuzz_masm fuzz_effect fuzz_scene fuzz_image fuzz_gltf fuzz_cooked fuzz_vector_field)

# A leak or a report from the sanitizers fails the input; UBSan stops at its first report.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

if [ "${1:-}" = "--long" ]; then
  target="${2:?--long needs a target: ${targets[*]}}"
  shift 2
  cmake --build "$build_dir" -j "$jobs" --target "$target"
  dict=()
  [ -f "fuzz/dict/${target#fuzz_}.dict" ] && dict=(-dict="fuzz/dict/${target#fuzz_}.dict")
  work="$build_dir/fuzz/long/$target"
  exec bash fuzz/run_fuzzer.sh "$build_dir/fuzz/$target" "fuzz/corpus/$target" "$work" "${dict[@]}" "$@"
fi
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}"
cd "$build_dir"
ctest -L fuzz -j "$jobs" --output-on-failure
