// The emitter tick and the spawn scan (shaders/runtime/frame/tick.comp, then gpu::PrefixScan):
// each live row's spawn count for this frame from its rate, its declared bursts and the host's
// PENDING, debited from the budget (docs/design/simulation.md's rules, on the GPU), then the
// counts' inclusive scan, so a row's batch of newborns ends at its sum.
#pragma once

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_recording.hpp"

namespace mote::runtime {

class TickPass {
 public:
  static Result<TickPass> create(gpu::Device& device);
  // Records the tick over frame.rows rows ("tick") and the scan ("scan", ending with a
  // compute-to-compute barrier). An error only for a scan longer than it was made for.
  Status record(const FrameRecording& frame) const;
  // The tick alone ("tick"), for a quiescent frame (docs/design/runtime_frame.md, "Quiescent
  // frames"): the clocks advance and every row asks 0, so no scan is needed.
  void record_tick(const FrameRecording& frame) const;

 private:
  gpu::ComputePipeline pipeline_;
};

}  // namespace mote::runtime
