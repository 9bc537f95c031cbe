#include "mote/program.hpp"

#include <limits>

#include "core/hash.hpp"

namespace mote {
namespace {

// Sums widths without wrapping: a hostile program must not make the record look small.
uint32_t saturating_width_sum(const std::vector<FieldDecl>& fields, uint64_t start) {
  uint64_t total = start;
  for (const FieldDecl& f : fields) {
    total += f.width;
    if (total > std::numeric_limits<uint32_t>::max()) return std::numeric_limits<uint32_t>::max();
  }
  return uint32_t(total);
}

std::optional<uint32_t> field_offset(const std::vector<FieldDecl>& fields, std::string_view name, uint64_t start) {
  uint64_t offset = start;
  for (const FieldDecl& f : fields) {
    if (f.name == name) {
      if (offset > std::numeric_limits<uint32_t>::max()) return std::nullopt;
      return uint32_t(offset);
    }
    offset += f.width;
  }
  return std::nullopt;
}

// The canonical serialization the hash runs over: little-endian u32s, lists prefixed by their
// length, strings by their byte count. Independent of the .mfx layout so the file format can
// evolve without changing program identity.
class HashWriter {
 public:
  void u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(uint8_t(v >> (8 * i)));
  }
  void str(const std::string& s) {
    u32(uint32_t(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

}  // namespace

const char* section_name(Section section) {
  switch (section) {
    case Section::kInit: return "init";
    case Section::kUpdate: return "update";
    case Section::kEval: return "eval";
  }
  return "unknown";
}

uint64_t Program::hash() const {
  HashWriter w;
  w.u32(register_count);
  for (const auto* layout : {&particle_fields, &emitter_fields}) {
    w.u32(uint32_t(layout->size()));
    for (const FieldDecl& f : *layout) {
      w.str(f.name);
      w.u32(f.width);
    }
  }
  w.u32(uint32_t(global_imports.size()));
  for (const GlobalImport& g : global_imports) {
    w.str(g.name);
    w.u32(g.width);
  }
  w.u32(uint32_t(constants.size()));
  for (uint32_t c : constants) w.u32(c);
  for (const auto* section : {&init, &update}) {
    w.u32(uint32_t(section->size()));
    for (const Instruction& inst : *section)
      for (uint32_t word : inst.words) w.u32(word);
  }
  // Only a stateless program hashes its EVAL section, so every program from before EVAL keeps
  // the identity it had (kernel cache keys, cooked files).
  if (!eval.empty()) {
    w.u32(uint32_t(eval.size()));
    for (const Instruction& inst : eval)
      for (uint32_t word : inst.words) w.u32(word);
  }
  return content_key64(w.bytes());
}

uint32_t Program::particle_record_words() const { return saturating_width_sum(particle_fields, 1); }
uint32_t Program::emitter_field_words() const { return saturating_width_sum(emitter_fields, 0); }

std::optional<uint32_t> Program::particle_field_offset(std::string_view name) const {
  return field_offset(particle_fields, name, 1);
}
std::optional<uint32_t> Program::emitter_field_offset(std::string_view name) const {
  return field_offset(emitter_fields, name, 0);
}

}  // namespace mote
