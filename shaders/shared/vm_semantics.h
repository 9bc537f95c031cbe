// The particle VM's arithmetic, written once and compiled as both C++ (glm) and GLSL 4.60: the
// reference executor, the batch executor and the GPU interpreters all call these functions, so
// the semantics of an opcode (its "safe math" rules, its RNG, its noise) cannot drift between
// them. The table in include/mote/isa/isa_table.inc documents each opcode in one line and names
// its function here (its `semantics` column); this header is the definition. See
// docs/design/vm.md and docs/design/isa.md ("Adding an opcode").
//
// Rules that keep this file valid in both languages:
//   * plain functions of values: no `inout`, no references, no recursion, no early `return` in
//     loops (GLSL allows them, but the generated code is simpler without);
//   * only builtins glm also has (floor, sqrt, sin, atan(y, x), ...), float literals with the
//     `f` suffix (double in C++ otherwise), unsigned literals with `u`;
//   * comparisons and selects are written as scalar ternaries per component, never relying on
//     min/max/clamp NaN behaviour, which GLSL leaves undefined;
//   * every lane-wise op is a scalar `float` function (every executor applies it lane by lane;
//     the batch executor in its structure-of-arrays loops, where it auto-vectorises); the `vec4`
//     overloads below are built from it for code that wants a whole vector;
//   * every kVector op has a `vec4 vm_vector_<op>(vec4 a, vec4 b, vec4 c)` form (at the end).
//
// Evaluation order is part of the definition: the C++ executors build with -ffp-contract=off,
// so they agree bit for bit; the GPU may fuse or use its own transcendental approximations,
// which the per-op tolerances of the ISA table allow for.
#ifndef MOTE_SHADERS_SHARED_VM_SEMANTICS_H
#define MOTE_SHADERS_SHARED_VM_SEMANTICS_H
#include "shared/interop.h"
#include "shared/vm_limits.h"

#ifdef __cplusplus
#include <glm/geometric.hpp>
namespace mote::shader {
using uvec3 = glm::uvec3;
using uvec4 = glm::uvec4;
using ivec3 = glm::ivec3;
using glm::abs;
using glm::acos;
using glm::asin;
using glm::atan;
using glm::ceil;
using glm::cos;
using glm::exp;
using glm::floor;
using glm::inversesqrt;
using glm::isnan;
using glm::log;
using glm::pow;
using glm::sin;
using glm::sqrt;
using glm::tan;
}  // namespace mote::shader
#define VM_INLINE inline
#define VM_PRECISE
#define VM_XYZ(v) vec3(v)
#else
#define VM_INLINE
// The sums of products below are evaluated as written, product by product, on the GPU too: the
// C++ executors are built with -ffp-contract=off, and NVIDIA's compiler otherwise fuses
// a * b - c * d into fma(a, b, -c * d), which turns an exact 0 (CROSS of parallel vectors) into
// +-1 ulp — and FRACT, FLOOR or a comparison after it into a different answer (found on the
// H200: a generated INIT's CROSS then FRACT gave 0.99999988 where the reference gives 0).
#define VM_PRECISE precise
// A vec4's first three components: a swizzle in GLSL (the SPIR-V the interpreters had before the
// vector forms below called it), the vec3 constructor in C++ (glm has no swizzles by default).
#define VM_XYZ(v) (v).xyz
#endif

MOTE_SHARED_BEGIN

// ---------------------------------------------------------------------------------------------
// Shared data.

// The scene's wind, read by SAMPLE_WIND. All zero (the default) is still air.
struct VmWindField {
  vec4 base_velocity;  // xyz: uniform wind, m/s; w unused (0)
  vec4 turbulence;     // x: amplitude, m/s; y: spatial frequency, 1/m; z: scroll speed along -Z,
                       // m/s; w: the time the field is sampled at, s
};
MOTE_ASSERT_SIZE(VmWindField, 32);
MOTE_ASSERT_OFFSET(VmWindField, base_velocity, 0);
MOTE_ASSERT_OFFSET(VmWindField, turbulence, 16);

