// The reference simulation loop (include/mote/simulation.hpp, docs/design/simulation.md).
//
// Per tick, in the GPU frame's order: the emitter's clock advances; the tick turns the rate
// accumulator's whole part plus the due bursts into a spawn count clamped by the free slots
// (the budget is the free list as the tick finds it: this tick's kills free their slots only
// after emit); emit pops slots and runs INIT over the newborns as one batch; simulate runs
// UPDATE over last tick's alive list (newborns are not advanced in their birth tick); KILL
// pushes slots back; the new alive list is newborns then survivors.
#include "mote/simulation.hpp"

#include <algorithm>
#include <optional>
#include <thread>
#include <utility>
#include <bit>
#include <cmath>

#include "core/alloc_guard.hpp"
#include "isa/emitter_values.hpp"
#include "mote/link.hpp"
#include "mote/vm.hpp"
#include "sim/emission.hpp"
#include "sim/event_payload.hpp"
#include "shared/vm_limits.h"

namespace mote {

namespace {

// Slots of one UPDATE run may span dead or excluded slots up to this gap: running a few
// records whose results are discarded is cheaper than another executor call (each verifies).
constexpr uint32_t kMaxRunGap = 32;

struct Quat {
  float x, y, z, w;
};

void rotate(const Quat& q, const float v[3], float out[3]) {
  // v' = v + w t + q x t, t = 2 (q x v): the VM's QROTATE.
  const float tx = 2.0f * (q.y * v[2] - q.z * v[1]);
  const float ty = 2.0f * (q.z * v[0] - q.x * v[2]);
  const float tz = 2.0f * (q.x * v[1] - q.y * v[0]);
  out[0] = v[0] + q.w * tx + (q.y * tz - q.z * ty);
  out[1] = v[1] + q.w * ty + (q.z * tx - q.x * tz);
  out[2] = v[2] + q.w * tz + (q.x * ty - q.y * tx);
}

}  // namespace

struct Simulation::State {
  CompiledEffect effect;
  SimulationOptions options;
  Program linked;
  std::unique_ptr<Executor> executor;
  uint32_t capacity = 0;
  uint32_t stride = 0;
  uint32_t header = 0;
  std::vector<uint32_t> pool;
  std::vector<uint32_t> free_stack;  // pop from the back
  std::vector<uint32_t> alive;
  std::vector<uint32_t> emitter_fields;
  std::vector<uint32_t> global_fields;
  std::optional<uint32_t> rate_offset;
  std::optional<uint32_t> position_offset;
  float age = 0.0f;
  float accumulator = 0.0f;
  uint64_t born = 0;  // particles spawned so far: INIT's PARTICLE_INDEX base
  uint32_t frame = 0;
  WarmupSchedule warmup;
  FrameReport warmup_report;
  RunInput in;
  RunOutput out;
  sim::EventPayloadLayout payload_layout;
  std::vector<ParticleEvent> sent;  // what the last frame tick sent
  // UPDATE's events of this tick with their senders' slots, put in alive-list order after the run.
  std::vector<std::pair<uint32_t, ParticleEvent>> update_sent;
  std::vector<ParticleEvent> pending;  // queued for the next frame tick
  uint32_t pending_dropped = 0;
  uint64_t host_bursts = 0;  // burst(): spawns for the next frame tick, beside the rate and bursts
  bool emitting = true;      // set_emitting(false): the rate and the declared bursts stop
  // UPDATE's worker lanes past the first (options.threads > 1): each its executor, run and
  // output, and the events its runs sent (merged in slot order after the join).
  struct Lane {
    std::unique_ptr<Executor> executor;
    RunInput in;
    RunOutput out;
    std::vector<std::pair<uint32_t, ParticleEvent>> sent;
  };
  std::vector<Lane> lanes;

