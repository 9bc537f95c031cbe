// bench/drivers: the cpu and manual drivers through the public API (docs/design/drivers.md).
//  - cpu: a cpu-driven fire (its rate raised so the pool holds enough particles for the loop to
//    be measured) on 1, 2 and all hardware threads (CpuEmitterDesc::threads) — particle updates
//    per second over the wall time of execute() (the host step, the forces, the upload and the
//    GPU frame, which waits for the previous one), with and without a custom force, and the bytes
//    it uploads a frame (ParticleSystem::driver_upload_bytes, measured) against a full upload of
//    the pool;
//  - sim: the same fire's host step alone (mote::Simulation on the batch VM, no GPU) on 1, 2 and
//    all threads: what the worker threads buy.
//  - manual: the cost of one upload that rewrote all N records (10k by default), then of one that
//    rewrote a single record: execute() after an upload against execute() without one, both
//    waited for, and the bytes each upload sent.
// One JSON object per line.
//
//   bench_drivers [--rate R] [--capacity C] [--frames N] [--records N]
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <span>
#include <vector>

#include <thread>

#include "mote/files.hpp"
#include "mote/particles.hpp"
#include "mote/simulation.hpp"

using namespace mote;
using Clock = std::chrono::steady_clock;

namespace {

int fail(const char* what, const Error& e) {
  fmt::print(stderr, "bench_drivers: {}: {}\n", what, e.to_string());
  return 1;
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::vector<uint32_t> thread_counts() {
  std::vector<uint32_t> counts{1, 2};
  const uint32_t all = std::max(1u, std::thread::hardware_concurrency());
  if (all > 2) counts.push_back(all);
  return counts;
}

// The host step alone: a fire simulation at `rate` stepped `frames` times after a warm-up.
int bench_simulation(const CompiledEffect& fire, float rate, uint32_t capacity, uint32_t frames, uint32_t threads) {
  auto sim = Simulation::create(fire, {.emitter = {.seed = 1, .fields = {{"rate", {rate}}}},
                                       .capacity = capacity,
                                       .executor = SimulationExecutor::kBatch,
                                       .prewarm = false,
                                       .threads = threads});
  if (!sim.ok()) return fail("simulation", sim.error());
  for (uint32_t f = 0; f < 60; ++f)
    if (auto r = sim->step(); !r.ok()) return fail("warm-up step", r.error());
  uint64_t updated = 0;
  const Clock::time_point t = Clock::now();
  for (uint32_t f = 0; f < frames; ++f) {
    updated += sim->alive_count();
    if (auto r = sim->step(); !r.ok()) return fail("step", r.error());
  }
  const double elapsed = seconds_since(t);
  fmt::print("{{\"driver\": \"sim\", \"effect\": \"fire\", \"threads\": {}, \"alive\": {:.0f}, "
             "\"particles_per_second\": {:.0f}, \"ms_per_step\": {:.3f}}}\n",
             threads, double(updated) / frames, double(updated) / elapsed, 1e3 * elapsed / frames);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  float rate = 100000.0f;
  uint32_t capacity = 1u << 18, frames = 120, records = 10000;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    const char* v = argv[i + 1];
    if (a == "--rate") rate = std::strtof(v, nullptr);
    else if (a == "--capacity") capacity = uint32_t(std::strtoul(v, nullptr, 10));
    else if (a == "--frames") frames = uint32_t(std::strtoul(v, nullptr, 10));
    else if (a == "--records") records = uint32_t(std::strtoul(v, nullptr, 10));
    else {
      fmt::print(stderr, "usage: bench_drivers [--rate R] [--capacity C] [--frames N] [--records N]\n");
      return 2;
    }
  }
  auto context = Context::create();
  if (!context.ok()) return fail("context", context.error());
  auto fire = compile_effect_file(MOTE_SOURCE_DIR "/effects/fire.json");
  if (!fire.ok()) return fail("fire.json", fire.error());
  const float dt = 1.0f / 60.0f;

  for (const uint32_t threads : thread_counts())
    if (int r = bench_simulation(fire.value(), rate, capacity / 2, frames, threads); r != 0) return r;
  for (const uint32_t threads : thread_counts())
    for (const bool with_force : {false, true}) {
      auto system = ParticleSystem::create(*context.value(), {.capacity = capacity, .max_emitters = 2});
      if (!system.ok()) return fail("system", system.error());
      CpuEmitterDesc desc{.emitter = {.seed = 1, .fields = {{"rate", {rate}}}},
                          .max_count = capacity / 2,
                          .threads = threads};
      if (with_force)
        desc.forces.push_back([](const Particle& p, const SceneView&) {
          return std::array<float, 3>{-p.position[0], 1.0f - p.position[1], -p.position[2]};
        });
      auto cpu = (*system)->add_cpu_emitter(fire.value(), desc);
      if (!cpu.ok()) return fail("cpu emitter", cpu.error());
      for (uint32_t f = 0; f < 60; ++f)  // fill the pool to its steady state first
        if (auto s = (*system)->execute(dt); !s.ok()) return fail("warm-up frame", s.error());
      uint64_t updated = 0;
      double elapsed = 0.0;
      const uint64_t uploaded_before = (*system)->driver_upload_bytes();
      for (uint32_t f = 0; f < frames; ++f) {
        auto alive = (*system)->read_alive_count(cpu->id());
        if (!alive.ok()) return fail("count", alive.error());
        const Clock::time_point t = Clock::now();
        if (auto s = (*system)->execute(dt); !s.ok()) return fail("frame", s.error());
        elapsed += seconds_since(t);
        updated += alive.value();
      }
      if (auto s = (*system)->wait_idle(); !s.ok()) return fail("wait", s.error());
      const double per_frame = double(updated) / double(frames);
      fmt::print(
          "{{\"driver\": \"cpu\", \"effect\": \"fire\", \"threads\": {}, \"custom_force\": {}, \"alive\": {:.0f}, "
          "\"particles_per_second\": {:.0f}, \"ms_per_frame\": {:.3f}, \"uploaded_bytes_per_frame\": {:.0f}, "
          "\"full_upload_bytes\": {}}}\n",
          threads, with_force, per_frame, double(updated) / elapsed, 1e3 * elapsed / frames,
          double((*system)->driver_upload_bytes() - uploaded_before) / double(frames),
          uint64_t(capacity) * (*system)->record_words() * 4);
    }

  auto system = ParticleSystem::create(*context.value(), {.capacity = 2 * records + 64, .max_emitters = 2});
  if (!system.ok()) return fail("system", system.error());
  auto manual = (*system)->add_manual_emitter(fire.value(), records);
  if (!manual.ok()) return fail("manual emitter", manual.error());
  std::vector<Particle> written(records);
  for (uint32_t i = 0; i < records; ++i) written[i].position = {float(i % 100), float(i / 100), 0.0f};
  if (auto s = manual->write_range(0, written); !s.ok()) return fail("write_range", s.error());
  if (auto s = manual->set_count(records); !s.ok()) return fail("set_count", s.error());
  // Upload frames rewrite `changed` records (each moved a little) and upload; the frames between
  // upload nothing. The first upload placed them all (before the loop, outside the figures).
  if (auto s = manual->upload(); !s.ok()) return fail("upload", s.error());
  if (auto s = (*system)->execute(dt); !s.ok()) return fail("first frame", s.error());
  for (const uint32_t changed : {records, 1u}) {
    double with_upload = 0.0, without = 0.0;
    const uint64_t uploaded_before = (*system)->driver_upload_bytes();
    for (uint32_t f = 0; f < frames; ++f) {
      const bool upload = f % 2 == 0;
      if (upload) {
        for (uint32_t i = 0; i < changed; ++i) written[i].position[2] = float(f) * 0.001f;
        if (auto s = manual->write_range(0, std::span(written).first(changed)); !s.ok())
          return fail("write_range", s.error());
        if (auto s = manual->upload(); !s.ok()) return fail("upload", s.error());
      }
      const Clock::time_point t = Clock::now();
      if (auto s = (*system)->execute(dt); !s.ok()) return fail("frame", s.error());
      if (auto s = (*system)->wait_idle(); !s.ok()) return fail("wait", s.error());
      (upload ? with_upload : without) += seconds_since(t);
    }
    const double half = double(frames / 2);
    fmt::print("{{\"driver\": \"manual\", \"records\": {}, \"changed\": {}, \"uploaded_bytes_per_upload\": {:.0f}, "
               "\"ms_frame_with_upload\": {:.3f}, \"ms_frame_without\": {:.3f}, \"ms_per_upload\": {:.3f}}}\n",
               records, changed, double((*system)->driver_upload_bytes() - uploaded_before) / half,
               1e3 * with_upload / half, 1e3 * without / half, 1e3 * (with_upload - without) / half);
  }
  return 0;
}
