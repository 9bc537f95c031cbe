// Shared by the compute draw path's passes (tile_setup, tile_bin, tile_ranges, tile_blend; see
// src/render/particle_compute_path.cpp): the push constants and the flat invocation index of a
// dispatch split over y (tile_setup writes such triples, kTileMaxGroupsX wide).
#ifndef MOTE_SHADERS_RENDER_TILE_COMMON_GLSL
#define MOTE_SHADERS_RENDER_TILE_COMMON_GLSL

#include "shared/compute_path.h"

layout(push_constant) uniform Push { TilePathParams params; };

uint tile_flat_invocation(uint local_size) {
  return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * local_size + gl_LocalInvocationIndex;
}

// The VkDispatchIndirectCommand covering `groups` workgroups, at most kTileMaxGroupsX a row
// (the extra workgroups of the last row return at once).
uvec3 tile_dispatch_groups(uint groups) {
  uint x = min(groups, kTileMaxGroupsX);
  uint y = (groups + kTileMaxGroupsX - 1u) / kTileMaxGroupsX;
  return uvec3(x, y, 1u);
}

#endif