  // The events run particle `local` of the last run sent (out.events), its record in out; an
  // UPDATE sender's go to update_sent with its slot.
  void collect_events(uint32_t local, std::optional<uint32_t> update_slot = std::nullopt) {
    if (update_slot) {
      collect_update_events(out, local, *update_slot, update_sent);
      return;
    }
    for (uint32_t o = 0; o < shader::kVmEventOutputs; ++o) {
      const uint32_t count = out.events[size_t(local) * shader::kVmEventOutputs + o];
      if (count == 0) continue;
      sent.push_back({o, count, sim::event_payload(payload_layout, out.records.data() + size_t(local) * stride)});
    }
  }
  void collect_update_events(const RunOutput& o_run, uint32_t local, uint32_t slot,
                             std::vector<std::pair<uint32_t, ParticleEvent>>& into) const {
    for (uint32_t o = 0; o < shader::kVmEventOutputs; ++o) {
      const uint32_t count = o_run.events[size_t(local) * shader::kVmEventOutputs + o];
      if (count == 0) continue;
      into.emplace_back(slot, ParticleEvent{o, count,
                                            sim::event_payload(payload_layout,
                                                               o_run.records.data() + size_t(local) * stride)});
    }
  }

  // UPDATE's events after INIT's, in the order of the alive list UPDATE walked (`walked`: last
  // tick's newborns first, then older survivors), not the slot order the runs took: the GPU
  // frame's list has that order too, so both deliver events in one order (docs/design/events.md).
  void append_update_events(const std::vector<uint32_t>& walked) {
    if (update_sent.empty()) return;
    std::vector<uint32_t> rank(capacity, 0);
    for (uint32_t i = 0; i < walked.size(); ++i) rank[walked[i]] = i;
    std::stable_sort(update_sent.begin(), update_sent.end(),
                     [&](const auto& a, const auto& b) { return rank[a.first] < rank[b.first]; });
    for (const auto& [slot, e] : update_sent) sent.push_back(e);
    update_sent.clear();
  }

  VmEmitterContext context(float dt) const {
    VmEmitterContext c;
    c.dt = dt;
    c.time = age;
    c.emitter_age = age;
    for (int i = 0; i < 3; ++i) c.position[i] = options.emitter.position[size_t(i)];
    for (int i = 0; i < 4; ++i) c.rotation[i] = options.emitter.rotation[size_t(i)];
    const std::array<float, 4>& r = options.emitter.rotation;
    const Quat q{r[0], r[1], r[2], r[3]};
    const float z[3] = {0.0f, 0.0f, 1.0f};
    const float y[3] = {0.0f, 1.0f, 0.0f};
    rotate(q, z, c.direction);
    rotate(q, y, c.up);
    c.seed = options.emitter.seed;
    return c;
  }

  float rate() const {
    if (rate_offset) return std::bit_cast<float>(emitter_fields[*rate_offset]);
    return effect.emission.rate;
  }

  void prepare_input(Section section, float dt, uint32_t rng_base) {
    in.program = &linked;
    in.section = section;
    in.record_words = stride;
    in.emitter = context(dt);
    in.wind = wind_field_at(options.wind, age);
    if (in.vector_fields.size() != options.vector_fields.size()) {
      in.vector_fields.clear();
      for (const VectorField& f : options.vector_fields) in.vector_fields.push_back(&f);
    }
    in.rng_base = rng_base;
    if (in.emitter_fields.size() != emitter_fields.size()) in.emitter_fields = emitter_fields;
    if (in.global_fields.size() != global_fields.size()) in.global_fields = global_fields;
  }

  // Emit: pops up to `requested` slots, runs INIT over them as one batch. Returns
  // {spawned, killed in INIT} and appends the survivors to `next_alive`.
  // The first `event_children` newborns are the pending events' children, in queue order, each
  // with its event's payload; the rest are rate and burst spawns (payload 0).
  Result<std::pair<uint32_t, uint32_t>> emit(uint64_t requested, uint32_t event_children, float dt, uint32_t rng_base,
                                             std::vector<uint32_t>& next_alive, bool warm) {
    const uint32_t n = uint32_t(std::min<uint64_t>(requested, free_stack.size()));
    if (n == 0) return std::pair<uint32_t, uint32_t>{0, 0};
    std::vector<uint32_t> slots(n);
    for (uint32_t i = 0; i < n; ++i) {
      slots[i] = free_stack.back();
      free_stack.pop_back();
    }
    prepare_input(Section::kInit, dt, rng_base);
    in.count = n;
    // Newborn records start zeroed (a reused slot carries nothing from its last tenant) with
    // the emitter's header. PARTICLE_INDEX during INIT is the particle's birth serial (how many
    // the emitter spawned before it): the one index a GPU emit knows deterministically, since
    // its slots come from atomic pops.
    in.records.assign(size_t(n) * stride, 0);
    for (uint32_t i = 0; i < n; ++i) in.records[size_t(i) * stride] = header;
    in.first_particle_index = uint32_t(born);
    fill_event_payloads(std::min(event_children, n));
    MOTE_TRY(executor->run_into(in, out));
    in.event_payloads.clear();
    born += n;
    if (!warm)
      for (uint32_t i = 0; i < n; ++i) collect_events(i);
    uint32_t killed = 0;
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t* rec = pool.data() + size_t(slots[i]) * stride;
      if (out.killed[i]) {
        std::fill(rec, rec + stride, 0u);
        free_stack.push_back(slots[i]);
        ++killed;
        continue;
      }
      std::copy_n(out.records.data() + size_t(i) * stride, stride, rec);
      next_alive.push_back(slots[i]);
    }
    return std::pair<uint32_t, uint32_t>{n, killed};
  }

