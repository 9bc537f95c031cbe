#version 460
// Weighted blended OIT's resolve (McGuire & Bavoil 2013, their composite pass) onto the HDR
// target in place: C = accum.rgb / accum.a · (1 - R) + R · C_opaque, plus the emission of
// additive particles (added unattenuated: WBOIT keeps no order to attenuate it by).
#include "shared/render_passes.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D accum;
layout(binding = 1) uniform sampler2D revealage;
layout(binding = 2) uniform sampler2D emission;
layout(binding = 3, rgba16f) uniform image2D color;
layout(push_constant) uniform Push { TonemapPush push; };  // width, height used

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(push.width) || p.y >= int(push.height)) return;
  vec4 a = texelFetch(accum, p, 0);
  float r = texelFetch(revealage, p, 0).r;
  vec3 e = texelFetch(emission, p, 0).rgb;
  vec4 opaque = imageLoad(color, p);
  vec3 average = a.a > 1e-6 ? a.rgb / a.a : vec3(0.0);
  vec3 result = average * (1.0 - r) + opaque.rgb * r + e;
  imageStore(color, p, vec4(result, 1.0));
}
