// bench_runtime_frame --scenario 11 (bench/runtime_frame.cpp's header): events through the spawn
// path (docs/design/events.md, "On the GPU"). `senders` particles born in one burst live for ever
// and each sends one event per UPDATE to a bound child emitter, whose children live one frame: in
// steady state every frame appends `senders` events, sorts and delivers last frame's into as many
// children, and frees as many. GPU timestamps per pass; medians over the measured frames.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "frame_bench.hpp"
#include "gpu/profiler.hpp"
#include "runtime/frame/particle_system.hpp"

namespace mote::bench {

namespace {

std::string sender_effect(uint32_t senders) {
  return R"({"name": "event_sender", "event_outputs": ["tick"],
    "particle_fields": [{"name": "position", "width": 3}, {"name": "age", "width": 1}],
    "emission": {"bursts": [{"time": 0, "count": )" +
         std::to_string(senders) + R"(}], "capacity": )" + std::to_string(senders) + R"(},
    "init": {"nodes": [{"id": "e", "type": "emit_sphere", "inputs": {"radius": 1.0}},
      {"id": "s", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "e.position"}}]},
    "update": {"nodes": [{"id": "a", "type": "get_field", "params": {"field": "age"}},
      {"id": "o", "type": "age_step", "inputs": {"age": "a"}},
      {"id": "sa", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": "o"}},
      {"id": "x", "type": "send_event", "params": {"output": "tick"}, "inputs": {"count": 1}}]}})";
}

std::string child_effect(uint32_t capacity) {
  return R"({"name": "event_child",
    "particle_fields": [{"name": "position", "width": 3}],
    "emission": {"rate": 0, "capacity": )" +
         std::to_string(capacity) + R"(},
    "init": {"nodes": [{"id": "p", "type": "builtin", "params": {"name": "event_position"}},
      {"id": "s", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "p"}}]},
    "update": {"nodes": [{"id": "k", "type": "kill_if", "inputs": {"condition": 1}}]}})";
}

template <typename T>
T median_of(std::vector<T> v) {
  if (v.empty()) return T{};
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

Result<std::string> run_event_scenario(gpu::Device& device, const FrameBenchOptions& opt, uint64_t events) {
  constexpr float kDt = 1.0f / 60.0f;
  const uint32_t senders = uint32_t(std::min<uint64_t>(events, opt.max_particles / 2));
  const uint32_t capacity = std::min(kFrameMaxCapacity, 2 * senders + senders / 8);
  MOTE_TRY_ASSIGN(const CompiledEffect sender, compile_effect(sender_effect(senders)));
  MOTE_TRY_ASSIGN(const CompiledEffect child, compile_effect(child_effect(senders)));
  MOTE_TRY_ASSIGN(runtime::ParticleSystem system,
                  runtime::ParticleSystem::create(device, {.capacity = capacity,
                                                           .record_words = opt.record_words,
                                                           .max_emitters = 2,
                                                           .compiled_simulate = !opt.interpreted}));
  MOTE_TRY_ASSIGN(const uint32_t source, system.add_emitter(sender, {.seed = 3}));
  MOTE_TRY_ASSIGN(const uint32_t target, system.add_emitter(child, {.seed = 4}));
  MOTE_TRY(system.bind_event(source, 0u, target));
  MOTE_TRY(system.wait_for_kernels());
  for (int k = 0; k < 4; ++k) MOTE_TRY(system.execute(kDt));  // born, sending, delivering, steady
  MOTE_TRY_ASSIGN(gpu::GpuProfiler profiler, gpu::GpuProfiler::create(device, 64));
  std::map<std::string, std::vector<double>> pass_ms;
  std::vector<double> frame_ms;
  std::vector<uint32_t> children, dropped;
  bool pool_ok = true;
  for (uint32_t f = 0; f < std::max(1u, opt.frames); ++f) {
    system.set_profiler(&profiler);
    Status ran = system.execute(kDt);
    system.set_profiler(nullptr);
    MOTE_TRY(ran);
    MOTE_TRY(device.wait_idle());
    MOTE_TRY_ASSIGN(const std::vector<gpu::PassTime> times, profiler.resolve());
    double total = 0.0;
    for (const gpu::PassTime& t : times) {
      pass_ms[t.name].push_back(t.ms);
      total += t.ms;
    }
    frame_ms.push_back(total);
    MOTE_TRY_ASSIGN(const std::vector<runtime::EmitterEventStats> rows, system.read_event_stats());
    children.push_back(rows[target].spawned);
    dropped.push_back(rows[target].spawns_dropped + rows[target].queue_dropped);
    MOTE_TRY_ASSIGN(const runtime::FrameStats stats, system.read_stats());
    pool_ok = pool_ok && stats.alive + stats.free_count == capacity;
  }
  std::string passes;
  for (const auto& [name, ms] : pass_ms)
    passes += fmt::format("{}\"{}\":{:.4f}", passes.empty() ? "" : ",", name, median_of(ms));
  return fmt::format("{{\"bench\":\"runtime_frame\",\"name\":\"events\",\"events_per_frame\":{},\"capacity\":{},"
                     "\"children\":{},\"dropped\":{},\"pool_ok\":{},\"frame_ms\":{:.4f},\"passes_ms\":{{{}}},"
                     "\"frames\":{}}}",
                     senders, capacity, median_of(children), median_of(dropped), pool_ok, median_of(frame_ms), passes,
                     frame_ms.size());
}

}  // namespace mote::bench
