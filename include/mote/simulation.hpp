// The reference simulation: the CPU loop with the GPU runtime's semantics — spawn by rate and
// bursts under a capacity budget, INIT for newborns, UPDATE for last tick's population, KILL,
// a free list of slots, deterministic random streams and the jittered pre-warm. It is the
// ground truth the GPU runtime is tested against and what `mote simulate` previews.
// docs/design/simulation.md specifies the loop, the RNG formula and the pre-warm schedule.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mote/effect.hpp"
#include "mote/emitter.hpp"
#include "mote/result.hpp"
#include "mote/vector_field.hpp"
#include "mote/wind.hpp"

namespace mote {

// Record header (word 0): the owning emitter's row and that row's generation. A free slot's
// header is 0, so generation 0 is never handed out.
inline constexpr uint32_t kHeaderRowBits = 20;
inline constexpr uint32_t kHeaderRowMask = (1u << kHeaderRowBits) - 1u;
inline constexpr uint32_t kHeaderGenerationMask = (1u << (32 - kHeaderRowBits)) - 1u;
inline uint32_t encode_particle_header(uint32_t row, uint32_t generation) {
  return (row & kHeaderRowMask) | ((generation & kHeaderGenerationMask) << kHeaderRowBits);
}
inline uint32_t header_row(uint32_t header) { return header & kHeaderRowMask; }
inline uint32_t header_generation(uint32_t header) { return header >> kHeaderRowBits; }

// Random streams: the RunInput::rng_base of one section on one tick. `kind` says which loop and
// section: 0 = frame INIT, 1 = frame UPDATE, 2 = warm-up INIT, 3 = warm-up UPDATE; `tick` counts
// from 0 in each loop. rng_base = vm_hash3(seed, tick, kRngSalt + kind).
inline constexpr uint32_t kRngSalt = 0x53494D00u;  // "SIM\0"
uint32_t simulation_rng_base(uint32_t seed, uint32_t tick, uint32_t kind);

// Pre-warm schedule (docs/design/simulation.md "Pre-warm"): at most kWarmupMaxTicks ticks, none shorter than
// kWarmupTickSeconds; the tick length stretches to cover the pre-warm. Each particle's advance
// is jittered by +-kWarmupDtJitter of the tick, hashed from (slot, tick) into kWarmupDtBuckets
// levels; the emitter's starting accumulator is jittered from the seed.
inline constexpr uint32_t kWarmupMaxTicks = 64;
inline constexpr float kWarmupTickSeconds = 1.0f / 60.0f;
inline constexpr float kWarmupDtJitter = 0.5f;
inline constexpr uint32_t kWarmupDtBuckets = 8;
struct WarmupSchedule {
  uint32_t ticks = 0;
  float tick_seconds = 0.0f;
};
WarmupSchedule warmup_schedule(float prewarm_seconds);
// The jitter level of `slot` on warm-up tick `tick`, in [0, kWarmupDtBuckets), and the dt it
// advances by.
uint32_t warmup_dt_bucket(uint32_t slot, uint32_t tick);
float warmup_particle_dt(float tick_seconds, uint32_t bucket);
// The emitter's starting accumulator for a warm-up, in [0, 1).
float warmup_start_accumulator(uint32_t seed);

enum class SimulationExecutor { kReference, kBatch };

struct SimulationOptions {
  float dt = 1.0f / 60.0f;
  EmitterDesc emitter;        // seed, pose and overrides (no transform: refused)
  uint32_t capacity = 0;      // 0 = emission.capacity_hint
  uint32_t record_words = 0;  // pool stride; 0 = the program's record size
  SimulationExecutor executor = SimulationExecutor::kReference;
  bool prewarm = true;  // run emission.prewarm_seconds before the first frame
  uint32_t emitter_row = 0;
  uint32_t emitter_generation = 1;
  // What SAMPLE_WIND reads (mote/wind.hpp), evaluated at the time the TIME builtin gives each
  // run; refused by create when check_wind refuses it. Still air by default.
  Wind wind;
  // What SAMPLE_FIELD (the `vector_field` node) reads: slot i is vector_fields[i] (past the list:
  // 0). At most kMaxVectorFieldSlots; create refuses a field check_vector_field refuses (where
  // "vector_fields[i]." + its member).
  std::vector<VectorField> vector_fields;
  // The events (not children) this emitter accepts for one frame through queue_events; the
  // rest are dropped and counted (FrameReport::events_dropped). At least 1.
  uint32_t event_queue_capacity = 65536;
  // Threads UPDATE runs on (the calling one and threads - 1 workers; 0: the machine's hardware
  // threads): the alive particles are split into runs of the pool, and each thread's runs go
  // through an executor of its own. The particles, kills and events are the same bit for bit
  // whatever the count (a particle's random stream depends on its slot, not on the run).
  uint32_t threads = 1;
};

// One event a particle sent (EMIT_EVENT, docs/design/events.md): `count` children for each
// emitter bound to `output`, whose INIT reads `payload` through EVENT_POSITION, EVENT_VELOCITY
// and EVENT_COLOR: the sender's render position, velocity and colour fields
// (RenderSettings::position_field, velocity_field, color_field) after the run that sent it, as
// position xyz0, velocity xyz0, colour rgba (0 where the sender has no such field; a narrower
// field fills its first components).
struct ParticleEvent {
  uint32_t output = 0;  // < 4 (shader::kVmEventOutputs)
  uint32_t count = 0;   // 1..65535
  std::array<float, 12> payload{};
};

struct FrameReport {
  uint32_t frame = 0;        // 0-based
  float emitter_age = 0.0f;  // after the tick
  uint32_t alive = 0;
  uint32_t spawned = 0;     // newborns that got a slot
  uint32_t killed = 0;      // particles that died this tick (UPDATE or INIT KILL)
  uint32_t dropped = 0;     // requested spawns the free capacity could not hold
  bool has_bounds = false;  // false when nothing is alive or there is no 3-wide position field
  float bounds_min[3] = {0.0f, 0.0f, 0.0f};
  float bounds_max[3] = {0.0f, 0.0f, 0.0f};
  // Events (docs/design/events.md). Sent: the events this emitter's INIT and UPDATE sent this
  // frame (sent_events). Received: the events queued for this frame (queue_events before the
  // step); dropped: those past event_queue_capacity. Event spawns: their children that got a
  // slot (before the rate and burst spawns, which take what is left); event_spawns_dropped:
  // the children the free slots could not hold.
  uint32_t events_sent = 0;
  uint32_t events_received = 0;
  uint32_t events_dropped = 0;
  uint32_t event_spawns = 0;
  uint32_t event_spawns_dropped = 0;
};

// The bounds a FrameReport carries measure the effect's position field (render.position_field,
// "position" when empty) when it is at least 3 wide: its record word, or nullopt when there is
// no such field (the report then has no bounds).
std::optional<uint32_t> bounds_field_offset(const CompiledEffect& effect);
// The one bounds computation (the reference simulation's and the GPU frame's reports): sets
// report.has_bounds, bounds_min and bounds_max to the component-wise range of the 3 words at
// `field_offset` of each record, NaN components skipped (has_bounds false when there are no
// records). Over records laid one after another (records.size() / record_words of them):
Status measure_bounds(std::span<const uint32_t> records, uint32_t record_words, uint32_t field_offset,
                      FrameReport& report);
// Over the records of `slots` in `pool`. Both refuse (kInvalidArgument) a field past the record
// or a slot past the pool, and leave `report` as it was.
Status measure_bounds(std::span<const uint32_t> pool, uint32_t record_words, std::span<const uint32_t> slots,
                      uint32_t field_offset, FrameReport& report);

// An emitter's clock, as a driver swap hands it over between the GPU frame and a simulation
// (docs/design/drivers.md, "Swapping drivers").
struct SimulationClock {
  float age = 0.0f;          // EMITTER_AGE after the last tick
  float accumulator = 0.0f;  // the rate's carried fraction of a spawn
  uint64_t born = 0;         // particles spawned so far: the next newborn's birth serial
  uint32_t ticks = 0;        // ticks run so far: the next tick's random stream index
};

class Simulation {
 public:
  // Validates the options against the effect (field names, widths, capacity, stride), links the
  // globals and, when the effect asks for one, runs the pre-warm.
  static Result<Simulation> create(const CompiledEffect& effect, const SimulationOptions& options);

  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;
  ~Simulation();

