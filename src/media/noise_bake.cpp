#include "media/noise_bake.hpp"

#include <fmt/format.h>

#include "gpu/commands.hpp"
#include "shared/media_density.h"
#include "shared/media_passes.h"

namespace mote::media {

Result<NoiseBake> NoiseBake::create(gpu::Device& device) {
  NoiseBake bake;
  bake.device_ = &device;
  MOTE_TRY_ASSIGN(bake.pipeline_, gpu::ComputePipeline::create(device, "media/noise_bake"));
  return bake;
}

uint32_t NoiseBake::row_texels(const TileAtlas3D& atlas) { return (atlas.tile() + 3) / 4 * 4; }

VkDeviceSize NoiseBake::scratch_bytes(const TileAtlas3D& atlas) {
  return VkDeviceSize(row_texels(atlas)) * atlas.tile() * atlas.tile();
}

Status NoiseBake::record(VkCommandBuffer cmd, const TileAtlas3D& atlas, uint32_t slot, uint32_t octaves,
                         const gpu::Buffer& scratch) const {
  if (atlas.image().format() != VK_FORMAT_R8_UNORM)
    return make_error(ErrorCode::kInvalidArgument, "the noise bake writes r8unorm tiles only", "NoiseBake::record");
  if (!atlas.is_live(slot))
    return make_error(ErrorCode::kInvalidArgument, fmt::format("slot {} is not live", slot), "NoiseBake::record");
  if (octaves == 0 || (shader::kMediaNoiseBasePeriod << (octaves - 1)) > atlas.content())
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} octaves do not fit a content of {} texels", octaves, atlas.content()),
                      "NoiseBake::record");
  if (scratch.size() < scratch_bytes(atlas))
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("the scratch buffer holds {} bytes; a tile needs {}", scratch.size(),
                                  scratch_bytes(atlas)),
                      "NoiseBake::record");
  const uint32_t tile = atlas.tile();
  const shader::MediaBakePush push{atlas.content(), atlas.border(), octaves, row_texels(atlas) / 4};
  gpu::ComputeRecorder(*device_, cmd)
      .bind(pipeline_)
      .buffers({{0, &scratch}})
      .push(push)
      .dispatch_threads(push.row_words * tile * tile);
  return atlas.record_copy_from_buffer(cmd, slot, scratch, 0, row_texels(atlas));
}

Status bake_noise_tile(gpu::Device& device, const NoiseBake& bake, const TileAtlas3D& atlas, uint32_t slot,
                       uint32_t octaves) {
  MOTE_TRY_ASSIGN(gpu::Buffer scratch, gpu::Buffer::create(device, {.size = NoiseBake::scratch_bytes(atlas),
                                                                    .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                                             VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                                    .name = "mote.media.noise_bake_scratch"}));
  Status recorded = ok_status();
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    recorded = bake.record(cmd, atlas, slot, octaves, scratch);
  }));
  return recorded;
}

}  // namespace mote::media
