#include "runtime/frame/alive_watch.hpp"

#include <cstddef>
#include <cstring>

#include "shared/frame.h"
#include "gpu/commands.hpp"

namespace mote::runtime {

Result<AliveWatch> AliveWatch::create(gpu::Device& device) {
  AliveWatch watch;
  MOTE_TRY_ASSIGN(watch.ring_, gpu::Buffer::create(device, {.size = kSlots * sizeof(uint32_t),
                                                            .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                            .memory = gpu::MemoryUsage::kReadback,
                                                            .name = "frame alive watch"}));
  return watch;
}

void AliveWatch::record_copy(VkCommandBuffer cmd, const gpu::Buffer& counters, uint32_t frame) const {
  const VkBufferCopy copy{offsetof(shader::FrameCounters, alive_out), (frame % kSlots) * sizeof(uint32_t),
                          sizeof(uint32_t)};
  vkCmdCopyBuffer(cmd, counters.handle(), ring_.handle(), 1, &copy);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

void AliveWatch::recorded(uint32_t frame, uint64_t serial, bool could_spawn) {
  entries_.push_back({frame, serial, could_spawn});
  while (entries_.size() > kSlots) entries_.pop_front();
}

Result<bool> AliveWatch::known_empty(gpu::Device& device, uint32_t next_frame, uint32_t frames_in_flight) {
  MOTE_TRY_ASSIGN(const uint64_t completed, device.completed_serial());
  // From the newest frame back: every frame after the candidate must have been unable to spawn.
  for (size_t i = entries_.size(); i-- > 0;) {
    const Entry& e = entries_[i];
    const bool done = e.serial != 0 ? e.serial <= completed : uint64_t(e.frame) + frames_in_flight < next_frame;
    // A slot a later frame may be writing again is not read.
    if (done && uint64_t(e.frame) + kSlots > next_frame) {
      MOTE_TRY(ring_.invalidate());
      uint32_t alive = 0;
      std::memcpy(&alive, static_cast<const uint8_t*>(ring_.mapped()) + (e.frame % kSlots) * sizeof(uint32_t),
                  sizeof(alive));
      // The entries before this one no longer matter.
      entries_.erase(entries_.begin(), entries_.begin() + ptrdiff_t(i));
      return alive == 0;
    }
    if (done || e.could_spawn) return false;
  }
  return false;
}

}  // namespace mote::runtime
