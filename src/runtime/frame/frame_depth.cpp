#include "runtime/frame/frame_depth.hpp"

#include <utility>

#include "gpu/transfer.hpp"
#include "runtime/frame/frame_buffers.hpp"
#include "vm/depth_sampling.hpp"

namespace mote::runtime {

Result<FrameDepth> FrameDepth::create(gpu::Device& device) {
  FrameDepth f;
  f.words_ = depth_buffer_words(nullptr);
  MOTE_TRY_ASSIGN(f.buffer_, make_frame_buffer(device, VkDeviceSize(f.words_.size()) * 4, kFrameStorageUsage,
                                               "mote.frame.collision_depth"));
  MOTE_TRY(gpu::upload_span<uint32_t>(device, f.buffer_, f.words_));
  return f;
}

Status FrameDepth::set(std::optional<DepthImage> image) {
  if (image) {
    if (Status checked = check_depth_image(*image); !checked.ok()) {
      Error e = checked.error();
      e.where = "depth." + e.where;
      return e;
    }
  }
  image_ = std::move(image);
  dirty_ = true;
  return ok_status();
}

Status FrameDepth::prepare(gpu::Device& device, FrameUploads& uploads, RetiredBuffers& retired, uint32_t frame) {
  if (!dirty_) return ok_status();
  std::vector<uint32_t> words = depth_buffer_words(image());
  const VkDeviceSize bytes = VkDeviceSize(words.size()) * 4;
  MOTE_TRY_ASSIGN(gpu::Buffer buffer,
                  make_frame_buffer(device, bytes, kFrameStorageUsage, "mote.frame.collision_depth"));
  retired.retire(std::exchange(buffer_, std::move(buffer)), frame);
  words_ = std::move(words);
  uploads.add(buffer_, 0, words_.data(), bytes);
  dirty_ = false;
  return ok_status();
}

}  // namespace mote::runtime
