// A vector field table on the device (docs/design/vector_field.md; src/sim/vector_field_table.hpp
// packs it): the includer declares
//   buffer ... { VmVectorFieldHeader vector_field_headers[]; }  -- one per slot (all zero: empty)
//   buffer ... { float vector_field_values[]; }                  -- every field's vectors
// and samples slot `slot` at p with vm_sample_vector_field_slot: the coordinates, cell and blend of
// shared/vm_vector_field.h (what the host's sample_vector_field_table computes), the 8 corners
// fetched here, every index clamped to the buffers (an empty or absent slot reads 0).
#include "shared/vm_vector_field.h"

vec3 vm_vector_field_corner(VmVectorFieldHeader h, uint x, uint y, uint z) {
  uint at = h.size.w + ((z * h.size.y + y) * h.size.x + x) * 3u;
  uint last = uint(vector_field_values.length()) - 1u;
  return vec3(vector_field_values[min(at, last)], vector_field_values[min(at + 1u, last)],
              vector_field_values[min(at + 2u, last)]);
}

vec3 vm_sample_vector_field_slot(uint slot, vec3 p) {
  if (slot >= uint(vector_field_headers.length()) || vector_field_values.length() == 0) return vec3(0.0f);
  VmVectorFieldHeader h = vector_field_headers[slot];
  // An empty slot (all zero) and a corrupt header (a grid below 2 points) read 0.
  if (h.size.x < 2u || h.size.y < 2u || h.size.z < 2u) return vec3(0.0f);
  vec3 g = vm_vector_field_coords(h, p);
  uint cx = vm_vector_field_cell(g.x, h.size.x), cy = vm_vector_field_cell(g.y, h.size.y),
       cz = vm_vector_field_cell(g.z, h.size.z);
  precise vec3 t = vec3(g.x - float(cx), g.y - float(cy), g.z - float(cz));
  return vm_vector_field_blend(t, vm_vector_field_corner(h, cx, cy, cz), vm_vector_field_corner(h, cx + 1u, cy, cz),
                               vm_vector_field_corner(h, cx, cy + 1u, cz), vm_vector_field_corner(h, cx + 1u, cy + 1u, cz),
                               vm_vector_field_corner(h, cx, cy, cz + 1u), vm_vector_field_corner(h, cx + 1u, cy, cz + 1u),
                               vm_vector_field_corner(h, cx, cy + 1u, cz + 1u),
                               vm_vector_field_corner(h, cx + 1u, cy + 1u, cz + 1u));
}