  // The payloads of a run whose first `children` newborns are the pending events' children.
  void fill_event_payloads(uint32_t children) {
    in.event_payloads.clear();
    if (children == 0) return;
    in.event_payloads.assign(size_t(in.count) * shader::kVmEventPayloadWords, 0.0f);
    uint32_t i = 0;
    for (const ParticleEvent& e : pending)
      for (uint32_t k = 0; k < e.count && i < children; ++k, ++i)
        std::copy(e.payload.begin(), e.payload.end(),
                  in.event_payloads.begin() + ptrdiff_t(size_t(i) * shader::kVmEventPayloadWords));
  }

  uint32_t thread_count() const {
    const uint32_t t = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    return std::min(t, 256u);
  }

  // One lane's share of UPDATE: the runs [first, last) of `runs` (index ranges of `slots`).
  Status run_lane(Lane& lane, const std::vector<std::pair<size_t, size_t>>& runs, size_t first, size_t last,
                  const std::vector<uint32_t>& slots, std::vector<uint8_t>& dead) {
    lane.sent.clear();
    for (size_t r = first; r < last; ++r) {
      const auto [i, j] = runs[r];
      const uint32_t start = slots[i];
      const uint32_t count = slots[j - 1] - start + 1;
      lane.in.count = count;
      lane.in.first_particle_index = start;
      lane.in.records.assign(pool.begin() + ptrdiff_t(size_t(start) * stride),
                             pool.begin() + ptrdiff_t(size_t(start + count) * stride));
      MOTE_TRY(lane.executor->run_into(lane.in, lane.out));
      for (size_t k = i; k < j; ++k) {
        const uint32_t local = slots[k] - start;
        std::copy_n(lane.out.records.data() + size_t(local) * stride, stride, pool.data() + size_t(slots[k]) * stride);
        if (lane.out.killed[local]) dead[slots[k]] = 1;
        collect_update_events(lane.out, local, slots[k], lane.sent);
      }
    }
    return ok_status();
  }

  // UPDATE over the runs on thread_count() threads, each with a share of about equal particles;
  // the events go to update_sent in slot order, as the one-thread loop sends them.
  Status update_runs_threaded(const std::vector<uint32_t>& slots, float dt, uint32_t rng_base,
                              std::vector<uint8_t>& dead, const std::vector<std::pair<size_t, size_t>>& runs,
                              uint32_t threads) {
    prepare_input(Section::kUpdate, dt, rng_base);
    if (lanes.size() < threads) lanes.resize(threads);
    std::vector<size_t> bounds{0};
    const size_t per = (slots.size() + threads - 1) / threads;
    for (size_t r = 0, taken = 0; r < runs.size(); ++r) {
      taken += runs[r].second - runs[r].first;
      if (taken >= per * bounds.size() && bounds.size() < threads) bounds.push_back(r + 1);
    }
    if (bounds.back() != runs.size()) bounds.push_back(runs.size());
    const size_t used = bounds.size() - 1;
    std::vector<Status> results(used, ok_status());
    std::vector<std::thread> workers;
    for (size_t t = 0; t < used; ++t) {
      Lane& lane = lanes[t];
      if (!lane.executor) lane.executor = make_batch_executor();
      lane.in = in;  // this tick's program, section, context, fields, wind and stream
      if (t == 0) continue;
      workers.emplace_back([&, t] { results[t] = run_lane(lanes[t], runs, bounds[t], bounds[t + 1], slots, dead); });
    }
    results[0] = run_lane(lanes[0], runs, bounds[0], bounds[1], slots, dead);
    for (std::thread& w : workers) w.join();
    for (size_t t = 0; t < used; ++t) {
      MOTE_TRY(results[t]);
      update_sent.insert(update_sent.end(), lanes[t].sent.begin(), lanes[t].sent.end());
    }
    return ok_status();
  }

