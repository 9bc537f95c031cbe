// Random particle programs for parity testing: every program generated verifies by
// construction (linked, against the global section size make_random_input gives it), reaches
// every opcode of the ISA table with every legal lane count and source kind over enough seeds,
// and keeps its values finite (results of ops that can grow are clamped to +-kGeneratorBound),
// so executors can be compared on whole programs, not just single instructions.
#pragma once

#include <cstdint>
#include <vector>

#include "mote/program.hpp"
#include "mote/vm.hpp"

namespace mote {

struct GeneratorOptions {
  uint32_t min_instructions = 8;  // per section, before the clamps and stores it adds
  uint32_t max_instructions = 48;
  uint32_t min_registers = 8;
  uint32_t max_registers = 64;          // register_count is drawn from [min, max] (<= 256)
  float immediate_probability = 0.25f;  // a value source is an IMM rather than a REG
  // Results of ops that can grow without bound (ADD, MUL, EXP, DIV, ...) are clamped to
  // +-bound by an extra CLAMP, so no chain reaches inf - inf = NaN.
  bool clamp_unbounded = true;
};

inline constexpr float kGeneratorBound = 1000.0f;

// Deterministic in `seed` (own SplitMix64, no std distributions), on every platform.
Program generate_random_program(uint64_t seed, const GeneratorOptions& options = {});

// A stateless program: only an EVAL section, over the same layouts, with EVAL's rules kept (no
// KILL or EMIT_EVENT, no DT or event builtins, a record word read only after this run stored
// it), every other opcode reachable.
Program generate_random_eval_program(uint64_t seed, const GeneratorOptions& options = {});

// The global field section size (words) a generated program was linked against.
uint32_t generated_global_field_words(const Program& program);

// A run of `section` over `count` particles with moderate random field values (|x| <= 10 with
// some exact 0, +-1 and 100), a random emitter, emitter and global fields, wind, rng base and
// first particle index. Headers (word 0) hold a marker the VM must leave untouched.
// record_words 0: the program's own record size.
RunInput make_random_input(const Program& program, Section section, uint32_t count, uint64_t seed,
                           uint32_t record_words = 0);

// The vector fields every generated run, the parity suite and RowCoverage give SAMPLE_FIELD: slot
// 0 a 5 x 4 x 3 grid over [-10, 10] x [-5, 5] x [-3, 7], slot 1 empty, slot 2 a 2 x 3 x 2 grid
// over [-1, 2] x [0, 40] x [-30, -20], with hashed values in [-4, 4] (not linear: the corner order
// and weights show); slot 3 lies past the list. Static: they outlive every run.
const std::vector<const VectorField*>& test_vector_fields();

// make_random_input also gives every run the collision depth of tests/support/depth_test_image.hpp
// (test_depth_image: a box on the ground), so SAMPLE_DEPTH hits and misses.

// The header marker make_random_input writes into particle i's word 0.
inline uint32_t generated_header(uint32_t i) { return 0xC0DE0000u ^ (i * 2654435761u); }

}  // namespace mote
