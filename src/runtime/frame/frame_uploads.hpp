// What the host writes into the frame's GPU buffers at the start of a frame, as regions: small
// ones go into the command buffer (vkCmdUpdateBuffer), large ones through a host-visible staging
// buffer and one vkCmdCopyBuffer per destination. A staging buffer is reused once the submission
// that read it completed (execute() knows its serial); a frame the host submits itself (record())
// writes every region into the command buffer, so nothing Mote owns waits on the host's queue.
// Also keeps buffers the frame retired (a grown buffer's predecessor) alive until no frame in
// flight can read them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <deque>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_options.hpp"

namespace mote::runtime {

// Regions up to this size go into the command buffer; larger ones through staging.
inline constexpr VkDeviceSize kInlineUpdateBytes = 512;

// Writes `bytes` at `offset` inline, in the pieces of at most 65536 bytes vkCmdUpdateBuffer takes.
void update_buffer(VkCommandBuffer cmd, const gpu::Buffer& buffer, VkDeviceSize offset, const void* data, size_t bytes);

class FrameUploads {
 public:
  // Forgets the regions of a frame that was prepared but not recorded (its preparation failed).
  void clear() {
    regions_.clear();
    current_ = nullptr;
  }
  // One region; `data` must stay valid and unchanged until record().
  void add(const gpu::Buffer& dst, VkDeviceSize offset, const void* data, VkDeviceSize bytes);
  // Copies the large regions into a free staging buffer (allocating one when none is free and
  // large enough); with `inline_only` nothing is staged.
  Status stage(gpu::Device& device, bool inline_only);
  // Records the staged copies, then the inline updates.
  void record(VkCommandBuffer cmd) const;
  // After the frame was submitted as `serial` (0: by the host, nothing staged): the staging buffer
  // is free again once it completes. Counts the regions into `stats` and forgets them.
  void submitted(uint64_t serial, UploadStats& stats);

 private:
  struct Region {
    const gpu::Buffer* dst = nullptr;
    VkDeviceSize offset = 0;
    const void* data = nullptr;
    VkDeviceSize bytes = 0;
    bool staged = false;
    VkDeviceSize staging_offset = 0;
  };
  // A host-visible staging buffer, reused once the submission that read it (serial) completed.
  struct Staging {
    gpu::Buffer buffer;
    uint64_t serial = 0;
  };
  Result<Staging*> staging_for(gpu::Device& device, VkDeviceSize bytes);

  std::vector<Region> regions_;
  std::vector<Staging> staging_;
  Staging* current_ = nullptr;  // the one this frame staged into
};

// Buffers replaced while frames that may read them are in flight: each is dropped once
// `frames_in_flight` further frames were recorded (its destruction is then deferred by the
// device until Mote's own submissions are done with it).
class RetiredBuffers {
 public:
  void retire(gpu::Buffer buffer, uint64_t frame) { retired_.push_back({std::move(buffer), frame}); }
  // The buffer retired last (there must be one), and taking it back.
  const gpu::Buffer& newest() const { return retired_.back().buffer; }
  gpu::Buffer take_newest() {
    gpu::Buffer b = std::move(retired_.back().buffer);
    retired_.pop_back();
    return b;
  }
  void release(uint64_t frame, uint32_t frames_in_flight);

 private:
  struct Retired {
    gpu::Buffer buffer;
    uint64_t frame = 0;
  };
  std::deque<Retired> retired_;
};

}  // namespace mote::runtime
