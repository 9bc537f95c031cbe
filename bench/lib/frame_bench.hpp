// The GPU runtime frame's benchmark (bench/runtime_frame and `mote bench`): scenarios of alive
// particles over emitters, GPU timestamps per pass, and a bytes model per pass against the copy
// roofline. What each scenario and figure means: bench/runtime_frame.cpp's header comment.
#pragma once

#include <cstdint>
#include <string>

#include "gpu/device.hpp"
#include "mote/depth_image.hpp"
#include "mote/effect.hpp"
#include "mote/result.hpp"

namespace mote::bench {

inline constexpr uint32_t kFrameMaxCapacity = 1u << 24;

struct FrameBenchOptions {
  uint32_t frames = 20;
  uint32_t max_particles = kFrameMaxCapacity;
  bool interpreted = false;
  uint64_t roofline_mib = 1024;  // 0: no roofline, and no GPU warm-up before the measured frames
  uint32_t record_words = 32;
  uint32_t extra_fields = 0;
  // The collision depth the system is given before its frames (bench/depth_collision; nullptr: none).
  const DepthImage* collision_depth = nullptr;
};

struct Scenario {
  uint32_t id;
  const char* name;
  uint64_t target;  // particles alive (steady) or newborns (burst)
  uint32_t emitters;
  bool burst;
  bool long_lived = false;  // one burst that lives on: simulate over an alive list in slot order
  uint32_t programs = 1;    // distinct programs over the emitters (round robin): the coherence buckets
  bool idle = false;        // nothing alive and nothing spawning in a pool of `target` records
};
extern const Scenario kScenarios[9];

// The medians of one scenario; `json` is its line as bench/runtime_frame prints it.
struct FrameResult {
  double frame_ms = 0.0, simulate_ms = 0.0;
  double frame_gbps = 0.0, simulate_gbps = 0.0;
  double frame_of_roofline = 0.0, simulate_of_roofline = 0.0;
  uint32_t alive = 0, capacity = 0;
  bool pool_ok = false;  // alive + free == capacity in every measured frame
  std::string json;
};

// The benchmark's effect: ballistic particles whose life is an emitter field, with `extra_fields`
// more float fields each advanced in UPDATE.
Result<CompiledEffect> frame_bench_effect(uint32_t extra_fields);
// The same ballistic particles colliding with the collision depth after they move: one SAMPLE_DEPTH
// (thickness 0.5) and the collide_depth node's response with restitution 0.5, friction 0 written
// without selects (a miss returns 0: nothing moves), bench/depth_collision's effect.
Result<CompiledEffect> frame_bench_depth_effect();
Result<FrameResult> run_frame_scenario(gpu::Device& device, const FrameBenchOptions& options, const Scenario& scenario,
                                       const CompiledEffect& effect, double roofline_gbps);

// The GPU pre-warm: an emitter whose effect pre-warms `prewarm_seconds` to a steady state of
// about `particles` (life 0.5 s), added to an empty system; the frame that records the warm-up is
// timed (its "prewarm" pass and the whole frame), `options.frames` times. One JSON line.
Result<std::string> run_prewarm_scenario(gpu::Device& device, const FrameBenchOptions& options,
                                         const CompiledEffect& effect, uint64_t particles, float prewarm_seconds);

// Events (bench/lib/event_bench.cpp): `events` senders each sending one event a frame to a bound
// emitter whose children live one frame; the steady frame is timed per pass. One JSON line.
Result<std::string> run_event_scenario(gpu::Device& device, const FrameBenchOptions& options, uint64_t events);

}  // namespace mote::bench
