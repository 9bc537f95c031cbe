#version 460
// HDR → display: exposure, then ACES (Narkowicz 2015's fit of the RRT+ODT) or AgX (Sobotka's
// AgX base, in the polynomial fit of Wrensch's "Minimal AgX"), then the sRGB transfer
// function; written to an RGBA8 UNORM storage image that is read back as the PNG.
#include "shared/render_passes.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, rgba16f) readonly uniform image2D hdr;
layout(binding = 1, rgba8) writeonly uniform image2D ldr;
layout(push_constant) uniform Push { TonemapPush push; };

vec3 aces_fitted(vec3 x) {
  const float a = 2.51, b = 0.03, c = 2.43, d = 0.59, e = 0.14;
  return clamp((x * (a * x + b)) / (x * (c * x + d) + e), 0.0, 1.0);
}

vec3 agx_contrast(vec3 x) {
  vec3 x2 = x * x;
  vec3 x4 = x2 * x2;
  return 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2 + 0.1191 * x - 0.00232;
}

vec3 agx(vec3 color) {
  const mat3 inset = mat3(0.842479062253094, 0.0423282422610123, 0.0423756549057051, 0.0784335999999992,
                          0.878468636469772, 0.0784336, 0.0792237451477643, 0.0791661274605434, 0.879142973793104);
  const mat3 outset = mat3(1.19687900512017, -0.0528968517574562, -0.0529716355144438, -0.0980208811401368,
                           1.15190312990417, -0.0980434501171241, -0.0990297440797205, -0.0989611768448433,
                           1.15107367264116);
  const float min_ev = -12.47393, max_ev = 4.026069;
  vec3 x = inset * max(color, vec3(0.0));
  x = clamp(log2(max(x, vec3(1e-10))), min_ev, max_ev);
  x = (x - min_ev) / (max_ev - min_ev);
  x = agx_contrast(x);
  x = outset * x;
  // The curve's output is display-encoded already (a 2.2 power); linearise for the sRGB encode.
  return clamp(pow(max(x, vec3(0.0)), vec3(2.2)), 0.0, 1.0);
}

vec3 srgb_encode(vec3 linear) {
  vec3 lo = linear * 12.92;
  vec3 hi = 1.055 * pow(linear, vec3(1.0 / 2.4)) - 0.055;
  return mix(hi, lo, lessThanEqual(linear, vec3(0.0031308)));
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= int(push.width) || p.y >= int(push.height)) return;
  vec3 c = imageLoad(hdr, p).rgb * push.exposure;
  c = max(c, vec3(0.0));
  // NaN or infinity from a hostile effect must not poison the picture: show it black.
  if (any(isnan(c)) || any(isinf(c))) c = vec3(0.0);
  vec3 mapped = push.operator_id == kTonemapAgx ? agx(c) : aces_fitted(c);
  imageStore(ldr, p, vec4(srgb_encode(mapped), 1.0));
}
