// Measured bounds per emitter (shaders/runtime/frame/bounds_accumulate.comp and
// bounds_publish.comp): after finish, the alive list the frame wrote is folded into per-row
// accumulators — each particle's drawn shape dilated by the most its size, stretch and any view's
// projection can give — and published per row as FrameEmitterBounds (the box, the empty or the
// unknown sentinel, the alive count). The tick's culling and the renderer's volume passes read
// them on the GPU; read_stats() reads them back. docs/design/runtime_frame.md, "Bounds".
#pragma once

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_recording.hpp"

namespace mote::runtime {

class BoundsPass {
 public:
  static Result<BoundsPass> create(gpu::Device& device);
  // Records "bounds" after the finish pass; ends with the frame's end barrier.
  void record(const FrameRecording& frame) const;

 private:
  gpu::ComputePipeline accumulate_;
  gpu::ComputePipeline publish_;
};

}  // namespace mote::runtime
