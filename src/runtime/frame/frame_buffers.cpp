#include "runtime/frame/frame_buffers.hpp"

#include "shared/transform.h"

#include <algorithm>

namespace mote::runtime {

using shader::EmitterRecord;
using shader::FrameBurst;
using shader::FrameCounters;
using shader::FrameEmitterState;
using shader::FrameParams;

Result<gpu::Buffer> make_frame_buffer(gpu::Device& device, VkDeviceSize bytes, VkBufferUsageFlags usage,
                                      const char* name) {
  return gpu::Buffer::create(device, {.size = std::max<VkDeviceSize>(bytes, 16),
                                      .usage = usage,
                                      .memory = gpu::MemoryUsage::kDeviceLocal,
                                      .name = name});
}

Result<FrameBuffers> FrameBuffers::create(gpu::Device& device, const ParticleSystemOptions& options) {
  FrameBuffers b;
  const VkDeviceSize pool_bytes = VkDeviceSize(options.capacity) * options.record_words * 4;
  const VkDeviceSize slot_bytes = VkDeviceSize(options.capacity) * 4;
  const VkDeviceSize rows = options.max_emitters;
  MOTE_TRY_ASSIGN(b.pool, make_frame_buffer(device, pool_bytes, kFrameStorageUsage, "mote.frame.pool"));
  MOTE_TRY_ASSIGN(b.free_list, make_frame_buffer(device, slot_bytes, kFrameStorageUsage, "mote.frame.free_list"));
  MOTE_TRY_ASSIGN(b.alive[0], make_frame_buffer(device, slot_bytes, kFrameStorageUsage, "mote.frame.alive0"));
  MOTE_TRY_ASSIGN(b.alive[1], make_frame_buffer(device, slot_bytes, kFrameStorageUsage, "mote.frame.alive1"));
  MOTE_TRY_ASSIGN(b.counters,
                  make_frame_buffer(device, sizeof(FrameCounters),
                                    kFrameStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "mote.frame.counters"));
  MOTE_TRY_ASSIGN(b.emitters,
                  make_frame_buffer(device, rows * sizeof(EmitterRecord), kFrameStorageUsage, "mote.frame.emitters"));
  MOTE_TRY_ASSIGN(b.states, make_frame_buffer(device, rows * sizeof(FrameEmitterState), kFrameStorageUsage,
                                              "mote.frame.emitter_state"));
  MOTE_TRY_ASSIGN(b.bursts, make_frame_buffer(device, rows * shader::kFrameMaxBursts * sizeof(FrameBurst),
                                              kFrameStorageUsage, "mote.frame.bursts"));
  MOTE_TRY_ASSIGN(b.spawn_counts, make_frame_buffer(device, rows * 4, kFrameStorageUsage, "mote.frame.spawn_counts"));
  MOTE_TRY_ASSIGN(b.spawn_sums, make_frame_buffer(device, rows * 4, kFrameStorageUsage, "mote.frame.spawn_sums"));
  MOTE_TRY_ASSIGN(b.spawn_places, make_frame_buffer(device, rows * 4, kFrameStorageUsage, "mote.frame.spawn_places"));
  MOTE_TRY_ASSIGN(b.spawn_rows, make_frame_buffer(device, rows * 4, kFrameStorageUsage, "mote.frame.spawn_rows"));
  // One per program id: the ids never pass max_emitters + 1 (as the buckets', BucketPass).
  MOTE_TRY_ASSIGN(b.spawn_ranges, make_frame_buffer(device, (rows + 1) * sizeof(shader::FrameSpawnRange),
                                                    kFrameStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                                    "mote.frame.spawn_ranges"));
  MOTE_TRY_ASSIGN(b.commands,
                  make_frame_buffer(device, shader::kFrameMaxCommands * 8, kFrameStorageUsage, "mote.frame.commands"));
  MOTE_TRY_ASSIGN(b.params, make_frame_buffer(device, sizeof(FrameParams),
                                              VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              "mote.frame.params"));
  MOTE_TRY_ASSIGN(b.no_transforms, make_frame_buffer(device, sizeof(shader::TransformChannels), kFrameStorageUsage,
                                                     "mote.frame.no_transforms"));
  MOTE_TRY_ASSIGN(b.spawn_scan, gpu::PrefixScan::create(device, options.max_emitters));
  // Simulate's survivors per tile of 64 list entries (shared/frame.h, kFrameKeepWordsPerTile).
  const uint32_t tiles = (options.capacity + shader::kFrameWorkgroupSize - 1) / shader::kFrameWorkgroupSize;
  MOTE_TRY_ASSIGN(b.keep, make_frame_buffer(device, VkDeviceSize(tiles) * shader::kFrameKeepWordsPerTile * 4,
                                            kFrameStorageUsage, "mote.frame.keep"));
  MOTE_TRY_ASSIGN(b.keep_scan, gpu::PrefixScan::create(device, tiles));
  MOTE_TRY_ASSIGN(b.bounds_accumulators, make_frame_buffer(device, rows * shader::kFrameBoundsAccumulatorWords * 4,
                                                           kFrameStorageUsage, "mote.frame.bounds_accumulators"));
  MOTE_TRY_ASSIGN(b.emitter_bounds, make_frame_buffer(device, rows * sizeof(shader::FrameEmitterBounds),
                                                      kFrameStorageUsage, "mote.frame.emitter_bounds"));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    for (const gpu::Buffer* zeroed :
         {&b.pool, &b.states, &b.emitters, &b.bursts, &b.no_transforms, &b.bounds_accumulators, &b.emitter_bounds,
          &b.spawn_places, &b.spawn_rows, &b.spawn_ranges})
      vkCmdFillBuffer(cmd, zeroed->handle(), 0, VK_WHOLE_SIZE, 0);
  }));
  return b;
}

Status FrameBuffers::ensure_wide_registers(gpu::Device& device, VkDeviceSize bytes) {
  if (wide_registers.valid()) return ok_status();
  MOTE_TRY_ASSIGN(wide_registers, make_frame_buffer(device, bytes, kFrameStorageUsage, "mote.frame.wide_registers"));
  return ok_status();
}

}  // namespace mote::runtime
