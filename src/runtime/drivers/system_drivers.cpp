// ParticleSystem's drivers other than the GPU frame's own (docs/design/drivers.md): adding a
// manual or a stateless emitter. Kept apart from particle_system.cpp, which composes the frame.
#include <algorithm>
#include <string>

#include "runtime/frame/particle_system.hpp"
#include "shared/emitter_record.h"
#include "sim/stateless_eval.hpp"

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

Result<uint32_t> ParticleSystem::add_stateless_emitter(const CompiledEffect& effect, const EmitterDesc& options) {
  MOTE_TRY_ASSIGN(sim::StatelessEvaluation eval, sim::make_stateless_evaluation(effect, options));
  if (options_.record_words < kParticleFirstWord + kParticleWords)
    return make_error(ErrorCode::kInvalidArgument,
                      "a stateless emitter needs records of at least " +
                          std::to_string(kParticleFirstWord + kParticleWords) +
                          " words (its records are placed as a manual emitter's); the pool's are " +
                          std::to_string(options_.record_words));
  if (eval.count > options_.capacity)
    return make_error(ErrorCode::kInvalidArgument,
                      "the stateless effect evaluates " + std::to_string(eval.count) +
                          " particles (emission.capacity); the pool holds " + std::to_string(options_.capacity),
                      "/emission/capacity");
  const uint32_t count = eval.count;
  MOTE_TRY_ASSIGN(std::vector<uint32_t> rows, add_rows(effect, std::span(&options, 1)));
  const uint32_t row = rows[0];
  // Its particles are placed once as a manual row's (zeroed records: the evaluation writes them)
  // and kept by the frame without UPDATE; the stateless driver rewrites them every frame.
  std::erase_if(warmup_queue_, [&](const WarmupRequest& w) { return w.row == row; });
  Status made = emitters_->set_control(row, shader::kEmitterFlagManual, true);
  if (made.ok()) made = manual_.add(*device_, row, count);
  if (made.ok()) made = manual_.set_count(row, count);
  if (made.ok()) made = stateless_.add(*device_, row, std::move(eval), options_.record_words);
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
