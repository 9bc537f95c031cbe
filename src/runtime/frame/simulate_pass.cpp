#include "runtime/frame/simulate_pass.hpp"

#include <vector>

#include "gpu/commands.hpp"
#include "runtime/frame/interpreted_code.hpp"
#include "shared/vm_limits.h"

namespace mote::runtime {

Result<SimulatePass> SimulatePass::create(gpu::Device& device) {
  SimulatePass pass;
  const gpu::SpecializationConstant window[] = {{kFrameWindowCapacityId, shader::kFrameFastWindowChunks}};
  MOTE_TRY_ASSIGN(pass.fast_, gpu::ComputePipeline::create(device, "runtime/frame/simulate", window));
  MOTE_TRY_ASSIGN(pass.keep_clear_, gpu::ComputePipeline::create(device, "runtime/frame/keep_clear"));
  return pass;
}

Status SimulatePass::ensure(gpu::Device& device, const Program& program, uint32_t record_words) {
  if (needs_large_window(program, Section::kUpdate, record_words) && !large_window_.valid()) {
    const gpu::SpecializationConstant window[] = {{kFrameWindowCapacityId, shader::kVmMaxWindowChunks}};
    MOTE_TRY_ASSIGN(large_window_, gpu::ComputePipeline::create(device, "runtime/frame/simulate", window));
  }
  if (needs_wide_interpreter(program) && !wide_.valid()) {
    MOTE_TRY_ASSIGN(wide_, gpu::ComputePipeline::create(device, "runtime/frame/simulate_wide"));
  }
  return ok_status();
}

std::vector<gpu::BufferBinding> simulate_bindings(const FrameRecording& frame, const gpu::Buffer& buckets,
                                                  const gpu::Buffer& coherence, bool wide) {
  const FrameBuffers& b = frame.buffers;
  std::vector<gpu::BufferBinding> bindings{{shader::kFrameBindingParams, &b.params},
                                           {shader::kFrameBindingCounters, &b.counters},
                                           {shader::kFrameBindingEmitters, &b.emitters},
                                           {shader::kFrameBindingStates, &b.states},
                                           {shader::kFrameBindingAliveIn, &frame.alive_in},
                                           {shader::kFrameBindingKeep, &b.keep},
                                           {shader::kFrameBindingPool, &b.pool},
                                           {shader::kFrameBindingProgram, &frame.program},
                                           {shader::kFrameBindingTransformChannels, &frame.channels},
                                           {shader::kFrameBindingBuckets, &buckets},
                                           {shader::kFrameBindingCoherence, &coherence}};
  if (wide) bindings.push_back({shader::kFrameBindingWideRegisters, &b.wide_registers});
  frame.add_event_bindings(bindings, false);
  frame.add_vector_field_bindings(bindings);
  return bindings;
}

Status SimulatePass::record(const FrameRecording& frame, std::span<const ProgramDispatch> dispatches,
                            const BucketPass& buckets, bool bucketed, uint32_t program_ids) const {
  const FrameBuffers& b = frame.buffers;
  if (bucketed) {
    frame.begin_pass("bucket");
    const Status sorted = buckets.record(frame, program_ids);
    frame.end_pass();
    if (!sorted.ok()) return sorted;
  }
  frame.begin_pass("simulate");
  // The walked tiles' keep flags, sized from the GPU's count (nothing alive: nothing cleared).
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(keep_clear_)
      .buffers({{shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingKeep, &b.keep}})
      .dispatch_indirect(b.counters, shader::kFrameSimulateArgsOffset);
  gpu::compute_to_compute(frame.cmd);
  // With no live program, one dispatch of no program still frees the orphans.
  const ProgramDispatch orphans_only{};
  const std::span<const ProgramDispatch> list = dispatches.empty() ? std::span(&orphans_only, 1) : dispatches;
  const uint32_t wide_groups = frame.wide_lanes / shader::kFrameWorkgroupSize;
  for (size_t i = 0; i < list.size(); ++i) {
    const ProgramDispatch& d = list[i];
    shader::FramePush push = d.update_push;
    push.program = d.program;
    // Bucketed, the orphans were freed by the bucket count and every entry of a bucket runs its
    // program.
    push.first_dispatch = !bucketed && i == 0 ? 1u : 0u;
    push.only_dispatch = bucketed || list.size() == 1 ? 1u : 0u;
    push.bucketed = bucketed ? 1u : 0u;
    push.events = frame.events.on ? 1u : 0u;
    const bool wide = d.wide && !d.compiled_simulate;
    std::vector<gpu::BufferBinding> bindings = simulate_bindings(frame, buckets.buckets(), buckets.coherence(), wide);
    // The survivors' bounds are folded here (the pre-warm's advance, sharing simulate_bindings, has none).
    bindings.push_back({shader::kFrameBindingBoundsAccumulators, &b.bounds_accumulators});
    gpu::ComputeRecorder rec(frame.device, frame.cmd);
    rec.bind(wide                    ? wide_
             : d.compiled_simulate   ? *d.compiled_simulate
             : d.update_large_window ? large_window_
                                     : fast_)
        .buffers(std::span<const gpu::BufferBinding>(bindings))
        .push(push);
    if (wide) {
      rec.dispatch(wide_groups);
      gpu::compute_to_compute(frame.cmd);  // wide dispatches share one register file
    } else if (bucketed) {
      rec.dispatch_indirect(buckets.buckets(), VkDeviceSize(d.program) * sizeof(shader::FrameBucket));
    } else {
      rec.dispatch_indirect(b.counters, shader::kFrameSimulateArgsOffset);
    }
  }
  gpu::compute_to_compute(frame.cmd);
  frame.end_pass();
  return ok_status();
}

}  // namespace mote::runtime
