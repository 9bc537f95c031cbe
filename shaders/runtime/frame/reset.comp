#version 460
// First pass of a frame: last frame's alive list becomes this frame's input, the append
// counters start over, the spawn budget is seeded from the free count (so an emitter is only
// debited for particles the pool can hold), and the host's spawn commands land in their rows'
// PENDING (a replace-oldest burst's, kFrameReservedCommand, in its RESERVED). One dispatch covers both: thread 0 owns the counters, thread i < command_count owns
// command i, and the two touch different buffers.
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingStates) buffer State { FrameEmitterState states[]; };
layout(std430, binding = kFrameBindingCommands) readonly buffer Commands { uint commands[]; };  // [row, count] pairs

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i == 0u) {
    counters.alive_in = counters.alive_out;
    counters.walk_tiles = (min(counters.alive_out, params.capacity) + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize;
    counters.alive_out = 0u;
    // The replace-oldest bursts' slots are the host's reservation (docs/design/drivers.md,
    // "Pool-full policies"): no other spawn of the frame takes them.
    counters.budget = counters.free_count - min(counters.reserved, counters.free_count);
    counters.reserved = 0u;  // the host writes it again for each frame that reserves
    counters.newborns = 0u;
    counters.dropped = 0u;
    counters.killed = 0u;
    counters.orphaned = 0u;
    counters.prewarmed = 0u;
    counters.frames += 1u;
  }
  if (i < params.command_count) {
    uint row = commands[2u * i];
    uint reserved_row = row & ~kFrameReservedCommand;
    if (row < params.row_count) atomicAdd(states[row].pending, commands[2u * i + 1u]);
    else if (row != reserved_row && reserved_row < params.row_count)
      atomicAdd(states[reserved_row].reserved, commands[2u * i + 1u]);
  }
}
