#version 460
// Copies the first `count` (key, value) pairs: a sort with an odd number of digit passes starts
// by moving the input into the scratch buffers so that its last pass lands in the caller's.
// Loads and stores are strided by the workgroup (coalesced); tiles past the count return.
#include "gpu/passes/radix_common.glsl"

layout(local_size_x = kRadixWorkgroupSize) in;
layout(std430, binding = 0) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = 1) readonly buffer ValuesIn { uint values_in[]; };
layout(std430, binding = 2) writeonly buffer KeysOut { uint keys_out[]; };
layout(std430, binding = 3) writeonly buffer ValuesOut { uint values_out[]; };
layout(std430, binding = 4) readonly buffer State { RadixSortState state; };

void main() {
  // Every buffer holds at least the count (checked when recorded); the min keeps it so on the GPU.
  const uint n = min(state.count, uint(min(min(keys_in.length(), values_in.length()),
                                           min(keys_out.length(), values_out.length()))));
  const uint base = tile_index() * kRadixTileSize;
  if (base >= n) return;
  for (uint k = 0u; k < kRadixItemsPerThread; ++k) {
    const uint i = base + k * kRadixWorkgroupSize + gl_LocalInvocationID.x;
    if (i < n) {
      keys_out[i] = keys_in[i];
      values_out[i] = values_in[i];
    }
  }
}
