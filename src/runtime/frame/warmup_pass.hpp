// GPU pre-warm (docs/design/runtime_frame.md, "Pre-warm"): an emitter added with an effect whose
// prewarm_seconds > 0 is run forward before it is first drawn, over a population of its own —
// a transient pool, alive lists, free list and counters (a FrameBuffers of its own, kept only
// while frames may read it) — by the ordinary loop: reset, a warm-up tick over a host-written
// queue (tick.comp built with FRAME_WARMUP), the spawn scan, the main emit pass unchanged, an
// advance with each particle's tick jittered by a hash (simulate.comp built with FRAME_WARMUP,
// interpreted), compact and finish, for at most kWarmupMaxTicks ticks that stretch to cover the
// longest pre-warm (src/sim/warmup.cpp's schedule). Then the emitters' states go back to the main
// table (EMITTER_AGE reads as if the emitter had run) and migrate moves the survivors into the
// main pool, a free-list pop each. Recorded only on frames that have emitters queued; the main
// passes' code is the same with or without it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"
#include "runtime/frame/compact_pass.hpp"
#include "runtime/frame/emit_pass.hpp"
#include "runtime/frame/finish_pass.hpp"
#include "runtime/frame/frame_buffers.hpp"
#include "runtime/frame/frame_recording.hpp"
#include "runtime/frame/program_dispatches.hpp"
#include "runtime/frame/reset_pass.hpp"
#include "shared/frame.h"

namespace mote::runtime {

// An emitter to pre-warm: its row and generation when it was queued, its effect's pre-warm.
struct WarmupRequest {
  uint32_t row = 0;
  uint32_t generation = 0;
  float seconds = 0.0f;
  uint32_t capacity_hint = 0;  // the effect's: what its population is expected to hold
  uint32_t program = 0;        // the heap program id it runs
};

// One frame's pre-warm, made on the host: the transient population and the schedule.
struct WarmupPopulation {
  FrameBuffers buffers;  // the warm-up's own (its emitter table and states are copies)
  gpu::Buffer queue;     // FrameWarmupEntry per request
  std::vector<shader::FrameWarmupEntry> entries;
  std::vector<uint32_t> programs;  // the programs the queued emitters run
  uint32_t capacity = 0;
  uint32_t ticks = 0;
  float tick_seconds = 0.0f;
};

class WarmupPass {
 public:
  static Result<WarmupPass> create(gpu::Device& device);
  // The advance's pipelines `program` needs beyond the default one.
  Status ensure(gpu::Device& device, const Program& program, uint32_t record_words);
  // The population for `requests` (not empty): a pool holding their capacity hints (at most
  // `options.capacity`), its free list filled (waits for the GPU once), and the schedule.
  // `wide_register_bytes`: the main system's wide register file, 0 when it has none.
  static Result<std::unique_ptr<WarmupPopulation>> prepare(gpu::Device& device, const ParticleSystemOptions& options,
                                                           std::span<const WarmupRequest> requests,
                                                           VkDeviceSize wide_register_bytes);
  // Records the warm-up into main.cmd after the main reset and before the tick: `params` is the
  // main frame's (the warm-up's are the same but for dt and the capacity), `dispatches` the
  // frame's, of which those of the queued programs run; `program_ids` the heap's id capacity.
  Status record(const FrameRecording& main, const WarmupPopulation& population, const shader::FrameParams& params,
                std::span<const ProgramDispatch> dispatches, uint32_t program_ids, const ResetPass& reset,
                const EmitPass& emit, const CompactPass& compact, const FinishPass& finish) const;

 private:
  // One tick's advance: the keep flags, then each queued program's UPDATE with jittered dt.
  void record_advance(const FrameRecording& frame, std::span<const ProgramDispatch> dispatches, uint32_t tick) const;

  gpu::ComputePipeline tick_;
  gpu::ComputePipeline keep_clear_;
  gpu::ComputePipeline advance_;               // the fast interpreter, kFrameFastWindowChunks staged
  gpu::ComputePipeline advance_large_window_;  // made when first needed
  gpu::ComputePipeline advance_wide_;          // made with the first wide program
  gpu::ComputePipeline migrate_;
  gpu::ComputePipeline migrate_counts_;
};

}  // namespace mote::runtime
