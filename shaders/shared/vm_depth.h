// Depth-buffer collision's sampling (SAMPLE_DEPTH; docs/design/depth_collision.md), written once
// for C++ and GLSL like shared/vm_semantics.h (its rules hold here): every executor projects the
// particle, picks the texel, reconstructs the surface and its normal with these functions, each
// fetching the depths from its own storage. The depth is reversed-Z (0: the far plane, nothing
// drawn; larger: nearer), as Mote's renderer writes it (src/render/particle_targets.hpp).
// Anything degenerate (NaN positions, a matrix that sends the point to infinity, a texel with no
// surface) is "no hit": the result is all zero, never NaN.
#ifndef MOTE_SHADERS_SHARED_VM_DEPTH_H
#define MOTE_SHADERS_SHARED_VM_DEPTH_H
#include "shared/vm_semantics.h"

MOTE_SHARED_BEGIN

// The depth image's camera as the executors read it (host-built by depth_view, src/vm/depth_sampling.hpp).
struct VmDepthView {
  mat4 view_proj;      // world -> clip of the frame the depth was drawn in (column-major)
  mat4 inv_view_proj;  // clip -> world
  uvec4 size;          // x: width, y: height (texels); z: 1 when a depth is bound, 0 otherwise; w unused
  vec4 texel;          // x: width / 2, y: height / 2 (NDC -> pixels); z: 2 / width, w: 2 / height (rounded on the host)
};
MOTE_ASSERT_SIZE(VmDepthView, 160);
MOTE_ASSERT_OFFSET(VmDepthView, view_proj, 0);
MOTE_ASSERT_OFFSET(VmDepthView, inv_view_proj, 64);
MOTE_ASSERT_OFFSET(VmDepthView, size, 128);
MOTE_ASSERT_OFFSET(VmDepthView, texel, 144);

// Finite: neither NaN nor infinite (an ordered comparison, false for both).
VM_INLINE bool vm_depth_finite(float x) { return !isnan(x) && abs(x) <= 3.40282347e38f; }

// m * (p, w), each row's sum in column order, product by product.
VM_INLINE vec4 vm_depth_transform(mat4 m, vec3 p, float w) {
  VM_PRECISE vec4 a = m[0] * p.x;
  VM_PRECISE vec4 b = a + m[1] * p.y;
  VM_PRECISE vec4 c = b + m[2] * p.z;
  VM_PRECISE vec4 d = c + m[3] * w;
  return d;
}

// p in the depth's NDC: xyz = clip.xyz / clip.w, w = 1 when p lies in front of the camera with a
// finite projection, 0 otherwise (then xyz is 0).
VM_INLINE vec4 vm_depth_project(VmDepthView v, vec3 p) {
  vec4 clip = vm_depth_transform(v.view_proj, p, 1.0f);
  bool ok = clip.w > 0.0f && vm_depth_finite(clip.x) && vm_depth_finite(clip.y) && vm_depth_finite(clip.z) &&
            vm_depth_finite(clip.w);
  VM_PRECISE float x = clip.x / (ok ? clip.w : 1.0f);
  VM_PRECISE float y = clip.y / (ok ? clip.w : 1.0f);
  VM_PRECISE float z = clip.z / (ok ? clip.w : 1.0f);
  ok = ok && vm_depth_finite(x) && vm_depth_finite(y) && vm_depth_finite(z);
  return ok ? vec4(x, y, z, 1.0f) : vec4(0.0f);
}

// The texel along one axis NDC coordinate `ndc` falls in: floor(ndc * half + half), or `size`
// (outside) when that is not in [0, size).
VM_INLINE uint vm_depth_texel(float ndc, float half_size, uint size) {
  VM_PRECISE float px = ndc * half_size + half_size;
  return (px >= 0.0f && px < float(size)) ? uint(px) : size;
}

// The NDC coordinate of texel t's centre along one axis: (t + 0.5) * (2 / size) - 1.
VM_INLINE float vm_depth_texel_ndc(uint t, float two_over_size) {
  VM_PRECISE float c = (float(t) + 0.5f) * two_over_size;
  VM_PRECISE float n = c - 1.0f;
  return n;
}

// The world point at NDC (x, y) and depth d: xyz, and w = 1 when d is a surface (> 0) and the
// point is finite, 0 otherwise.
VM_INLINE vec4 vm_depth_unproject(VmDepthView v, float x, float y, float d) {
  vec4 h = vm_depth_transform(v.inv_view_proj, vec3(x, y, d), 1.0f);
  bool ok = d > 0.0f && vm_depth_finite(d) && h.w > 0.0f && vm_depth_finite(h.w);
  VM_PRECISE float px = h.x / (ok ? h.w : 1.0f);
  VM_PRECISE float py = h.y / (ok ? h.w : 1.0f);
  VM_PRECISE float pz = h.z / (ok ? h.w : 1.0f);
  ok = ok && vm_depth_finite(px) && vm_depth_finite(py) && vm_depth_finite(pz);
  return ok ? vec4(px, py, pz, 1.0f) : vec4(0.0f);
}

