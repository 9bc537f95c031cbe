#version 460
// The light binning (src/render/particle_light_pass.cpp, after the selection;
// docs/design/particle_lights.md "The clustered list"): a thread per cluster of the grid
// (shared/particle_lights.h) tests every light of the list against its view-space box, a batch
// of 64 lights at a time through shared memory, twice: first counting the lights that reach it,
// then, with that many entries taken at the header's atomic, writing them in list order
// (ascending: a reader sums them in the order the loop over the whole list did). A cluster the
// entries run out for lists none and is marked kParticleLightClusterWholeList (its readers loop
// over the whole list); its lights are counted in the header's overflow.
#include "shared/particle_lights.h"

layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer List {
  ParticleLightHeader header;
  PointLightGpu lights[];
};
layout(std430, binding = 1) buffer Clusters {
  ParticleLightClusterHeader grid;
  uint words[];
};

shared vec4 batch[64];  // view-space centre, range

// Loads lights first .. first + 63 (view space) into `batch`; every thread calls it.
void load_batch(uint first, uint count) {
  uint i = first + gl_LocalInvocationID.x;
  vec4 light = vec4(0.0);
  if (i < count) light = vec4((grid.view * vec4(lights[i].position_range.xyz, 1.0)).xyz, lights[i].position_range.w);
  batch[gl_LocalInvocationID.x] = light;
}

void main() {
  uint c = gl_GlobalInvocationID.x;
  uint clusters = grid.clusters;
  bool in_grid = c < clusters;
  uint per_tile = grid.tiles_x * grid.tiles_y;
  ParticleLightClusterBox box;
  if (in_grid) box = particle_light_cluster_box(grid, c % grid.tiles_x, (c / grid.tiles_x) % grid.tiles_y, c / per_tile);
  uint count = min(header.count, header.capacity);  // the same for every thread: barriers stay uniform
  // Count.
  uint n = 0u;
  for (uint first = 0u; first < count; first += 64u) {
    load_batch(first, count);
    barrier();
    uint in_batch = min(64u, count - first);
    if (in_grid)
      for (uint k = 0u; k < in_batch; ++k)
        if (particle_light_touches_box(batch[k].xyz, batch[k].w, box)) ++n;
    barrier();
  }
  // Take the entries: all n, or none and the whole list.
  uint table = 2u * clusters;
  uint offset = 0u;
  uint listed = 0u;
  bool whole = false;
  if (in_grid && n > 0u) {
    offset = atomicAdd(grid.entries, n);
    whole = offset >= grid.entry_capacity || n > grid.entry_capacity - offset;
    if (whole) atomicAdd(grid.overflow, n);
    else listed = n;
  }
  if (in_grid) {
    words[2u * c] = table + (whole ? 0u : offset);
    words[2u * c + 1u] = whole ? kParticleLightClusterWholeList : listed;
  }
  // Fill: the same tests in the same order.
  uint written = 0u;
  for (uint first = 0u; first < count; first += 64u) {
    load_batch(first, count);
    barrier();
    uint in_batch = min(64u, count - first);
    for (uint k = 0u; k < in_batch && written < listed; ++k)
      if (particle_light_touches_box(batch[k].xyz, batch[k].w, box)) words[table + offset + written++] = first + k;
    barrier();
  }
}
