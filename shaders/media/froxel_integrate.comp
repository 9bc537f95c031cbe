#version 460
// Front-to-back integration (src/media/froxel_passes.cpp, docs/design/media.md "The froxel
// passes"): one invocation per froxel column walks the slices from the camera, each a slab of
// constant extinction sigma and in-scattered radiance L per metre over its length along the
// column's centre ray, integrated as Hillaire 2015 does (Frostbite, "Physically based and unified
// volumetric rendering", energy-conserving): the slab's light is (L - L e^(-sigma d)) / sigma, seen
// through the transmittance in front of it. Slice k stores the light (rgb) and the transmittance
// (a) from the camera to its far side.
#include "media/froxel_common.glsl"

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(binding = 1, rgba16f) uniform readonly image3D lit;
layout(binding = 2, rgba16f) uniform writeonly image3D integrated;

void main() {
  uvec2 column = gl_GlobalInvocationID.xy;
  if (any(greaterThanEqual(column, uvec2(frame.grid_size.xy)))) return;
  uint slices = uint(frame.grid_size.z);
  // The slab lengths along the column's centre ray: view depth over the ray's cosine.
  vec3 near_point = froxel_world(vec3(vec2(column) + 0.5, 0.0));
  vec3 along = normalize(near_point - frame.camera_position.xyz);
  float ray_per_depth = 1.0 / max(dot(along, frame.camera_forward.xyz), 1e-4);
  vec3 light = vec3(0.0);
  float transmittance = 1.0;
  float depth = frame.depth_range.x;
  for (uint k = 0u; k < slices; k++) {
    float next = media_slice_depth(float(k + 1u), frame.depth_range.x, frame.depth_range.y, frame.grid_size.z);
    float length_k = (next - depth) * ray_per_depth;
    depth = next;
    vec4 v = imageLoad(lit, ivec3(column, k));
    float sigma = max(v.a, 0.0);
    float slab = exp(-sigma * length_k);
    vec3 slab_light = sigma > 1e-6 ? (v.rgb - v.rgb * slab) / sigma : v.rgb * length_k;
    light += transmittance * slab_light;
    transmittance *= slab;
    imageStore(integrated, ivec3(column, k), vec4(light, transmittance));
  }
}
