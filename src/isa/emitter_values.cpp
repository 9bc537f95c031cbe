#include "isa/emitter_values.hpp"

#include <bit>
#include <string>

namespace mote {

namespace {

template <typename Decl>
Status apply_values(std::span<const Decl> layout, std::span<const FieldValue> values, std::span<uint32_t> block,
                    const char* what) {
  for (const FieldValue& v : values) {
    uint32_t offset = 0;
    const Decl* found = nullptr;
    for (const Decl& d : layout) {
      if (d.name == v.name) {
        found = &d;
        break;
      }
      offset += d.width;
    }
    if (found == nullptr)
      return make_error(ErrorCode::kNotFound, std::string("no ") + what + " named '" + v.name + "'");
    if (v.values.size() != 1 && v.values.size() != found->width)
      return make_error(ErrorCode::kInvalidArgument, std::string(what) + " '" + v.name + "' has " +
                                                         std::to_string(found->width) + " components, " +
                                                         std::to_string(v.values.size()) + " given");
    if (size_t(offset) + found->width > block.size())
      return make_error(ErrorCode::kInternal, std::string(what) + " block is smaller than its layout");
    for (uint32_t c = 0; c < found->width; ++c)
      block[offset + c] = std::bit_cast<uint32_t>(v.values.size() == 1 ? v.values[0] : v.values[c]);
  }
  return ok_status();
}

}  // namespace

std::vector<uint32_t> global_import_offsets(const Program& program) {
  std::vector<uint32_t> offsets;
  uint32_t words = 0;
  for (const GlobalImport& g : program.global_imports) {
    offsets.push_back(words);
    words += g.width;
  }
  return offsets;
}

uint32_t global_import_words(const Program& program) {
  uint32_t words = 0;
  for (const GlobalImport& g : program.global_imports) words += g.width;
  return words;
}

Status apply_field_values(std::span<const FieldDecl> layout, std::span<const FieldValue> values,
                          std::span<uint32_t> block, const char* what) {
  return apply_values(layout, values, block, what);
}

Status apply_field_values(std::span<const GlobalImport> layout, std::span<const FieldValue> values,
                          std::span<uint32_t> block, const char* what) {
  return apply_values(layout, values, block, what);
}

Result<std::vector<uint32_t>> initial_emitter_fields(const CompiledEffect& effect,
                                                     std::span<const FieldValue> overrides) {
  const Program& program = effect.program;
  std::vector<uint32_t> block(program.emitter_field_words(), 0u);
  if (!effect.emitter_defaults.empty()) {
    if (effect.emitter_defaults.size() != block.size())
      return make_error(ErrorCode::kInvalidArgument,
                        "emitter_defaults has " + std::to_string(effect.emitter_defaults.size()) +
                            " words, the program's emitter fields " + std::to_string(block.size()));
    block = effect.emitter_defaults;
  }
  MOTE_TRY(apply_field_values(program.emitter_fields, overrides, block, "emitter field"));
  return block;
}

std::vector<uint32_t> initial_global_values(const CompiledEffect& effect) {
  const Program& program = effect.program;
  const std::vector<uint32_t> offsets = global_import_offsets(program);
  std::vector<uint32_t> values(global_import_words(program), 0u);
  for (size_t i = 0; i < program.global_imports.size() && i < effect.globals.size(); ++i)
    for (uint32_t c = 0; c < program.global_imports[i].width && c < effect.globals[i].values.size(); ++c)
      values[offsets[i] + c] = std::bit_cast<uint32_t>(effect.globals[i].values[c]);
  return values;
}

}  // namespace mote