  // Runs UPDATE over `slots` (sorted ascending) with PARTICLE_INDEX = slot; marks kills in
  // `dead` (indexed by slot). Contiguous runs of the pool, gaps up to kMaxRunGap bridged.
  Status update_slots(const std::vector<uint32_t>& slots, float dt, uint32_t rng_base, std::vector<uint8_t>& dead,
                      bool warm) {
    const uint32_t threads = warm ? 1u : thread_count();
    if (threads > 1 && slots.size() >= 2u * threads) {
      // Runs of the pool as the one-thread loop makes them, cut into pieces so that a young
      // pool's one long run spreads over the threads too (a piece is a run of its own).
      const size_t piece = std::max<size_t>(256, (slots.size() + 4u * threads - 1) / (4u * threads));
      std::vector<std::pair<size_t, size_t>> runs;
      for (size_t i = 0; i < slots.size();) {
        size_t j = i + 1;
        while (j < slots.size() && j - i < piece && slots[j] - slots[j - 1] <= kMaxRunGap) ++j;
        runs.emplace_back(i, j);
        i = j;
      }
      if (runs.size() >= 2) return update_runs_threaded(slots, dt, rng_base, dead, runs, threads);
    }
    size_t i = 0;
    while (i < slots.size()) {
      size_t j = i + 1;
      while (j < slots.size() && slots[j] - slots[j - 1] <= kMaxRunGap) ++j;
      const uint32_t first = slots[i];
      const uint32_t count = slots[j - 1] - first + 1;
      prepare_input(Section::kUpdate, dt, rng_base);
      in.count = count;
      in.first_particle_index = first;
      in.records.assign(pool.begin() + ptrdiff_t(size_t(first) * stride),
                        pool.begin() + ptrdiff_t(size_t(first + count) * stride));
      MOTE_TRY(executor->run_into(in, out));
      for (size_t k = i; k < j; ++k) {
        const uint32_t local = slots[k] - first;
        std::copy_n(out.records.data() + size_t(local) * stride, stride, pool.data() + size_t(slots[k]) * stride);
        if (out.killed[local]) dead[slots[k]] = 1;
        if (!warm) collect_events(local, slots[k]);  // the bridged gaps' records are not particles
      }
      i = j;
    }
    return ok_status();
  }

