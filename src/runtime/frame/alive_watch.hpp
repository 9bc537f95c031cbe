// What the host knows of the pool's alive count without waiting for the GPU (docs/design/
// runtime_frame.md, "Quiescent frames"). Every frame that runs the passes copies its final alive
// count into a small host-visible ring; once that frame has completed, the host reads its slot.
// With it, and whether each frame recorded since could spawn, the host knows that the pool is
// empty and stays empty — the condition for a frame that records the tick alone.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <deque>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"

namespace mote::runtime {

class AliveWatch {
 public:
  static Result<AliveWatch> create(gpu::Device& device);

  // Records the copy of `counters`' alive_out (this frame's final alive count) into frame
  // `frame`'s ring slot, after the frame's last pass (whose end barrier made its writes visible
  // to transfers), and the barrier that makes it visible to the host.
  void record_copy(VkCommandBuffer cmd, const gpu::Buffer& counters, uint32_t frame) const;
  // Frame `frame` (the system's frame index) was recorded: submitted as `serial` (0: the host
  // submits it) and `could_spawn`: whether anything could have spawned in it.
  void recorded(uint32_t frame, uint64_t serial, bool could_spawn);
  // Whether the pool is known to be empty now: the newest completed frame of those recorded
  // ended with nothing alive, and none recorded after it could spawn. `next_frame` is the index
  // the next frame would take; a host-submitted frame counts as completed once
  // `frames_in_flight` later frames were recorded (the contract of ParticleSystem::record).
  Result<bool> known_empty(gpu::Device& device, uint32_t next_frame, uint32_t frames_in_flight);

 private:
  static constexpr uint32_t kSlots = 16;  // more frames in flight than this: nothing is known
  struct Entry {
    uint32_t frame = 0;
    uint64_t serial = 0;
    bool could_spawn = true;
  };
  gpu::Buffer ring_;  // kSlots u32, host-visible
  std::deque<Entry> entries_;
};

}  // namespace mote::runtime
