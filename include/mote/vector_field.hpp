// An authored 3-D vector field (wind, flow, a force): a regular grid of vectors over a world box,
// stored in one documented binary format (.mvf, docs/design/vector_field.md) that load_vector_field
// reads strictly — wrong sizes, a bad box and non-finite values are refused with the byte offset
// of the problem. sample_vector_field is the field's one definition (trilinear, clamped to the
// box), which a vector_field node will evaluate on every executor.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mote/result.hpp"

namespace mote {

// .mvf, little-endian: "MVF1", u32 size[3] (grid points along x, y, z: 2..256 each, at most
// kMaxVectorFieldPoints in all), f32 box_min[3], f32 box_max[3] (finite, max > min on each axis),
// then size[0] * size[1] * size[2] vectors of 3 f32, x fastest, then y, then z (finite, each
// component within +-kMaxVectorFieldValue). Nothing may follow.
inline constexpr uint32_t kMinVectorFieldSize = 2;
inline constexpr uint32_t kMaxVectorFieldSize = 256;
inline constexpr uint32_t kMaxVectorFieldPoints = 1u << 22;  // 48 MiB of vectors
inline constexpr float kMaxVectorFieldValue = 1e6f;
inline constexpr uint32_t kVectorFieldHeaderBytes = 4 + 12 + 24;
// The vector field slots one ParticleSystem (and one run of the VM) samples: SAMPLE_FIELD's slot,
// the `vector_field` node's field by its index in the effect's "vector_fields".
inline constexpr uint32_t kMaxVectorFieldSlots = 4;

struct VectorField {
  std::array<uint32_t, 3> size{};
  std::array<float, 3> box_min{};
  std::array<float, 3> box_max{};
  std::vector<float> vectors;  // 3 per grid point, x fastest
};

// kFormat with `where` = "offset N" (the first byte of the bad header word or value) and a message
// naming it; a field that passes holds exactly the file's values.
Result<VectorField> load_vector_field(std::span<const uint8_t> bytes);
// The same checks on a field built in memory (where = "size", "box_min[1]", "vectors[7]", ...).
Status check_vector_field(const VectorField& field);
// The .mvf bytes of a field that passes check_vector_field (kInvalidArgument otherwise).
Result<std::vector<uint8_t>> encode_vector_field(const VectorField& field);

// The field at world point p: trilinear between the grid points, p clamped to the box first (the
// field does not extend past its box; NaN components read as the box's min). The field must pass
// check_vector_field.
std::array<float, 3> sample_vector_field(const VectorField& field, const std::array<float, 3>& p);

}  // namespace mote