  // One tick of the loop. `warm_tick` >= 0: a warm-up tick (jittered advance, warm-up streams).
  Result<FrameReport> tick(float dt, uint32_t tick_index, bool warm) {
    FrameReport r;
    const float age_before = age;
    age = age + dt;
    // A stopped emitter's clock runs, its accumulator and declared bursts stand still (the GPU
    // tick's kEmitterFlagStopped); the host's bursts spawn either way. The warm-up takes neither.
    const bool stopped = !warm && !emitting;
    const uint64_t bursts = stopped ? 0 : sim::bursts_due(effect.emission.bursts, age_before, age);
    const uint64_t rate_spawns = stopped ? 0 : sim::take_rate_spawns(accumulator, rate(), dt);
    uint64_t requested = bursts > UINT64_MAX - rate_spawns ? UINT64_MAX : bursts + rate_spawns;
    if (!warm) requested = std::min(requested, UINT64_MAX - host_bursts) + std::exchange(host_bursts, 0);
    // The queued events' children come first, then the rate and bursts take what is left.
    uint64_t children = 0;
    for (const ParticleEvent& e : pending) children += e.count;
    const uint32_t free_now = uint32_t(free_stack.size());
    const uint32_t event_spawns = uint32_t(std::min<uint64_t>(children, free_now));
    const uint64_t rate_granted = std::min<uint64_t>(requested, free_now - event_spawns);
    r.events_received = uint32_t(pending.size());
    r.events_dropped = pending_dropped;
    r.event_spawns = event_spawns;
    r.event_spawns_dropped = uint32_t(std::min<uint64_t>(children - event_spawns, 0xFFFFFFFFu));
    sent.clear();
    const std::vector<uint32_t> previous = std::move(alive);
    alive.clear();
    alive.reserve(previous.size() + 64);
    MOTE_TRY_ASSIGN(auto born_now,
                    emit(event_spawns + rate_granted, event_spawns, dt,
                         simulation_rng_base(options.emitter.seed, tick_index, warm ? 2 : 0), alive, warm));
    pending.clear();
    pending_dropped = 0;
    r.spawned = born_now.first;
    r.killed = born_now.second;
    r.dropped = uint32_t(std::min<uint64_t>(requested - rate_granted, 0xFFFFFFFFu));

    std::vector<uint8_t> dead(capacity, 0);
    const uint32_t update_base = simulation_rng_base(options.emitter.seed, tick_index, warm ? 3 : 1);
    std::vector<uint32_t> sorted = previous;
    std::sort(sorted.begin(), sorted.end());
    if (!warm) {
      MOTE_TRY(update_slots(sorted, dt, update_base, dead, warm));
      append_update_events(previous);
    } else {
      std::vector<uint32_t> bucket_slots[kWarmupDtBuckets];
      for (uint32_t s : sorted) bucket_slots[warmup_dt_bucket(s, tick_index)].push_back(s);
      for (uint32_t b = 0; b < kWarmupDtBuckets; ++b)
        if (!bucket_slots[b].empty())
          MOTE_TRY(update_slots(bucket_slots[b], warmup_particle_dt(dt, b), update_base, dead, warm));
    }
    for (uint32_t s : previous) {
      if (dead[s]) {
        std::fill_n(pool.data() + size_t(s) * stride, stride, 0u);
        free_stack.push_back(s);
        ++r.killed;
      } else {
        alive.push_back(s);
      }
    }
    r.alive = uint32_t(alive.size());
    r.emitter_age = age;
    r.events_sent = uint32_t(sent.size());
    if (position_offset) MOTE_TRY(measure_bounds(pool, stride, alive, *position_offset, r));
    return r;
  }
};

Simulation::Simulation(std::unique_ptr<State> state) : s_(std::move(state)) {}
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;
Simulation::~Simulation() = default;

