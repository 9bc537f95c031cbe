// Writes standard particles (mote/particle.hpp) into pool records on the GPU
// (shaders/runtime/drivers/particle_write.comp): the manual and cpu drivers' way of placing the
// records they own (docs/design/drivers.md). Each write names a slot and the header it takes;
// the particle lands at record words 1..20 and the record's other words are left as they are.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/particle.hpp"
#include "mote/result.hpp"
#include "shared/particle.h"

namespace mote::runtime {

// The host's form of a write (shader::ParticleWrite) from the public particle.
shader::ParticleWrite particle_write(uint32_t slot, uint32_t header, const Particle& particle);

class ParticleWritePass {
 public:
  static Result<ParticleWritePass> create(gpu::Device& device);
  // Records the writes held in `writes` (`count` ParticleWrite entries from its start) into
  // `pool` (capacity records of record_words words). kInvalidArgument when the stride cannot hold
  // the particle after the header or `writes` is shorter than `count` entries; nothing is
  // recorded then. Ends with a compute-to-compute barrier.
  Status record(VkCommandBuffer cmd, const gpu::Buffer& pool, uint32_t capacity, uint32_t record_words,
                const gpu::Buffer& writes, uint32_t count) const;

 private:
  gpu::Device* device_ = nullptr;
  gpu::ComputePipeline pipeline_;
};

}  // namespace mote::runtime
