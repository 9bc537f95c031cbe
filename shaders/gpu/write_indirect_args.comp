#version 460
// Writes the indirect dispatch arguments a later pass consumes: the GPU, not the CPU, sizes it.
#include "shared/gpu_selftest.h"

layout(local_size_x = 1) in;
layout(push_constant) uniform Push { IndirectArgsParams params; };
layout(std430, binding = 0) writeonly buffer Args { IndirectDispatch args; };

void main() {
  args.groups_x = (params.element_count + params.local_size - 1u) / params.local_size;
  args.groups_y = 1u;
  args.groups_z = 1u;
  args.element_count = params.element_count;
}
