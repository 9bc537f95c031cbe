// Everything between a runtime frame and the pixels of its particles, for one target size and one
// draw path, recorded into a command buffer the caller owns and submits: the atlas of the
// effects' textures, the per-emitter-row draw records, the draw-argument pass, the view block and
// the point lights, the mesh particles (opaque, and casters into a shadow map) and the sprites on
// the raster path (weighted blended OIT or depth-sorted) or the compute path. It draws into images
// it does not own — the host's HDR colour and reversed-Z depth, in the layouts the host has them
// in (render/particle_targets.hpp) — with the host's camera and lights. Nothing in it is
// scene-file specific: SceneRenderer (render/scene_renderer.hpp) is one client.
//
// A frame, in one command buffer (docs/design/render.md, "Recording contract"):
//   record_prepare         first: uploads (view, lights, changed draw records and draw-argument
//                          parameters, all vkCmdUpdateBuffer) and the draw arguments. Opens with a
//                          barrier from the runtime frame's compute and transfer writes (and the
//                          previous frame's readers of the renderer's buffers); ends with the
//                          buffers visible to compute, vertex, fragment and indirect stages.
//   record_shadow_casters  mesh particles into the host's shadow map (optional).
//   record_opaque          mesh particles into colour + depth, depth-written (before sprites).
//   record_transparent     the sprites, composited over the colour, depth-tested read-only.
// Nothing in record_* waits or touches host-visible memory: a frame the host submits needs no
// Mote-side wait. The command buffers must be submitted in the order they were recorded, on the
// device's queue (record_prepare writes what changed since the previous one).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "assets/atlas.hpp"
#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/sampler.hpp"
#include "media/irradiance_volume.hpp"
#include "mote/effect.hpp"
#include "mote/result.hpp"
#include "render/gpu_mesh.hpp"
#include "render/mesh_particle_pass.hpp"
#include "render/particle_atlas.hpp"
#include "render/particle_compute_path.hpp"
#include "render/particle_fog.hpp"
#include "render/particle_inputs.hpp"
#include "render/particle_light_pass.hpp"
#include "render/particle_raster_path.hpp"
#include "render/particle_targets.hpp"
#include "render/ribbon_pass.hpp"
#include "runtime/frame/particle_system.hpp"
#include "shared/particle_render.h"
#include "shared/render_passes.h"

namespace mote::render {

enum class DrawPath { kRaster, kCompute };

struct ParticleRendererOptions {
  uint32_t width = 0;  // the colour and depth targets' size
  uint32_t height = 0;
  DrawPath path = DrawPath::kRaster;
  Transparency transparency = Transparency::kOit;  // raster path only
  uint32_t capacity = 0;                           // the most particles a frame's pool holds
  uint32_t max_emitters = 1;                       // draw-record rows (the runtime's emitter rows)
  // Frames a host may have recorded and not yet seen complete: a replaced atlas image outlives
  // that many record_prepare calls.
  uint32_t frames_in_flight = 3;
  // The froxel irradiance volume lit sprites read (docs/design/render.md, "Lighting"): a zero grid
  // takes media::irradiance_grid_for(width, height) (a froxel per 16 x 16 pixels, 64 slices).
  glm::uvec3 lighting_grid{0, 0, 0};
  float lighting_near = 0.5f;  // metres of view depth the grid's slices span
  float lighting_far = 200.0f;
  glm::uvec3 avboit_grid{0, 0, 0};  // Transparency::kAvboit's volume (a zero in it: avboit_grid_for the size)
  // The particle-light list's capacity (render/particle_light_pass.hpp): the brightest this many
  // particle lights of a frame light the scene, 1 .. kParticleLightsMaxCapacity.
  uint32_t max_particle_lights = shader::kParticleLightsDefaultCapacity;
  // The list's cluster grid (render/particle_light_pass.hpp; its slices span lighting_near ..
  // lighting_far): false, none (every reader loops over the whole list).
  bool cluster_particle_lights = true;
  uint32_t particle_light_cluster_entries = 0;  // 0: kParticleLightClusterEntriesPerCluster a cluster
};

// The runtime frame's buffers as ParticleBuffers (this frame's alive list).
ParticleBuffers particle_buffers(const runtime::ParticleSystem& particles);

class ParticleRenderer {
 public:
  // The path, pipelines and buffers, and the atlas of the built-ins (submit and wait).
  // Errors: kInvalidArgument for a zero size, capacity or row count; the paths' own
  // (kUnsupported: the raster path without independentBlend, the compute path past 65,536 tiles).
  static Result<ParticleRenderer> create(gpu::Device& device, const ParticleRendererOptions& options);
  ParticleRenderer() = default;
  ParticleRenderer(ParticleRenderer&&) noexcept = default;
  ParticleRenderer& operator=(ParticleRenderer&&) noexcept = default;