// Noise inputs are clamped to +-2^23 (beyond it a float has no fraction left, and the lattice
// coordinate must fit an int) and NaN reads as 0, so NOISE3/CURL3/SAMPLE_WIND are total.
MOTE_CONSTANT(float, kVmNoiseDomain, 8388608.0f);
// Domain offsets of the three potentials of CURL3 (Bridson et al. 2007 use three decorrelated
// noise fields; arbitrary non-lattice offsets decorrelate ours).
MOTE_CONSTANT(float, kVmCurlOffset1X, 31.416f);
MOTE_CONSTANT(float, kVmCurlOffset1Y, -47.853f);
MOTE_CONSTANT(float, kVmCurlOffset1Z, 12.793f);
MOTE_CONSTANT(float, kVmCurlOffset2X, -93.151f);
MOTE_CONSTANT(float, kVmCurlOffset2Y, 71.729f);
MOTE_CONSTANT(float, kVmCurlOffset2Z, -5.347f);
// Separates the particle-seed hash from RAND's (seed, draw, lane) hash ("mote").
MOTE_CONSTANT(uint, kVmSeedSalt, 0x6D6F7465u);
// Separates HASH's (a, b) hash from the others ("hash").
MOTE_CONSTANT(uint, kVmHashSalt, 0x68617368u);

MOTE_SHARED_END

MOTE_SHARED_BEGIN

// ---------------------------------------------------------------------------------------------
// Comparisons and selects (scalar ternaries: defined for NaN in both languages).

VM_INLINE float vm_min(float a, float b) { return b < a ? b : a; }
VM_INLINE float vm_max(float a, float b) { return a < b ? b : a; }
VM_INLINE float vm_clamp(float a, float lo, float hi) { return vm_min(vm_max(a, lo), hi); }
VM_INLINE float vm_bool(bool b) { return b ? 1.0f : 0.0f; }

// ---------------------------------------------------------------------------------------------
// Lane-wise arithmetic, scalar form. One function per opcode (MOV, ADD, SUB, MUL need none).

VM_INLINE float vm_add(float a, float b) { return a + b; }
VM_INLINE float vm_sub(float a, float b) { return a - b; }
VM_INLINE float vm_mul(float a, float b) { return a * b; }
// DIV: 0 where b == 0 (no inf/NaN out of a zero divisor; the divide sees 1 there).
VM_INLINE float vm_div(float a, float b) { return b == 0.0f ? 0.0f : a / (b == 0.0f ? 1.0f : b); }
// FMA: unfused on the CPU (-ffp-contract=off); the GPU may fuse (table tolerance 2 ulp).
VM_INLINE float vm_fma(float a, float b, float c) { return a * b + c; }
VM_INLINE float vm_abs(float a) { return abs(a); }
// SIGN through integers: a select between float constants may come out as -0 for a zero (a GPU
// compiler that ignores the sign of zero turned sign(0) into -0 on lavapipe, where the host's fold
// and the reference give +0); an int converted to float is never -0. NaN: 0.
VM_INLINE float vm_sign(float a) { return float(int(a > 0.0f) - int(a < 0.0f)); }
VM_INLINE float vm_floor(float a) { return floor(a); }
VM_INLINE float vm_ceil(float a) { return ceil(a); }
VM_INLINE float vm_fract(float a) { return a - floor(a); }
// MOD: GLSL's mod (floored), 0 where b == 0.
VM_INLINE float vm_mod(float a, float b) {
  float d = b == 0.0f ? 1.0f : b;
  return b == 0.0f ? 0.0f : a - d * floor(a / d);
}
VM_INLINE float vm_sqrt(float a) { return sqrt(vm_max(a, 0.0f)); }
VM_INLINE float vm_rsqrt(float a) { return a > 0.0f ? inversesqrt(a > 0.0f ? a : 1.0f) : 0.0f; }
VM_INLINE float vm_exp(float a) { return exp(a); }
VM_INLINE float vm_log(float a) { return a > 0.0f ? log(a > 0.0f ? a : 1.0f) : 0.0f; }
VM_INLINE float vm_pow(float a, float b) { return a > 0.0f ? pow(a > 0.0f ? a : 1.0f, b) : 0.0f; }
VM_INLINE float vm_sin(float a) { return sin(a); }
VM_INLINE float vm_cos(float a) { return cos(a); }
VM_INLINE float vm_tan(float a) { return tan(a); }
VM_INLINE float vm_asin(float a) { return asin(vm_clamp(a, -1.0f, 1.0f)); }
VM_INLINE float vm_acos(float a) { return acos(vm_clamp(a, -1.0f, 1.0f)); }
// ATAN2(y = a, x = b): 0 where both are 0 (GLSL leaves atan(0, 0) undefined).
VM_INLINE float vm_atan2(float y, float x) {
  return (y == 0.0f && x == 0.0f) ? 0.0f : atan(y, (y == 0.0f && x == 0.0f) ? 1.0f : x);
}
VM_INLINE float vm_mix(float a, float b, float t) { return a + (b - a) * t; }
// STEP(edge = a, x = b).
VM_INLINE float vm_step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
// SMOOTHSTEP(e0, e1, x): Hermite t*t*(3 - 2t) of the clamped ramp; step(e0, x) where e0 == e1.
VM_INLINE float vm_smoothstep(float e0, float e1, float x) {
  float span = e1 - e0;
  float t = vm_clamp((x - e0) / (span == 0.0f ? 1.0f : span), 0.0f, 1.0f);
  return e0 == e1 ? vm_step(e0, x) : t * t * (3.0f - 2.0f * t);
}
// EMIT_EVENT: the events a count `a` asks for, floor(a) clamped to 0..kVmMaxEventCount (NaN and
// anything below 1 send none), added to the `total` this particle already sent to that output in
// this run, saturating at kVmMaxEventCount. In u32 arithmetic on every executor.
VM_INLINE uint vm_event_count(float a) {
  return a >= 1.0f ? (a < float(kVmMaxEventCount) ? uint(a) : kVmMaxEventCount) : 0u;
}
VM_INLINE uint vm_event_add(uint total, float a) {
  uint n = vm_event_count(a);
  return total < kVmMaxEventCount - n ? total + n : kVmMaxEventCount;
}
// The four outputs' counts at once (the GPU interpreters keep them in one uvec4, so no dynamic
// component index): output `target` gets vm_event_add, the others stay; an index past the last
// changes nothing.
VM_INLINE uvec4 vm_event_add4(uvec4 counts, uint target, float a) {
  return uvec4(target == 0u ? vm_event_add(counts.x, a) : counts.x, target == 1u ? vm_event_add(counts.y, a) : counts.y,
               target == 2u ? vm_event_add(counts.z, a) : counts.z,
               target == 3u ? vm_event_add(counts.w, a) : counts.w);
}
VM_INLINE float vm_cmp(float a, float b, uint code) {
  bool r = false;
  if (code == 0u) r = a < b;
  if (code == 1u) r = a <= b;
  if (code == 2u) r = a == b;
  if (code == 3u) r = a != b;
  if (code == 4u) r = a >= b;
  if (code == 5u) r = a > b;
  return vm_bool(r);
}
// SELECT(mask, a, b): any non-zero mask (NaN included) picks a.
VM_INLINE float vm_select(float mask, float a, float b) { return mask != 0.0f ? a : b; }
VM_INLINE float vm_and(float a, float b) { return vm_bool(a != 0.0f && b != 0.0f); }
VM_INLINE float vm_or(float a, float b) { return vm_bool(a != 0.0f || b != 0.0f); }
VM_INLINE float vm_not(float a) { return vm_bool(a == 0.0f); }

