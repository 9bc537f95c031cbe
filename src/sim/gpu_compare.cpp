// mote/compare.hpp: the GPU frame through the public ParticleSystem (mote/particles.hpp), the
// reference through mote::Simulation, matched by sim::BirthSerialMatcher. Compiled into mote_api
// (src/sim/CMakeLists.txt): it needs the public runtime, which lives there.
#include "mote/compare.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "sim/record_compare.hpp"

namespace mote {

struct GpuSimulation::State {
  CompiledEffect effect;
  GpuSimulationOptions options;
  std::unique_ptr<ParticleSystem> system;
  EmitterId emitter;
  uint32_t serial_word = 0;
  std::optional<uint32_t> bounds_offset;
  uint32_t frame = 0;
  AliveRecords records;
};

GpuSimulation::GpuSimulation() : state_(std::make_unique<State>()) {}
GpuSimulation::~GpuSimulation() = default;

Result<std::unique_ptr<GpuSimulation>> GpuSimulation::create(Context& context, const CompiledEffect& effect,
                                                             const GpuSimulationOptions& options) {
  std::unique_ptr<GpuSimulation> made(new GpuSimulation());
  State& s = *made->state_;
  s.effect = effect;
  s.options = options;
  // At least 2 words: a record of the header alone would leave no word for the serial.
  const uint32_t own = std::max(effect.program.particle_record_words(), 2u);
  s.serial_word = options.birth_serials ? own : 0;
  const uint32_t capacity = options.capacity ? options.capacity : effect.emission.capacity_hint;
  MOTE_TRY_ASSIGN(s.system, ParticleSystem::create(context, {.capacity = capacity,
                                                             .record_words = options.birth_serials ? own + 1 : own,
                                                             .max_emitters = 1,
                                                             .max_transforms = 0,
                                                             .compiled_simulate = true,
                                                             .compile_in_background = false,
                                                             .serial_word = s.serial_word}));
  CompiledEffect added = effect;
  if (!options.prewarm) added.emission.prewarm_seconds = 0.0f;
  MOTE_TRY(s.system->set_wind(options.wind));
  if (options.vector_fields.size() > kMaxVectorFieldSlots)
    return make_error(ErrorCode::kInvalidArgument, "at most " + std::to_string(kMaxVectorFieldSlots) + " vector fields",
                      "vector_fields");
  for (uint32_t i = 0; i < options.vector_fields.size(); ++i)
    MOTE_TRY(s.system->set_vector_field(i, options.vector_fields[i]));
  MOTE_TRY_ASSIGN(s.emitter, s.system->add_emitter(added, options.emitter));
  s.bounds_offset = bounds_field_offset(effect);
  return made;
}

Result<FrameReport> GpuSimulation::step() {
  State& s = *state_;
  MOTE_TRY(s.system->execute(s.options.dt));
  MOTE_TRY_ASSIGN(const ParticleStats stats, s.system->read_stats());
  MOTE_TRY_ASSIGN(const EmitterState emitter, s.system->read_emitter_state(s.emitter));
  FrameReport r;
  r.frame = s.frame++;
  r.emitter_age = emitter.age;
  r.alive = stats.alive;
  r.spawned = stats.newborns;
  r.killed = stats.killed;
  r.dropped = stats.dropped;
  s.records = {};
  const bool bounds = s.bounds_offset && stats.alive > 0;
  if (s.options.keep_records || bounds) {
    MOTE_TRY_ASSIGN(s.records, s.system->read_alive_records());
  }
  if (bounds) MOTE_TRY(measure_bounds(s.records.records, s.records.record_words, *s.bounds_offset, r));
  return r;
}

const AliveRecords& GpuSimulation::records() const { return state_->records; }
const CompiledEffect& GpuSimulation::effect() const { return state_->effect; }
const GpuSimulationOptions& GpuSimulation::options() const { return state_->options; }
EmitterId GpuSimulation::emitter() const { return state_->emitter; }
uint32_t GpuSimulation::capacity() const { return state_->system->capacity(); }
uint32_t GpuSimulation::record_words() const { return state_->system->record_words(); }
uint32_t GpuSimulation::serial_word() const { return state_->serial_word; }
uint32_t GpuSimulation::frames() const { return state_->frame; }

namespace {

// An error of one side of the comparison, saying which.
Result<FrameReport> with_side(const char* side, Result<FrameReport> step) {
  if (step.ok()) return step;
  Error e = step.take_error();
  e.message = std::string(side) + ": " + e.message;
  return e;
}

}  // namespace

struct ReferenceComparison::State {
  std::unique_ptr<GpuSimulation> gpu;
  Simulation reference;
  sim::BirthSerialMatcher matcher;
  ComparisonSummary summary;
};

ReferenceComparison::ReferenceComparison() = default;
ReferenceComparison::~ReferenceComparison() = default;

Result<std::unique_ptr<ReferenceComparison>> ReferenceComparison::create(std::unique_ptr<GpuSimulation> gpu,
                                                                         SimulationExecutor executor) {
  if (!gpu || gpu->serial_word() == 0 || !gpu->options().keep_records)
    return make_error(ErrorCode::kInvalidArgument,
                      "the comparison needs a GPU simulation with birth serials that keeps its records");
  if (gpu->frames() != 0)
    return make_error(ErrorCode::kInvalidArgument, "the comparison needs a GPU simulation that has not stepped");
  if (gpu->options().prewarm && gpu->effect().emission.prewarm_seconds > 0.0f)
    return make_error(ErrorCode::kInvalidArgument,
                      "the comparison needs a GPU simulation without pre-warm (GpuSimulationOptions::prewarm): the "
                      "two sides' pre-warms draw different random streams");
  const GpuSimulationOptions& o = gpu->options();
  SimulationOptions so;
  so.dt = o.dt;
  so.emitter = o.emitter;
  so.capacity = gpu->capacity();
  so.record_words = gpu->record_words();
  so.executor = executor;
  so.prewarm = false;  // neither side pre-warms (checked above)
  so.wind = o.wind;
  so.vector_fields = o.vector_fields;
  so.emitter_row = gpu->emitter().row;
  so.emitter_generation = gpu->emitter().generation;
  MOTE_TRY_ASSIGN(Simulation reference, Simulation::create(gpu->effect(), so));
  MOTE_TRY_ASSIGN(sim::BirthSerialMatcher matcher,
                  sim::BirthSerialMatcher::create(gpu->effect().program, gpu->record_words(), gpu->serial_word()));
  std::unique_ptr<ReferenceComparison> made(new ReferenceComparison());
  made->state_ = std::make_unique<State>(State{std::move(gpu), std::move(reference), std::move(matcher), {}});
  made->state_->summary = made->state_->matcher.summary();
  return made;
}

Result<FrameComparison> ReferenceComparison::step() {
  State& s = *state_;
  FrameComparison c;
  c.frame = s.summary.frames;
  MOTE_TRY_ASSIGN(c.gpu, with_side("the GPU frame", s.gpu->step()));
  MOTE_TRY_ASSIGN(c.reference, with_side("the reference", s.reference.step()));
  c.differences = {int64_t(c.gpu.alive) - c.reference.alive, int64_t(c.gpu.spawned) - c.reference.spawned,
                   int64_t(c.gpu.killed) - c.reference.killed, int64_t(c.gpu.dropped) - c.reference.dropped};
  MOTE_TRY(s.matcher.add_frame(s.reference.pool(), s.reference.alive_slots(), c.reference.spawned,
                               s.gpu->records().records));
  const uint32_t frames = s.summary.frames + 1;
  const uint32_t differing = s.summary.frames_with_count_differences + (c.differences.any() ? 1u : 0u);
  s.summary = s.matcher.summary();
  s.summary.frames = frames;
  s.summary.frames_with_count_differences = differing;
  return c;
}

const ComparisonSummary& ReferenceComparison::summary() const { return state_->summary; }
const GpuSimulation& ReferenceComparison::gpu() const { return *state_->gpu; }
const Simulation& ReferenceComparison::reference() const { return state_->reference; }

}  // namespace mote
