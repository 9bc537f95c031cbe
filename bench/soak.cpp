// bench/soak: a long churn through the public API (docs/design/reliability.md, "The soak").
// Each frame takes seeded random actions — emitters added and removed on every driver (gpu, cpu,
// manual), programs swapped in place, bursts, drivers swapped live, drivers detached and
// attached, emitters paused and deactivated, events bound from the presets that send them to
// those that receive them — then runs one frame. Every `--check-every` frames it waits and checks
// the pool's bookkeeping (ParticleSystem::check_consistency: alive + free == capacity, no slot
// twice, every header of a live emitter's generation, free records zeroed) and samples the
// device memory Mote holds (Context::device_memory_in_use) and the process's resident memory.
// Memory is flat when no sample of the run's second half exceeds the first half's largest (the
// device's bytes exactly, the resident set by more than the slack): buffers that grow to a
// high-water mark (the program buffer, the event queues made with the first binding, the wide
// interpreter's registers) reach it early, a leak keeps growing.
// One JSON object per checkpoint, then a summary; exit 1 on a broken invariant or an unexpected
// error, 3 when memory grew.
//
//   bench_soak [--frames N] [--check-every K] [--capacity C] [--seed S] [--interpreted 1] [--seconds T]
// --seconds T ends the run at the first check after T seconds of wall time (the summary says how
// many frames ran).
// --interpreted 1 runs every program on the interpreter (no compiled kernels: for lavapipe,
// where building a kernel per preset dominates a short run).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "mote/effect.hpp"
#include "mote/files.hpp"
#include "mote/particle_events.hpp"
#include "mote/particles.hpp"

using namespace mote;

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kMaxEmitters = 24;
constexpr uint32_t kMaxCpuEmitters = 2;            // their steps run on this thread: keep the run's pace
constexpr uint32_t kHostDriverRecords = 512;       // a cpu or manual emitter's most particles
constexpr uint64_t kHostSlackBytes = 32ull << 20;  // allocator noise in the resident set

int fail(const std::string& what, const Error& e) {
  fmt::print(stderr, "bench_soak: {}: {}\n", what, e.to_string());
  return 1;
}

uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * uint64_t(sysconf(_SC_PAGESIZE));
}

struct Live {
  size_t effect = 0;
  Driver driver = Driver::kGpu;
};

// A refusal the API documents for the action tried (an effect a driver cannot take, a swap the
// driver refuses) is part of the churn; anything else is a finding.
bool expected_refusal(const Error& e) {
  return e.code == ErrorCode::kInvalidArgument || e.code == ErrorCode::kUnsupported;
}

class Soak {
 public:
  Soak(ParticleSystem& system, std::vector<CompiledEffect> effects, uint32_t seed)
      : system_(system), effects_(std::move(effects)), rng_(seed) {}

  // One frame's random actions; an unexpected error is returned.
  Status act() {
    if (live_.size() < kMaxEmitters && chance(live_.size() < 4 ? 40 : 10)) MOTE_TRY(add());
    if (!live_.empty() && chance(6)) MOTE_TRY(count(system_.remove_emitter(erase(pick_live())), "remove"));
    if (!live_.empty() && chance(5)) MOTE_TRY(swap());
    if (!live_.empty() && chance(12)) MOTE_TRY(count(system_.burst(pick_live(), rng_() % 400), "burst"));
    if (!live_.empty() && chance(3)) MOTE_TRY(swap_driver());
    if (!live_.empty() && chance(3)) {
      const EmitterId id = pick_live();
      MOTE_TRY(count(chance(50) ? system_.set_paused(id, chance(50)) : system_.set_active(id, chance(70)), "toggle"));
    }
    if (live_.size() >= 2 && chance(4)) MOTE_TRY(bind_events());
    return ok_status();
  }

  const std::map<std::string, uint64_t>& done() const { return done_; }
  // The last actions taken (frame, action, emitter row), oldest first: what a failure follows.
  std::string recent() const {
    std::string text;
    for (const std::string& line : recent_) text += "  " + line + "\n";
    return text;
  }
  void set_frame(uint64_t frame) { frame_ = frame; }
  uint64_t refused() const { return refused_; }

