// Drawing a ParticleSystem's particles into the host application's own images, recorded into the
// host's own command buffer — the way an engine embeds a particle renderer. The host owns the HDR
// colour image, the reversed-Z depth image, the camera and the lights; the renderer owns the
// texture atlas of the effects it has seen, the per-emitter draw records, the draw arguments and
// the draw paths' scratch (docs/design/render.md, "The particle renderer").
//
// A frame, all in one command buffer the host submits on the Context's queue (or any queue of its
// family), in this order:
//
//   system.record(cmd, dt)              the particle frame (or execute(dt) submitted before)
//   ... the host's opaque scene into colour + depth ...
//   renderer.record(cmd, view, targets) uploads and draw arguments, mesh particles (depth-written),
//                                       then the sprites composited over the colour
//
// or, for a host with its own shadow and opaque passes, record_prepare first, then
// record_shadow_casters (into the host's shadow map), record_opaque and record_transparent where
// they belong. Every upload is written into the command buffer (vkCmdUpdateBuffer): nothing here
// waits or writes host-visible memory, except when an emitter with a texture or mesh the renderer
// has not seen appears (the atlas is rebuilt, the mesh loaded: a set-up wait on Mote's queue).
// Command buffers must be submitted in the order they were recorded, and at most the system's
// frames_in_flight ahead of the GPU.
//
// Image contract (render::ParticleTargets inside): colour R16G16B16A16_SFLOAT with COLOR_ATTACHMENT
// and STORAGE usage, handed in COLOR_ATTACHMENT_OPTIMAL or GENERAL; depth D32_SFLOAT (reversed-Z:
// 1 = near, 0 = far) with DEPTH_STENCIL_ATTACHMENT and SAMPLED usage, handed in
// DEPTH_STENCIL_READ_ONLY_OPTIMAL, DEPTH_STENCIL_ATTACHMENT_OPTIMAL or SHADER_READ_ONLY_OPTIMAL. The
// host records no barrier before a call; each call opens with a barrier from the host's writes in
// the colour-output, fragment-test, fragment, compute and transfer stages, and hands each image back
// in the layout it came in, its last accesses in those stages (the host's next barrier takes them
// as its source scope). Sprites never write depth; mesh particles do.
//
// Threading: as the ParticleSystem it draws (one thread at a time). Errors are values.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "mote/particles.hpp"
#include "mote/render_options.hpp"
#include "mote/result.hpp"

