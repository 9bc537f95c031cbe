// The global field layout: the system's static members (a gust strength, the player's
// position), read by every program by name. Append-only inside the kVmMaxGlobalFieldWords
// reserved at the start of the program heap's field section, so a global is addressed from
// zero and never moves — which is what lets a placed program keep its linked offsets.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mote/program.hpp"
#include "mote/result.hpp"
#include "runtime/bookkeeping/word_span.hpp"
#include "shared/vm_limits.h"

namespace mote::runtime {

struct GlobalField {
  std::string name;
  uint32_t offset = 0;  // word offset from the start of the global words
  uint32_t width = 1;   // 1..4
};

class GlobalFieldLayout {
 public:
  explicit GlobalFieldLayout(uint32_t capacity_words = shader::kVmMaxGlobalFieldWords);

  // ok when every import could be declared: each name is an identifier of width 1..4 that is
  // either declared with that width or new, and the new ones fit. Claims nothing — a program
  // the layout refuses leaves no declaration behind. kInvalidArgument with `where` =
  // "global_imports[i]" for a width conflict, kOutOfMemory when there is no room.
  Status check(std::span<const GlobalImport> imports) const;
  // Declares `name` (zero-filled) or confirms an existing declaration of that width; returns
  // its offset. A name is one field: another width is refused.
  Result<uint32_t> declare(std::string_view name, uint32_t width);
  // check(), then declare every import; one offset per import (the link_globals input).
  Result<std::vector<uint32_t>> declare_imports(std::span<const GlobalImport> imports);
  // The offsets of already-declared imports, without declaring (kNotFound otherwise).
  Status offsets_of(std::span<const GlobalImport> imports, std::vector<uint32_t>& offsets) const;

  // Writes a declared field's words (f32 bit patterns, exactly its width) and marks them dirty.
  Status set(std::string_view name, std::span<const uint32_t> values);

  const GlobalField* find(std::string_view name) const;
  const std::vector<GlobalField>& fields() const { return fields_; }
  uint32_t capacity() const { return capacity_; }
  uint32_t used() const { return used_; }
  // All capacity() words; undeclared and unset words read 0.
  std::span<const uint32_t> words() const { return values_; }
  WordSpan dirty() const { return dirty_; }
  void clear_dirty() { dirty_ = {}; }

 private:
  uint32_t capacity_;
  uint32_t used_ = 0;
  std::vector<GlobalField> fields_;  // declaration order = offset order
  std::unordered_map<std::string, size_t> by_name_;
  std::vector<uint32_t> values_;
  WordSpan dirty_;
};

}  // namespace mote::runtime
