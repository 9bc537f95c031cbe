// Executing particle programs on the CPU: the reference executor (the definition of the VM's
// behaviour) and the batch executor (the fast one). Both run a verified, linked program's INIT
// or UPDATE section over a block of particle records and share every opcode's math through
// shaders/shared/vm_semantics.h, which the GPU interpreters include too. See docs/design/vm.md.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "mote/program.hpp"
#include "mote/result.hpp"
#include "mote/depth_image.hpp"
#include "mote/vector_field.hpp"

namespace mote {

// What SAMPLE_WIND reads: a uniform wind plus curl-noise turbulence. Plain floats in the std430
// layout of the shaders' VmWindField (two vec4s, 32 bytes), which src/vm/ converts it to.
struct VmWindField {
  std::array<float, 4> base_velocity{};  // xyz: uniform wind, m/s; w unused (0)
  // x: amplitude, m/s; y: spatial frequency, 1/m; z: scroll speed along -Z, m/s; w: the time the
  // field is sampled at, s.
  std::array<float, 4> turbulence{};
};

// What LOAD_BUILTIN space 0 reads (builtins.inc), for the emitter being run.
struct VmEmitterContext {
  float dt = 0.0f;
  float time = 0.0f;
  float emitter_age = 0.0f;
  float position[3] = {0.0f, 0.0f, 0.0f};
  float direction[3] = {0.0f, 0.0f, 1.0f};
  float up[3] = {0.0f, 1.0f, 0.0f};
  float rotation[4] = {0.0f, 0.0f, 0.0f, 1.0f};  // xyzw
  uint32_t seed = 0;
};

struct RunInput {
  // Must pass verify_program(*program, {.linked = true, .global_field_words =
  // global_fields.size(), .record_words = record_words}); executors check and return the
  // verifier's error otherwise: a program never runs unverified.
  const Program* program = nullptr;
  Section section = Section::kUpdate;
  uint32_t count = 0;             // particles to run
  uint32_t record_words = 0;      // pool stride; 0 = the program's particle record size
  std::vector<uint32_t> records;  // count * record_words words; word 0 (header) untouched
  VmEmitterContext emitter{};
  std::vector<uint32_t> emitter_fields;  // the emitter's field block (f32 bits)
  std::vector<uint32_t> global_fields;   // the global field section (f32 bits)
  VmWindField wind{};                    // all zero: still air
  uint32_t rng_base = 0;                 // particle seed = vm_particle_seed(rng_base, PARTICLE_INDEX)
  // PARTICLE_INDEX of particle i = first_particle_index + i; SPAWN_INDEX = i;
  // SPAWN_COUNT = count; SPAWN_FRACTION = (i + 0.5) / count.
  uint32_t first_particle_index = 0;
  // The event payload each particle's EVENT_POSITION / EVENT_VELOCITY / EVENT_COLOR read: empty
  // (they read 0), or kVmEventPayloadWords (12) f32s per particle: position xyz0, velocity xyz0,
  // colour rgba. The CPU executors read it; the GPU run harnesses refuse a run that has one (the
  // GPU frame's emit reads its own event queue).
  std::vector<float> event_payloads;
  // What SAMPLE_FIELD reads: field slot i is vector_fields[i] (nullptr, or a slot past the list:
  // it reads 0). At most kVmVectorFields (4) slots; each field must pass check_vector_field
  // (mote/vector_field.hpp; executors check its grid and size, and refuse a run otherwise).
  // The fields are the caller's and must outlive the run.
  std::vector<const VectorField*> vector_fields;
  // What SAMPLE_DEPTH tests against (nullptr: no depth, every sample misses). Should pass
  // check_depth_image (mote/depth_image.hpp; executors check its size and refuse a run otherwise
  // at "depth"). The caller's; must outlive the run.
  const DepthImage* depth = nullptr;
};

struct RunOutput {
  std::vector<uint32_t> records;  // the input records after the run
  std::vector<uint8_t> killed;    // 1 per particle: 1 when a KILL fired
  // kVmEventOutputs (4) per particle, particle-major: the events EMIT_EVENT sent to each output
  // in this run (shaders/shared/vm_semantics.h, vm_event_add).
  std::vector<uint32_t> events;
  // Particle-instruction executions per opcode number (the same on every executor for the
  // same input): lets a test prove which opcodes a run exercised.
  std::array<uint64_t, 256> op_executions{};
};

class Executor {
 public:
  virtual ~Executor();
  virtual std::string_view name() const = 0;
  virtual Result<RunOutput> run(const RunInput& input) = 0;
  // The same run into a caller-owned output whose buffers are reused (no reallocation, no
  // fresh page faults): for benchmarks and repeated runs. `out` is overwritten entirely. The
  // default forwards to run().
  virtual Status run_into(const RunInput& input, RunOutput& out);
};

// "reference": one particle at a time through one switch; written for clarity. THE semantics.
std::unique_ptr<Executor> make_reference_executor();
// "batch": structure-of-arrays over blocks of particles, each instruction decoded once per
// block, auto-vectorised lane loops. Bit-exact with the reference on the same build.
std::unique_ptr<Executor> make_batch_executor();

// The record stride a run uses: input.record_words, or the program's own record size.
uint32_t effective_record_words(const RunInput& input);
// 1 + the particle field widths (Program::particle_record_words(), computed locally).
uint32_t vm_particle_record_words(const Program& program);
uint32_t vm_emitter_field_words(const Program& program);

}  // namespace mote
