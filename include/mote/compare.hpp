// The GPU frame beside the reference simulation (`mote simulate --gpu` and `--compare`): one
// effect on a ParticleSystem of its own, reported frame by frame as the reference simulation
// reports (mote/simulation.hpp's FrameReport), and the two run side by side — count differences
// per frame, particles matched by birth serial, the largest deviation per particle field.
//
// Both are tools: every step executes one frame and then waits for it and reads it back (the
// counters, the emitter's state and, when needed, every live record), which a real frame never
// does. Threading: as the Context (one thread at a time); the Context must outlive them. Errors
// are values (mote/result.hpp). The GPU simulation pre-warms an effect with prewarm_seconds as a
// particle system does (GpuSimulationOptions::prewarm); the comparison runs both sides without
// it, since the two pre-warms draw different random streams and no particle could be matched.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "mote/effect.hpp"
#include "mote/particles.hpp"
#include "mote/result.hpp"
#include "mote/simulation.hpp"

namespace mote {

struct GpuSimulationOptions {
  float dt = 1.0f / 60.0f;  // seconds per step
  EmitterDesc emitter;      // seed, pose and overrides (no transform: refused)
  uint32_t capacity = 0;    // particles; 0 = the effect's emission.capacity_hint
  // One record word past the program's fields holds each particle's birth serial
  // (ParticleSystemDesc::serial_word): what ReferenceComparison matches by.
  bool birth_serials = false;
  // Read every live record after each step (records()), not only when the bounds need them.
  bool keep_records = false;
  // Run the effect's emission.prewarm_seconds on the GPU before the first step (the particle
  // system's pre-warm). ReferenceComparison needs it off.
  bool prewarm = true;
  // The system's wind (ParticleSystem::set_wind); ReferenceComparison gives the reference the same.
  Wind wind;
  // The system's vector fields, slot i = vector_fields[i] (ParticleSystem::set_vector_field);
  // ReferenceComparison gives the reference the same.
  std::vector<VectorField> vector_fields;
};

// One emitter of `effect` at `position`, on a system sized for it (capacity, a stride of the
// program's record — plus the serial word — one emitter row, no transforms), kernels compiled
// before the frame that first needs them so every run is the same. The effect's declared bursts
// fire on the GPU tick's own clock.
class GpuSimulation {
 public:
  // Errors: the ParticleSystem's (kInvalidArgument for a capacity out of range, an override
  // naming no field, ...), kVulkan, kOutOfMemory.
  static Result<std::unique_ptr<GpuSimulation>> create(Context& context, const CompiledEffect& effect,
                                                       const GpuSimulationOptions& options = {});
  ~GpuSimulation();
  GpuSimulation(const GpuSimulation&) = delete;
  GpuSimulation& operator=(const GpuSimulation&) = delete;

  // Executes one frame of options.dt and reports it: alive, spawned (newborns), killed and
  // dropped from the counters, the emitter's age from its state, the bounds (measure_bounds)
  // from the live records. Waits for the frame.
  Result<FrameReport> step();

  // The live records the last step read (empty before the first, and after a step that needed
  // none: keep_records off and no bounds to measure).
  const AliveRecords& records() const;
  const CompiledEffect& effect() const;
  const GpuSimulationOptions& options() const;
  EmitterId emitter() const;
  uint32_t capacity() const;
  uint32_t record_words() const;
  uint32_t serial_word() const;  // 0 without birth serials
  uint32_t frames() const;       // steps taken

 private:
  struct State;
  GpuSimulation();
  std::unique_ptr<State> state_;
};

// GPU minus reference, per count of a frame's report.
struct CountDifferences {
  int64_t alive = 0;
  int64_t spawned = 0;
  int64_t killed = 0;
  int64_t dropped = 0;
  bool any() const { return alive != 0 || spawned != 0 || killed != 0 || dropped != 0; }
};

struct FrameComparison {
  uint32_t frame = 0;
  FrameReport gpu;
  FrameReport reference;
  CountDifferences differences;
};

// The largest |gpu - reference| of one particle field over every matched particle and frame, and
// relative to the reference (|d| / (1 + |reference|)). A NaN on both sides is equal; on one side
// only it sets nan_mismatch.
struct FieldDeviation {
  std::string field;
  double abs = 0.0;
  double relative = 0.0;
  bool nan_mismatch = false;
};

struct ComparisonSummary {
  uint32_t frames = 0;
  uint32_t frames_with_count_differences = 0;
  uint64_t records_compared = 0;              // GPU particles matched with a reference twin, over all frames
  uint64_t unmatched = 0;                     // GPU particles whose serial no live reference particle has
  uint64_t header_mismatches = 0;             // matched particles whose header words differ
  std::vector<FieldDeviation> max_deviation;  // one per particle field, in the program's order
  // The GPU frame and the reference agree: no count differs and every particle has its twin with
  // the same header (field values may still deviate within rounding: see max_deviation).
  bool agrees() const { return frames_with_count_differences == 0 && unmatched == 0 && header_mismatches == 0; }
};

// The GPU frame and the reference simulation side by side, frame by frame.
class ReferenceComparison {
 public:
  // Takes a GpuSimulation made with birth_serials and keep_records and not stepped yet, and
  // starts the reference (`executor`) on the same effect and options, pool size, stride and
  // emitter header, without pre-warm. Errors: kInvalidArgument (no birth serials, records not
  // kept, or already stepped), the reference simulation's (Simulation::create).
  static Result<std::unique_ptr<ReferenceComparison>> create(
      std::unique_ptr<GpuSimulation> gpu, SimulationExecutor executor = SimulationExecutor::kReference);
  ~ReferenceComparison();
  ReferenceComparison(const ReferenceComparison&) = delete;
  ReferenceComparison& operator=(const ReferenceComparison&) = delete;

  // One frame on both sides (the GPU first), compared. Errors: either side's, the message
  // starting with "the GPU frame: " or "the reference: ".
  Result<FrameComparison> step();
  // Everything compared so far.
  const ComparisonSummary& summary() const;
  const GpuSimulation& gpu() const;
  const Simulation& reference() const;

 private:
  struct State;
  ReferenceComparison();
  std::unique_ptr<State> state_;
};

}  // namespace mote
