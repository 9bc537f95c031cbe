#version 460
// AVBOIT's integral (shaders/shared/avboit.h): a thread per column sums its slices' extinction
// front to back into the optical depth in front of each of the slices + 1 boundaries (boundary
// 0 is 0), which the draw interpolates.
#include "shared/avboit.h"

layout(local_size_x = 64) in;  // kAvboitWorkgroupSize
layout(std430, binding = 0) readonly buffer Slices { AvboitSlices avboit; };
layout(std430, binding = 1) readonly buffer Extinction { uint extinction[]; };
layout(std430, binding = 2) writeonly buffer OpticalDepth { float optical_depth[]; };

void main() {
  const uvec3 grid = avboit.grid.xyz;
  const uint column = gl_GlobalInvocationID.x;
  const uint columns = grid.x * grid.y;
  if (column >= columns) return;
  float total = 0.0;
  optical_depth[column] = 0.0;
  for (uint k = 0u; k < grid.z; ++k) {
    total += float(extinction[k * columns + column]) / kAvboitFixedPoint;
    optical_depth[(k + 1u) * columns + column] = total;
  }
}