  // Textures effects name (key: the effect's render.texture; path: the file). New keys rebuild the
  // atlas (submit and wait; render/particle_atlas.hpp) and move every set row's texture rect.
  Status add_textures(std::span<const assets::AtlasRequest> requests);
  const assets::Atlas& atlas() const { return atlas_.atlas(); }
  // Texture fallbacks (a missing or corrupt file drawn as the soft disc), one line each.
  const std::vector<std::string>& warnings() const { return atlas_.warnings(); }

  // Row `row` draws `effect` at `generation` (the runtime's for that row): its draw record
  // (make_draw_record) with the atlas rect of its texture, uploaded by the next record_prepare.
  // `mesh`: the mesh drawn per particle for projection "mesh" (required then, ignored otherwise;
  // it must outlive the row). Errors (the row unchanged): kInvalidArgument for a row past
  // max_emitters, a texture not added, a missing mesh, or make_draw_record's; kUnsupported for more
  // than kMaxMeshParticleDraws mesh rows.
  Status set_emitter(uint32_t row, const CompiledEffect& effect, uint32_t generation, const GpuMesh* mesh = nullptr);
  // Row `row` draws nothing (its record not live) from the next record_prepare on.
  Status clear_emitter(uint32_t row);
  // The records as the next record_prepare leaves them, indexed by row.
  std::span<const shader::ParticleDrawRecord> records() const { return records_; }
  // The rows' ribbon records (shaders/shared/ribbon.h; flags 0 for a row that draws no ribbon).
  std::span<const shader::RibbonRecord> ribbon_records() const { return ribbon_records_; }
  // The rows' light records (shaders/shared/particle_lights.h; flags 0 for a row that lights nothing).
  std::span<const shader::ParticleLightRecord> light_records() const { return light_records_; }

  // Writes this frame's view, lights (the first kMaxPointLights; the rest of the block zeroed) and
  // whatever records and draw-argument parameters changed, then the draw arguments from the alive
  // count. `view.point_light_count` is the caller's to set. Errors (kInvalidArgument, nothing
  // recorded): a missing buffer, or a pool past the capacity the renderer was made for.
  Status record_prepare(VkCommandBuffer cmd, const ParticleBuffers& particles, const shader::RenderView& view,
                        std::span<const shader::PointLightGpu> lights);
  // The mesh particles into `shadow_map` (D32, 1 = far, LESS_OR_EQUAL, projected by
  // view.sun_view_projection; loaded and stored), the layout contract of
  // render/particle_targets.hpp. Nothing recorded without mesh emitters.
  Status record_shadow_casters(VkCommandBuffer cmd, const ShadowMapTarget& shadow_map);
  // The mesh particles into `targets` with depth writes, lit with the view's sun and `shadow_map`
  // (none: unshadowed) and the lights; the layout contract of render/particle_targets.hpp.
  // Nothing recorded without mesh emitters.
  Status record_opaque(VkCommandBuffer cmd, const ParticleTargets& targets, const ShadowMapTarget& shadow_map = {});
  // The sprites on the renderer's path, composited over `targets.color` against `targets.depth`
  // (soft particles sample it; never written); the layout contract of render/particle_targets.hpp.
  // When a live row is lit, the froxel irradiance volume is rebuilt first from the view and
  // lights record_prepare took, the sun shadowed by `shadow_map` (none: unshadowed; layouts as
  // record_opaque takes it).
  Status record_transparent(VkCommandBuffer cmd, const ParticleTargets& targets,
                            const ShadowMapTarget& shadow_map = {});

  // The froxel fog the sprites are seen through from the next record_transparent on (its
  // integrated volume recorded earlier in the same command buffer); an invalid FogInput: none.
  void set_fog(const FogInput& fog) { fog_ = fog; }

