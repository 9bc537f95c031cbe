#version 460
// Radix sort, step (a) of a digit pass: each workgroup counts the digits of its tile of
// kRadixTileSize keys and writes the counts digit-major, histograms[digit * tiles + tile], so
// that one exclusive scan of the whole array gives every (digit, tile) its first output position
// (the reduce-then-scan organisation of Merrill & Grimshaw, "High Performance and Scalable Radix
// Sorting", 2011, section 4; the scan is src/gpu/passes/prefix_scan.hpp).
#include "gpu/passes/radix_common.glsl"

layout(local_size_x = kRadixWorkgroupSize) in;
layout(std430, binding = 0) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 1) writeonly buffer Histograms { uint histograms[]; };
layout(std430, binding = 2) readonly buffer State { RadixSortState state; };

shared uint s_counts[kRadixDigits];

void main() {
  const uint n = min(state.count, uint(keys.length()));
  const uint tiles = state.tiles;
  const uint tile = tile_index();
  if (tile >= tiles) return;  // uniform over the workgroup: past the (GPU-decided) count
  const uint t = gl_LocalInvocationID.x;  // kRadixWorkgroupSize == kRadixDigits: one digit each
  s_counts[t] = 0u;
  barrier();
  // Every load first, then the counting: kRadixItemsPerThread loads in flight, not one.
  const uint base = tile * kRadixTileSize;
  uint digits[kRadixItemsPerThread];
  for (uint k = 0u; k < kRadixItemsPerThread; ++k) {
    const uint i = base + k * kRadixWorkgroupSize + t;
    digits[k] = i < n ? key_digit(keys[i]) : kRadixDigits;
  }
  for (uint k = 0u; k < kRadixItemsPerThread; ++k) {
    if (digits[k] < kRadixDigits) atomicAdd(s_counts[digits[k]], 1u);
  }
  barrier();
  const uint slot = t * tiles + tile;
  if (slot < uint(histograms.length())) histograms[slot] = s_counts[t];
}
