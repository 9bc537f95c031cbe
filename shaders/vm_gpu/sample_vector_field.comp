#version 460
// The device half of vector field sampling on its own (tests/vm_gpu/vector_field_gpu_test.cpp):
// point i (xyz, its slot in w's bits) sampled from the table with vm_vector_field_fetch.glsl, as
// SAMPLE_FIELD will (docs/design/vector_field.md, "Not done yet"), so the table, the fetch and
// the shared arithmetic are held to the host's sample_vector_field_table bit for bit.
#include "shared/vm_vector_field.h"

layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer Headers { VmVectorFieldHeader vector_field_headers[]; };
layout(std430, binding = 1) readonly buffer Values { float vector_field_values[]; };
layout(std430, binding = 2) readonly buffer Points { vec4 points[]; };
layout(std430, binding = 3) writeonly buffer Results { vec4 results[]; };
layout(push_constant) uniform Push { uint count; } push;

#include "vm_gpu/vector_field_fetch.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= push.count || i >= uint(points.length())) return;
  vec4 p = points[i];
  results[i] = vec4(vm_sample_vector_field_slot(floatBitsToUint(p.w), p.xyz), 0.0f);
}