namespace mote {

class Fog;  // mote/volumes.hpp

struct ParticleRendererDesc {
  uint32_t width = 0;  // the host's colour and depth size, 1 .. 8192
  uint32_t height = 0;
  DrawPath path = DrawPath::kRaster;
  Transparency transparency = Transparency::kOit;  // the raster path's
  // The froxel grid lit sprites are lit from (x and y across the viewport, z slices of view depth
  // between lighting_near and lighting_far, logarithmic); a zero in it: a froxel per 16 x 16
  // pixels and 64 slices.
  std::array<uint32_t, 3> lighting_grid{0, 0, 0};
  float lighting_near = 0.5f;  // metres
  float lighting_far = 200.0f;
  // Transparency::kAvboit's extinction volume: columns across and down the viewport and slices of
  // view depth, which its occupancy places where the emitters' boxes are; a zero in it: a column
  // per 16 x 16 pixels and 64 slices. At most 4096 columns a side and 256 slices.
  std::array<uint32_t, 3> avboit_grid{0, 0, 0};
  // The effects' textures and glTF meshes resolve against the folder of the effect document
  // (CompiledEffect::source_path; the current directory for an effect compiled from text) and
  // must stay inside this folder: absolute paths and paths that leave it are refused
  // (docs/design/reliability.md, "Asset paths"). Empty: the current directory.
  std::filesystem::path asset_root;
  // Particles that light the scene (an effect's render "light"; docs/design/particle_lights.md):
  // every frame, record_prepare keeps the brightest this many of the frame's particle lights,
  // 1 .. 16384, which shade the mesh particles, the lit sprites and the fog (Fog::record given this
  // renderer) — and the host's own opaque scene through particle_lights_buffer(). The rest are
  // counted (ParticleLightStats::overflow).
  uint32_t max_particle_lights = 256;
  // The list's cluster grid (particle_light_clusters_buffer()): 16 x 16-pixel tiles x 16 slices of
  // view depth between lighting_near and lighting_far, each listing the lights that reach it, so
  // that a pixel or froxel loops over its cluster's lights only. The lists share
  // particle_light_cluster_entries u32 (0: 32 a cluster, 17 MB at 1920 x 1080; at most 2^28);
  // a cluster they run out for is shaded with the whole list (correct, as slow as no grid) and its
  // lights are counted (ParticleLightStats::cluster_overflow). false: no grid, every reader loops over the whole list.
  bool cluster_particle_lights = true;
  uint32_t particle_light_cluster_entries = 0;
};

// The last recorded frame's particle lights, as read_light_stats() copies them out.
struct ParticleLightStats {
  uint32_t lights = 0;           // in the list the shading read
  uint32_t candidates = 0;       // particles of light-emitting effects alive that frame (with a light above 0)
  uint32_t overflow = 0;         // candidates - lights: the dimmest, left out
  uint32_t capacity = 0;         // ParticleRendererDesc::max_particle_lights
  uint32_t clusters = 0;         // the cluster grid's (0: none)
  uint32_t cluster_entries = 0;  // list words the clusters asked for (lights × the clusters each reaches)
  uint32_t cluster_overflow =
      0;  // (cluster, light) pairs not listed: the entries ran out, those clusters read the whole list
};

struct PointLight {
  std::array<float, 3> position{0.0f, 0.0f, 0.0f};  // world
  float range = 10.0f;                              // metres; no light beyond
  std::array<float, 3> radiance{1.0f, 1.0f, 1.0f};  // colour × intensity
};

// A point light whose light leaves in a cone: full within inner_degrees of `direction`, none past
// outer_degrees (half-angles), ((cos - cos outer) / (cos inner - cos outer))² between (the
// Frostbite ramp). It lights what a point light lights: lit sprites, mesh particles, the fog.
struct SpotLight {
  std::array<float, 3> position{0.0f, 0.0f, 0.0f};    // world
  float range = 10.0f;                                // metres; no light beyond
  std::array<float, 3> radiance{1.0f, 1.0f, 1.0f};    // colour × intensity along the axis
  std::array<float, 3> direction{0.0f, -1.0f, 0.0f};  // world, the way it points; not zero
  float inner_degrees = 20.0f;                        // 0 .. outer_degrees
  float outer_degrees = 30.0f;                        // above 0, at most 90
};

// The camera and the lights of a frame, in Mote's conventions: a right-handed world, a view
// matrix looking down its −Z, and a reversed-Z projection (depth 1 at the near plane, 0 far) into
// Vulkan's clip space (y down), the one the host's depth image was drawn with. Matrices are
// column-major (element [column * 4 + row]), as GLSL and glm store them.
struct ParticleView {
  std::array<float, 16> view{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  std::array<float, 16> projection{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  float near_plane = 0.1f;  // metres: soft particles turn the depth image into distances with it
  float far_plane = 1000.0f;
  float exposure = 1.0f;
  float time = 0.0f;  // seconds (flipbooks driven by time read it)
  // The sun (lit and mesh particles): the way its light travels and its colour × intensity (all
  // zero: no sun). Its shadow map, when the host gives one to record_opaque, was drawn with
  // sun_view_projection (world → [0, 1] depth, not reversed).
  std::array<float, 3> sun_direction{0.0f, -1.0f, 0.0f};
  std::array<float, 3> sun_radiance{0.0f, 0.0f, 0.0f};
  std::array<float, 16> sun_view_projection{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  uint32_t shadow_map_size = 0;  // the shadow map record_opaque will be given (0: none, unshadowed)
  std::array<float, 3> sky_ambient{0.0f, 0.0f, 0.0f};
  std::array<float, 3> ground_ambient{0.0f, 0.0f, 0.0f};
  // The host's lights: the first 16 are used (point lights, then spot lights, 16 in all). The
  // particles' own lights (an effect's render "light") come on top of these, up to
  // ParticleRendererDesc::max_particle_lights of them.
  std::vector<PointLight> point_lights;
  std::vector<SpotLight> spot_lights;
};

// The host's images for one call (see the image contract above); the views are 2-D, one level,
// one layer, of the whole image.
struct ParticleTargets {
  VkImage color = VK_NULL_HANDLE;
  VkImageView color_view = VK_NULL_HANDLE;
  VkImageLayout color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkImage depth = VK_NULL_HANDLE;
  VkImageView depth_view = VK_NULL_HANDLE;
  VkImageLayout depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
};

// The host's sun shadow map (D32_SFLOAT, 1 = far, drawn with ParticleView::sun_view_projection,
// DEPTH_STENCIL_ATTACHMENT and SAMPLED usage), `size` x `size`.
struct ParticleShadowMap {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  uint32_t size = 0;
};

class ParticleRenderer {
 public:
  // A renderer for `system` (which must outlive it), drawing into targets of desc.width x
  // desc.height. Errors: kInvalidArgument for a size out of range; kUnsupported for a path the
  // device cannot run (the raster path's weighted OIT needs independentBlend, the compute path at
  // most 65,536 screen tiles); kVulkan, kOutOfMemory.
  static Result<std::unique_ptr<ParticleRenderer>> create(ParticleSystem& system, const ParticleRendererDesc& desc);
  ~ParticleRenderer();
  ParticleRenderer(const ParticleRenderer&) = delete;
  ParticleRenderer& operator=(const ParticleRenderer&) = delete;

  // Takes `effect`'s texture into the atlas and loads its mesh now, ahead of the emitters that
  // will draw it, so the first frame that draws one does not wait on a rebuild (set-up: waits on
  // Mote's queue). A texture that cannot be read is drawn as the soft disc and reported in
  // warnings(); a mesh that cannot be loaded is an error (kNotFound, kParse, ..., naming the effect).
  Status preload(const CompiledEffect& effect);

  // record_prepare, then record_opaque and record_transparent into `targets`.
  Status record(VkCommandBuffer cmd, const ParticleView& view, const ParticleTargets& targets);

  // First in a frame: takes in the emitters added, swapped or removed since the last call (their
  // textures and meshes, resolved against their effect's source_path directory; a texture that
  // cannot be read is drawn as the built-in soft disc and reported in warnings()), then records
  // the view and light uploads, the changed draw records and the draw arguments from the frame's
  // alive count. Errors (nothing recorded): a mesh that cannot be loaded (kNotFound, kParse, ...,
  // naming the effect), kUnsupported for more than 16 mesh-particle emitters.
  Status record_prepare(VkCommandBuffer cmd, const ParticleView& view);
  // The mesh particles into the host's shadow map, as casters (nothing without mesh emitters).
  Status record_shadow_casters(VkCommandBuffer cmd, const ParticleShadowMap& shadow_map);
  // The mesh particles into colour + depth, depth-written, lit by the view's sun (shadowed by
  // `shadow_map` when given) and lights. Before the sprites.
  Status record_opaque(VkCommandBuffer cmd, const ParticleTargets& targets,
                       const ParticleShadowMap* shadow_map = nullptr);
  // The sprites on the renderer's path, composited over the colour, depth-tested read-only. Lit
  // emitters (an effect's render "lit") are lit per pixel from a froxel irradiance volume this
  // call rebuilds first from the view's ambient, sun and point lights, the sun shadowed by
  // `shadow_map` when given (in SHADER_READ_ONLY_OPTIMAL or DEPTH_STENCIL_READ_ONLY_OPTIMAL).
  Status record_transparent(VkCommandBuffer cmd, const ParticleTargets& targets,
                            const ParticleShadowMap* shadow_map = nullptr);

  // The fog the sprites are seen through from the next record_transparent on: `fog`'s froxel
  // volume, which fog->record writes earlier in the same command buffer (mote/volumes.hpp); null:
  // none. The fog must outlive its use here (set null before destroying it).
  void set_fog(const Fog* fog);

  // The particle-light list record_prepare writes each frame, for the host's own opaque shading
  // later in the same command buffer (a storage buffer, std430; its writes made visible to the
  // compute, vertex and fragment stages by record_prepare): a header of four u32 — lights,
  // candidates, overflow, capacity — then `capacity` lights of three vec4 each: position xyz and
  // range (metres), radiance rgb (w 0), and a zero vec4 (no cone). Shade the first
  // min(lights, capacity) as point lights: inverse-square falloff windowed to the range,
  // ((1 - (d / range)^4)^2 / d²), as Mote's own opaque pass does (docs/design/particle_lights.md).
  VkBuffer particle_lights_buffer() const;
  // The list's cluster grid, written by record_prepare beside it (storage, std430, the same
  // visibility): a header of 240 bytes — view (world → view), projection and its inverse (three
  // column-major mat4 of the frame's camera), then u32 tiles_x, tiles_y, slices,
  // clusters, f32 tile_ndc_x, tile_ndc_y (a tile's size in NDC), near (metres), slice_scale, u32
  // entry_capacity, entries, overflow, a pad — then u32 words. A world point p is in cluster
  //   c = (slice × tiles_y + ty) × tiles_x + tx,
  // with v = view × p, clip = projection × v, ndc = clip.xy / clip.w, tx = floor((ndc.x + 1) /
  // tile_ndc_x) (ty likewise, both clamped to the grid), slice = floor(log(-v.z / near) ×
  // slice_scale); its lights are words[words[2c] + k], k < words[2c + 1], indices into the list,
  // ascending (never past word 2 × clusters + entry_capacity); a length of 0xffffffff: the
  // entries ran out, shade with the whole list. A point in no
  // cluster (tiles_x 0, clip.w ≤ 0, -v.z < near, slice ≥ slices, |ndc| > 1.01) is shaded with the
  // whole list. shaders/shared/particle_lights.h has the same as code
  // (particle_light_cluster_of); docs/design/particle_lights.md, "The clustered list".
  VkBuffer particle_light_clusters_buffer() const;
  // The counts of the last recorded frame's light selection; waits for Mote's queue (tools and
  // HUDs; never needed for a frame).
  Result<ParticleLightStats> read_light_stats();

  // Textures that fell back to the soft disc, one line each.
  const std::vector<std::string>& warnings() const;
  uint32_t width() const;
  uint32_t height() const;

  struct State;  // defined in src/api/

 private:
  friend struct detail::ApiAccess;
  ParticleRenderer();
  std::unique_ptr<State> state_;
};

}  // namespace mote