 private:
  bool chance(uint32_t percent) { return rng_() % 100 < percent; }
  EmitterId pick_live() {
    auto it = live_.begin();
    std::advance(it, rng_() % live_.size());
    return it->first;
  }
  EmitterId erase(EmitterId id) {
    live_.erase(id);
    return id;
  }
  uint32_t cpu_count() const {
    return uint32_t(std::count_if(live_.begin(), live_.end(), [](auto& l) { return l.second.driver == Driver::kCpu; }));
  }
  // Counts an action that succeeded or was refused as documented; returns any other error.
  Status count(const Status& s, const char* action) {
    recent_.push_back(fmt::format("frame {}: {} {}", frame_, action, s.ok() ? "ok" : "refused: " + s.error().message));
    if (recent_.size() > 40) recent_.erase(recent_.begin());
    if (s.ok()) {
      ++done_[action];
      return ok_status();
    }
    if (!expected_refusal(s.error())) return s.error();
    ++refused_;
    return ok_status();
  }
  template <typename T>
  Status count(const Result<T>& r, const char* action) {
    return r.ok() ? count(ok_status(), action) : count(Status(r.error()), action);
  }

  Status add() {
    const size_t effect = rng_() % effects_.size();
    const EmitterDesc desc{.seed = uint32_t(rng_())};
    const uint32_t kind = rng_() % 10;
    if (kind == 0 && cpu_count() < kMaxCpuEmitters) {
      auto cpu = system_.add_cpu_emitter(effects_[effect], {.emitter = desc, .max_count = kHostDriverRecords});
      if (cpu.ok()) live_[cpu->id()] = {effect, Driver::kCpu};
      return count(cpu, "add_cpu");
    }
    if (kind == 1) {
      auto manual = system_.add_manual_emitter(effects_[effect], kHostDriverRecords, desc);
      if (!manual.ok()) return count(manual, "add_manual");
      live_[manual->id()] = {effect, Driver::kManual};
      std::vector<Particle> records(1 + rng_() % kHostDriverRecords);
      for (size_t i = 0; i < records.size(); ++i) records[i].position = {float(i % 32), float(i / 32), 0.0f};
      MOTE_TRY(manual->set_count(uint32_t(records.size())));
      MOTE_TRY(manual->write_range(0, records));
      return count(manual->upload(), "add_manual");
    }
    auto gpu = system_.add_emitter(effects_[effect], desc);
    if (gpu.ok()) live_[*gpu] = {effect, Driver::kGpu};
    return count(gpu, "add_gpu");
  }

  Status swap() {
    const EmitterId id = pick_live();
    const size_t effect = rng_() % effects_.size();
    auto swapped = system_.swap_effect(id, effects_[effect]);
    if (swapped.ok()) {
      const Driver driver = live_[id].driver;
      live_.erase(id);
      live_[*swapped] = {effect, driver};
    }
    return count(swapped, "swap_effect");
  }

  Status swap_driver() {
    const EmitterId id = pick_live();
    const uint32_t pick = rng_() % 4;
    if (pick == 3) {
      const Status s = system_.detach_driver(id);
      if (s.ok()) live_[id].driver = Driver::kNone;
      return count(s, "detach");
    }
    Driver to = pick == 0 ? Driver::kGpu : pick == 1 ? Driver::kManual : Driver::kCpu;
    if (to == Driver::kCpu && cpu_count() >= kMaxCpuEmitters) to = Driver::kGpu;
    const Status s = system_.set_driver(id, to);
    if (s.ok()) live_[id].driver = to;
    return count(s, "set_driver");
  }

  // A preset that declares event outputs sends its first to a random emitter.
  Status bind_events() {
    const EmitterId source = pick_live();
    if (effects_[live_[source].effect].event_outputs.empty()) return ok_status();
    return count(bind_event(system_, source, 0u, pick_live()), "bind_event");
  }

  ParticleSystem& system_;
  std::vector<CompiledEffect> effects_;
  std::mt19937 rng_;
  std::map<EmitterId, Live, bool (*)(const EmitterId&, const EmitterId&)> live_{
      [](const EmitterId& a, const EmitterId& b) {
        return a.row != b.row ? a.row < b.row : a.generation < b.generation;
      }};
  std::map<std::string, uint64_t> done_;
  uint64_t refused_ = 0;
  uint64_t frame_ = 0;
  std::vector<std::string> recent_;
};

struct Sample {
  uint64_t frame = 0, device_bytes = 0, device_allocations = 0, host_bytes = 0;
};

