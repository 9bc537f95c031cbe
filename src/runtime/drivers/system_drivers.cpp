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

}  // namespace mote::runtime
