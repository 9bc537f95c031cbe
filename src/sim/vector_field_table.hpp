// Vector fields as the executors read them (docs/design/vector_field.md, "The node"): a header per
// field (shared/vm_vector_field.h: its sizes, box, the host-rounded scale, where its vectors start)
// and the vectors of every field in one run of floats. sample_vector_field (mote/vector_field.hpp)
// is sample_vector_field_values over one field's header and vectors.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mote/result.hpp"
#include "mote/vector_field.hpp"
#include "shared/vm_vector_field.h"
#include "vm/vector_field_sampling.hpp"

namespace mote {

// Packs `fields` (nullptr: an empty slot); errors: more slots than kVmVectorFields ("fields"), a
// field that fails check_vector_field ("fields[i]." + its member).
Result<VectorFieldTable> pack_vector_fields(std::span<const VectorField* const> fields);

// Slot `slot`'s field at p; zero for an empty slot or one past the table (what SAMPLE_FIELD reads
// of a field the system was not given).
std::array<float, 3> sample_vector_field_table(const VectorFieldTable& table, uint32_t slot,
                                               const std::array<float, 3>& p);

}  // namespace mote
