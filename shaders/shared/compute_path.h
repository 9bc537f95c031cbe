// Layouts of the particle compute draw path (src/render/particle_compute_path.hpp,
// shaders/render/tile_*.comp), shared by C++ and GLSL: the push constants every pass takes, the
// path's own counters block (indirect dispatch arguments and the frame's pair counts), and the
// depth quantisation of the (tile, depth) sort keys.
#ifndef MOTE_SHADERS_SHARED_COMPUTE_PATH_H
#define MOTE_SHADERS_SHARED_COMPUTE_PATH_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// Screen tiles are kTileSize x kTileSize pixels; tile_blend runs one invocation per pixel of a
// tile, so its workgroup is kTileSize^2 = 256 invocations.
MOTE_CONSTANT(uint, kTileSize, 16u);
MOTE_CONSTANT(uint, kTileBlendWorkgroupSize, 256u);
// Sprites staged in shared memory per round of tile_blend: 104 bytes each (120 with vec3s padded),
// under 16 KiB for 128: Vulkan guarantees 16 KiB of compute shared memory.
MOTE_CONSTANT(uint, kTileBlendBatch, 128u);
// tile_bin and tile_ranges: one invocation per particle / per sorted pair.
MOTE_CONSTANT(uint, kTileBinWorkgroupSize, 64u);
MOTE_CONSTANT(uint, kTileRangesWorkgroupSize, 256u);
MOTE_CONSTANT(uint, kTileSetupWorkgroupSize, 256u);
// Indirect dispatches wider than Vulkan's guaranteed maxComputeWorkGroupCount[0] are split over y.
MOTE_CONSTANT(uint, kTileMaxGroupsX, 65535u);

// The key's low 16 bits: the centre's view depth d (metres along -Z), nearest first, on a log
// scale: q = 65535 * clamp(log2(d / near) / kTileDepthOctaves, 0, 1). 24 octaves from the near
// plane (0.1 m -> 1,700 km) at 2,730 steps an octave: two centres 0.026 % apart in depth get
// different keys (2.6 mm at 10 m), where reversed-Z's near / d would lose a metre at 100 m.
MOTE_CONSTANT(uint, kTileDepthBits, 16u);
MOTE_CONSTANT(float, kTileDepthOctaves, 24.0f);

// TilePathParams::mode
MOTE_CONSTANT(uint, kTileSetupClamp, 0u);  // tile_setup: clear the ranges, clamp the alive count, bin args
MOTE_CONSTANT(uint, kTileSetupPairs, 1u);  // tile_setup: pair totals from the scan, ranges args
MOTE_CONSTANT(uint, kTileBinCount, 0u);    // tile_bin: each particle's tile rectangle and depth key
MOTE_CONSTANT(uint, kTileBinEmit, 1u);     // tile_bin: write its (tile, depth) keys at its scanned offset

// Push constants of every render/tile_* shader.
struct TilePathParams {
  uint width;  // colour target, pixels
  uint height;
  uint tiles_x;  // ceil(width / kTileSize)
  uint tiles_y;
  uint capacity;          // the pool's slots (alive-list entries are clamped below it)
  uint max_particles;     // the path's per-particle scratch (the alive count is clamped to it too)
  uint record_words;      // u32 words per pool record
  uint record_count;      // ParticleDrawRecord rows
  uint alive_count_word;  // the alive count's word in the runtime's counters block
  uint max_pairs;         // the key / value buffers' capacity
  uint mode;              // kTileSetup* / kTileBin*
  uint pad0;
};
MOTE_ASSERT_SIZE(TilePathParams, 48);
MOTE_ASSERT_OFFSET(TilePathParams, width, 0);
MOTE_ASSERT_OFFSET(TilePathParams, height, 4);
MOTE_ASSERT_OFFSET(TilePathParams, tiles_x, 8);
MOTE_ASSERT_OFFSET(TilePathParams, tiles_y, 12);
MOTE_ASSERT_OFFSET(TilePathParams, capacity, 16);
MOTE_ASSERT_OFFSET(TilePathParams, max_particles, 20);
MOTE_ASSERT_OFFSET(TilePathParams, record_words, 24);
MOTE_ASSERT_OFFSET(TilePathParams, record_count, 28);
MOTE_ASSERT_OFFSET(TilePathParams, alive_count_word, 32);
MOTE_ASSERT_OFFSET(TilePathParams, max_pairs, 36);
MOTE_ASSERT_OFFSET(TilePathParams, mode, 40);
MOTE_ASSERT_OFFSET(TilePathParams, pad0, 44);

// The path's counters, rewritten every frame by tile_setup (never cleared by the host). The
// dispatch triples are VkDispatchIndirectCommand at byte offsets 0 and 16.
struct TileCounters {
  uint bin_groups_x;  // tile_bin: ceil(alive / kTileBinWorkgroupSize), split over y
  uint bin_groups_y;
  uint bin_groups_z;
  uint alive;            // min(the alive count, capacity, max_particles): the particles binned
  uint ranges_groups_x;  // tile_ranges: ceil(kept / kTileRangesWorkgroupSize), split over y
  uint ranges_groups_y;
  uint ranges_groups_z;
  uint kept;     // min(pairs, max_pairs): the pairs written, sorted and blended
  uint pairs;    // every (tile, particle) pair the binning asked for
  uint dropped;  // pairs - kept
  uint pad0;
  uint pad1;
};
MOTE_ASSERT_SIZE(TileCounters, 48);
MOTE_ASSERT_OFFSET(TileCounters, bin_groups_x, 0);
MOTE_ASSERT_OFFSET(TileCounters, bin_groups_y, 4);
MOTE_ASSERT_OFFSET(TileCounters, bin_groups_z, 8);
MOTE_ASSERT_OFFSET(TileCounters, alive, 12);
MOTE_ASSERT_OFFSET(TileCounters, ranges_groups_x, 16);
MOTE_ASSERT_OFFSET(TileCounters, ranges_groups_y, 20);
MOTE_ASSERT_OFFSET(TileCounters, ranges_groups_z, 24);
MOTE_ASSERT_OFFSET(TileCounters, kept, 28);
MOTE_ASSERT_OFFSET(TileCounters, pairs, 32);
MOTE_ASSERT_OFFSET(TileCounters, dropped, 36);
MOTE_ASSERT_OFFSET(TileCounters, pad0, 40);
MOTE_ASSERT_OFFSET(TileCounters, pad1, 44);

// What tile_bin's count mode keeps per particle for its emit mode: the covered tiles as an
// inclusive rectangle (x | y << 16 for the first and last tile) and the depth key; `tiles` is
// its area (0: not drawn), also written to the counts the scan turns into offsets.
struct TileParticleBin {
  uint first_tile;  // x0 | y0 << 16
  uint last_tile;   // x1 | y1 << 16 (inclusive)
  uint depth_key;   // 16-bit quantised depth, nearest first
  uint tiles;       // (x1 - x0 + 1) * (y1 - y0 + 1), or 0
};
MOTE_ASSERT_SIZE(TileParticleBin, 16);
MOTE_ASSERT_OFFSET(TileParticleBin, first_tile, 0);
MOTE_ASSERT_OFFSET(TileParticleBin, last_tile, 4);
MOTE_ASSERT_OFFSET(TileParticleBin, depth_key, 8);
MOTE_ASSERT_OFFSET(TileParticleBin, tiles, 12);

MOTE_SHARED_END
#endif
