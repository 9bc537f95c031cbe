// The GPU frame's buffers, made once with the system (docs/design/runtime_frame.md, "Storage"):
// one pool of uniform-stride records, the free-slot stack, two alive lists swapped per frame, the
// counters block that carries the indirect arguments, the emitter table and the GPU-owned
// emitter state, the declared bursts, the tick's per-row counts and their scan, the host's spawn
// commands, the frame's parameters, simulate's keep flags, and the wide interpreter's register
// file (made with the first program that needs it). Each is bound under its shared/frame.h
// kFrameBinding* slot.
#pragma once

#include <cstdint>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/passes/prefix_scan.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_options.hpp"

namespace mote::runtime {

inline constexpr VkBufferUsageFlags kFrameStorageUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                         VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                         VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// A device-local buffer of at least 16 bytes (Vulkan forbids empty ones).
Result<gpu::Buffer> make_frame_buffer(gpu::Device& device, VkDeviceSize bytes, VkBufferUsageFlags usage,
                                      const char* name);

struct FrameBuffers {
  // Allocates every buffer for `options` (validated by the caller) and zero-fills the pool, the
  // emitter state and table and the bursts: a free slot's header and a free row's generation
  // are 0. The free list and counters are filled by InitPass.
  static Result<FrameBuffers> create(gpu::Device& device, const ParticleSystemOptions& options);

  // The wide interpreter's register file, kVmMaxRegisters slots per lane (`bytes`), made once.
  Status ensure_wide_registers(gpu::Device& device, VkDeviceSize bytes);

  // The alive list frame `frame` writes, and the one it walks (the other one).
  const gpu::Buffer& alive_out(uint32_t frame) const { return alive[frame & 1u]; }
  const gpu::Buffer& alive_in(uint32_t frame) const { return alive[(frame + 1u) & 1u]; }

  gpu::Buffer pool;
  gpu::Buffer free_list;
  gpu::Buffer alive[2];
  gpu::Buffer counters;
  gpu::Buffer emitters;  // shader::EmitterRecord per row (the registry's table)
  gpu::Buffer states;    // shader::FrameEmitterState per row
  gpu::Buffer bursts;    // shader::FrameBurst, kFrameMaxBursts per row (host-written with the rows)
  gpu::Buffer spawn_counts;
  gpu::Buffer spawn_sums;
  gpu::Buffer spawn_places;  // per row: its place in the spawn order (host-written, SpawnOrder)
  gpu::Buffer spawn_rows;    // per place: its row (host-written)
  gpu::Buffer spawn_ranges;  // shader::FrameSpawnRange per program id (places host-, runs GPU-written)
  gpu::Buffer commands;
  gpu::Buffer params;
  gpu::Buffer keep;                 // survivor counts and masks per tile of last frame's list
  gpu::Buffer bounds_accumulators;  // kFrameBoundsAccumulatorWords per row (zero between frames)
  gpu::Buffer emitter_bounds;       // shader::FrameEmitterBounds per row, published each frame
  gpu::Buffer no_transforms;        // bound as the channels when no table is set (never read)
  gpu::Buffer wide_registers;
  gpu::PrefixScan spawn_scan;  // the tick's counts, max_emitters long
  gpu::PrefixScan keep_scan;   // the keep flags' tile counts, in place
};

}  // namespace mote::runtime
