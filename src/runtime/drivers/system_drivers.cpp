// ParticleSystem's drivers other than the GPU frame's own (docs/design/drivers.md): adding a
// manual emitter. Kept apart from particle_system.cpp, which composes the frame.
#include <algorithm>
#include <string>

#include "runtime/frame/particle_system.hpp"
#include "shared/emitter_record.h"

namespace mote::runtime {

Result<uint32_t> ParticleSystem::add_manual_emitter(const CompiledEffect& effect, uint32_t max_count,
                                                    const EmitterDesc& options) {
  MOTE_TRY(check_standard_particle(effect.program));
  if (options_.record_words < kParticleFirstWord + kParticleWords)
    return make_error(ErrorCode::kInvalidArgument,
                      "a manual emitter needs records of at least " +
                          std::to_string(kParticleFirstWord + kParticleWords) +
                          " words (the header and the standard particle); the pool's are " +
                          std::to_string(options_.record_words));
  if (max_count == 0 || max_count > options_.capacity)
    return make_error(ErrorCode::kInvalidArgument, "a manual emitter holds 1 .. capacity (" +
                                                       std::to_string(options_.capacity) + ") records, " +
                                                       std::to_string(max_count) + " asked");
  MOTE_TRY_ASSIGN(const uint32_t row, add_emitter(effect, options));
  // Its particles are the host's: no pre-warm, no spawn from the rate, no UPDATE.
  std::erase_if(warmup_queue_, [&](const WarmupRequest& w) { return w.row == row; });
  Status made = emitters_->set_control(row, shader::kEmitterFlagManual, true);
  if (made.ok()) made = manual_.add(*device_, row, max_count);
  if (!made.ok()) {
    (void)remove_emitter(row);  // just added: cannot fail
    return made.take_error();
  }
  return row;
}

Status ParticleSystem::make_manual(uint32_t row, uint32_t max_count, std::span<const Particle> records) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  if (manual_.is_manual(row)) return ok_status();
  const EmitterLifecycle::Row* r = emitters_->row(row);
  MOTE_TRY(check_standard_particle(r->emitter.effect.program));
  if (options_.record_words < kParticleFirstWord + kParticleWords)
    return make_error(ErrorCode::kInvalidArgument, "the pool's records are too short for the standard particle");
  if (records.size() > max_count || max_count == 0 || max_count > options_.capacity)
    return make_error(ErrorCode::kInvalidArgument, "a manual emitter holds 1 .. capacity records, at least its live " +
                                                       std::to_string(records.size()));
  MOTE_TRY(manual_.add(*device_, row, max_count));
  Status set = manual_.write_range(row, 0, records);
  if (set.ok()) set = manual_.set_count(row, uint32_t(records.size()));
  if (set.ok()) set = emitters_->set_control(row, shader::kEmitterFlagManual, true);
  if (!set.ok()) {
    manual_.remove(row);
    return set;
  }
  std::erase_if(warmup_queue_, [&](const WarmupRequest& w) { return w.row == row; });
  return ok_status();
}

Status ParticleSystem::make_gpu_driven(uint32_t row) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  manual_.remove(row);
  return emitters_->set_control(row, shader::kEmitterFlagManual | shader::kEmitterFlagReplace, false);
}

}  // namespace mote::runtime
