// The scene's opaque set: the sun's shadow map (depth only, slope-biased), then the lit surfaces
// into the HDR target with depth writes — the scene's objects, one draw each, model and material
// in push constants. Mesh particles are the particle renderer's (render/mesh_particle_pass.hpp),
// drawn into the same images after these. Shading: shaders/render/lighting.glsl.
#pragma once

#include <vulkan/vulkan.h>

#include <span>

#include <glm/glm.hpp>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/graphics_pipeline.hpp"
#include "gpu/sampler.hpp"
#include "mote/result.hpp"
#include "render/gpu_mesh.hpp"
#include "render/render_targets.hpp"
#include "shared/render_passes.h"

namespace mote::render {

struct OpaqueDraw {
  const GpuMesh* mesh = nullptr;
  shader::OpaquePush push{};
  bool casts_shadow = true;
};

class OpaquePass {
 public:
  static Result<OpaquePass> create(gpu::Device& device);
  OpaquePass() = default;
  OpaquePass(OpaquePass&&) noexcept = default;
  OpaquePass& operator=(OpaquePass&&) noexcept = default;

  // Shadow map: UNDEFINED → cleared to 1 (far, LESS test) and drawn with the casters →
  // DEPTH_STENCIL_ATTACHMENT_OPTIMAL, written by the fragment tests (more casters may follow).
  // `shadows` false: just cleared, so the compare always passes. `view`: the RenderView uniform.
  void record_shadow(VkCommandBuffer cmd, RenderTargets& targets, bool shadows, std::span<const OpaqueDraw> draws,
                     const gpu::Buffer& view);
  // The shadow map from DEPTH_STENCIL_ATTACHMENT_OPTIMAL (its writes in render/particle_targets.hpp's
  // kTargetStages) to SHADER_READ_ONLY_OPTIMAL for the fragment shaders.
  void finish_shadow(VkCommandBuffer cmd, RenderTargets& targets);
  // HDR cleared to `background`, depth cleared to 0 (reversed-Z far); both UNDEFINED before.
  // After: hdr in COLOR_ATTACHMENT_OPTIMAL, depth in DEPTH_STENCIL_ATTACHMENT_OPTIMAL, written by
  // colour-attachment output and the fragment tests. The shadow map in SHADER_READ_ONLY_OPTIMAL;
  // `view`, `point_lights` (PointLightGpu[kMaxPointLights]) and `particle_lights` (the
  // particle-light list, shared/particle_lights.h) visible to the shaders.
  void record_scene(VkCommandBuffer cmd, RenderTargets& targets, const glm::vec3& background,
                    std::span<const OpaqueDraw> draws, const gpu::Buffer& view, const gpu::Buffer& point_lights,
                    const gpu::Buffer& particle_lights, const gpu::Buffer& particle_light_clusters);

 private:
  gpu::Device* device_ = nullptr;
  gpu::GraphicsPipeline shadow_;
  gpu::GraphicsPipeline opaque_;
  gpu::Sampler shadow_sampler_;
};

}  // namespace mote::render