  // The view block (RenderView, uniform) and point lights (PointLightGpu[kMaxPointLights], storage)
  // record_prepare wrote, for the host's own passes later in the same command buffer.
  const gpu::Buffer& view_buffer() const { return view_buffer_; }
  const gpu::Buffer& point_lights_buffer() const { return lights_buffer_; }
  // The particle lights record_prepare selected (ParticleLightHeader, then PointLightGpu; storage),
  // for the host's own opaque and fog passes later in the same command buffer.
  const gpu::Buffer& particle_lights_buffer() const {
    return light_pass_.valid() ? light_pass_.list() : no_particle_lights_;
  }
  // The list's cluster grid (ParticleLightClusterHeader, then its words; storage), beside it.
  const gpu::Buffer& particle_light_clusters_buffer() const {
    return light_pass_.valid() ? light_pass_.clusters() : no_particle_lights_;
  }
  // The list's header as the last submitted frame left it (a readback: waits for the device's
  // queue); all zero but the capacity before the first light row.
  Result<shader::ParticleLightHeader> read_light_header() const;
  // The cluster grid's header likewise (all zero before the first light row).
  Result<shader::ParticleLightClusterHeader> read_light_cluster_header() const;
  // The selection of the last record_prepare (valid once a light row was set), for tests.
  const ParticleLightPass& light_pass() const { return light_pass_; }
  bool has_mesh_particles() const { return !mesh_draws_.empty(); }
  // The ribbon build of the last record_prepare (valid once a ribbon row was set), for tests.
  const RibbonPass& ribbon_pass() const { return ribbons_; }
  // Whether a live row draws lit sprites (the irradiance volume is rebuilt for them).
  bool has_lit_rows() const;
  // Whether a live row's particles are lights (the light selection runs).
  bool has_light_rows() const;
  const media::IrradianceVolume& irradiance() const { return irradiance_; }
  const ParticleRendererOptions& options() const { return options_; }

 private:
  struct Row {
    bool set = false;
    std::string texture;            // the atlas key its record's rect comes from
    const GpuMesh* mesh = nullptr;  // projection "mesh" only
  };

  ParticleInputs inputs() const;
  Status check_prepared(VkCommandBuffer cmd, const char* who) const;
  void rebuild_mesh_draws();
  void record_uploads(VkCommandBuffer cmd, const shader::RenderView& view,
                      std::span<const shader::PointLightGpu> lights);

  gpu::Device* device_ = nullptr;
  ParticleRendererOptions options_;
  ParticleAtlas atlas_;
  gpu::Sampler depth_sampler_;  // nearest: the scene depth read by soft particles
  std::vector<Row> rows_;
  std::vector<shader::ParticleDrawRecord> records_;
  std::vector<shader::RibbonRecord> ribbon_records_;        // beside records_, uploaded with them
  std::vector<shader::ParticleLightRecord> light_records_;  // likewise
  uint32_t dirty_begin_ = 0;  // rows [dirty_begin_, dirty_end_) differ from the records buffer
  uint32_t dirty_end_ = 0;
  std::vector<MeshParticleDraw> mesh_draws_;
  shader::DrawArgsParams params_written_{};
  bool params_valid_ = false;  // params_written_ is what the parameters buffer holds
  gpu::Buffer view_buffer_;
  gpu::Buffer lights_buffer_;
  gpu::Buffer records_buffer_;
  gpu::Buffer ribbon_records_buffer_;
  gpu::Buffer light_records_buffer_;
  ParticleLightPass light_pass_;    // made with the first light row (render/particle_light_pass.hpp)
  gpu::Buffer no_particle_lights_;  // a list header of no lights and a grid of none (zero), bound until then
  RibbonPass ribbons_;              // made with the first ribbon row (render/ribbon_pass.hpp)
  bool ribbons_built_ = false;      // the last record_prepare built ribbons (a live ribbon row)
  bool ribbon_raster_ = false;      // compute path: raster_ made to draw its ribbons
  gpu::Buffer draw_args_;
  gpu::Buffer draw_args_params_;
  gpu::ComputePipeline draw_args_pipeline_;
  MeshParticlePass mesh_pass_;
  ParticleRasterPath raster_;
  ParticleComputePath compute_;
  media::IrradianceVolume irradiance_;
  shader::RenderView view_{};                      // the last record_prepare's, for the irradiance pass
  std::vector<shader::PointLightGpu> lights_;      // likewise
  FogInput fog_;                                   // none until set_fog
  ParticleBuffers frame_;                          // the last record_prepare's
  VkCommandBuffer prepared_cmd_ = VK_NULL_HANDLE;  // and its command buffer
};

}  // namespace mote::render
