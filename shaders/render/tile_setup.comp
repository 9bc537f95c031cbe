#version 460
// The compute draw path's bookkeeping, two small passes that keep every count on the GPU:
//   kTileSetupClamp (ceil(tiles / 256) workgroups, before binning): clears every tile's range
//     to empty, and its first invocation clamps the runtime's alive count to the pool's
//     capacity and the path's scratch and writes tile_bin's indirect dispatch.
//   kTileSetupPairs (one invocation, after the scan of the per-particle tile counts): the
//     frame's pair total (the last particle's offset plus its count), the pairs kept under
//     max_pairs, the dropped rest, and tile_ranges' indirect dispatch.
#include "render/tile_common.glsl"

layout(local_size_x = 256) in;  // kTileSetupWorkgroupSize

layout(std430, binding = 0) readonly buffer RuntimeCounters { uint runtime_counters[]; };
layout(std430, binding = 1) buffer Counters { TileCounters counters; };
layout(std430, binding = 2) writeonly buffer Ranges { uvec2 ranges[]; };
layout(std430, binding = 3) readonly buffer Bins { TileParticleBin bins[]; };
layout(std430, binding = 4) readonly buffer Offsets { uint offsets[]; };

void main() {
  const uint i = tile_flat_invocation(kTileSetupWorkgroupSize);
  if (params.mode == kTileSetupClamp) {
    if (i < params.tiles_x * params.tiles_y) ranges[i] = uvec2(0u);
    if (i != 0u) return;
    uint n = params.alive_count_word < uint(runtime_counters.length()) ? runtime_counters[params.alive_count_word] : 0u;
    n = min(n, min(params.capacity, params.max_particles));
    const uvec3 groups = tile_dispatch_groups((n + kTileBinWorkgroupSize - 1u) / kTileBinWorkgroupSize);
    counters.bin_groups_x = groups.x;
    counters.bin_groups_y = groups.y;
    counters.bin_groups_z = groups.z;
    counters.alive = n;
    counters.ranges_groups_x = 0u;
    counters.ranges_groups_y = 0u;
    counters.ranges_groups_z = 1u;
    counters.kept = 0u;
    counters.pairs = 0u;
    counters.dropped = 0u;
    counters.pad0 = 0u;
    counters.pad1 = 0u;
    return;
  }
  // kTileSetupPairs
  if (i != 0u) return;
  const uint n = counters.alive;
  // The scan is exclusive and in place: the last particle's offset plus its own tile count.
  const uint pairs = n == 0u ? 0u : offsets[n - 1u] + bins[n - 1u].tiles;
  const uint kept = min(pairs, params.max_pairs);
  const uvec3 groups = tile_dispatch_groups((kept + kTileRangesWorkgroupSize - 1u) / kTileRangesWorkgroupSize);
  counters.ranges_groups_x = groups.x;
  counters.ranges_groups_y = groups.y;
  counters.ranges_groups_z = groups.z;
  counters.kept = kept;
  counters.pairs = pairs;
  counters.dropped = pairs - kept;
}
