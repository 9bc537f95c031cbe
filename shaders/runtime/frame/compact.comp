#version 460
// After simulate: places last frame's survivors in this frame's alive list, after the newborns
// emit appended, in the order of last frame's list. The keep buffer (shared/frame.h,
// kFrameKeepWordsPerTile) holds, per tile of 64 entries, the inclusive scan of simulate's tile
// survivor counts (PrefixScan, in place) and the tile's survivor bits: entry t survives when its
// bit is set, and goes to newborns + (the survivors before it: the sum of the tiles before its
// own, and the bits below its own in its tile). An order-preserving compaction: atomics would
// order survivors by which subgroup got there first, and a list reshuffled every frame makes the
// next simulate visit records in scattered order (docs/PERFORMANCE.md). The other entries'
// slots — freed by simulate — go on top of the free list, the first freed on top, so the next
// frame's newborns (which take the stack from the top, frame_emit_args.comp) get them in the
// order they died in, and the order the list holds survives births and deaths. (An entry that
// held no slot of the pool is passed on as it is; emit never writes through one.) One
// invocation per entry, dispatched with simulate's indirect arguments; frame_finish adds the
// survivors and the freed to the counts.
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) readonly buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingKeep) readonly buffer Keep { uint keep_words[]; };
layout(std430, binding = kFrameBindingAliveIn) readonly buffer AliveIn { uint alive_in[]; };
layout(std430, binding = kFrameBindingAliveOut) writeonly buffer AliveOut { uint alive_out[]; };
layout(std430, binding = kFrameBindingFreeList) writeonly buffer FreeList { uint free_list[]; };

void main() {
  uint n = min(counters.alive_in, params.capacity);
  uint tiles = (params.capacity + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize;
  uint base = counters.alive_out;  // emit's newborns; frame_finish adds the survivors after this pass
  uint stack = counters.free_count;  // after emit's pops; frame_finish adds the freed after this pass
  // The scan covered the walked tiles only (counters.walk_tiles = ceil(n / 64)): nothing past
  // them was cleared or counted this frame.
  uint kept = n == 0u ? 0u : min(keep_words[min(counters.walk_tiles, tiles) - 1u], n);
  uint freed = n - kept;
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  for (uint t = gl_GlobalInvocationID.x; t < n; t += stride) {
    uint tile = t / kFrameWorkgroupSize;
    uint lane = t % kFrameWorkgroupSize;
    uint low = keep_words[tiles + 2u * tile];
    uint word = lane < 32u ? low : keep_words[tiles + 2u * tile + 1u];
    uint below = bitCount(word & ((1u << (lane & 31u)) - 1u)) + (lane < 32u ? 0u : bitCount(low));
    uint before = (tile == 0u ? 0u : keep_words[tile - 1u]) + below;  // survivors before entry t
    if (((word >> (lane & 31u)) & 1u) != 0u) {
      alive_out[min(base + before, params.capacity - 1u)] = alive_in[t];
    } else {
      uint freed_before = t - before;  // entries before t that were not kept
      free_list[min(stack + freed - 1u - freed_before, params.capacity - 1u)] = alive_in[t];
    }
  }
}
