// Reset and the host's bursts (shaders/runtime/frame/reset.comp): last frame's alive list becomes
// this frame's input, the append counters start over, the spawn budget is seeded from the free
// count, and the host's spawn commands ([row, count] pairs, burst()) land in their rows' PENDING.
// One dispatch: thread 0 owns the counters, thread i < command_count owns command i.
#pragma once

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_recording.hpp"

namespace mote::runtime {

class ResetPass {
 public:
  static Result<ResetPass> create(gpu::Device& device);
  // Reads the frame's parameters and commands as written at the start of the frame; ends with a
  // compute-to-compute barrier.
  void record(const FrameRecording& frame) const;

 private:
  gpu::ComputePipeline pipeline_;
};

}  // namespace mote::runtime