// ---------------------------------------------------------------------------------------------
// Lane-wise arithmetic, vec4 form: component by component through the scalar form, so the
// vec4 and scalar paths are the same operations in the same order.

#define VM_LANEWISE1(fn) \
  VM_INLINE vec4 fn(vec4 a) { return vec4(fn(a.x), fn(a.y), fn(a.z), fn(a.w)); }
#define VM_LANEWISE2(fn) \
  VM_INLINE vec4 fn(vec4 a, vec4 b) { return vec4(fn(a.x, b.x), fn(a.y, b.y), fn(a.z, b.z), fn(a.w, b.w)); }
#define VM_LANEWISE3(fn)                                                                     \
  VM_INLINE vec4 fn(vec4 a, vec4 b, vec4 c) {                                                \
    return vec4(fn(a.x, b.x, c.x), fn(a.y, b.y, c.y), fn(a.z, b.z, c.z), fn(a.w, b.w, c.w)); \
  }
VM_LANEWISE2(vm_add)
VM_LANEWISE2(vm_sub)
VM_LANEWISE2(vm_mul)
VM_LANEWISE2(vm_div)
VM_LANEWISE3(vm_fma)
VM_LANEWISE2(vm_min)
VM_LANEWISE2(vm_max)
VM_LANEWISE3(vm_clamp)
VM_LANEWISE1(vm_abs)
VM_LANEWISE1(vm_sign)
VM_LANEWISE1(vm_floor)
VM_LANEWISE1(vm_ceil)
VM_LANEWISE1(vm_fract)
VM_LANEWISE2(vm_mod)
VM_LANEWISE1(vm_sqrt)
VM_LANEWISE1(vm_rsqrt)
VM_LANEWISE1(vm_exp)
VM_LANEWISE1(vm_log)
VM_LANEWISE2(vm_pow)
VM_LANEWISE1(vm_sin)
VM_LANEWISE1(vm_cos)
VM_LANEWISE1(vm_tan)
VM_LANEWISE1(vm_asin)
VM_LANEWISE1(vm_acos)
VM_LANEWISE2(vm_atan2)
VM_LANEWISE3(vm_mix)
VM_LANEWISE2(vm_step)
VM_LANEWISE3(vm_smoothstep)
VM_LANEWISE3(vm_select)
VM_LANEWISE2(vm_and)
VM_LANEWISE2(vm_or)
VM_LANEWISE1(vm_not)
#undef VM_LANEWISE1
#undef VM_LANEWISE2
#undef VM_LANEWISE3

