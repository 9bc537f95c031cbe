#include "runtime/frame/emit_pass.hpp"

#include <algorithm>
#include <vector>

#include "gpu/commands.hpp"
#include "runtime/frame/interpreted_code.hpp"
#include "shared/vm_limits.h"

namespace mote::runtime {

Result<EmitPass> EmitPass::create(gpu::Device& device) {
  EmitPass pass;
  const gpu::SpecializationConstant window[] = {{kFrameWindowCapacityId, shader::kFrameFastWindowChunks}};
  MOTE_TRY_ASSIGN(pass.args_, gpu::ComputePipeline::create(device, "runtime/frame/emit_args"));
  MOTE_TRY_ASSIGN(pass.fast_, gpu::ComputePipeline::create(device, "runtime/frame/emit", window));
  return pass;
}

Status EmitPass::ensure(gpu::Device& device, const Program& program, uint32_t record_words) {
  if (needs_large_window(program, Section::kInit, record_words) && !large_window_.valid()) {
    const gpu::SpecializationConstant window[] = {{kFrameWindowCapacityId, shader::kVmMaxWindowChunks}};
    MOTE_TRY_ASSIGN(large_window_, gpu::ComputePipeline::create(device, "runtime/frame/emit", window));
  }
  if (needs_wide_interpreter(program) && !wide_.valid()) {
    MOTE_TRY_ASSIGN(wide_, gpu::ComputePipeline::create(device, "runtime/frame/emit_wide"));
  }
  return ok_status();
}

void EmitPass::record(const FrameRecording& frame, std::span<const ProgramDispatch> dispatches,
                      uint32_t program_ids) const {
  const FrameBuffers& b = frame.buffers;
  frame.begin_pass("emit_args");
  const uint32_t ranges = uint32_t(b.spawn_ranges.size() / sizeof(shader::FrameSpawnRange));
  const uint32_t programs = std::min(program_ids, ranges);
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(args_)
      .buffers({{shader::kFrameBindingParams, &b.params},
                {shader::kFrameBindingCounters, &b.counters},
                {shader::kFrameBindingSpawnSums, &b.spawn_sums},
                {shader::kFrameBindingSpawnRanges, &b.spawn_ranges}})
      .push(shader::FrameBucketPush{programs, 0u, 0u, 0u})
      .dispatch_threads(std::max(programs, 1u));
  gpu::compute_to_indirect(frame.cmd);
  frame.end_pass();
  frame.begin_pass("emit");
  const uint32_t wide_groups = frame.wide_lanes / shader::kFrameWorkgroupSize;
  for (const ProgramDispatch& d : dispatches) {
    const bool wide = d.wide && !d.compiled_emit;
    std::vector<gpu::BufferBinding> bindings{
        {shader::kFrameBindingParams, &b.params},          {shader::kFrameBindingCounters, &b.counters},
        {shader::kFrameBindingEmitters, &b.emitters},      {shader::kFrameBindingStates, &b.states},
        {shader::kFrameBindingSpawnSums, &b.spawn_sums},   {shader::kFrameBindingFreeList, &b.free_list},
        {shader::kFrameBindingAliveOut, &frame.alive_out}, {shader::kFrameBindingPool, &b.pool},
        {shader::kFrameBindingProgram, &frame.program},    {shader::kFrameBindingTransformChannels, &frame.channels},
        {shader::kFrameBindingSpawnRows, &b.spawn_rows},   {shader::kFrameBindingSpawnRanges, &b.spawn_ranges}};
    if (wide) bindings.push_back({shader::kFrameBindingWideRegisters, &b.wide_registers});
    frame.add_event_bindings(bindings, true);
    frame.add_vector_field_bindings(bindings);
    shader::FramePush push = d.init_push;
    push.events = frame.events.on ? 1u : 0u;
    gpu::ComputeRecorder rec(frame.device, frame.cmd);
    rec.bind(wide                  ? wide_
             : d.compiled_emit     ? *d.compiled_emit
             : d.init_large_window ? large_window_
                                   : fast_)
        .buffers(std::span<const gpu::BufferBinding>(bindings))
        .push(push);
    if (wide) {
      rec.dispatch(wide_groups);
      // Wide dispatches share one register file: each waits for the one before.
      gpu::compute_to_compute(frame.cmd);
    } else if (d.program < programs) {
      rec.dispatch_indirect(b.spawn_ranges, VkDeviceSize(d.program) * sizeof(shader::FrameSpawnRange));
    }
  }
  // Emit takes slots off the free list; compact pushes the freed ones back.
  gpu::compute_to_compute(frame.cmd);
  frame.end_pass();
}

}  // namespace mote::runtime
