#version 460
// Density injection (src/media/froxel_passes.cpp, docs/design/media.md "The froxel passes"): one
// invocation per froxel evaluates every volume at one point inside the froxel, jittered per frame
// (media_jitter with the injection's decorrelation offset), and stores the medium's scattering
// (rgb = albedo x extinction, summed) and extinction (a). Each volume is rejected by its box
// before any noise is read (media_density_at), and a volume at noise_strength 0 branches around
// the taps. MEDIA_COUNT_TAPS=1 builds the variant that counts the noise taps it takes (tests).
#ifndef MEDIA_COUNT_TAPS
#define MEDIA_COUNT_TAPS 0
#endif
#if MEDIA_COUNT_TAPS
uint noise_taps_taken = 0u;
#define MEDIA_ON_NOISE_TAP() noise_taps_taken++
#endif
#include "media/froxel_common.glsl"

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(std430, binding = 1) readonly buffer Volumes { MediaVolume volumes[]; };
layout(binding = 2) uniform sampler3D noise_atlas;
layout(binding = 3, rgba16f) uniform writeonly image3D medium;
#if MEDIA_COUNT_TAPS
layout(std430, binding = 4) buffer Taps { uint taps; };
#endif

void main() {
  uvec3 froxel = gl_GlobalInvocationID;
  if (any(greaterThanEqual(froxel, uvec3(frame.grid_size.xyz)))) return;
  vec3 jitter = media_jitter(froxel, frame.counts.z, uvec2(kMediaInjectDecorrelationX, kMediaInjectDecorrelationY));
  vec3 p = froxel_world(vec3(froxel) + jitter);
  vec3 scattering = vec3(0.0);
  float extinction = 0.0;
  uint count = frame.counts.x;
  for (uint i = 0u; i < count; i++) {
    float d = media_density_at(noise_atlas, volumes[i], p);
    scattering += volumes[i].albedo.rgb * d;
    extinction += d;
  }
#if MEDIA_COUNT_TAPS
  if (noise_taps_taken > 0u) atomicAdd(taps, noise_taps_taken);
#endif
  imageStore(medium, ivec3(froxel), vec4(scattering, extinction));
}
