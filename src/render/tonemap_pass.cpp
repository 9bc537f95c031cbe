#include "render/tonemap_pass.hpp"

#include "gpu/commands.hpp"
#include "shared/render_passes.h"

namespace mote::render {

Result<TonemapPass> TonemapPass::create(gpu::Device& device) {
  TonemapPass p;
  p.device_ = &device;
  MOTE_TRY_ASSIGN(p.pipeline_, gpu::ComputePipeline::create(device, "render/tonemap"));
  return p;
}

void TonemapPass::record(VkCommandBuffer cmd, RenderTargets& t, scene::Tonemap op, float exposure) {
  gpu::image_barrier(cmd, t.ldr, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  const shader::TonemapPush push{t.width, t.height,
                                 op == scene::Tonemap::kAgx ? shader::kTonemapAgx : shader::kTonemapAces, exposure};
  gpu::ComputeRecorder(*device_, cmd)
      .bind(pipeline_)
      .bind_resources({}, {{0, t.hdr.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
                           {1, t.ldr.view(), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL}})
      .push(push)
      .dispatch((t.width + 7) / 8, (t.height + 7) / 8);
  gpu::image_barrier(cmd, t.ldr, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
}

}  // namespace mote::render
