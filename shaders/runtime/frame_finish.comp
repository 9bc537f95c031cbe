#version 460
// Last pass of a frame: next frame's simulate walks this frame's alive list, so its indirect
// dispatch is written here from the GPU's own count (sizing it from a readback would orphan or
// double-free slots: meep "Particle storage").
#include "shared/frame.h"

layout(local_size_x = 1) in;

layout(std430, binding = 0) buffer Counters { FrameCounters counters; };

void main() {
  uint n = counters.alive_out;
  counters.simulate_groups_x = min((n + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize, kFrameMaxGroups);
  counters.simulate_groups_y = 1u;
  counters.simulate_groups_z = 1u;
}
