#include "media/tile_atlas.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "gpu/commands.hpp"
#include "media/noise_tile.hpp"

namespace mote::media {

namespace {

constexpr VkPipelineStageFlags2 kReaderStages = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                                                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;

// The image from the shaders' reads to a copy's `access` in `layout`.
void to_transfer(VkCommandBuffer cmd, const Image3D& image, VkImageLayout layout, VkAccessFlags2 access) {
  image3d_barrier(cmd, image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, layout, kReaderStages, VK_ACCESS_2_NONE,
                  VK_PIPELINE_STAGE_2_COPY_BIT, access);
}
// Back from a copy in `layout` to the shaders' reads.
void to_readers(VkCommandBuffer cmd, const Image3D& image, VkImageLayout layout) {
  image3d_barrier(cmd, image, layout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                  layout == VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL ? VK_ACCESS_2_TRANSFER_WRITE_BIT : VK_ACCESS_2_NONE,
                  kReaderStages, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
}

VkImageUsageFlags atlas_usage(const TileAtlasDesc& desc) {
  return desc.usage | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
}

uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

}  // namespace

Result<TileAtlas3D> TileAtlas3D::create(gpu::Device& device, const TileAtlasDesc& desc) {
  TileAtlas3D atlas;
  atlas.device_ = &device;
  atlas.desc_ = desc;
  atlas.texel_bytes_ = texel_bytes(desc.format);
  if (atlas.texel_bytes_ == 0)
    return make_error(ErrorCode::kInvalidArgument, fmt::format("format {} is not an atlas format", int(desc.format)),
                      desc.name);
  if (desc.content == 0 || desc.border > desc.content)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("tile content {} with border {}: the content must be at least 1 and the border "
                                  "no wider than it",
                                  desc.content, desc.border),
                      desc.name);
  if (desc.slots_x == 0 || desc.slots_y == 0 || desc.capacity == 0)
    return make_error(ErrorCode::kInvalidArgument, "an atlas needs a footprint and a capacity of at least one slot",
                      desc.name);
  const uint32_t device_limit = device.limits().maxImageDimension3D;
  atlas.max_extent_ = desc.max_extent ? std::min(desc.max_extent, device_limit) : device_limit;
  const uint32_t layers = ceil_div(desc.capacity, desc.slots_x * desc.slots_y);
  const uint32_t spa = atlas.slots_per_axis();
  if (desc.slots_x > spa || desc.slots_y > spa || layers > spa)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("a starting footprint of {}x{}x{} tiles of {} texels passes the limit of {} texels "
                                  "per axis",
                                  desc.slots_x, desc.slots_y, layers, atlas.tile(), atlas.max_extent_),
                      desc.name);
  MOTE_TRY(atlas.resize(desc.slots_x, desc.slots_y, layers));
  return atlas;
}

std::array<uint32_t, 3> TileAtlas3D::slot_origin(uint32_t slot) const {
  const uint32_t t = tile();
  return {slot % slots_x_ * t, slot / slots_x_ % slots_y_ * t, slot / (slots_x_ * slots_y_) * t};
}

uint64_t TileAtlas3D::capacity_limit() const {
  const uint64_t spa = slots_per_axis();
  return spa * spa * spa;
}

Status TileAtlas3D::resize(uint32_t slots_x, uint32_t slots_y, uint32_t layers) {
  const uint32_t t = tile();
  MOTE_TRY_ASSIGN(Image3D next, Image3D::create(*device_, {.width = slots_x * t,
                                                           .height = slots_y * t,
                                                           .depth = layers * t,
                                                           .format = desc_.format,
                                                           .usage = atlas_usage(desc_),
                                                           .name = desc_.name}));
  // Where every slot handed out so far sits under the new footprint (a slot keeps its index).
  std::vector<VkImageCopy> regions;
  if (image_.valid()) {
    const TileAtlas3D& old = *this;
    for (uint32_t slot = 0; slot < next_unused_; ++slot) {
      const std::array<uint32_t, 3> from = old.slot_origin(slot);
      const std::array<uint32_t, 3> to = {slot % slots_x * t, slot / slots_x % slots_y * t,
                                          slot / (slots_x * slots_y) * t};
      VkImageCopy r{};
      r.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      r.dstSubresource = r.srcSubresource;
      r.srcOffset = {int32_t(from[0]), int32_t(from[1]), int32_t(from[2])};
      r.dstOffset = {int32_t(to[0]), int32_t(to[1]), int32_t(to[2])};
      r.extent = {t, t, t};
      regions.push_back(r);
    }
  }
  const Image3D& old_image = image_;
  MOTE_TRY(device_->submit_and_wait([&](VkCommandBuffer cmd) {
    image3d_barrier(cmd, next, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                    VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                    VK_ACCESS_2_TRANSFER_WRITE_BIT);
    // Slots never written read as zero, whatever the driver's memory held.
    const VkClearColorValue zero{};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, next.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &zero, 1, &range);
    if (!regions.empty()) {
      gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
      to_transfer(cmd, old_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_2_TRANSFER_READ_BIT);
      vkCmdCopyImage(cmd, old_image.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, next.handle(),
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(regions.size()), regions.data());
    }
    image3d_barrier(cmd, next, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                    VK_PIPELINE_STAGE_2_CLEAR_BIT | VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    kReaderStages, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  }));
  image_ = std::move(next);  // the old image is destroyed once the copy has completed
  slots_x_ = slots_x;
  slots_y_ = slots_y;
  layers_ = layers;
  return ok_status();
}

