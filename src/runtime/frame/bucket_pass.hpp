// The coherence buckets (shaders/runtime/frame/bucket_*.comp): with two or more live programs,
// last frame's alive list is counting-sorted by program id into the coherence list before
// simulate — count (orphans freed there), pad every bucket to the simulate workgroup, scan,
// lay out (each program's indirect dispatch, sentinel tails), scatter — so simulate runs each
// program over its own bucket only. The draw order stays the compact alive list; the coherence
// list and its counters are separate buffers (docs/design/runtime_frame.md, "Two orderings").
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/passes/prefix_scan.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_recording.hpp"
#include "runtime/frame/frame_uploads.hpp"
#include "shared/frame.h"

namespace mote::runtime {

// What a bucketed frame left on the GPU, read back (tests and tools).
struct BucketReadback {
  std::vector<shader::FrameBucket> buckets;  // per program id
  std::vector<uint32_t> coherence;           // the list's entries up to the last bucket's end
};

class BucketPass {
 public:
  // Pipelines and the per-program-id buffers for up to `max_programs` ids (the emitter table's
  // rows bound the live programs).
  static Result<BucketPass> create(gpu::Device& device, uint32_t max_programs);

  // The per-entry buffers a frame over a pool of `capacity` with `program_ids` ids needs: made
  // on the first bucketed frame (a one-program system never pays for them); the coherence list
  // (capacity + 64 per id) grows with the ids, the replaced one retired at `frame`.
  Status ensure(gpu::Device& device, uint32_t capacity, uint32_t program_ids, RetiredBuffers& retired, uint64_t frame);
  // Records the bucketing of frame.alive_in over `program_ids` ids (<= the ids ensure() saw),
  // ending with a barrier that makes the buckets visible to simulate's indirect dispatches.
  Status record(const FrameRecording& frame, uint32_t program_ids) const;

  bool ready() const { return coherence_.valid(); }
  // Simulate's bindings: the buckets and the coherence list (stand-ins before the first bucketed
  // frame; a walk of the whole list reads neither).
  const gpu::Buffer& buckets() const { return buckets_; }
  const gpu::Buffer& coherence() const { return coherence_.valid() ? coherence_ : buckets_; }

  // Waits for the device; the buckets of `program_ids` ids and their entries.
  Result<BucketReadback> read(gpu::Device& device, uint32_t program_ids) const;

  BucketPass() = default;

 private:
  gpu::ComputePipeline count_;
  gpu::ComputePipeline pad_;
  gpu::ComputePipeline layout_;
  gpu::ComputePipeline scatter_;
  gpu::PrefixScan scan_;        // the padded sizes into first entries, in place
  gpu::Buffer buckets_;         // FrameBucket per id (also the indirect dispatches)
  gpu::Buffer sizes_;           // u32 per id: the count's atomics
  gpu::Buffer offsets_;         // u32 per id: padded sizes, then their exclusive scan
  gpu::Buffer entry_programs_;  // u32 per entry of last frame's list
  gpu::Buffer coherence_;
  uint32_t coherence_ids_ = 0;  // the ids the coherence list has room for
};

}  // namespace mote::runtime
