// A compiled particle program: the value type every consumer of the VM shares.
//
// A Program is pure data with value semantics (equality and hashing on content), so the
// runtime's ProgramHeap can deduplicate identical programs. It is relocatable: instructions
// carry no absolute addresses, constant references are program-local and global fields are
// referenced by import index until a program is linked at placement (link_globals).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mote/result.hpp"

namespace mote {

// One named field of a layout. Offsets are implicit: fields are packed in declaration order
// (the wire order), particle fields from record word 1 (word 0 is the header), emitter fields
// from word 0 of the emitter's block.
struct FieldDecl {
  std::string name;
  uint32_t width = 1;  // 1..4 words
  bool operator==(const FieldDecl&) const = default;
};

// A global field the program reads by name; linked to a word offset at placement.
struct GlobalImport {
  std::string name;
  uint32_t width = 1;  // 1..4 words
  bool operator==(const GlobalImport&) const = default;
};

// One VM instruction: 4 x u32 (see shaders/shared/isa_encoding.h).
struct Instruction {
  std::array<uint32_t, 4> words{};
  bool operator==(const Instruction&) const = default;
};

// EVAL is the stateless section (docs/design/isa.md, "EVAL"): it computes a particle's render
// fields from the frame's time, the particle's seed and its index, and nothing persists between
// frames, so it may only read back record words it stored earlier in the same run.
enum class Section : uint32_t { kInit = 0, kUpdate = 1, kEval = 2 };
inline constexpr Section kAllSections[] = {Section::kInit, Section::kUpdate, Section::kEval};
const char* section_name(Section section);  // "init", "update", "eval"

struct Program {
  uint32_t register_count = 0;  // slots r0..r(register_count-1) the program may touch, <= 256
  std::vector<FieldDecl> particle_fields;
  std::vector<FieldDecl> emitter_fields;
  std::vector<GlobalImport> global_imports;
  std::vector<uint32_t> constants;  // the vec4 constant pool as f32 bit patterns, 4 words each
  std::vector<Instruction> init;
  std::vector<Instruction> update;
  std::vector<Instruction> eval;  // empty unless the program is stateless

  bool operator==(const Program&) const = default;
  uint64_t hash() const;  // content hash, stable across runs and machines

  const std::vector<Instruction>& code(Section section) const {
    return section == Section::kInit ? init : section == Section::kUpdate ? update : eval;
  }
  std::vector<Instruction>& code(Section section) {
    return section == Section::kInit ? init : section == Section::kUpdate ? update : eval;
  }

  // 1 (header) + the sum of particle field widths.
  uint32_t particle_record_words() const;
  uint32_t emitter_field_words() const;
  // Word offset of a particle field in the record (>= 1), or nullopt.
  std::optional<uint32_t> particle_field_offset(std::string_view name) const;
  std::optional<uint32_t> emitter_field_offset(std::string_view name) const;
};

}  // namespace mote
