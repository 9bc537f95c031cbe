// The fog a particle draw reads so that fog sits between the camera and every particle
// (shaders/media/fog_apply.glsl, docs/design/media.md "The composite"): the froxel fog's
// integrated volume (3-D, RGBA16F, GENERAL: in-scattered light and transmittance to each slice)
// with a linear clamp sampler, and its MediaFogSampling block (uniform). Without fog, the draw
// paths bind NoFog's: a 1 x 1 x 1 volume of no light and full transmittance and a block whose
// w = 0 skips the read.
#pragma once

#include <vulkan/vulkan.h>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/sampler.hpp"
#include "media/image3d.hpp"
#include "mote/result.hpp"

namespace mote::render {

struct FogInput {
  VkImageView integrated = VK_NULL_HANDLE;  // VK_NULL_HANDLE: no fog
  VkSampler sampler = VK_NULL_HANDLE;
  const gpu::Buffer* sampling = nullptr;
  bool valid() const { return integrated != VK_NULL_HANDLE && sampler != VK_NULL_HANDLE && sampling; }
};

class NoFog {
 public:
  static Result<NoFog> create(gpu::Device& device);
  FogInput input() const { return {volume_.view(), sampler_.handle(), &sampling_}; }
  // `given` when it is a fog, this one otherwise.
  FogInput or_none(const FogInput& given) const { return given.valid() ? given : input(); }

 private:
  media::Image3D volume_;
  gpu::Sampler sampler_;
  gpu::Buffer sampling_;
};

}  // namespace mote::render
