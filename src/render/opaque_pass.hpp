// The opaque set: the sun's shadow map (depth only, slope-biased), then the lit surfaces into
// the HDR target with depth writes — the scene's objects (one draw each, model and material in
// push constants) and the mesh particles (one instanced indexed draw per mesh emitter, instance
// count from the alive count: render/draw_args). Shading: shaders/render/lighting.glsl.
#pragma once

#include <vulkan/vulkan.h>

#include <span>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/graphics_pipeline.hpp"
#include "gpu/sampler.hpp"
#include "mote/result.hpp"
#include "render/gpu_mesh.hpp"
#include "render/particle_inputs.hpp"
#include "render/render_targets.hpp"
#include "shared/render_passes.h"

namespace mote::render {

struct OpaqueDraw {
  const GpuMesh* mesh = nullptr;
  shader::OpaquePush push{};
  bool casts_shadow = true;
};

struct MeshParticleDraw {
  const GpuMesh* mesh = nullptr;
  uint32_t row = 0;         // the emitter row whose particles this draw shows
  uint32_t args_index = 0;  // its VkDrawIndexedIndirectCommand in the draw-args buffer
};

class OpaquePass {
 public:
  static Result<OpaquePass> create(gpu::Device& device);
  OpaquePass() = default;
  OpaquePass(OpaquePass&&) noexcept = default;
  OpaquePass& operator=(OpaquePass&&) noexcept = default;

  // Shadow map: UNDEFINED → drawn → SHADER_READ_ONLY_OPTIMAL (cleared to 1 = far, LESS test).
  // `shadows` false: just cleared, so the compare always passes.
  void record_shadow(VkCommandBuffer cmd, RenderTargets& targets, bool shadows, std::span<const OpaqueDraw> draws,
                     std::span<const MeshParticleDraw> mesh_particles, const ParticleInputs& particles,
                     const gpu::Buffer& draw_args);
  // HDR cleared to `background`, depth cleared to 0 (reversed-Z far); both UNDEFINED before.
  // After: hdr in COLOR_ATTACHMENT_OPTIMAL, depth in DEPTH_STENCIL_READ_ONLY_OPTIMAL (visible to
  // depth tests and fragment/compute sampling).
  void record_scene(VkCommandBuffer cmd, RenderTargets& targets, const glm::vec3& background,
                    std::span<const OpaqueDraw> draws, std::span<const MeshParticleDraw> mesh_particles,
                    const ParticleInputs& particles, const gpu::Buffer& draw_args);

 private:
  gpu::Device* device_ = nullptr;
  gpu::GraphicsPipeline shadow_;
  gpu::GraphicsPipeline shadow_particles_;
  gpu::GraphicsPipeline opaque_;
  gpu::GraphicsPipeline mesh_particles_;
  gpu::Sampler shadow_sampler_;
};

}  // namespace mote::render
