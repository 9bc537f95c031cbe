// The frame's first fill (shaders/runtime/frame/init.comp): the free-slot stack holds every slot
// and the counters start at zero, on the GPU, once when the system is made.
#pragma once

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_buffers.hpp"

namespace mote::runtime {

class InitPass {
 public:
  static Result<InitPass> create(gpu::Device& device);
  // Submits the fill and waits for it.
  Status run(gpu::Device& device, const FrameBuffers& buffers, uint32_t capacity) const;

 private:
  gpu::ComputePipeline pipeline_;
};

}  // namespace mote::runtime
