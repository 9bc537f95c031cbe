#include "runtime/frame/tick_pass.hpp"

#include "gpu/commands.hpp"

namespace mote::runtime {

Result<TickPass> TickPass::create(gpu::Device& device) {
  TickPass pass;
  MOTE_TRY_ASSIGN(pass.pipeline_, gpu::ComputePipeline::create(device, "runtime/frame/tick"));
  return pass;
}

void TickPass::record_tick(const FrameRecording& frame) const {
  const FrameBuffers& b = frame.buffers;
  frame.begin_pass("tick");
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(pipeline_)
      .buffers({{shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingEmitters, &b.emitters},
                {shader::kFrameBindingStates, &b.states},
                {shader::kFrameBindingSpawnCounts, &b.spawn_counts},
                {shader::kFrameBindingSpawnPlaces, &b.spawn_places},
                {shader::kFrameBindingBursts, &b.bursts},
                {shader::kFrameBindingEmitterBounds, &b.emitter_bounds},
                {shader::kFrameBindingEventRows, frame.events.rows}})
      .dispatch_threads(frame.rows);
  frame.end_pass();
}

Status TickPass::record(const FrameRecording& frame) const {
  const FrameBuffers& b = frame.buffers;
  record_tick(frame);
  frame.begin_pass("scan");
  const Status scanned = b.spawn_scan.record(frame.cmd, b.spawn_counts, b.spawn_sums, gpu::ScanCount::host(frame.rows),
                                             gpu::ScanKind::kInclusive);
  gpu::compute_to_compute(frame.cmd);
  frame.end_pass();
  return scanned;
}

}  // namespace mote::runtime
