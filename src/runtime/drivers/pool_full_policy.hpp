// Pool-full policies per emitter row (docs/design/drivers.md, "Pool-full policies"): what a
// burst() does when the pool's free list cannot hold it. Drop (the frame's own rule: what the
// budget cannot place is dropped and counted) or replace the oldest (wsg Q5's ring semantics):
// before the frame, the row's oldest particles are freed to make room, and the burst's slots are
// reserved for it, so after the frame the row holds its newest particles and the burst whole.
//
// How: the frame frees particles after emit (simulate, compact), so room for the newborns must
// exist before the frame runs. The host reads the last frame's counters back (and, when the
// free list is short, the alive list and the records' headers), rewrites the last frame's list
// without the row's oldest `R` entries — the last `R` of the row in list order, which is newest
// first by birth frame — puts their slots on the free list, zeroes their records, and sends the
// burst as a reserved command (shader::kFrameReservedCommand): the reset keeps the reserved
// slots out of the spawn budget and the tick spawns them outside it. A frame with such a burst
// waits for the GPU once (the readbacks).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/emitter_lifecycle.hpp"
#include "runtime/frame/frame_buffers.hpp"
#include "runtime/frame/frame_uploads.hpp"

namespace mote::runtime {

enum class PoolFullPolicy : uint32_t { kDrop = 0, kReplaceOldest = 1 };

// What a frame's replace-oldest preparation did (for the frame's params and for tests).
struct ReplaceOldestReport {
  uint32_t reserved_spawns = 0;  // slots reserved for the bursts (FrameCounters::reserved)
  uint32_t replaced = 0;         // particles freed to make room
};

class PoolFullPolicies {
 public:
  void set(uint32_t row, PoolFullPolicy policy);
  PoolFullPolicy policy(uint32_t row) const;
  void remove(uint32_t row) { rows_.erase(row); }

  // The frame's host half, after its spawn commands were taken (`commands`, [row, count] pairs)
  // and before its uploads are staged: the replace-oldest rows' commands become reserved ones
  // (and a plain command for what even a row emptied of its particles cannot hold), and when the
  // free list is short the last frame's lists are rewritten through `uploads`. Rows that are
  // paused, inactive or manual (`is_manual`) keep their commands as they are. Waits for the GPU.
  template <typename IsManual>
  Result<ReplaceOldestReport> prepare(gpu::Device& device, const FrameBuffers& buffers, uint32_t frame,
                                      const ParticleSystemOptions& options, const EmitterLifecycle& emitters,
                                      IsManual is_manual, std::vector<uint32_t>& commands, FrameUploads& uploads) {
    std::vector<uint32_t> candidates;
    for (size_t i = 0; i + 1 < commands.size(); i += 2) {
      const uint32_t row = commands[i];
      if (policy(row) != PoolFullPolicy::kReplaceOldest || is_manual(row) || commands[i + 1] == 0) continue;
      const EmitterLifecycle::Row* r = emitters.row(row);
      if (r == nullptr || (r->emitter.control_flags & kFrozenFlags) != 0) continue;
      candidates.push_back(uint32_t(i));
    }
    if (candidates.empty()) return ReplaceOldestReport{};
    MOTE_TRY_ASSIGN(const ReplaceOldestReport report,
                    replace_oldest(device, buffers, frame, options, emitters, candidates, commands, uploads));
    reserve(buffers, report, uploads);
    return report;
  }

 private:
  static const uint32_t kFrozenFlags;
  // The reserved total into the counters (FrameCounters::reserved), which the reset takes.
  void reserve(const FrameBuffers& buffers, const ReplaceOldestReport& report, FrameUploads& uploads);
  Result<ReplaceOldestReport> replace_oldest(gpu::Device& device, const FrameBuffers& buffers, uint32_t frame,
                                             const ParticleSystemOptions& options, const EmitterLifecycle& emitters,
                                             const std::vector<uint32_t>& candidates, std::vector<uint32_t>& commands,
                                             FrameUploads& uploads);

  std::map<uint32_t, PoolFullPolicy> rows_;  // rows whose policy is not kDrop
  // What this frame's uploads point at (valid until the next prepare).
  std::vector<uint32_t> list_;
  std::vector<uint32_t> freed_;
  uint32_t counts_[2] = {0, 0};  // FrameCounters::alive_out, free_count
  uint32_t reserved_ = 0;        // FrameCounters::reserved
  std::vector<uint32_t> zeros_;
};

}  // namespace mote::runtime
