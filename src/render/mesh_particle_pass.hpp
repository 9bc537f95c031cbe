// Mesh particles (emitters with projection "mesh"): one instanced indexed indirect draw per mesh
// emitter (instance count from the alive count: render/draw_args), instance i drawing alive slot
// i when it belongs to that emitter's row (shaders/render/mesh_particle.vert). Opaque: drawn with
// depth writes and shaded like the scene's objects (shaders/render/opaque.frag, lighting.glsl),
// and drawn into the sun's shadow map as casters (mesh_particle_shadow.vert, slope-biased).
// Both draws have their own rendering scope that loads what the images hold and stores it.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/graphics_pipeline.hpp"
#include "gpu/image.hpp"
#include "gpu/sampler.hpp"
#include "mote/result.hpp"
#include "render/gpu_mesh.hpp"
#include "render/particle_inputs.hpp"
#include "render/particle_targets.hpp"

namespace mote::render {

struct MeshParticleDraw {
  const GpuMesh* mesh = nullptr;
  uint32_t row = 0;         // the emitter row whose particles this draw shows
  uint32_t args_index = 0;  // its VkDrawIndexedIndirectCommand in the draw-args buffer
};

// A shadow map the mesh particles are lit with or cast into: D32, 1 = far (LESS_OR_EQUAL),
// projected by RenderView::sun_view_projection.
struct ShadowMapTarget {
  const gpu::Image* image = nullptr;
  VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
};

class MeshParticlePass {
 public:
  // The pipelines, the shadow map's compare sampler and a 1 x 1 shadow map cleared to far (bound
  // when the caller has none; submit and wait).
  static Result<MeshParticlePass> create(gpu::Device& device);
  MeshParticlePass() = default;
  MeshParticlePass(MeshParticlePass&&) noexcept = default;
  MeshParticlePass& operator=(MeshParticlePass&&) noexcept = default;

  // Into `shadow_map` (its layout DEPTH_STENCIL_ATTACHMENT_OPTIMAL, DEPTH_STENCIL_READ_ONLY_OPTIMAL
  // or SHADER_READ_ONLY_OPTIMAL), depth tested and written; the layout contract of
  // render/particle_targets.hpp (back in its layout after).
  void record_shadow(VkCommandBuffer cmd, const ShadowMapTarget& shadow_map, std::span<const MeshParticleDraw> draws,
                     const ParticleInputs& inputs, const gpu::Buffer& draw_args);
  // Into `targets` with depth writes (the colour as an attachment in COLOR_ATTACHMENT_OPTIMAL, the
  // depth in DEPTH_STENCIL_ATTACHMENT_OPTIMAL while drawing; the contract of
  // render/particle_targets.hpp), lit with the sun's `shadow_map` (SHADER_READ_ONLY_OPTIMAL or
  // DEPTH_STENCIL_READ_ONLY_OPTIMAL, written before in kTargetStages; no image: none).
  void record_opaque(VkCommandBuffer cmd, const ParticleTargets& targets, const ShadowMapTarget& shadow_map,
                     std::span<const MeshParticleDraw> draws, const ParticleInputs& inputs,
                     const gpu::Buffer& draw_args);

 private:
  gpu::Device* device_ = nullptr;
  gpu::GraphicsPipeline opaque_;
  gpu::GraphicsPipeline shadow_;
  gpu::Sampler shadow_sampler_;
  gpu::Image no_shadow_;  // 1 x 1 at 1 (far), SHADER_READ_ONLY_OPTIMAL
};

}  // namespace mote::render
