#version 460
// Each tile's run of pairs in the sorted keys (the tile index is the key's high 16 bits): one
// invocation per kept pair; where the tile changes from the previous pair a run starts, where it
// changes to the next one it ends (3D Gaussian Splatting's identifyTileRanges, Kerbl et al. 2023).
// Tiles with no pair keep the empty range tile_setup cleared them to.
#include "render/tile_common.glsl"

layout(local_size_x = 256) in;  // kTileRangesWorkgroupSize

layout(std430, binding = 0) readonly buffer Counters { TileCounters counters; };
layout(std430, binding = 1) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 2) buffer Ranges { uvec2 ranges[]; };

void main() {
  const uint i = tile_flat_invocation(kTileRangesWorkgroupSize);
  const uint kept = counters.kept;
  if (i >= kept) return;
  const uint tile = keys[i] >> kTileDepthBits;
  if (tile >= params.tiles_x * params.tiles_y) return;  // never: tile_bin writes tiles on the screen
  if (i == 0u || (keys[i - 1u] >> kTileDepthBits) != tile) ranges[tile].x = i;
  if (i + 1u == kept || (keys[i + 1u] >> kTileDepthBits) != tile) ranges[tile].y = i + 1u;
}