VM_INLINE vec4 vm_cmp(vec4 a, vec4 b, uint code) {
  return vec4(vm_cmp(a.x, b.x, code), vm_cmp(a.y, b.y, code), vm_cmp(a.z, b.z, code), vm_cmp(a.w, b.w, code));
}

// ---------------------------------------------------------------------------------------------
// Geometry. Sources narrower than 4 lanes arrive zero-padded (the executors fill unused
// components with 0), so these always work on 4 components; the sums run x, y, z, w in order.

VM_INLINE float vm_dot(vec4 a, vec4 b) {
  VM_PRECISE float r = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
  return r;
}
VM_INLINE float vm_length(vec4 a) { return sqrt(vm_dot(a, a)); }
VM_INLINE float vm_distance(vec4 a, vec4 b) { return vm_length(a - b); }
// NORMALIZE: 0 where the length is 0.
VM_INLINE vec4 vm_normalize(vec4 a) {
  float len = vm_length(a);
  return len == 0.0f ? vec4(0.0f) : a / (len == 0.0f ? 1.0f : len);
}
VM_INLINE vec3 vm_cross(vec3 a, vec3 b) {
  VM_PRECISE vec3 r = vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
  return r;
}
VM_INLINE vec4 vm_cross(vec4 a, vec4 b) { return vec4(vm_cross(vec3(a), vec3(b)), 0.0f); }

// ---------------------------------------------------------------------------------------------
// Quaternions: xyzw, w the scalar part, Hamilton convention (q * p applies p first).

VM_INLINE vec4 vm_qmul(vec4 a, vec4 b) {
  VM_PRECISE vec4 r = vec4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                           a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                           a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
  return r;
}
// v' = v + 2w (q x v) + 2 q x (q x v), evaluated as t = 2 (q x v); v + w t + q x t
// (the form of van Waveren 2005 / Giesen's "faster quaternion-vector multiplication").
VM_INLINE vec3 vm_qrotate(vec4 q, vec3 v) {
  vec3 u = vec3(q);
  vec3 t = 2.0f * vm_cross(u, v);
  return v + q.w * t + vm_cross(u, t);
}
// A unit quaternion turning by `angle` radians about `axis` (normalised here); a zero axis
// (or NaN length) gives the identity.
VM_INLINE vec4 vm_qfrom_axis_angle(vec3 axis, float angle) {
  float len = sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
  bool degenerate = !(len > 0.0f);
  vec3 n = axis / (degenerate ? 1.0f : len);
  float h = 0.5f * angle;
  vec4 q = vec4(n * sin(h), cos(h));
  return degenerate ? vec4(0.0f, 0.0f, 0.0f, 1.0f) : q;
}
// q' = normalize(from_axis_angle(w / |w|, |w| dt) * q): the exact solution of dq/dt = w q / 2
// for a world-frame angular velocity w constant over dt (the exponential map). w == 0 gives
// normalize(q); a zero q gives the identity.
VM_INLINE vec4 vm_qintegrate(vec4 q, vec3 w, float dt) {
  float speed = sqrt(w.x * w.x + w.y * w.y + w.z * w.z);
  vec4 r = vm_qmul(vm_qfrom_axis_angle(w, speed * dt), q);
  float len = vm_length(r);
  return len > 0.0f ? r / (len > 0.0f ? len : 1.0f) : vec4(0.0f, 0.0f, 0.0f, 1.0f);
}

// ---------------------------------------------------------------------------------------------
// Hashing and random numbers: pcg3d of Jarzynski & Olano 2020, "Hash Functions for GPU
// Rendering" (JCGT 9(3)): a counter-based hash, so a particle's draws depend only on (seed,
// draw, lane), never on execution order, and integer arithmetic is exact on CPU and GPU.

