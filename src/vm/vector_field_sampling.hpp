// SAMPLE_FIELD on the host (docs/design/vector_field.md, "Sampling"): a field's header as every
// executor reads it and the sampling over a header and its floats, with the coordinates, cell and
// blend of shared/vm_vector_field.h. The CPU executors sample RunInput::vector_fields with it and
// the reference simulation's table (src/sim/vector_field_table.hpp) goes through the same code.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mote/result.hpp"
#include "mote/vector_field.hpp"
#include "shared/vm_vector_field.h"

namespace mote {

static_assert(kMaxVectorFieldSlots == shader::kVmVectorFields, "the public slot count is the executors' table");

// The header of `field` (which passes check_vector_field) with its vectors starting at float
// `first_vector` of the table's values.
shader::VmVectorFieldHeader vector_field_header(const VectorField& field, uint32_t first_vector);

// The field of header `h` over `values` (the table's floats) at p: the shared coordinates, cell
// and blend of shared/vm_vector_field.h, the 8 corners fetched from `values`.
std::array<float, 3> sample_vector_field_values(const shader::VmVectorFieldHeader& h, const float* values,
                                                const std::array<float, 3>& p);

// Up to kVmVectorFields fields, index = field slot: every slot's header (an absent slot's all
// zero) and the fields' vectors one after another.
struct VectorFieldTable {
  std::array<shader::VmVectorFieldHeader, shader::kVmVectorFields> headers{};
  std::array<bool, shader::kVmVectorFields> present{};
  std::vector<float> values;
};

// The table of `fields` (nullptr: an empty slot), which pass check_vector_field_shapes: every
// present slot's header and its vectors after the previous slot's (what the GPU harnesses and the
// frame upload).
VectorFieldTable vector_field_table(std::span<const VectorField* const> fields);

// What the executors check of a run's fields in O(1) (the values' finiteness is check_vector_field's,
// a caller's duty; a NaN there reads as a NaN, never out of bounds): at most kVmVectorFields slots,
// and each field present holds a grid of 2 .. kMaxVectorFieldSize points per axis and exactly 3
// floats per point. Errors: kInvalidArgument at "vector_fields" / "vector_fields[i]".
Status check_vector_field_shapes(std::span<const VectorField* const> fields);

}  // namespace mote
