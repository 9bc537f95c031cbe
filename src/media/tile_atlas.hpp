// A general 3-D tile atlas: one 3-D image of one format cut into tiles of content + 2·border
// texels a side, slots linear (x fastest, z slowest) in a footprint of slots_x × slots_y tiles a
// layer, handed out by a free list that reuses the most recently freed slot first. `allocate`
// grows the image by a layer when no slot is free (the old extent copied across, every tile at
// its origin); once the depth would pass the limit it widens instead — the smaller of x and y
// doubles (x on a tie, capped at the limit), the layers shrink to what the slots need, and every
// live tile is copied to where its slot sits under the new footprint (a slot keeps its index and
// its texels; its origin moves). Past the limit in all three axes `allocate` is an error with the
// numbers. docs/design/media.md, "The tile atlas".
//
// The image is in SHADER_READ_ONLY_OPTIMAL between calls, readable by fragment and compute
// shaders. `allocate` may replace the image: take handle(), view(), footprint() or an origin
// after allocating, never across an allocate. allocate, write and read_tile submit and wait (set-up
// paths); record_copy_from_buffer records into the caller's command buffer.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "media/image3d.hpp"
#include "mote/result.hpp"

namespace mote::media {

struct TileAtlasDesc {
  VkFormat format = VK_FORMAT_R8_UNORM;
  uint32_t content = 128;  // texels of content a side
  uint32_t border = 1;     // texels of skirt a side (write() fills it with the content wrapped)
  uint32_t slots_x = 2;    // the starting footprint
  uint32_t slots_y = 1;
  uint32_t capacity = 2;  // slots at creation, rounded up to whole layers of the footprint
  // How clients bind the image (SAMPLED, STORAGE); the atlas adds TRANSFER_SRC | TRANSFER_DST.
  VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  // The largest extent on any axis, in texels: 0 = the device's maxImageDimension3D, otherwise the
  // smaller of the two (tests impose a small one to reach the widening and the limit).
  uint32_t max_extent = 0;
  std::string name = "mote.tile_atlas";
};

class TileAtlas3D {
 public:
  TileAtlas3D() = default;
  // Errors (kInvalidArgument): a format with no texel size here, content 0, a border wider than
  // the content, a zero footprint or capacity, a starting image past the limit.
  static Result<TileAtlas3D> create(gpu::Device& device, const TileAtlasDesc& desc);

  // A free slot, growing or widening the image when none is (submit and wait). Errors:
  // kOutOfMemory with the numbers when the atlas is full at its limit; the device's own.
  Result<uint32_t> allocate();
  // Gives `slot` back (its texels stay until the slot is handed out and written again).
  // kInvalidArgument for a slot that is not live.
  Status free(uint32_t slot);
  bool is_live(uint32_t slot) const { return slot < live_.size() && live_[slot]; }
  uint32_t live_count() const { return live_count_; }

  // `content` (content^3 texels, x fastest) into `slot` with its skirt built on the host
  // (bordered_block), submit and wait. kInvalidArgument for a slot that is not live or a size
  // that is not content^3 texels of the format.
  Status write(uint32_t slot, std::span<const uint8_t> content);
  // Records the copy of a whole bordered tile a device producer wrote into `buffer` at `offset`
  // (rows of `row_texels` texels, tile() rows a layer) into `slot`: barriers from the producer's
  // compute writes and from the shaders' reads to the copy, and back to SHADER_READ_ONLY_OPTIMAL.
  // kInvalidArgument for a slot that is not live, rows shorter than a tile, a buffer too small.
  Status record_copy_from_buffer(VkCommandBuffer cmd, uint32_t slot, const gpu::Buffer& buffer, VkDeviceSize offset,
                                 uint32_t row_texels) const;
  // The bordered texels of `slot` (tile()^3, x fastest), submit and wait: for tests and tools.
  Result<std::vector<uint8_t>> read_tile(uint32_t slot) const;

  // Slots per axis now (x, y, layers), the texel origin of a slot under it, slots it holds now and
  // at most.
  std::array<uint32_t, 3> footprint() const { return {slots_x_, slots_y_, layers_}; }
  std::array<uint32_t, 3> slot_origin(uint32_t slot) const;
  uint32_t capacity() const { return slots_x_ * slots_y_ * layers_; }
  uint64_t capacity_limit() const;
  uint32_t content() const { return desc_.content; }
  uint32_t border() const { return desc_.border; }
  uint32_t tile() const { return desc_.content + 2 * desc_.border; }
  uint32_t texel_size() const { return texel_bytes_; }
  VkImage handle() const { return image_.handle(); }
  VkImageView view() const { return image_.view(); }
  const Image3D& image() const { return image_; }
  bool valid() const { return image_.valid(); }

 private:
  uint32_t slots_per_axis() const { return max_extent_ / tile(); }
  Status grow();
  Status resize(uint32_t slots_x, uint32_t slots_y, uint32_t layers);
  Status check_live(uint32_t slot, const char* who) const;

  gpu::Device* device_ = nullptr;
  TileAtlasDesc desc_;
  uint32_t texel_bytes_ = 0;
  uint32_t max_extent_ = 0;
  uint32_t slots_x_ = 0, slots_y_ = 0, layers_ = 0;
  Image3D image_;
  std::vector<bool> live_;      // by slot, up to the highest ever handed out
  std::vector<uint32_t> free_;  // freed slots, the most recent last
  uint32_t next_unused_ = 0;    // slots below it have been handed out at least once
  uint32_t live_count_ = 0;
};

}  // namespace mote::media