// Memory is flat when no sample of the second half exceeds the first half's largest (the
// device's bytes exactly; the resident set by more than the slack).
bool memory_flat(const std::vector<Sample>& samples) {
  const size_t half = samples.size() / 2;
  uint64_t device = 0, host = 0;
  for (size_t i = 0; i < half; ++i) {
    device = std::max(device, samples[i].device_bytes);
    host = std::max(host, samples[i].host_bytes);
  }
  for (size_t i = half; i < samples.size(); ++i)
    if (samples[i].device_bytes > device || samples[i].host_bytes > host + kHostSlackBytes) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t frames = 100000, check_every = 1000;
  uint32_t capacity = 1u << 16, seed = 20261202;
  bool interpreted = false;
  double seconds = 0.0;  // 0: no limit
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    const char* v = argv[i + 1];
    if (a == "--frames") frames = std::strtoull(v, nullptr, 10);
    else if (a == "--check-every") check_every = std::max<uint64_t>(1, std::strtoull(v, nullptr, 10));
    else if (a == "--capacity") capacity = uint32_t(std::strtoul(v, nullptr, 10));
    else if (a == "--seed") seed = uint32_t(std::strtoul(v, nullptr, 10));
    else if (a == "--interpreted") interpreted = std::string(v) != "0";
    else if (a == "--seconds") seconds = std::strtod(v, nullptr);
    else {
      fmt::print(stderr, "usage: bench_soak [--frames N] [--check-every K] [--capacity C] [--seed S] [--interpreted 1] "
                         "[--seconds T]\n");
      return 2;
    }
  }
  auto context = Context::create();
  if (!context.ok()) return fail("context", context.error());
  std::vector<CompiledEffect> effects;
  for (const char* name :
       {"fire", "sparkles", "debris", "smoke", "rain", "explosion", "snow", "fountain", "fireworks_rocket",
        "fireworks_spark", "fireworks_crackle", "rain_splash", "splash", "trail_spark", "spark_trail"}) {
    auto effect = compile_effect_file(fmt::format("{}/effects/{}.json", MOTE_SOURCE_DIR, name));
    if (!effect.ok()) return fail(name, effect.error());
    effects.push_back(std::move(effect).value());
  }
  auto system = ParticleSystem::create(*context.value(), {.capacity = capacity,
                                                          .max_emitters = kMaxEmitters,
                                                          .compiled_simulate = !interpreted});
  if (!system.ok()) return fail("system", system.error());
  Soak soak(**system, std::move(effects), seed);
  std::vector<Sample> samples;
  const auto start = std::chrono::steady_clock::now();
  uint64_t ran = 0;
  for (uint64_t frame = 1; frame <= frames; ++frame) {
    ran = frame;
    soak.set_frame(frame);
    if (Status s = soak.act(); !s.ok()) return fail(fmt::format("frame {}: an action", frame), s.error());
    if (Status s = (*system)->execute(kDt); !s.ok()) return fail(fmt::format("frame {}", frame), s.error());
    if (frame % check_every != 0 && frame != frames) continue;
    if (Status s = (*system)->check_consistency(); !s.ok()) {
      fmt::print(stderr, "bench_soak: the last actions:\n{}", soak.recent());
      return fail(fmt::format("frame {}: invariants", frame), s.error());
    }
    auto stats = (*system)->read_stats();
    if (!stats.ok()) return fail("stats", stats.error());
    const Context::MemoryInUse device = context.value()->device_memory_in_use();
    samples.push_back({frame, device.bytes, device.allocations, resident_bytes()});
    fmt::print("{{\"frame\": {}, \"alive\": {}, \"free\": {}, \"emitters\": {}, \"device_bytes\": {}, "
               "\"device_allocations\": {}, \"host_bytes\": {}}}\n",
               frame, stats->alive, stats->free, stats->emitters.size(), device.bytes, device.allocations,
               samples.back().host_bytes);
    std::fflush(stdout);
    if (seconds > 0.0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds)
      break;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string actions;
  for (const auto& [name, n] : soak.done())
    actions += fmt::format("{}\"{}\": {}", actions.empty() ? "" : ", ", name, n);
  const bool flat = memory_flat(samples);
  fmt::print("{{\"soak\": \"done\", \"frames\": {}, \"seconds\": {:.1f}, \"checks\": {}, \"invariants\": \"held\", "
             "\"memory_flat\": {}, \"refused\": {}, \"actions\": {{{}}}}}\n",
             ran, wall, samples.size(), flat, soak.refused(), actions);
  return flat ? 0 : 3;
}
