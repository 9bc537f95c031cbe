// The .mvf vector field format and its sampling (include/mote/vector_field.hpp,
// docs/design/vector_field.md).
#include "mote/vector_field.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "sim/vector_field_table.hpp"

namespace mote {

namespace {

constexpr char kMagic[4] = {'M', 'V', 'F', '1'};

uint32_t read_u32(std::span<const uint8_t> bytes, size_t at) {
  return uint32_t(bytes[at]) | uint32_t(bytes[at + 1]) << 8 | uint32_t(bytes[at + 2]) << 16 |
         uint32_t(bytes[at + 3]) << 24;
}
float read_f32(std::span<const uint8_t> bytes, size_t at) { return std::bit_cast<float>(read_u32(bytes, at)); }
void write_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(uint8_t(v >> (8 * k)));
}

Error format_error(size_t offset, std::string message) {
  return make_error(ErrorCode::kFormat, std::move(message), "offset " + std::to_string(offset));
}

// The header's rules, each failure with the header word's offset (the in-memory check names the
// member instead: `where_of(k)`).
template <typename Where>
Status check_header(const std::array<uint32_t, 3>& size, const std::array<float, 3>& lo, const std::array<float, 3>& hi,
                    Where where_of) {
  uint64_t points = 1;
  for (uint32_t a = 0; a < 3; ++a) {
    if (size[a] < kMinVectorFieldSize || size[a] > kMaxVectorFieldSize)
      return make_error(ErrorCode::kFormat,
                        "grid size " + std::to_string(size[a]) + " along axis " + std::to_string(a) + " is outside " +
                            std::to_string(kMinVectorFieldSize) + ".." + std::to_string(kMaxVectorFieldSize),
                        where_of(a));
    points *= size[a];
  }
  if (points > kMaxVectorFieldPoints)
    return make_error(ErrorCode::kFormat,
                      std::to_string(points) + " grid points exceed " + std::to_string(kMaxVectorFieldPoints),
                      where_of(0));
  for (uint32_t a = 0; a < 3; ++a) {
    if (!std::isfinite(lo[a]) || std::fabs(lo[a]) > 1e30f)
      return make_error(ErrorCode::kFormat, "box_min is not a finite coordinate", where_of(3 + a));
    if (!std::isfinite(hi[a]) || std::fabs(hi[a]) > 1e30f || !(hi[a] > lo[a]))
      return make_error(ErrorCode::kFormat, "box_max must be finite and greater than box_min on each axis",
                        where_of(6 + a));
  }
  return ok_status();
}

bool good_value(float v) { return std::isfinite(v) && std::fabs(v) <= kMaxVectorFieldValue; }

}  // namespace

Result<VectorField> load_vector_field(std::span<const uint8_t> bytes) {
  if (bytes.size() < kVectorFieldHeaderBytes)
    return format_error(bytes.size(), "a vector field file has a " + std::to_string(kVectorFieldHeaderBytes) +
                                          "-byte header; this one has " + std::to_string(bytes.size()) + " bytes");
  if (std::memcmp(bytes.data(), kMagic, 4) != 0) return format_error(0, "not a vector field file (magic MVF1)");
  VectorField f;
  for (uint32_t a = 0; a < 3; ++a) {
    f.size[a] = read_u32(bytes, 4 + 4 * a);
    f.box_min[a] = read_f32(bytes, 16 + 4 * a);
    f.box_max[a] = read_f32(bytes, 28 + 4 * a);
  }
  // Header word k's offset: size[0..2] at 4.., box_min at 16.., box_max at 28...
  MOTE_TRY(check_header(f.size, f.box_min, f.box_max,
                        [](uint32_t k) { return "offset " + std::to_string(k < 3 ? 4 + 4 * k : 16 + 4 * (k - 3)); }));
  const size_t values = size_t(f.size[0]) * f.size[1] * f.size[2] * 3;
  const size_t expected = kVectorFieldHeaderBytes + values * 4;
  if (bytes.size() != expected)
    return format_error(std::min(bytes.size(), expected),
                        "a " + std::to_string(f.size[0]) + " x " + std::to_string(f.size[1]) + " x " +
                            std::to_string(f.size[2]) + " field is " + std::to_string(expected) +
                            " bytes; this file has " + std::to_string(bytes.size()));
  f.vectors.resize(values);
  for (size_t i = 0; i < values; ++i) {
    const size_t at = kVectorFieldHeaderBytes + 4 * i;
    f.vectors[i] = read_f32(bytes, at);
    if (!good_value(f.vectors[i]))
      return format_error(at, "vector component " + std::to_string(i) + " is not finite or exceeds 1e6");
  }
  return f;
}

Status check_vector_field(const VectorField& field) {
  static const char* const kNames[] = {"size[0]",    "size[1]",    "size[2]",    "box_min[0]", "box_min[1]",
                                       "box_min[2]", "box_max[0]", "box_max[1]", "box_max[2]"};
  if (Status header = check_header(field.size, field.box_min, field.box_max,
                                   [](uint32_t k) { return std::string(kNames[k]); });
      !header.ok()) {
    Error e = header.error();
    e.code = ErrorCode::kInvalidArgument;  // a caller's field, not a file
    return e;
  }
  const size_t values = size_t(field.size[0]) * field.size[1] * field.size[2] * 3;
  if (field.vectors.size() != values)
    return make_error(ErrorCode::kInvalidArgument,
                      "the grid needs " + std::to_string(values) + " floats; vectors holds " +
                          std::to_string(field.vectors.size()),
                      "vectors");
  for (size_t i = 0; i < values; ++i)
    if (!good_value(field.vectors[i]))
      return make_error(ErrorCode::kInvalidArgument, "not finite or beyond 1e6", "vectors[" + std::to_string(i) + "]");
  return ok_status();
}

Result<std::vector<uint8_t>> encode_vector_field(const VectorField& field) {
  MOTE_TRY(check_vector_field(field));
  std::vector<uint8_t> out(kMagic, kMagic + 4);
  for (uint32_t a = 0; a < 3; ++a) write_u32(out, field.size[a]);
  for (float v : field.box_min) write_u32(out, std::bit_cast<uint32_t>(v));
  for (float v : field.box_max) write_u32(out, std::bit_cast<uint32_t>(v));
  for (float v : field.vectors) write_u32(out, std::bit_cast<uint32_t>(v));
  return out;
}

std::array<float, 3> sample_vector_field(const VectorField& field, const std::array<float, 3>& p) {
  const shader::VmVectorFieldHeader h = vector_field_header(field, 0);
  return sample_vector_field_values(h, field.vectors.data(), p);
}

Result<VectorFieldTable> pack_vector_fields(std::span<const VectorField* const> fields) {
  if (fields.size() > shader::kVmVectorFields)
    return make_error(ErrorCode::kInvalidArgument,
                      "at most " + std::to_string(shader::kVmVectorFields) + " vector fields, got " +
                          std::to_string(fields.size()),
                      "fields");
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!fields[i]) continue;
    if (Status checked = check_vector_field(*fields[i]); !checked.ok()) {
      Error e = checked.error();
      e.where = "fields[" + std::to_string(i) + "]." + e.where;
      return e;
    }
  }
  return vector_field_table(fields);
}

std::array<float, 3> sample_vector_field_table(const VectorFieldTable& table, uint32_t slot,
                                               const std::array<float, 3>& p) {
  if (slot >= table.headers.size() || !table.present[slot]) return {0.0f, 0.0f, 0.0f};
  return sample_vector_field_values(table.headers[slot], table.values.data(), p);
}

}  // namespace mote
