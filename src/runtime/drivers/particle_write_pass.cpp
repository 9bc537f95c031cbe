#include "runtime/drivers/particle_write_pass.hpp"

#include <cstddef>
#include <cstring>
#include <string>

#include "gpu/commands.hpp"

namespace mote::runtime {

// The public particle and the shared one are the same bytes: a write copies one into the other.
static_assert(sizeof(Particle) == sizeof(shader::Particle));
static_assert(offsetof(Particle, velocity) == offsetof(shader::Particle, velocity));
static_assert(offsetof(Particle, age) == offsetof(shader::Particle, age));
static_assert(offsetof(Particle, angular_velocity) == offsetof(shader::Particle, angular_velocity));
static_assert(offsetof(Particle, color) == offsetof(shader::Particle, color));
static_assert(offsetof(Particle, uv_rect) == offsetof(shader::Particle, uv_rect));
static_assert(kParticleWords == shader::kParticleWords && kParticleFirstWord == shader::kParticleFirstWord);

shader::ParticleWrite particle_write(uint32_t slot, uint32_t header, const Particle& particle) {
  shader::ParticleWrite w{};
  w.slot = slot;
  w.header = header;
  std::memcpy(&w.particle, &particle, sizeof(Particle));
  return w;
}

Result<ParticleWritePass> ParticleWritePass::create(gpu::Device& device) {
  ParticleWritePass pass;
  pass.device_ = &device;
  MOTE_TRY_ASSIGN(pass.pipeline_, gpu::ComputePipeline::create(device, "runtime/drivers/particle_write"));
  return pass;
}

Status ParticleWritePass::record(VkCommandBuffer cmd, const gpu::Buffer& pool, uint32_t capacity, uint32_t record_words,
                                 const gpu::Buffer& writes, uint32_t count) const {
  if (record_words < kParticleFirstWord + kParticleWords)
    return make_error(ErrorCode::kInvalidArgument, "a record of " + std::to_string(record_words) +
                                                       " words cannot hold the header and the standard particle (" +
                                                       std::to_string(kParticleFirstWord + kParticleWords) + ")");
  if (writes.size() < VkDeviceSize(count) * sizeof(shader::ParticleWrite))
    return make_error(ErrorCode::kInvalidArgument,
                      "the writes buffer holds fewer than " + std::to_string(count) + " writes");
  if (count == 0) return ok_status();
  const shader::ParticleWritePush push{count, record_words, capacity, 0u};
  gpu::ComputeRecorder(*device_, cmd)
      .bind(pipeline_)
      .buffers({{0, &pool}, {1, &writes}})
      .push(push)
      .dispatch_threads(count);
  gpu::compute_to_compute(cmd);
  return ok_status();
}

}  // namespace mote::runtime
