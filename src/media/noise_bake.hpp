// The noise tile baked on the device (shaders/media/noise_bake.comp): every texel of a bordered
// r8unorm tile, its skirt included, computed by media_bake_texel into a scratch buffer of packed
// rows, then copied into an atlas slot — texel for texel what bake_noise_tile_cpu makes, up to
// the two sides' float rounding (tests/media/noise_bake_test.cpp). docs/design/media.md.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "media/tile_atlas.hpp"
#include "mote/result.hpp"

namespace mote::media {

class NoiseBake {
 public:
  static Result<NoiseBake> create(gpu::Device& device);

  // Texels a scratch row holds for `atlas`'s tiles (the tile's width rounded up to whole words).
  static uint32_t row_texels(const TileAtlas3D& atlas);
  // Bytes of scratch one tile of `atlas` needs.
  static VkDeviceSize scratch_bytes(const TileAtlas3D& atlas);

  // Records the bake of `octaves` octaves into `scratch`, then its copy into `slot`. Errors
  // (kInvalidArgument, nothing recorded): an atlas that is not r8unorm, a slot not live, a scratch
  // buffer smaller than scratch_bytes, octaves the content cannot hold (as bake_noise_tile_cpu).
  Status record(VkCommandBuffer cmd, const TileAtlas3D& atlas, uint32_t slot, uint32_t octaves,
                const gpu::Buffer& scratch) const;

 private:
  gpu::Device* device_ = nullptr;
  gpu::ComputePipeline pipeline_;
};

// The built-in tile (kMediaNoiseOctaves octaves) baked into `slot`: a scratch buffer, one
// submission, waited (set-up).
Status bake_noise_tile(gpu::Device& device, const NoiseBake& bake, const TileAtlas3D& atlas, uint32_t slot,
                       uint32_t octaves);

}  // namespace mote::media
