// The particle-light list a shading pass reads beside the scene's lights (docs/design/
// particle_lights.md; written by shaders/render/particle_lights_select.comp) and its cluster grid
// (shaders/render/particle_lights_bin.comp): the includer defines PARTICLE_LIGHTS_BINDING and
// PARTICLE_LIGHT_CLUSTERS_BINDING, the storage bindings they are bound at. A reader shades point
// p with the lights of its cluster:
//   ParticleLightSpan span = particle_light_span(p);
//   for (uint k = 0u; k < span.count; ++k) { uint i = particle_light_at(span, k); ... particle_lights[i] ... }
#ifndef MOTE_SHADERS_RENDER_PARTICLE_LIGHTS_LIST_GLSL
#define MOTE_SHADERS_RENDER_PARTICLE_LIGHTS_LIST_GLSL
#include "shared/particle_lights.h"

layout(std430, binding = PARTICLE_LIGHTS_BINDING) readonly buffer ParticleLights {
  ParticleLightHeader particle_light_header;
  PointLightGpu particle_lights[];
};

layout(std430, binding = PARTICLE_LIGHT_CLUSTERS_BINDING) readonly buffer ParticleLightClusters {
  ParticleLightClusterHeader particle_light_grid;
  uint particle_light_cluster_words[];
};

// The lights to loop over: never past the list's own capacity.
uint particle_light_count() { return min(particle_light_header.count, particle_light_header.capacity); }

// The lights a point is shaded with: `count` entries of its cluster's list from word `first`, or
// (all) the whole list where the point is in no cluster or its cluster's entries ran out.
struct ParticleLightSpan {
  uint first;
  uint count;
  bool all;
};

ParticleLightSpan particle_light_span(vec3 world) {
  ParticleLightSpan span;
  int c = particle_light_cluster_of(particle_light_grid, world);
  span.all = c < 0 || uint(c) >= particle_light_grid.clusters ||
             particle_light_cluster_words[2u * uint(c) + 1u] == kParticleLightClusterWholeList;
  if (span.all) {
    span.first = 0u;
    span.count = particle_light_count();
    return span;
  }
  // Never past the entries, whatever the table says.
  uint end = 2u * particle_light_grid.clusters + particle_light_grid.entry_capacity;
  span.first = min(particle_light_cluster_words[2u * uint(c)], end);
  span.count = min(particle_light_cluster_words[2u * uint(c) + 1u], end - span.first);
  return span;
}

// The k-th light of the span (k < span.count), an index into particle_lights; a reader skips an
// index at or past particle_light_count() (never read past the list).
uint particle_light_at(ParticleLightSpan span, uint k) {
  return span.all ? k : particle_light_cluster_words[span.first + k];
}
#endif
