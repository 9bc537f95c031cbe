// The field-bind pass (shaders/runtime/frame/field_bind.comp): one invocation per row of the
// bindings table (FieldBindings), recorded right after the transforms' compose pass and before the
// tick, so INIT and UPDATE read this frame's poses from the bound words of the program buffer.
#pragma once

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_recording.hpp"

namespace mote::runtime {

class FieldBindPass {
 public:
  static Result<FieldBindPass> create(gpu::Device& device);
  // Copies `count` rows' channels; ordered before the tick by the reset pass's barrier.
  void record(const FrameRecording& frame, const gpu::Buffer& bindings, uint32_t count) const;

 private:
  gpu::ComputePipeline pipeline_;
};

}  // namespace mote::runtime
