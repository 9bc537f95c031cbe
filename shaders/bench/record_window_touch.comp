#version 460
// bench/vm_gpu's memory-only references: per particle exactly the bytes a compiled kernel with
// a staged record window moves — the window loaded with 16-byte loads, the chunks the program
// writes stored back unchanged with 16-byte stores, the 4-byte kill flag written — and no
// arithmetic. What a kernel takes beyond this is its program's cost. Built two ways:
//   (default)          each invocation loads and stores its own record's chunks, as the
//                      compiled kernels do: one warp instruction touches 32 records' lines;
//   TOUCH_COALESCED=1  the workgroup moves its 64 records' windows through shared memory,
//                      consecutive lanes taking consecutive chunks of one record, so a warp
//                      instruction covers 8 records' windows contiguously;
//   TOUCH_OUT=1        per invocation as the default, but the chunks are stored to another
//                      buffer (binding 3) instead of in place: a ping-ponged pool's traffic.
#extension GL_EXT_control_flow_attributes : enable
#include "shared/vm_gpu.h"
#include "shared/vm_limits.h"

layout(local_size_x = 64) in;  // kVmWorkgroupSize

layout(std430, binding = 1) buffer RecordChunks { uvec4 record_chunks[]; };
layout(std430, binding = 2) writeonly buffer Killed { uint killed[]; };
// A uniform buffer: read-only by definition, so the compiler may keep what it loaded in
// registers across the records' stores (a storage buffer might alias them and be reloaded
// after each), and the loads are wave-uniform, through the constant cache.
layout(std140, binding = 4) uniform Params { VmRunParams params; };
#ifdef TOUCH_OUT
layout(std430, binding = 3) writeonly buffer RecordChunksOut { uvec4 record_chunks_out[]; };
#define TOUCH_STORE record_chunks_out
#else
#define TOUCH_STORE record_chunks
#endif

#ifdef TOUCH_COALESCED
shared uvec4 staged[kVmWorkgroupSize * kVmMaxWindowChunks];

void main() {
  uint count = min(params.count, params.record_capacity);
  uint chunks_per_record = params.record_words / 4u;
  uint last = count * chunks_per_record - 1u;
  uint w = min(params.window_chunks, kVmMaxWindowChunks);
  uint lid = gl_LocalInvocationID.x;
  for (uint group_first = gl_WorkGroupID.x * kVmWorkgroupSize; group_first < count;
       group_first += params.launch_lanes) {
    uint records = min(kVmWorkgroupSize, count - group_first);
    // Every load of the invocation goes out before any is waited for (a loop storing each chunk
    // before loading the next keeps one round trip in flight per invocation).
    uvec4 loaded[kVmMaxWindowChunks];
    [[unroll]] for (uint q = 0u; q < kVmMaxWindowChunks; ++q) {
      uint k = lid + q * kVmWorkgroupSize;
      if (k < records * w) {
        uint r = k / w, c = k - r * w;
        loaded[q] = record_chunks[min((group_first + r) * chunks_per_record + params.window_first_chunk + c, last)];
      }
    }
    [[unroll]] for (uint q = 0u; q < kVmMaxWindowChunks; ++q) {
      uint k = lid + q * kVmWorkgroupSize;
      if (k < records * w) staged[k] = loaded[q];
    }
    barrier();
    if (lid < records) killed[group_first + lid] = staged[lid * w].y >> 31u;
    for (uint k = lid; k < records * w; k += kVmWorkgroupSize) {
      uint r = k / w, c = k - r * w;
      if ((params.window_dirty_mask & (1u << c)) != 0u)
        record_chunks[min((group_first + r) * chunks_per_record + params.window_first_chunk + c, last)] = staged[k];
    }
    barrier();
  }
}
#else
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
        TOUCH_STORE[min(first + c, last)] = window[c];
    // The flag depends on the loaded words, as a program's KILL would.
    killed[i] = window[0].y >> 31u;
  }
}
#endif
