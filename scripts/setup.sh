#!/usr/bin/env bash
# Installs what Mote needs from Debian's packages (only what is missing), then configures and
# builds. Idempotent and non-interactive; both README commands call it.
#   scripts/setup.sh [build-dir] [cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers glslc spirv-tools
  libspirv-cross-c-shared-dev glslang-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libglm-dev libstb-dev libcli11-dev libfmt-dev libtinygltf-dev
  libgif-dev zlib1g-dev libxxhash-dev pkg-config doxygen python3-jsonschema
  libcpp-httplib-dev curl chromium
)
# mote edit's page is bundled by esbuild under node (editor/); a node installed otherwise (with
# its own npm) is used as it is.
command -v node > /dev/null || packages+=(nodejs)
command -v npm > /dev/null || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The editor's npm packages, exactly as editor/package-lock.json pins them (again only when the
# lockfile changed since the last install).
if ! cmp -s editor/package-lock.json editor/node_modules/.mote-installed-lock 2> /dev/null; then
  echo "setup: npm ci in editor/"
  (cd editor && npm ci --no-audit --no-fund --loglevel=error && cp package-lock.json node_modules/.mote-installed-lock)
fi

build_dir="${1:-build}"; shift || true
build_type="${MOTE_BUILD_TYPE:-Release}"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" "$@" > /dev/null
cmake --build "$build_dir" -j "$(nproc)"
