// The words an emitter's blocks start from, written once for every runtime that places an
// emitter (the reference simulation, the GPU frame): its effect's emitter-field defaults and
// global previews, with a caller's overrides applied by name.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "mote/effect.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"
#include "mote/simulation.hpp"  // FieldValue

namespace mote {

// Word offset of each global import in an emitter's own packed copy of its globals (import
// order, each `width` words): what link_globals takes.
std::vector<uint32_t> global_import_offsets(const Program& program);
uint32_t global_import_words(const Program& program);

// Writes each value into the block at its field's offset (fields packed in declaration order):
// one value splats over the field's width, otherwise exactly `width` values. kNotFound for a
// name the layout lacks, kInvalidArgument for a wrong count; `what` ("emitter field", "global
// field") names the layout in the message. The block must hold the layout's words.
Status apply_field_values(std::span<const FieldDecl> layout, std::span<const FieldValue> values,
                          std::span<uint32_t> block, const char* what);
Status apply_field_values(std::span<const GlobalImport> layout, std::span<const FieldValue> values,
                          std::span<uint32_t> block, const char* what);

// The emitter-field block: the effect's defaults (or zeros when it has none), then `overrides`.
// kInvalidArgument when the defaults do not match the program's emitter fields.
Result<std::vector<uint32_t>> initial_emitter_fields(const CompiledEffect& effect,
                                                     std::span<const FieldValue> overrides);
// The global copy in import order, from the effect's previews (zeros where it has none).
std::vector<uint32_t> initial_global_values(const CompiledEffect& effect);

}  // namespace mote