  // One frame tick at options.dt. The events queued since the last step spawn first.
  Result<FrameReport> step();
  // One frame tick of `dt` seconds instead (kInvalidArgument unless positive and finite): the cpu
  // driver's step at its system's frame dt (docs/design/drivers.md, "The cpu driver").
  Result<FrameReport> step(float dt);
  // `count` extra spawns for the next step, requested with its rate and declared bursts from the
  // same free slots (what they cannot hold is dropped and counted in its report), as the GPU
  // frame's burst(); calls before one step add up (saturated at 2^32 - 1).
  void burst(uint32_t count);
  // false: the rate and the declared bursts spawn nothing while the clock runs on (the rate's
  // accumulator stands, so true resumes it without catch-up); burst() still spawns. The GPU
  // frame's set_emitting.
  void set_emitting(bool emitting);
  bool emitting() const;
  // The constant pose the next ticks read (EMITTER_POSITION, _ROTATION, _DIRECTION, _UP).
  void set_emitter_pose(const std::array<float, 3>& position, const std::array<float, 4>& rotation);

  // Takes over a live emitter (the cpu driver's swap in): the pool becomes `records` —
  // record_words() words each, in alive-list order (newest first), their headers rewritten to
  // this simulation's — in slots 0, 1, ..., and the clock becomes `clock`; queued events stay.
  // kInvalidArgument, and nothing changes, when records.size() is not a multiple of
  // record_words() or holds more than capacity() records.
  Status adopt(std::span<const uint32_t> records, const SimulationClock& clock);
  SimulationClock clock() const;