// The tangent along one screen axis at the centre point c from its two neighbours (w = 1 where
// each is a surface): the side whose depth differs less from the centre's (the near side at a
// silhouette; the upper side on a tie), the one that exists otherwise; w = 0 for neither.
VM_INLINE vec4 vm_depth_tangent(vec4 c, float dc, vec4 lo, float dlo, vec4 hi, float dhi) {
  VM_PRECISE float elo = abs(dc - dlo);
  VM_PRECISE float ehi = abs(dhi - dc);
  bool use_hi = hi.w > 0.0f && (lo.w == 0.0f || ehi <= elo);
  bool use_lo = !use_hi && lo.w > 0.0f;
  VM_PRECISE vec3 th = VM_XYZ(hi) - VM_XYZ(c);
  VM_PRECISE vec3 tl = VM_XYZ(c) - VM_XYZ(lo);
  return use_hi ? vec4(th, 1.0f) : (use_lo ? vec4(tl, 1.0f) : vec4(0.0f));
}

// a / |a| (w = 1), or w = 0 where |a| is 0 or not finite.
VM_INLINE vec4 vm_depth_normalize(vec3 a) {
  VM_PRECISE float xx = a.x * a.x;
  VM_PRECISE float xy = xx + a.y * a.y;
  VM_PRECISE float l2 = xy + a.z * a.z;
  bool ok = l2 > 0.0f && vm_depth_finite(l2);
  VM_PRECISE float l = sqrt(ok ? l2 : 1.0f);
  VM_PRECISE vec3 n = a / l;
  return ok ? vec4(n, 1.0f) : vec4(0.0f);
}

// What SAMPLE_DEPTH returns for p, with `ndc` = vm_depth_project(v, p), texel (tx, ty) its texel
// and d the depths of that texel and of its neighbours left, right, up (row - 1) and down (row + 1)
// (0 for one outside the image). The surface seen through the texel is the plane through the
// texel centre's reconstructed point with the normal of the two screen tangents (unit, turned
// toward the camera; the view ray's direction where there is no tangent plane). A hit when p lies
// behind that plane by more than 0 and at most `thickness` (measured along the normal, so a
// surface seen at a grazing angle is as thick as one seen head on): xyz = the normal, w = that
// depth. No hit: 0.
VM_INLINE vec4 vm_depth_collide(VmDepthView v, vec3 p, float thickness, vec4 ndc, uint tx, uint ty, float dc, float dl,
                                float dr, float du, float dd) {
  float cx = vm_depth_texel_ndc(tx, v.texel.z), cy = vm_depth_texel_ndc(ty, v.texel.w);
  float lx = vm_depth_texel_ndc(tx - 1u, v.texel.z), rx = vm_depth_texel_ndc(tx + 1u, v.texel.z);
  float uy = vm_depth_texel_ndc(ty - 1u, v.texel.w), dy = vm_depth_texel_ndc(ty + 1u, v.texel.w);
  vec4 c = vm_depth_unproject(v, cx, cy, dc);            // the texel's surface point
  vec4 eye = vm_depth_unproject(v, ndc.x, ndc.y, 1.0f);  // the near plane's point on p's view ray
  vec4 tu = vm_depth_tangent(c, dc, vm_depth_unproject(v, lx, cy, dl), dl, vm_depth_unproject(v, rx, cy, dr), dr);
  vec4 tv = vm_depth_tangent(c, dc, vm_depth_unproject(v, cx, uy, du), du, vm_depth_unproject(v, cx, dy, dd), dd);
  VM_PRECISE vec3 toward = VM_XYZ(eye) - p;
  vec4 n = vm_depth_normalize(VM_XYZ(vm_cross(tu, tv)));
  // Facing away from the camera: turned round. No tangent plane (a lone texel, a silhouette on
  // both sides): the view ray's direction stands in.
  VM_PRECISE float fx = n.x * toward.x;
  VM_PRECISE float fxy = fx + n.y * toward.y;
  VM_PRECISE float facing = fxy + n.z * toward.z;
  vec3 un = facing < 0.0f ? -VM_XYZ(n) : VM_XYZ(n);
  vec4 nt = vm_depth_normalize(toward);
  bool plane = tu.w > 0.0f && tv.w > 0.0f && n.w > 0.0f;
  vec3 normal = plane ? un : VM_XYZ(nt);
  bool has_normal = plane || nt.w > 0.0f;
  VM_PRECISE vec3 below = VM_XYZ(c) - p;
  VM_PRECISE float bx = below.x * normal.x;
  VM_PRECISE float bxy = bx + below.y * normal.y;
  VM_PRECISE float depth = bxy + below.z * normal.z;
  bool ok = ndc.w > 0.0f && c.w > 0.0f && eye.w > 0.0f && has_normal && depth > 0.0f && depth <= thickness &&
            vm_depth_finite(depth);
  return ok ? vec4(normal, depth) : vec4(0.0f);
}

MOTE_SHARED_END
#endif
