#include "vm/vector_field_sampling.hpp"

#include <string>

namespace mote {

shader::VmVectorFieldHeader vector_field_header(const VectorField& field, uint32_t first_vector) {
  shader::VmVectorFieldHeader h{};
  h.size = shader::uvec4(field.size[0], field.size[1], field.size[2], first_vector);
  for (int a = 0; a < 3; ++a) {
    const float last = float(field.size[size_t(a)] - 1);
    const float span = field.box_max[size_t(a)] - field.box_min[size_t(a)];
    h.box_min[a] = field.box_min[size_t(a)];
    h.scale[a] = last / span;  // rounded once here: no executor divides
    h.last[a] = last;
  }
  return h;
}

std::array<float, 3> sample_vector_field_values(const shader::VmVectorFieldHeader& h, const float* values,
                                                const std::array<float, 3>& p) {
  using shader::vec3;
  const vec3 g = shader::vm_vector_field_coords(h, vec3(p[0], p[1], p[2]));
  const uint32_t cell[3] = {shader::vm_vector_field_cell(g.x, h.size.x), shader::vm_vector_field_cell(g.y, h.size.y),
                            shader::vm_vector_field_cell(g.z, h.size.z)};
  const vec3 t(g.x - float(cell[0]), g.y - float(cell[1]), g.z - float(cell[2]));
  vec3 corner[8];
  for (uint32_t k = 0; k < 8; ++k) {
    const size_t x = cell[0] + (k & 1u), y = cell[1] + ((k >> 1) & 1u), z = cell[2] + ((k >> 2) & 1u);
    const size_t at = size_t(h.size.w) + ((z * h.size.y + y) * h.size.x + x) * 3;
    corner[k] = vec3(values[at], values[at + 1], values[at + 2]);
  }
  const vec3 v = shader::vm_vector_field_blend(t, corner[0], corner[1], corner[2], corner[3], corner[4], corner[5],
                                               corner[6], corner[7]);
  return {v.x, v.y, v.z};
}

VectorFieldTable vector_field_table(std::span<const VectorField* const> fields) {
  VectorFieldTable table;
  for (size_t i = 0; i < fields.size() && i < table.headers.size(); ++i) {
    if (!fields[i]) continue;
    table.headers[i] = vector_field_header(*fields[i], uint32_t(table.values.size()));
    table.present[i] = true;
    table.values.insert(table.values.end(), fields[i]->vectors.begin(), fields[i]->vectors.end());
  }
  return table;
}

Status check_vector_field_shapes(std::span<const VectorField* const> fields) {
  if (fields.size() > shader::kVmVectorFields)
    return make_error(ErrorCode::kInvalidArgument,
                      "at most " + std::to_string(shader::kVmVectorFields) + " vector fields, got " +
                          std::to_string(fields.size()),
                      "vector_fields");
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!fields[i]) continue;
    const VectorField& f = *fields[i];
    size_t points = 1;
    for (uint32_t n : f.size) {
      if (n < kMinVectorFieldSize || n > kMaxVectorFieldSize)
        return make_error(ErrorCode::kInvalidArgument, "a grid of " + std::to_string(n) + " points along an axis",
                          "vector_fields[" + std::to_string(i) + "]");
      points *= n;
    }
    if (f.vectors.size() != points * 3)
      return make_error(ErrorCode::kInvalidArgument,
                        std::to_string(f.vectors.size()) + " floats for " + std::to_string(points) + " grid points",
                        "vector_fields[" + std::to_string(i) + "]");
  }
  return ok_status();
}

}  // namespace mote