VM_INLINE uvec3 vm_pcg3d(uvec3 v) {
  v = v * 1664525u + 1013904223u;
  v.x += v.y * v.z;
  v.y += v.z * v.x;
  v.z += v.x * v.y;
  v ^= v >> 16u;
  v.x += v.y * v.z;
  v.y += v.z * v.x;
  v.z += v.x * v.y;
  return v;
}
VM_INLINE uint vm_hash3(uint a, uint b, uint c) { return vm_pcg3d(uvec3(a, b, c)).x; }
VM_INLINE uint vm_particle_seed(uint base, uint particle_index) { return vm_hash3(base, particle_index, kVmSeedSalt); }
// The top 24 bits scaled by 2^-24: exactly representable, uniform on [0, 1), never 1.
VM_INLINE float vm_rand(uint seed, uint draw, uint lane) {
  return float(vm_hash3(seed, draw, lane) >> 8u) * (1.0f / 16777216.0f);
}
// HASH: a uniform on [0, 1) keyed by two values rather than by the particle's seed (the lifetime
// loop's per-iteration reseed, docs/design/nodes.md). Its operands are read as integers:
// floor, NaN as 0, clamped to +-2^30 so the conversion is defined in both languages; integer
// arithmetic after that, so every executor computes the same bits.
VM_INLINE uint vm_hash_key(float a) {
  float f = isnan(a) ? 0.0f : floor(a);
  f = f < -1073741824.0f ? -1073741824.0f : (f > 1073741824.0f ? 1073741824.0f : f);
  return uint(int(f));
}
VM_INLINE float vm_hash01(float a, float b) {
  return float(vm_hash3(vm_hash_key(a), vm_hash_key(b), kVmHashSalt) >> 8u) * (1.0f / 16777216.0f);
}
VM_INLINE vec4 vm_hash01(vec4 a, vec4 b) {
  return vec4(vm_hash01(a.x, b.x), vm_hash01(a.y, b.y), vm_hash01(a.z, b.z), vm_hash01(a.w, b.w));
}

// ---------------------------------------------------------------------------------------------
// Gradient noise: Perlin 2002, "Improving Noise" (SIGGRAPH): the 12 cube-edge gradients picked
// by 4 hash bits with Perlin's bit rule (so no permutation table that could differ between
// languages), quintic fade 6t^5 - 15t^4 + 10t^3 (C2, so the analytic gradient is continuous).

VM_INLINE vec3 vm_noise_gradient(uint h) {
  uint k = h & 15u;
  float su = (k & 1u) == 0u ? 1.0f : -1.0f;
  float sv = (k & 2u) == 0u ? 1.0f : -1.0f;
  vec3 g = vec3(0.0f);
  // Perlin's grad(): u = k < 8 ? x : y; v = k < 4 ? y : (k == 12 || k == 14 ? x : z).
  if (k < 8u) g.x = su;
  else g.y = su;
  if (k < 4u) g.y = sv;
  else if (k == 12u || k == 14u) g.x = sv;
  else g.z = sv;
  return g;
}
VM_INLINE float vm_noise_coord(float x) { return isnan(x) ? 0.0f : vm_clamp(x, -kVmNoiseDomain, kVmNoiseDomain); }
// xyz: the analytic gradient d noise / d p; w: the raw noise value (before the [-1, 1] clamp).
VM_INLINE vec4 vm_noise3_gradient(vec3 p_in) {
  vec3 p = vec3(vm_noise_coord(p_in.x), vm_noise_coord(p_in.y), vm_noise_coord(p_in.z));
  vec3 cell = vec3(floor(p.x), floor(p.y), floor(p.z));
  vec3 f = p - cell;
  uvec3 base = uvec3(ivec3(cell));
  vec3 u = f * f * f * (f * (f * 6.0f - 15.0f) + 10.0f);
  vec3 du = 30.0f * f * f * (f * (f - 2.0f) + 1.0f);
  float value = 0.0f;
  vec3 grad = vec3(0.0f);
  for (uint corner = 0u; corner < 8u; corner++) {
    uvec3 o = uvec3(corner & 1u, (corner >> 1u) & 1u, (corner >> 2u) & 1u);
    vec3 g = vm_noise_gradient(vm_pcg3d(base + o).x >> 28u);
    vec3 d = f - vec3(o);
    float n = g.x * d.x + g.y * d.y + g.z * d.z;
    float wx = o.x == 1u ? u.x : 1.0f - u.x;
    float wy = o.y == 1u ? u.y : 1.0f - u.y;
    float wz = o.z == 1u ? u.z : 1.0f - u.z;
    float dwx = o.x == 1u ? du.x : -du.x;
    float dwy = o.y == 1u ? du.y : -du.y;
    float dwz = o.z == 1u ? du.z : -du.z;
    float w = wx * wy * wz;
    value += w * n;
    grad += vec3(dwx * wy * wz * n, wx * dwy * wz * n, wx * wy * dwz * n) + w * g;
  }
  return vec4(grad, value);
}
VM_INLINE float vm_noise3(vec3 p) { return vm_clamp(vm_noise3_gradient(p).w, -1.0f, 1.0f); }

