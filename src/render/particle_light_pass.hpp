// The particle-light selection (docs/design/particle_lights.md): every frame, on the GPU, the
// alive particles of the rows whose light record is live become candidate point lights, and the
// `max_lights` brightest of them (shared/particle_lights.h, particle_light_weight) are written as
// the list the opaque shading, the froxel irradiance volume (lit particles) and the fog's
// in-scatter read beside the scene's own lights. Bounded: the list never holds more than
// max_lights; the rest are counted (ParticleLightHeader::overflow). Nothing is read back.
//
// Passes (shaders/render/particle_lights_*.comp): the header reset (an update), candidates (a
// thread per alive-list place appends key and slot), a stable radix sort of the candidates by
// slot then by key (the brightest first, ties by slot: the same particles win every run), select
// (a thread per list entry), then the binning (particle_lights_bin.comp: a thread per cluster of
// the grid writes the list's lights that reach it; shared/particle_lights.h's cluster layout).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/passes/radix_sort.hpp"
#include "mote/result.hpp"
#include "render/particle_inputs.hpp"
#include "shared/particle_lights.h"

namespace mote::render {

struct ParticleLightPassOptions {
  uint32_t capacity = 0;                                         // the most particles (alive-list places) a frame holds
  uint32_t max_lights = shader::kParticleLightsDefaultCapacity;  // 1 .. kParticleLightsMaxCapacity
  // The cluster grid: tiles of kParticleLightClusterTilePixels² over width × height pixels,
  // kParticleLightClusterSlices slices of view depth between near and far (exponential), and
  // `entries` words for all the clusters' lists together (0: kParticleLightClusterEntriesPerCluster
  // a cluster; at most kParticleLightClusterMaxEntries). cluster false: no grid (the readers loop
  // over the whole list; for comparison).
  bool cluster = true;
  uint32_t width = 0;
  uint32_t height = 0;
  float near = 0.5f;
  float far = 200.0f;
  uint32_t entries = 0;
};

class ParticleLightPass {
 public:
  // The list (header + max_lights lights, zero: no lights), the pipelines, and the sort and its
  // keys for `capacity` candidates. Errors: a zero capacity or a max_lights outside
  // 1..kParticleLightsMaxCapacity, a grid of no pixels, a depth range not 0 < near < far, or
  // entries past kParticleLightClusterMaxEntries (kInvalidArgument); the sort's own (kUnsupported).
  static Result<ParticleLightPass> create(gpu::Device& device, const ParticleLightPassOptions& options);
  ParticleLightPass() = default;
  ParticleLightPass(ParticleLightPass&&) noexcept = default;
  ParticleLightPass& operator=(ParticleLightPass&&) noexcept = default;

  // Records the selection over `in`'s pool, alive list, counters and draw records, with
  // `light_records` a ParticleLightRecord per row (in.record_count of them). Opens with a barrier
  // from every earlier write and the previous frame's readers of the list; ends with the list
  // visible to compute, vertex and fragment shaders and transfers. Errors (kInvalidArgument,
  // nothing recorded): missing buffers, a pool past the pass's capacity, too few light records.
  // `view`: the frame's camera, which the grid is binned in and its header carries.
  Status record(VkCommandBuffer cmd, const ParticleInputs& in, const gpu::Buffer& light_records,
                const shader::RenderView& view) const;
  // Records an empty list (no light rows this frame), with the same barriers.
  void record_empty(VkCommandBuffer cmd) const;

  // ParticleLightHeader then max_lights PointLightGpu (storage).
  const gpu::Buffer& list() const { return list_; }
  // ParticleLightClusterHeader then the grid's words (storage; shared/particle_lights.h).
  const gpu::Buffer& clusters() const { return clusters_; }
  // The grid's header for `view` (tiles_x 0 without a grid), as record writes it.
  shader::ParticleLightClusterHeader cluster_header(const shader::RenderView& view) const;
  uint32_t max_lights() const { return options_.max_lights; }
  uint32_t capacity() const { return options_.capacity; }
  bool valid() const { return device_ != nullptr; }

 private:
  void reset(VkCommandBuffer cmd, const shader::ParticleLightClusterHeader& grid) const;
  void finish(VkCommandBuffer cmd) const;

  gpu::Device* device_ = nullptr;
  ParticleLightPassOptions options_;
  gpu::RadixSort sort_;
  gpu::ComputePipeline candidates_pipeline_;
  gpu::ComputePipeline select_pipeline_;
  gpu::ComputePipeline bin_pipeline_;
  gpu::Buffer keys_;
  gpu::Buffer values_;
  gpu::Buffer list_;
  gpu::Buffer clusters_;
  uint32_t tiles_x_ = 0;  // 0: no grid
  uint32_t tiles_y_ = 0;
  uint32_t entries_ = 0;
};

// Bytes of a list of `max_lights` lights.
inline VkDeviceSize particle_light_list_bytes(uint32_t max_lights) {
  return shader::kParticleLightHeaderBytes + VkDeviceSize(max_lights) * sizeof(shader::PointLightGpu);
}

// The cluster header of a grid over width × height pixels (> 0), slices between near and far
// (0 < near < far), `entries` list words, binned for `view` (entries and overflow 0).
shader::ParticleLightClusterHeader particle_light_cluster_header(uint32_t width, uint32_t height, float near, float far,
                                                                 uint32_t entries, const shader::RenderView& view);

// Tiles of a grid over `pixels` (kParticleLightClusterTilePixels a tile, the last one partial).
inline uint32_t particle_light_tiles(uint32_t pixels) {
  return (pixels + shader::kParticleLightClusterTilePixels - 1) / shader::kParticleLightClusterTilePixels;
}

// Bytes of the cluster buffer of a grid of `clusters` clusters and `entries` list words.
inline VkDeviceSize particle_light_cluster_bytes(uint64_t clusters, uint64_t entries) {
  return shader::kParticleLightClusterHeaderBytes + (2 * clusters + entries) * 4;
}

}  // namespace mote::render
