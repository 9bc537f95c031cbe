// bench/sim_cpu: throughput of the CPU reference simulation (src/sim/) on a preset, one thread:
// particle updates per second (the sum over frames of the particles alive, over the time the
// frames took), for the reference and the batch executor. The preset's rate is raised (emitter
// field "rate") so the pool holds enough particles for the loop, not its fixed costs, to be
// measured. One JSON object per line.
//
//   sim_cpu [--effect effects/fire.json] [--rate R] [--capacity C] [--frames N]
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "core/file.hpp"
#include "mote/effect.hpp"
#include "mote/simulation.hpp"

using namespace mote;

int main(int argc, char** argv) {
  std::string effect_path = MOTE_SOURCE_DIR "/effects/fire.json";
  float rate = 200000.0f;
  uint32_t capacity = 1u << 20;
  uint32_t frames = 240;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) {
      fmt::print(stderr, "usage: sim_cpu [--effect PATH] [--rate R] [--capacity C] [--frames N]\n");
      return 2;
    }
    const char* v = argv[++i];
    if (a == "--effect") effect_path = v;
    else if (a == "--rate") rate = std::strtof(v, nullptr);
    else if (a == "--capacity") capacity = uint32_t(std::strtoul(v, nullptr, 10));
    else if (a == "--frames") frames = uint32_t(std::strtoul(v, nullptr, 10));
    else {
      fmt::print(stderr, "sim_cpu: unknown option {}\n", a);
      return 2;
    }
  }
  auto text = read_file_text(effect_path);
  if (!text.ok()) {
    fmt::print(stderr, "sim_cpu: {}\n", text.error().to_string());
    return 1;
  }
  auto effect = compile_effect(*text);
  if (!effect.ok()) {
    fmt::print(stderr, "sim_cpu: {}: {}\n", effect_path, effect.error().to_string());
    return 1;
  }
  for (SimulationExecutor executor : {SimulationExecutor::kReference, SimulationExecutor::kBatch}) {
    SimulationOptions options;
    options.capacity = capacity;
    options.executor = executor;
    options.emitter.fields = {{"rate", {rate}}};
    auto sim = Simulation::create(*effect, options);
    if (!sim.ok()) {
      fmt::print(stderr, "sim_cpu: {}\n", sim.error().to_string());
      return 1;
    }
    // Warm up to the steady state, then time.
    for (uint32_t f = 0; f < 60; ++f)
      if (auto r = sim->step(); !r.ok()) {
        fmt::print(stderr, "sim_cpu: {}\n", r.error().to_string());
        return 1;
      }
    uint64_t updates = 0;
    const auto start = std::chrono::steady_clock::now();
    for (uint32_t f = 0; f < frames; ++f) {
      auto r = sim->step();
      if (!r.ok()) {
        fmt::print(stderr, "sim_cpu: {}\n", r.error().to_string());
        return 1;
      }
      updates += r->alive;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print("{{\"bench\":\"sim_cpu\",\"effect\":\"{}\",\"executor\":\"{}\",\"frames\":{},\"mean_alive\":{:.0f},"
               "\"seconds\":{:.3f},\"particle_updates_per_second\":{:.0f}}}\n",
               effect->name, executor == SimulationExecutor::kReference ? "reference" : "batch", frames,
               double(updates) / frames, seconds, double(updates) / seconds);
  }
  return 0;
}
