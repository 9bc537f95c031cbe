#!/usr/bin/env bash
# subproject_test.sh SOURCE_DIR CMAKE: Mote added to a parent project with add_subdirectory is a
# good guest — configured (not built) inside a parent that links mote::runtime and mote::tools:
# the mote:: targets and mote::cli exist, Mote's tests, benchmarks, examples and install rules
# stay off, and the parent's build type is left as the parent set it (empty).
set -u
src="$1" cmake="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passes=0
failures=0
expect() { if eval "$1"; then passes=$((passes + 1)); else echo "FAIL $2"; failures=$((failures + 1)); fi; }
mkdir -p "$work/parent"
cat > "$work/parent/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(parent LANGUAGES CXX)
enable_testing()
add_subdirectory("$src" mote)
foreach(target mote::runtime mote::tools mote::cli)
  if(NOT TARGET \${target})
    message(FATAL_ERROR "no \${target}")
  endif()
endforeach()
file(WRITE "\${CMAKE_BINARY_DIR}/parent_saw.txt" "build_type=[\${CMAKE_BUILD_TYPE}] tests=[\${MOTE_BUILD_TESTS}] bench=[\${MOTE_BUILD_BENCH}] examples=[\${MOTE_BUILD_EXAMPLES}] install=[\${MOTE_INSTALL}]")
add_executable(game main.cpp)
target_link_libraries(game PRIVATE mote::runtime)
CMAKE
echo 'int main() { return 0; }' > "$work/parent/main.cpp"
if "$cmake" -S "$work/parent" -B "$work/build" -G Ninja > "$work/out" 2>&1; then
  passes=$((passes + 1))
else
  echo "FAIL configuring a parent that adds Mote"; tail -20 "$work/out"; failures=$((failures + 1))
fi
saw=$(cat "$work/build/parent_saw.txt" 2>/dev/null)
expect '[ "$saw" = "build_type=[] tests=[OFF] bench=[OFF] examples=[OFF] install=[OFF]" ]' "the parent saw: $saw"
(cd "$work/build" && "${cmake%cmake}ctest" -N > "$work/tests" 2>&1)
expect 'grep -q "Total Tests: 0" "$work/tests"' "Mote registered tests in its parent: $(tail -1 "$work/tests")"
expect '[ ! -e "$work/build/mote/cmake_install.cmake" ] || ! grep -q "mote-config.cmake" "$work/build/mote/cmake_install.cmake"' "Mote installs its package from inside a parent"
echo "subproject: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
