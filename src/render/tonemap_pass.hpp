// HDR → sRGB8 (shaders/render/tonemap.comp): exposure, ACES (fitted) or AgX, sRGB encode.
#pragma once

#include <vulkan/vulkan.h>

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "render/render_targets.hpp"
#include "scene/scene.hpp"

namespace mote::render {

class TonemapPass {
 public:
  static Result<TonemapPass> create(gpu::Device& device);
  TonemapPass() = default;
  TonemapPass(TonemapPass&&) noexcept = default;
  TonemapPass& operator=(TonemapPass&&) noexcept = default;

  // Before: targets.hdr in GENERAL, its writers made visible to compute by the caller. After:
  // targets.ldr in TRANSFER_SRC_OPTIMAL, visible to copies.
  void record(VkCommandBuffer cmd, RenderTargets& targets, scene::Tonemap op, float exposure);

 private:
  gpu::Device* device_ = nullptr;
  gpu::ComputePipeline pipeline_;
};

}  // namespace mote::render
