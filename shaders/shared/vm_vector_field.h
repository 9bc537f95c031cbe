// A vector field's sampling (docs/design/vector_field.md), written once for C++ and GLSL like
// shared/vm_semantics.h (its rules hold here): sample_vector_field (src/sim/vector_field.cpp) and,
// as the vector_field node is built, every executor's SAMPLE_FIELD compute the grid coordinates
// and blend the 8 corners with these functions, each fetching the corners from its own storage.
// No division on the device: the header carries (size - 1) / (max - min), rounded once on the host.
#ifndef MOTE_SHADERS_SHARED_VM_VECTOR_FIELD_H
#define MOTE_SHADERS_SHARED_VM_VECTOR_FIELD_H
#include "shared/vm_limits.h"
#include "shared/vm_semantics.h"

MOTE_SHARED_BEGIN

// One field as the executors read it (host-built by vector_field_header, src/sim/vector_field.cpp).
struct VmVectorFieldHeader {
  uvec4 size;    // xyz: grid points along x, y, z (2 .. 256 each); w: its first vector in the table
  vec4 box_min;  // xyz: the world box's min corner
  vec4 scale;    // xyz: float(size - 1) / (box_max - box_min), f32; w unused
  vec4 last;     // xyz: float(size - 1); w unused
};
MOTE_ASSERT_SIZE(VmVectorFieldHeader, 64);
MOTE_ASSERT_OFFSET(VmVectorFieldHeader, size, 0);
MOTE_ASSERT_OFFSET(VmVectorFieldHeader, box_min, 16);
MOTE_ASSERT_OFFSET(VmVectorFieldHeader, scale, 32);
MOTE_ASSERT_OFFSET(VmVectorFieldHeader, last, 48);

// p's grid coordinate along one axis: (p - min) * scale clamped to [0, last]; NaN reads as 0 (the
// box's min), as does a coordinate that rounds to NaN.
VM_INLINE float vm_vector_field_coord(float p, float box_min, float scale, float last) {
  VM_PRECISE float g = (p - box_min) * scale;
  return isnan(g) ? 0.0f : (g < 0.0f ? 0.0f : (g > last ? last : g));
}

// The cell a grid coordinate falls in: its lower grid point, at most size - 2 (so the point at
// the box's max corner blends the last cell with weight 1).
VM_INLINE uint vm_vector_field_cell(float g, uint size) {
  uint c = uint(g);
  return c < size - 2u ? c : size - 2u;
}

// The grid coordinates of p (xyz), each clamped to its axis.
VM_INLINE vec3 vm_vector_field_coords(VmVectorFieldHeader h, vec3 p) {
  return vec3(vm_vector_field_coord(p.x, h.box_min.x, h.scale.x, h.last.x),
              vm_vector_field_coord(p.y, h.box_min.y, h.scale.y, h.last.y),
              vm_vector_field_coord(p.z, h.box_min.z, h.scale.z, h.last.z));
}

// Corner k's (bit a of k: the upper point along axis a) trilinear weight for the fractions t,
// the product over x, y, z in that order.
VM_INLINE float vm_vector_field_weight(vec3 t, uint k) {
  VM_PRECISE float wx = (k & 1u) != 0u ? t.x : 1.0f - t.x;
  VM_PRECISE float wy = (k & 2u) != 0u ? t.y : 1.0f - t.y;
  VM_PRECISE float wz = (k & 4u) != 0u ? t.z : 1.0f - t.z;
  VM_PRECISE float w = wx * wy;
  VM_PRECISE float wxyz = w * wz;
  return wxyz;
}

// The field: the corners' vectors c0 .. c7 (corner k as in vm_vector_field_weight) summed by
// weight in corner order, each product rounded before its sum.
VM_INLINE vec3 vm_vector_field_blend(vec3 t, vec3 c0, vec3 c1, vec3 c2, vec3 c3, vec3 c4, vec3 c5, vec3 c6, vec3 c7) {
  VM_PRECISE vec3 s = vm_vector_field_weight(t, 0u) * c0;
  VM_PRECISE vec3 s1 = s + vm_vector_field_weight(t, 1u) * c1;
  VM_PRECISE vec3 s2 = s1 + vm_vector_field_weight(t, 2u) * c2;
  VM_PRECISE vec3 s3 = s2 + vm_vector_field_weight(t, 3u) * c3;
  VM_PRECISE vec3 s4 = s3 + vm_vector_field_weight(t, 4u) * c4;
  VM_PRECISE vec3 s5 = s4 + vm_vector_field_weight(t, 5u) * c5;
  VM_PRECISE vec3 s6 = s5 + vm_vector_field_weight(t, 6u) * c6;
  VM_PRECISE vec3 s7 = s6 + vm_vector_field_weight(t, 7u) * c7;
  return s7;
}

MOTE_SHARED_END
#endif
