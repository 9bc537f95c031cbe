// The frame's last pass (shaders/runtime/frame/finish.comp): this frame's alive count (emit's
// newborns plus the survivors compact placed), the free list's height, and next frame's
// simulate dispatch, written from the GPU's own count — nothing sized by a readback.
#pragma once

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_recording.hpp"

namespace mote::runtime {

class FinishPass {
 public:
  static Result<FinishPass> create(gpu::Device& device);
  // Ends with the frame's end barrier (indirect reads, draws' compute-written inputs, readbacks).
  void record(const FrameRecording& frame) const;

 private:
  gpu::ComputePipeline pipeline_;
};

}  // namespace mote::runtime
