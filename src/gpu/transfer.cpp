#include "gpu/transfer.hpp"

#include <cstring>

#include "gpu/commands.hpp"

namespace mote::gpu {

Status upload(Device& device, const Buffer& dst, std::span<const uint8_t> bytes, VkDeviceSize dst_offset) {
  if (bytes.empty()) return {};
  if (dst_offset > dst.size() || bytes.size() > dst.size() - dst_offset)
    return make_error(ErrorCode::kInvalidArgument, "upload past the end of the buffer");
  MOTE_TRY_ASSIGN(Buffer staging, Buffer::create(device, {.size = bytes.size(),
                                                          .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                          .memory = MemoryUsage::kUpload,
                                                          .name = "mote.staging_upload"}));
  std::memcpy(staging.mapped(), bytes.data(), bytes.size());
  MOTE_TRY(staging.flush());
  return device.submit_and_wait([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, dst_offset, bytes.size()};
    vkCmdCopyBuffer(cmd, staging.handle(), dst.handle(), 1, &region);
  });
}

Result<std::vector<uint8_t>> readback(Device& device, const Buffer& src, VkDeviceSize size, VkDeviceSize src_offset) {
  if (size == 0) return std::vector<uint8_t>{};
  if (src_offset > src.size() || size > src.size() - src_offset)
    return make_error(ErrorCode::kInvalidArgument, "readback past the end of the buffer");
  MOTE_TRY_ASSIGN(Buffer staging, Buffer::create(device, {.size = size,
                                                          .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                          .memory = MemoryUsage::kReadback,
                                                          .name = "mote.staging_readback"}));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    // Whatever wrote src before this submission (compute, transfer) must be visible to the copy.
    VkMemoryBarrier2 before{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    before.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    before.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
    before.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    before.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &before;
    vkCmdPipelineBarrier2(cmd, &dep);
    VkBufferCopy region{src_offset, 0, size};
    vkCmdCopyBuffer(cmd, src.handle(), staging.handle(), 1, &region);
    VkMemoryBarrier2 after{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    after.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    after.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    after.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
    after.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
    dep.pMemoryBarriers = &after;
    vkCmdPipelineBarrier2(cmd, &dep);
  }));
  MOTE_TRY(staging.invalidate());
  std::vector<uint8_t> out(size);
  std::memcpy(out.data(), staging.mapped(), size);
  return out;
}

Status upload_image(Device& device, const Image& image, std::span<const uint8_t> bytes) {
  if (bytes.empty()) return make_error(ErrorCode::kInvalidArgument, "upload of an empty image");
  MOTE_TRY_ASSIGN(Buffer staging, Buffer::create(device, {.size = bytes.size(),
                                                          .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                          .memory = MemoryUsage::kUpload,
                                                          .name = "mote.staging_image"}));
  std::memcpy(staging.mapped(), bytes.data(), bytes.size());
  MOTE_TRY(staging.flush());
  return device.submit_and_wait([&](VkCommandBuffer cmd) {
    image_barrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE,
                  VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {image.aspect(), 0, 0, 1};
    region.imageExtent = {image.width(), image.height(), 1};
    vkCmdCopyBufferToImage(cmd, staging.handle(), image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                  VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  });
}

Result<std::vector<uint8_t>> readback_image(Device& device, const Image& image, VkImageLayout layout,
                                            uint32_t texel_bytes) {
  const VkDeviceSize size = VkDeviceSize(image.width()) * image.height() * texel_bytes;
  MOTE_TRY_ASSIGN(Buffer staging, Buffer::create(device, {.size = size,
                                                          .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                          .memory = MemoryUsage::kReadback,
                                                          .name = "mote.staging_image_readback"}));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    image_barrier(cmd, image, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                  VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {image.aspect(), 0, 0, 1};
    region.imageExtent = {image.width(), image.height(), 1};
    vkCmdCopyImageToBuffer(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging.handle(), 1, &region);
    image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, layout, VK_PIPELINE_STAGE_2_COPY_BIT,
                  VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                  VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                   VK_ACCESS_2_HOST_READ_BIT);
  }));
  MOTE_TRY(staging.invalidate());
  std::vector<uint8_t> out(size);
  std::memcpy(out.data(), staging.mapped(), size);
  return out;
}

}  // namespace mote::gpu
