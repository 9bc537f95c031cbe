// Simulate (shaders/runtime/frame/simulate.comp): last frame's alive list, one dispatch per live
// program, each running UPDATE for its program's particles — its compiled kernel, the fast
// interpreter or the wide one. With one live program (or none) the dispatch walks the list whole
// and also frees the orphans (particles whose row was removed or renewed); it runs even with no
// live program, so removed emitters' particles still die. With two or more, BucketPass sorts the
// list by program first (and frees the orphans) and each dispatch walks its program's bucket
// only, through the bucket's GPU-written indirect arguments. Each dispatch adds its survivors to
// the per-tile counts and masks (cleared first, for the walked tiles only) that CompactPass
// places. docs/design/runtime_frame.md, "Simulate" and "Two orderings".
#pragma once

#include <span>
#include <vector>

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"
#include "runtime/frame/bucket_pass.hpp"
#include "runtime/frame/frame_recording.hpp"
#include "runtime/frame/program_dispatches.hpp"

namespace mote::runtime {

// What simulate.comp binds (every build: the fast, wide, compiled and warm-up ones): the frame's
// buffers, the coherence buckets (`buckets`, `coherence`: stand-ins when the dispatch walks the
// list), and the wide register file when `wide`.
std::vector<gpu::BufferBinding> simulate_bindings(const FrameRecording& frame, const gpu::Buffer& buckets,
                                                  const gpu::Buffer& coherence, bool wide);

class SimulatePass {
 public:
  static Result<SimulatePass> create(gpu::Device& device);
  // The pipelines `program` needs beyond the default one (as EmitPass::ensure, for UPDATE).
  Status ensure(gpu::Device& device, const Program& program, uint32_t record_words);
  // Records "simulate": the walked tiles' keep flags cleared, then (`buckets` set: two or more
  // programs) "bucket", the bucketing over `program_ids` ids, then the dispatches, then a
  // compute-to-compute barrier. `buckets` is always bound (its stand-ins when not bucketing).
  Status record(const FrameRecording& frame, std::span<const ProgramDispatch> dispatches, const BucketPass& buckets,
                bool bucketed, uint32_t program_ids) const;

  // The interpreter build (tools: its pipeline statistics).
  const gpu::ComputePipeline& interpreter() const { return fast_; }

 private:
  gpu::ComputePipeline keep_clear_;
  gpu::ComputePipeline fast_;          // stages record windows up to kFrameFastWindowChunks
  gpu::ComputePipeline large_window_;  // up to kVmMaxWindowChunks; made when first needed
  gpu::ComputePipeline wide_;          // made with the first wide program
};

}  // namespace mote::runtime