  // The events the last step's INIT and UPDATE sent (a KILLed particle's included: an on-death
  // event), INIT's newborns in spawn order, then UPDATE's particles in the order of the alive
  // list it walked (alive_slots() before the step: newer particles first). The pre-warm sends none.
  const std::vector<ParticleEvent>& sent_events() const;
  // Queues events for the next step's spawns, in order, up to event_queue_capacity per step;
  // the rest are dropped and counted in that step's report. An event whose count is 0 is
  // ignored; one whose output or count is out of range is refused (kInvalidArgument) and
  // nothing of the call is queued.
  Status queue_events(std::span<const ParticleEvent> events);

  uint32_t capacity() const;
  uint32_t record_words() const;
  uint32_t alive_count() const;
  uint32_t free_count() const;
  float emitter_age() const;
  const WarmupSchedule& warmup() const;
  // What the warm-up left (all zero without one).
  const FrameReport& warmup_report() const;
  // Live slots, in alive-list order: this tick's newborns in spawn order, then the survivors
  // in last tick's order.
  const std::vector<uint32_t>& alive_slots() const;
  // The whole pool, capacity * record_words words (free slots have header 0).
  const std::vector<uint32_t>& pool() const;
  // The same words, writable between steps (the cpu driver's custom forces write the live
  // particles' velocity and position). Headers and free records must be left as they are.
  std::span<uint32_t> mutable_pool();
  // A particle field of every live particle in alive-list order, width values each.
  Result<std::vector<float>> field(std::string_view name) const;
  Result<uint32_t> field_width(std::string_view name) const;
  const CompiledEffect& effect() const;

 private:
  struct State;
  explicit Simulation(std::unique_ptr<State> state);
  std::unique_ptr<State> s_;
};

// Creates a simulation and steps it `frames` times.
Result<std::vector<FrameReport>> simulate(const CompiledEffect& effect, const SimulationOptions& options,
                                          uint32_t frames);

// A stateless effect's particles at `time` (docs/design/drivers.md, "The stateless driver"): its
// EVAL run on the CPU reference VM for particles [0, emission.capacity), with the emitter's pose,
// seed (as given) and field overrides — what a stateless emitter of the same description draws
// at that time (the GPU's within the parity tolerance of docs/design/vm.md). Records are
// count × record_words words, particle i's at i × record_words, its header word 0. Errors:
// kUnsupported for a stateful effect, kInvalidArgument for a non-finite time, a transform or an
// override the effect lacks.
struct StatelessRecords {
  uint32_t count = 0;
  uint32_t record_words = 0;
  std::vector<uint32_t> records;
};
Result<StatelessRecords> evaluate_stateless(const CompiledEffect& effect, const EmitterDesc& emitter, double time);

}  // namespace mote
