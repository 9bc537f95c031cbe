#include "runtime/frame/frame_readbacks.hpp"

#include <algorithm>

#include "gpu/transfer.hpp"

namespace mote::runtime {

Result<FrameStats> read_frame_stats(gpu::Device& device, const FrameBuffers& buffers) {
  MOTE_TRY_ASSIGN(auto c, gpu::readback_as<shader::FrameCounters>(device, buffers.counters, 1));
  const shader::FrameCounters& k = c[0];
  FrameStats s;
  s.alive = k.alive_out;
  s.previous_alive = k.alive_in;
  s.free_count = k.free_count;
  s.budget_left = k.budget;
  s.newborns = k.newborns;
  s.dropped = k.dropped;
  s.killed = k.killed;
  s.orphaned = k.orphaned;
  s.spawned_total = k.spawned_total;
  s.frames = k.frames;
  s.prewarmed = k.prewarmed;
  return s;
}

Result<std::vector<uint32_t>> read_alive_list(gpu::Device& device, const FrameBuffers& buffers,
                                              uint32_t frames_recorded, uint32_t capacity) {
  MOTE_TRY_ASSIGN(FrameStats s, read_frame_stats(device, buffers));
  // The list the last frame wrote: frame k writes alive[k & 1].
  const gpu::Buffer& list = buffers.alive_in(frames_recorded);
  return gpu::readback_as<uint32_t>(device, list, std::min(s.alive, capacity));
}

Result<std::vector<uint32_t>> read_free_list(gpu::Device& device, const FrameBuffers& buffers, uint32_t capacity) {
  MOTE_TRY_ASSIGN(FrameStats s, read_frame_stats(device, buffers));
  return gpu::readback_as<uint32_t>(device, buffers.free_list, std::min(s.free_count, capacity));
}

Result<std::vector<uint32_t>> read_pool_words(gpu::Device& device, const FrameBuffers& buffers,
                                              const ParticleSystemOptions& options) {
  return gpu::readback_as<uint32_t>(device, buffers.pool, size_t(options.capacity) * options.record_words);
}

Result<std::vector<shader::FrameEmitterState>> read_emitter_state_rows(gpu::Device& device, const FrameBuffers& buffers,
                                                                       uint32_t rows) {
  return gpu::readback_as<shader::FrameEmitterState>(device, buffers.states, rows);
}

Result<std::vector<uint32_t>> read_emitter_table_words(gpu::Device& device, const FrameBuffers& buffers,
                                                       uint32_t rows) {
  return gpu::readback_as<uint32_t>(device, buffers.emitters, size_t(rows) * shader::kEmitterRecordWords);
}

}  // namespace mote::runtime