// Curl noise: Bridson, Hourihan & Nordenstam 2007, "Curl-Noise for Procedural Fluid Flow"
// (SIGGRAPH): velocity = curl(psi) of a vector potential psi = (n1, n2, n3) of three
// decorrelated noise fields, from their analytic gradients. div(curl) = 0 identically.
VM_INLINE vec3 vm_curl3(vec3 p) {
  vec3 g1 = vec3(vm_noise3_gradient(p));
  vec3 g2 = vec3(vm_noise3_gradient(p + vec3(kVmCurlOffset1X, kVmCurlOffset1Y, kVmCurlOffset1Z)));
  vec3 g3 = vec3(vm_noise3_gradient(p + vec3(kVmCurlOffset2X, kVmCurlOffset2Y, kVmCurlOffset2Z)));
  return vec3(g3.y - g2.z, g1.z - g3.x, g2.x - g1.y);
}

// wind(p) = base + amplitude * curl(p * frequency + (0, 0, -scroll * time)).
VM_INLINE vec3 vm_sample_wind(VmWindField wind, vec3 p) {
  vec4 t = wind.turbulence;
  vec3 q = p * t.y + vec3(0.0f, 0.0f, -t.z * t.w);
  return vec3(wind.base_velocity) + t.x * vm_curl3(q);
}

// ---------------------------------------------------------------------------------------------
// Vector form: the function of every kVector row of the ISA table, with the one signature every
// executor calls (the three value sources, zero-padded; a source the row does not read is left
// unnamed). The result's first lanes are what the row writes: a scalar result in .x, the other
// components 0 (what each opcode wrote before the table named these functions).

VM_INLINE vec4 vm_vector_mov(vec4 a, vec4, vec4) { return a; }
VM_INLINE vec4 vm_vector_dot(vec4 a, vec4 b, vec4) { return vec4(vm_dot(a, b), 0.0f, 0.0f, 0.0f); }
VM_INLINE vec4 vm_vector_cross(vec4 a, vec4 b, vec4) { return vm_cross(a, b); }
VM_INLINE vec4 vm_vector_length(vec4 a, vec4, vec4) { return vec4(vm_length(a), 0.0f, 0.0f, 0.0f); }
VM_INLINE vec4 vm_vector_normalize(vec4 a, vec4, vec4) { return vm_normalize(a); }
VM_INLINE vec4 vm_vector_distance(vec4 a, vec4 b, vec4) { return vec4(vm_distance(a, b), 0.0f, 0.0f, 0.0f); }
VM_INLINE vec4 vm_vector_qmul(vec4 a, vec4 b, vec4) { return vm_qmul(a, b); }
VM_INLINE vec4 vm_vector_qrotate(vec4 a, vec4 b, vec4) { return vec4(vm_qrotate(a, VM_XYZ(b)), 0.0f); }
VM_INLINE vec4 vm_vector_qfrom_axis_angle(vec4 a, vec4 b, vec4) { return vm_qfrom_axis_angle(VM_XYZ(a), b.x); }
VM_INLINE vec4 vm_vector_qintegrate(vec4 a, vec4 b, vec4 c) { return vm_qintegrate(a, VM_XYZ(b), c.x); }
VM_INLINE vec4 vm_vector_noise3(vec4 a, vec4, vec4) { return vec4(vm_noise3(VM_XYZ(a)), 0.0f, 0.0f, 0.0f); }
VM_INLINE vec4 vm_vector_curl3(vec4 a, vec4, vec4) { return vec4(vm_curl3(VM_XYZ(a)), 0.0f); }

MOTE_SHARED_END
#endif
