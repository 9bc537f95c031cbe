// Emit (shaders/runtime/frame/emit_args.comp, then emit.comp): the scan's total becomes emit's
// indirect dispatch and the newborns' slots are taken off the free list in one step, then one
// emit dispatch per live program runs INIT for that program's newborns — its compiled kernel, the
// fast interpreter (indirect over the newborns) or the wide interpreter (a fixed launch of
// wide_lanes walking them with a grid stride). docs/design/runtime_frame.md, "Emit".
#pragma once

#include <span>

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_recording.hpp"
#include "runtime/frame/program_dispatches.hpp"

namespace mote::runtime {

class EmitPass {
 public:
  static Result<EmitPass> create(gpu::Device& device);
  // Makes the pipelines `program` needs beyond the default one: the large-window specialisation
  // when its INIT window is wider than kFrameFastWindowChunks, the wide build for a program over
  // the fast file.
  Status ensure(gpu::Device& device, const Program& program, uint32_t record_words);
  // Records "emit_args" and "emit" (ending with a compute-to-compute barrier: emit took slots off
  // the free list that compact pushes back to).
  // `program_ids`: the heap's id capacity (every id's FrameSpawnRange is written; each dispatch
  // walks its program's run).
  void record(const FrameRecording& frame, std::span<const ProgramDispatch> dispatches, uint32_t program_ids) const;

 private:
  gpu::ComputePipeline args_;
  gpu::ComputePipeline fast_;          // stages record windows up to kFrameFastWindowChunks
  gpu::ComputePipeline large_window_;  // up to kVmMaxWindowChunks; made when first needed
  gpu::ComputePipeline wide_;          // made with the first wide program
};

}  // namespace mote::runtime
