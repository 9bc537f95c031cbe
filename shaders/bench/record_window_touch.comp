#version 460
// bench/vm_gpu's memory-only reference ("touch"): per particle exactly the bytes a compiled
// kernel with a staged record window moves — the window loaded with 16-byte loads, the chunks
// the program writes stored back unchanged with 16-byte stores, the 4-byte kill flag written —
// and no arithmetic. What a kernel takes beyond this is its program's cost; this itself is what
// the record layout allows the memory system to do (a contiguous copy is the roofline).
#extension GL_EXT_control_flow_attributes : enable
#include "shared/vm_gpu.h"
#include "shared/vm_limits.h"

layout(local_size_x = 64) in;  // kVmWorkgroupSize

layout(std430, binding = 1) buffer RecordChunks { uvec4 record_chunks[]; };
layout(std430, binding = 2) writeonly buffer Killed { uint killed[]; };
layout(std430, binding = 4) readonly buffer Params { VmRunParams params; };

void main() {
  uint count = min(params.count, params.record_capacity);
  uint chunks_per_record = params.record_words / 4u;
  uint last = count * chunks_per_record - 1u;
  for (uint i = gl_GlobalInvocationID.x; i < count; i += params.launch_lanes) {
    uint first = i * chunks_per_record + params.window_first_chunk;
    uvec4 window[kVmMaxWindowChunks];
    [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c)
      if (c < params.window_chunks) window[c] = record_chunks[min(first + c, last)];
    [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c)
      if (c < params.window_chunks && (params.window_dirty_mask & (1u << c)) != 0u)
        record_chunks[min(first + c, last)] = window[c];
    // The flag depends on the loaded words, as a program's KILL would.
    killed[i] = window[0].y >> 31u;
  }
}