Result<Simulation> Simulation::create(const CompiledEffect& effect, const SimulationOptions& options) {
  return core::guard_allocation("Simulation::create", [&]() -> Result<Simulation> {
    auto s = std::make_unique<State>();
    s->effect = effect;
    s->options = options;
    const Program& program = effect.program;
    if (!program.eval.empty())
      return make_error(ErrorCode::kUnsupported,
                        "a stateless effect (an EVAL section) has no simulation: it is evaluated, not stepped");
    if (!(options.dt > 0.0f) || !std::isfinite(options.dt))
      return make_error(ErrorCode::kInvalidArgument, "dt must be a positive number of seconds");
    MOTE_TRY(check_wind(options.wind));
    if (options.vector_fields.size() > kMaxVectorFieldSlots)
      return make_error(ErrorCode::kInvalidArgument,
                        "at most " + std::to_string(kMaxVectorFieldSlots) + " vector fields, got " +
                            std::to_string(options.vector_fields.size()),
                        "vector_fields");
    for (size_t i = 0; i < options.vector_fields.size(); ++i)
      if (Status checked = check_vector_field(options.vector_fields[i]); !checked.ok()) {
        Error e = checked.error();
        e.where = "vector_fields[" + std::to_string(i) + "]." + e.where;
        return e;
      }
    s->capacity = options.capacity ? options.capacity : effect.emission.capacity_hint;
    if (s->capacity == 0) return make_error(ErrorCode::kInvalidArgument, "capacity must be at least 1");
    if (s->capacity > (1u << 24))
      return make_error(ErrorCode::kInvalidArgument, "capacity above 2^24 (PARTICLE_INDEX is a float)");
    const uint32_t own = vm_particle_record_words(program);
    s->stride = options.record_words ? options.record_words : own;
    if (s->stride < own)
      return make_error(ErrorCode::kInvalidArgument, "record_words " + std::to_string(s->stride) +
                                                         " is smaller than the program's record (" +
                                                         std::to_string(own) + " words)");
    if (options.emitter.transform.valid())
      return make_error(
          ErrorCode::kInvalidArgument,
          "the reference simulation has no transform hierarchy: place the emitter by position and rotation");
    if (options.emitter_generation == 0 || options.emitter_generation > kHeaderGenerationMask ||
        options.emitter_row > kHeaderRowMask)
      return make_error(ErrorCode::kInvalidArgument, "emitter row or generation out of the header's range");
    s->header = encode_particle_header(options.emitter_row, options.emitter_generation);

    // Emitter fields: the effect's defaults, then the overrides.
    MOTE_TRY_ASSIGN(s->emitter_fields, initial_emitter_fields(effect, options.emitter.fields));
    if (auto off = program.emitter_field_offset("rate")) {
      for (const FieldDecl& f : program.emitter_fields)
        if (f.name == "rate" && f.width == 1) s->rate_offset = off;
    }

    // Globals: packed in import order from the previews, then the overrides; the program linked
    // to that section.
    const std::vector<uint32_t> offsets = global_import_offsets(program);
    s->global_fields = initial_global_values(effect);
    MOTE_TRY(apply_field_values(program.global_imports, options.emitter.globals, s->global_fields, "global field"));
    MOTE_TRY_ASSIGN(s->linked, link_globals(program, offsets));

    s->executor = options.executor == SimulationExecutor::kBatch ? make_batch_executor() : make_reference_executor();
    s->pool.assign(size_t(s->capacity) * s->stride, 0);
    // Pops come from the back: slot 0 first, so a young pool is packed low.
    s->free_stack.resize(s->capacity);
    for (uint32_t i = 0; i < s->capacity; ++i) s->free_stack[i] = s->capacity - 1 - i;

    s->position_offset = bounds_field_offset(effect);
    s->payload_layout = sim::event_payload_layout(effect);
    if (options.event_queue_capacity == 0)
      return make_error(ErrorCode::kInvalidArgument, "event_queue_capacity must be at least 1", "event_queue_capacity");

    if (options.prewarm) {
      s->warmup = warmup_schedule(effect.emission.prewarm_seconds);
      if (s->warmup.ticks > 0) s->accumulator = warmup_start_accumulator(options.emitter.seed);
      FrameReport total;
      for (uint32_t t = 0; t < s->warmup.ticks; ++t) {
        MOTE_TRY_ASSIGN(FrameReport r, s->tick(s->warmup.tick_seconds, t, /*warm=*/true));
        total.spawned += r.spawned;
        total.killed += r.killed;
        total.dropped += r.dropped;
        total = FrameReport{r.frame,
                            r.emitter_age,
                            r.alive,
                            total.spawned,
                            total.killed,
                            total.dropped,
                            r.has_bounds,
                            {r.bounds_min[0], r.bounds_min[1], r.bounds_min[2]},
                            {r.bounds_max[0], r.bounds_max[1], r.bounds_max[2]}};
      }
      s->warmup_report = total;
    }
    return Simulation(std::move(s));
  });
}

Result<FrameReport> Simulation::step() {
  return core::guard_allocation("Simulation::step", [&]() -> Result<FrameReport> {
    MOTE_TRY_ASSIGN(FrameReport r, s_->tick(s_->options.dt, s_->frame, /*warm=*/false));
    r.frame = s_->frame++;
    return r;
  });
}

Result<FrameReport> Simulation::step(float dt) {
  if (!(dt > 0.0f) || !std::isfinite(dt))
    return make_error(ErrorCode::kInvalidArgument, "dt must be a positive, finite number of seconds");
  return core::guard_allocation("Simulation::step", [&]() -> Result<FrameReport> {
    MOTE_TRY_ASSIGN(FrameReport r, s_->tick(dt, s_->frame, /*warm=*/false));
    r.frame = s_->frame++;
    return r;
  });
}

void Simulation::burst(uint32_t count) { s_->host_bursts = std::min<uint64_t>(s_->host_bursts + count, UINT32_MAX); }
void Simulation::set_emitting(bool emitting) { s_->emitting = emitting; }
bool Simulation::emitting() const { return s_->emitting; }