Status TileAtlas3D::grow() {
  const uint32_t spa = slots_per_axis();
  if (layers_ < spa) return resize(slots_x_, slots_y_, layers_ + 1);
  if (slots_x_ >= spa && slots_y_ >= spa)
    return make_error(
        ErrorCode::kOutOfMemory,
        fmt::format("the atlas is full: {} slots of {}^3 texels in {}x{}x{} tiles, the most a limit of {} "
                    "texels per axis holds ({} tiles a side)",
                    capacity(), tile(), slots_x_, slots_y_, layers_, max_extent_, spa),
        desc_.name);
  // Widen: the smaller of x and y doubles (x on a tie; the other one when it is at the limit).
  uint32_t sx = slots_x_, sy = slots_y_;
  const bool widen_x = sy >= spa || (sx <= sy && sx < spa);
  if (widen_x) sx = std::min(2 * sx, spa);
  else sy = std::min(2 * sy, spa);
  return resize(sx, sy, ceil_div(capacity() + 1, sx * sy));
}

Result<uint32_t> TileAtlas3D::allocate() {
  uint32_t slot = 0;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    if (next_unused_ == capacity()) MOTE_TRY(grow());
    slot = next_unused_++;
    live_.resize(next_unused_, false);
  }
  live_[slot] = true;
  ++live_count_;
  return slot;
}

Status TileAtlas3D::check_live(uint32_t slot, const char* who) const {
  if (!is_live(slot))
    return make_error(ErrorCode::kInvalidArgument, fmt::format("slot {} is not a live slot of the atlas", slot),
                      fmt::format("{}.{}", desc_.name, who));
  return ok_status();
}

Status TileAtlas3D::free(uint32_t slot) {
  MOTE_TRY(check_live(slot, "free"));
  live_[slot] = false;
  --live_count_;
  free_.push_back(slot);
  return ok_status();
}

Status TileAtlas3D::write(uint32_t slot, std::span<const uint8_t> content) {
  MOTE_TRY(check_live(slot, "write"));
  MOTE_TRY_ASSIGN(const std::vector<uint8_t> block, bordered_block(content, desc_.content, desc_.border, texel_bytes_));
  MOTE_TRY_ASSIGN(gpu::Buffer staging, gpu::Buffer::create(*device_, {.size = block.size(),
                                                                      .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                                      .memory = gpu::MemoryUsage::kUpload,
                                                                      .name = desc_.name + ".staging"}));
  std::memcpy(staging.mapped(), block.data(), block.size());
  MOTE_TRY(staging.flush());
  const std::array<uint32_t, 3> origin = slot_origin(slot);
  const uint32_t t = tile();
  return device_->submit_and_wait([&](VkCommandBuffer cmd) {
    to_transfer(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageOffset = {int32_t(origin[0]), int32_t(origin[1]), int32_t(origin[2])};
    region.imageExtent = {t, t, t};
    vkCmdCopyBufferToImage(cmd, staging.handle(), image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    to_readers(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  });
}

Status TileAtlas3D::record_copy_from_buffer(VkCommandBuffer cmd, uint32_t slot, const gpu::Buffer& buffer,
                                            VkDeviceSize offset, uint32_t row_texels) const {
  MOTE_TRY(check_live(slot, "record_copy_from_buffer"));
  const uint32_t t = tile();
  const VkDeviceSize bytes = VkDeviceSize(row_texels) * t * t * texel_bytes_;
  if (row_texels < t || offset + bytes > buffer.size() || offset % texel_bytes_ != 0)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("a tile of {}^3 texels in rows of {} texels from offset {} does not fit a buffer of "
                                  "{} bytes",
                                  t, row_texels, offset, buffer.size()),
                      desc_.name + ".record_copy_from_buffer");
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  to_transfer(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_ACCESS_2_TRANSFER_WRITE_BIT);
  const std::array<uint32_t, 3> origin = slot_origin(slot);
  VkBufferImageCopy region{};
  region.bufferOffset = offset;
  region.bufferRowLength = row_texels;
  region.bufferImageHeight = t;
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageOffset = {int32_t(origin[0]), int32_t(origin[1]), int32_t(origin[2])};
  region.imageExtent = {t, t, t};
  vkCmdCopyBufferToImage(cmd, buffer.handle(), image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  to_readers(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  return ok_status();
}

Result<std::vector<uint8_t>> TileAtlas3D::read_tile(uint32_t slot) const {
  MOTE_TRY(check_live(slot, "read_tile"));
  const uint32_t t = tile();
  const VkDeviceSize bytes = VkDeviceSize(t) * t * t * texel_bytes_;
  MOTE_TRY_ASSIGN(gpu::Buffer staging, gpu::Buffer::create(*device_, {.size = bytes,
                                                                      .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                                      .memory = gpu::MemoryUsage::kReadback,
                                                                      .name = desc_.name + ".readback"}));
  const std::array<uint32_t, 3> origin = slot_origin(slot);
  MOTE_TRY(device_->submit_and_wait([&](VkCommandBuffer cmd) {
    to_transfer(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageOffset = {int32_t(origin[0]), int32_t(origin[1]), int32_t(origin[2])};
    region.imageExtent = {t, t, t};
    vkCmdCopyImageToBuffer(cmd, image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging.handle(), 1, &region);
    to_readers(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                        VK_ACCESS_2_HOST_READ_BIT);
  }));
  MOTE_TRY(staging.invalidate());
  std::vector<uint8_t> out(bytes);
  std::memcpy(out.data(), staging.mapped(), bytes);
  return out;
}

}  // namespace mote::media
