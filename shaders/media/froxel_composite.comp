#version 460
// The fog over the opaque scene (src/media/froxel_passes.cpp): each pixel's colour seen through
// the integrated fog in front of its depth — colour x transmittance + in-scattered light. The
// particles drawn after it fog their own fragments (shaders/media/fog_apply.glsl).
#include "media/froxel_common.glsl"
#include "media/fog_apply.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(std140, binding = 1) uniform Sampling { MediaFogSampling sampling; };
layout(binding = 2) uniform sampler3D integrated;
layout(binding = 3) uniform sampler2D scene_depth;  // reversed-Z
layout(binding = 4, rgba16f) uniform image2D color;

void main() {
  ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(color);
  if (any(greaterThanEqual(pixel, size))) return;
  vec2 uv = (vec2(pixel) + 0.5) / vec2(size);
  float depth = texelFetch(scene_depth, pixel, 0).r;
  vec4 fog = media_fog_at(integrated, sampling, uv, scene_view_depth(uv * 2.0 - 1.0, depth));
  vec4 c = imageLoad(color, pixel);
  imageStore(color, pixel, vec4(c.rgb * fog.a + fog.rgb, c.a));
}
