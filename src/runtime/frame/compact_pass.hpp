// Compact (gpu::PrefixScan over the tiles' survivor counts, then shaders/runtime/frame/compact.comp):
// the survivors into this frame's alive list after the newborns and the freed slots onto the free
// list, both in last frame's list order, so the list keeps birth order and the free list death
// order. docs/design/runtime_frame.md, "Compaction".
#pragma once

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_recording.hpp"

namespace mote::runtime {

class CompactPass {
 public:
  static Result<CompactPass> create(gpu::Device& device);
  // Records "compact" (the scan of every tile of the capacity, then the placement, indirect over
  // last frame's list), ending with a compute-to-compute barrier. An error only for a scan longer
  // than it was made for.
  Status record(const FrameRecording& frame) const;

 private:
  gpu::ComputePipeline pipeline_;
};

}  // namespace mote::runtime