void Simulation::set_emitter_pose(const std::array<float, 3>& position, const std::array<float, 4>& rotation) {
  s_->options.emitter.position = position;
  s_->options.emitter.rotation = rotation;
}

Status Simulation::adopt(std::span<const uint32_t> records, const SimulationClock& clock) {
  const size_t stride = s_->stride;
  if (records.size() % stride != 0)
    return make_error(ErrorCode::kInvalidArgument, "records: " + std::to_string(records.size()) +
                                                       " words is no whole number of " + std::to_string(stride) +
                                                       "-word records");
  const size_t count = records.size() / stride;
  if (count > s_->capacity)
    return make_error(ErrorCode::kInvalidArgument, "records: " + std::to_string(count) +
                                                       " particles in a simulation of capacity " +
                                                       std::to_string(s_->capacity));
  return core::guard_allocation("Simulation::adopt", [&]() -> Status {
    std::fill(s_->pool.begin(), s_->pool.end(), 0u);
    s_->alive.clear();
    for (size_t i = 0; i < count; ++i) {
      std::copy_n(records.data() + i * stride, stride, s_->pool.data() + i * stride);
      s_->pool[i * stride] = s_->header;
      s_->alive.push_back(uint32_t(i));
    }
    // Pops come from the back: the lowest free slot first, as in a new pool.
    s_->free_stack.clear();
    for (uint32_t slot = s_->capacity; slot-- > uint32_t(count);) s_->free_stack.push_back(slot);
    s_->age = clock.age;
    s_->accumulator = clock.accumulator;
    s_->born = clock.born;
    s_->frame = clock.ticks;
    return ok_status();
  });
}

SimulationClock Simulation::clock() const { return {s_->age, s_->accumulator, s_->born, s_->frame}; }

const std::vector<ParticleEvent>& Simulation::sent_events() const { return s_->sent; }

Status Simulation::queue_events(std::span<const ParticleEvent> events) {
  for (size_t i = 0; i < events.size(); ++i)
    if (events[i].output >= shader::kVmEventOutputs || events[i].count > shader::kVmMaxEventCount)
      return make_error(ErrorCode::kInvalidArgument,
                        "event " + std::to_string(i) + ": output must be below " +
                            std::to_string(shader::kVmEventOutputs) + " and count at most " +
                            std::to_string(shader::kVmMaxEventCount),
                        "events[" + std::to_string(i) + "]");
  for (const ParticleEvent& e : events) {
    if (e.count == 0) continue;
    if (s_->pending.size() < s_->options.event_queue_capacity) s_->pending.push_back(e);
    else ++s_->pending_dropped;
  }
  return ok_status();
}

uint32_t Simulation::capacity() const { return s_->capacity; }
uint32_t Simulation::record_words() const { return s_->stride; }
uint32_t Simulation::alive_count() const { return uint32_t(s_->alive.size()); }
uint32_t Simulation::free_count() const { return uint32_t(s_->free_stack.size()); }
float Simulation::emitter_age() const { return s_->age; }
const WarmupSchedule& Simulation::warmup() const { return s_->warmup; }
const FrameReport& Simulation::warmup_report() const { return s_->warmup_report; }
const std::vector<uint32_t>& Simulation::alive_slots() const { return s_->alive; }
const std::vector<uint32_t>& Simulation::pool() const { return s_->pool; }
std::span<uint32_t> Simulation::mutable_pool() { return s_->pool; }
const CompiledEffect& Simulation::effect() const { return s_->effect; }

Result<uint32_t> Simulation::field_width(std::string_view name) const {
  for (const FieldDecl& f : s_->effect.program.particle_fields)
    if (f.name == name) return f.width;
  return make_error(ErrorCode::kNotFound, "no particle field named '" + std::string(name) + "'");
}

Result<std::vector<float>> Simulation::field(std::string_view name) const {
  MOTE_TRY_ASSIGN(const uint32_t width, field_width(name));
  const uint32_t offset = *s_->effect.program.particle_field_offset(name);
  std::vector<float> values;
  values.reserve(s_->alive.size() * width);
  for (uint32_t slot : s_->alive)
    for (uint32_t c = 0; c < width; ++c)
      values.push_back(std::bit_cast<float>(s_->pool[size_t(slot) * s_->stride + offset + c]));
  return values;
}

}  // namespace mote
