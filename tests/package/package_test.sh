#!/usr/bin/env bash
# package_test.sh BUILD_DIR SOURCE_DIR CMAKE CXX LIBDIR [LAUNCHER]
# Installs Mote from BUILD_DIR to a temporary prefix, one component at a time, and consumes it
# from outside the tree: examples/ configured and built against find_package(mote), two of them
# run (the cooked effect on the runtime alone, with validation on, and the embedded runtime).
set -u
build="$1" src="$2" cmake="$3" cxx="$4" libdir="$5" launcher="${6:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
passes=0
failures=0
pass() { passes=$((passes + 1)); }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
run() {  # run NAME COMMAND...: passes when the command exits 0; shows its output's tail otherwise
  local name="$1"; shift
  if "$@" > "$work/out" 2>&1; then pass; else fail "$name (exit $?)"; tail -20 "$work/out" | sed 's/^/  /'; fi
}

for component in runtime tools; do
  run "install --component $component" "$cmake" --install "$build" --prefix "$prefix" --component "$component"
done
for f in "include/mote/particles.hpp" "include/mote/cooked_effect.hpp" "include/mote/version.hpp" \
         "$libdir/libmote_runtime.so" "$libdir/libmote_tools.so" "bin/mote" \
         "$libdir/cmake/mote/mote-config.cmake" "$libdir/cmake/mote/mote-config-version.cmake" \
         "$libdir/cmake/mote/mote-runtime-targets.cmake" "$libdir/cmake/mote/mote-tools-targets.cmake" \
         "$libdir/pkgconfig/mote.pc" "$libdir/pkgconfig/mote-runtime.pc" "share/mote/effects/fire.json"; do
  if [ -e "$prefix/$f" ]; then pass; else fail "installed file $f is missing"; fi
done

# The runtime library carries no effect compiler and no scene loader; the tools library does.
runtime_symbols=$(nm -DC --defined-only "$prefix/$libdir/libmote_runtime.so")
tools_symbols=$(nm -DC --defined-only "$prefix/$libdir/libmote_tools.so")
if grep -q "mote::compile_effect(" <<< "$runtime_symbols"; then fail "libmote_runtime.so defines compile_effect"; else pass; fi
if grep -q "mote::Scene::load_file(" <<< "$runtime_symbols"; then fail "libmote_runtime.so defines Scene::load_file"; else pass; fi
if grep -q "mote::compile_effect(" <<< "$tools_symbols"; then pass; else fail "libmote_tools.so lacks compile_effect"; fi
if grep -q "mote::load_cooked_effect(" <<< "$runtime_symbols"; then pass; else fail "libmote_runtime.so lacks load_cooked_effect"; fi
# No GLSL compiler in the runtime (docs/design/package.md, "Kernels without glslang"): not exported,
# and not inside either (the static symbol table), while the tools library has it.
if nm -C --defined-only "$prefix/$libdir/libmote_runtime.so" | grep -q -i "glslang"; then
  fail "libmote_runtime.so contains glslang"
else pass; fi
if nm -C --defined-only "$prefix/$libdir/libmote_tools.so" | grep -q "glslang::TShader"; then pass; else
  fail "libmote_tools.so lacks glslang (the kernel compiler)"; fi

# pkg-config sees the version and the libraries.
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
version=$(sed -n 's/^#define MOTE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$src/include/mote/version.hpp" | paste -sd.)
if [ "$(pkg-config --modversion mote 2>&1)" = "$version" ]; then pass; else fail "pkg-config --modversion mote is not $version"; fi
if pkg-config --libs mote | grep -q -- "-lmote_tools.*-lmote_runtime"; then pass; else fail "pkg-config --libs mote: $(pkg-config --libs mote 2>&1)"; fi

# examples/ against the package, out of tree.
launcher_arg=()
[ -n "$launcher" ] && launcher_arg=("-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher")
run "configure examples/ against find_package(mote)" "$cmake" -S "$src/examples" -B "$work/examples" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" "${launcher_arg[@]}" -DCMAKE_PREFIX_PATH="$prefix"
run "build examples/ out of tree" "$cmake" --build "$work/examples" -j 2
cooked="$work/examples/04-cooked-effect/fire.mfe"
if [ -s "$cooked" ]; then pass; else fail "the installed mote did not write fire.mfe"; fi
MOTE_VALIDATION=1 run "run example_cooked_effect (runtime only)" "$work/examples/04-cooked-effect/example_cooked_effect" "$cooked"
if grep -q -E "VUID|[Vv]alidation" "$work/out"; then fail "example_cooked_effect: a validation message"; grep -m3 -E "VUID|[Vv]alidation" "$work/out"; else pass; fi
grep -q "alive" "$work/out" && pass || fail "example_cooked_effect printed no alive count"
run "run example_embed_particles" "$work/examples/02-embed-particles/example_embed_particles"
if ldd "$work/examples/04-cooked-effect/example_cooked_effect" | grep -q libmote_tools; then
  fail "example_cooked_effect links libmote_tools.so"
else
  pass
fi

# What find_package refuses: a version this package is not compatible with, an unknown component.
probe() {  # probe NAME FIND_PACKAGE_ARGS: passes when configuring a project with them fails
  mkdir -p "$work/probe_$1"
  printf 'cmake_minimum_required(VERSION 3.25)\nproject(probe LANGUAGES CXX)\nfind_package(mote %s)\n' "$2" \
    > "$work/probe_$1/CMakeLists.txt"
  if "$cmake" -S "$work/probe_$1" -B "$work/probe_$1/build" -DCMAKE_PREFIX_PATH="$prefix" > "$work/out" 2>&1; then
    fail "find_package(mote $2) succeeded"
  else
    pass
  fi
}
probe version "99.0 REQUIRED"
probe component "REQUIRED COMPONENTS no_such_part"

echo "package: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
