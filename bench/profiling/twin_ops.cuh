// What both CUDA twins of the fast interpreter share (bench/profiling/vm_interpreter_twin.cu,
// vm_fast_twin.cu): the opcode numbers (mote::isa::Op's), the opcode bodies in the spirit of
// shaders/shared/vm_semantics.h (not bit-exact: the twins are for profiling), and the switch's
// cases for every opcode but the two field moves, which each twin does its own way.
// For profiling only: not part of the build.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

enum : uint32_t { NOP, MOV, ADD, SUB, MUL, DIV, FMA, MIN, MAX, CLAMP, ABS, SIGN, FLOOR, CEIL, FRACT, MOD, SQRT, RSQRT,
  EXP, LOG, POW, SIN, COS, TAN, ASIN, ACOS, ATAN2, DOT, CROSS, LENGTH, NORMALIZE, DISTANCE, MIX, STEP, SMOOTHSTEP,
  CMP, SELECT, AND, OR, NOT, LOAD_FIELD, STORE_FIELD, LOAD_CONST, LOAD_BUILTIN, RAND, QMUL, QROTATE, QFAA, QINT,
  NOISE3, CURL3, WIND, KILL, OPCOUNT };
constexpr uint32_t L = 5;  // width = lanes
constexpr uint32_t shape(uint32_t a, uint32_t b, uint32_t c, uint32_t d) { return a | b << 3 | c << 6 | d << 9; }

__device__ __forceinline__ float fmin_(float a, float b) { return a < b ? a : b; }
__device__ __forceinline__ float fmax_(float a, float b) { return a > b ? a : b; }
__device__ __forceinline__ float clamp_(float a, float l, float h) { return fmin_(fmax_(a, l), h); }
__device__ __forceinline__ float div_(float a, float b) { return b == 0.f ? 0.f : a / (b == 0.f ? 1.f : b); }
__device__ __forceinline__ float ss_(float e0, float e1, float x) {
  float s = e1 - e0; float t = clamp_((x - e0) / (s == 0.f ? 1.f : s), 0.f, 1.f);
  return e0 == e1 ? (x < e0 ? 0.f : 1.f) : t * t * (3.f - 2.f * t);
}
__device__ __forceinline__ float cmp_(float a, float b, uint32_t c) {
  bool r = false; if (c == 0) r = a < b; if (c == 1) r = a <= b; if (c == 2) r = a == b; if (c == 3) r = a != b;
  if (c == 4) r = a >= b; if (c == 5) r = a > b; return r ? 1.f : 0.f;
}
__device__ __forceinline__ uint32_t hash3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t x = a * 1664525u + 1013904223u, y = b * 1664525u + 1013904223u, z = c * 1664525u + 1013904223u;
  x += y * z; y += z * x; z += x * y; x ^= x >> 16; y ^= y >> 16; z ^= z >> 16; x += y * z; return x;
}
__device__ float noise3(float px, float py, float pz) {
  float fx = floorf(px), fy = floorf(py), fz = floorf(pz); float r = 0.f;
  for (int i = 0; i < 8; ++i) {
    float ox = i & 1, oy = (i >> 1) & 1, oz = (i >> 2) & 1;
    uint32_t h = hash3(uint32_t(int(fx + ox)), uint32_t(int(fy + oy)), uint32_t(int(fz + oz)));
    float gx = (h & 1) ? 1.f : -1.f, gy = (h & 2) ? 1.f : -1.f, gz = (h & 4) ? 1.f : -1.f;
    float dx = px - fx - ox, dy = py - fy - oy, dz = pz - fz - oz;
    float w = (1.f - fabsf(dx)) * (1.f - fabsf(dy)) * (1.f - fabsf(dz));
    r += w * (gx * dx + gy * dy + gz * dz);
  }
  return r;
}
#define LW1(f) make_float4(f(a.x), f(a.y), f(a.z), f(a.w))
#define LW2(f) make_float4(f(a.x, b.x), f(a.y, b.y), f(a.z, b.z), f(a.w, b.w))
#define LW3(f) make_float4(f(a.x, b.x, c.x), f(a.y, b.y, c.y), f(a.z, b.z, c.z), f(a.w, b.w, c.w))
__device__ __forceinline__ float add_(float a, float b) { return a + b; }
__device__ __forceinline__ float sub_(float a, float b) { return a - b; }
__device__ __forceinline__ float mul_(float a, float b) { return a * b; }
__device__ __forceinline__ float fma_(float a, float b, float c) { return a * b + c; }
__device__ __forceinline__ float mix_(float a, float b, float t) { return a + (b - a) * t; }
__device__ __forceinline__ float sel_(float m, float a, float b) { return m != 0.f ? a : b; }
__device__ __forceinline__ float mod_(float a, float b) { float d = b == 0.f ? 1.f : b; return b == 0.f ? 0.f : a - d * floorf(a / d); }
__device__ __forceinline__ float fr_(float a) { return a - floorf(a); }
__device__ __forceinline__ float sgn_(float a) { return a > 0.f ? 1.f : (a < 0.f ? -1.f : 0.f); }
__device__ __forceinline__ float sqrt_(float a) { return sqrtf(fmax_(a, 0.f)); }
__device__ __forceinline__ float rsq_(float a) { return a > 0.f ? rsqrtf(a) : 0.f; }
__device__ __forceinline__ float log_(float a) { return a > 0.f ? logf(a) : 0.f; }
__device__ __forceinline__ float pow_(float a, float b) { return a > 0.f ? powf(a, b) : 0.f; }
__device__ __forceinline__ float asin_(float a) { return asinf(clamp_(a, -1.f, 1.f)); }
__device__ __forceinline__ float acos_(float a) { return acosf(clamp_(a, -1.f, 1.f)); }
__device__ __forceinline__ float at2_(float y, float x) { return (y == 0.f && x == 0.f) ? 0.f : atan2f(y, x); }
__device__ __forceinline__ float step_(float e, float x) { return x < e ? 0.f : 1.f; }
__device__ __forceinline__ float and_(float a, float b) { return (a != 0.f && b != 0.f) ? 1.f : 0.f; }
__device__ __forceinline__ float or_(float a, float b) { return (a != 0.f || b != 0.f) ? 1.f : 0.f; }
__device__ __forceinline__ float not_(float a) { return a == 0.f ? 1.f : 0.f; }

// The cases of the interpreter's `switch (op)` except LOAD_FIELD and STORE_FIELD. Reads a, b, c
// (float4 sources), s0 (source 0's word), cmp_mode (CMP's mode word), lanes, seed, i (the
// particle), c_p.dt, c_consts; writes r and dead. EN(op) says whether the build runs op.
#define TWIN_CASES_BUT_FIELDS \
          case MOV: if (EN(MOV)) r = a; break; \
          case ADD: if (EN(ADD)) r = LW2(add_); break; \
          case SUB: if (EN(SUB)) r = LW2(sub_); break; \
          case MUL: if (EN(MUL)) r = LW2(mul_); break; \
          case DIV: if (EN(DIV)) r = LW2(div_); break; \
          case FMA: if (EN(FMA)) r = LW3(fma_); break; \
          case MIN: if (EN(MIN)) r = LW2(fmin_); break; \
          case MAX: if (EN(MAX)) r = LW2(fmax_); break; \
          case CLAMP: if (EN(CLAMP)) r = LW3(clamp_); break; \
          case ABS: if (EN(ABS)) r = LW1(fabsf); break; \
          case SIGN: if (EN(SIGN)) r = LW1(sgn_); break; \
          case FLOOR: if (EN(FLOOR)) r = LW1(floorf); break; \
          case CEIL: if (EN(CEIL)) r = LW1(ceilf); break; \
          case FRACT: if (EN(FRACT)) r = LW1(fr_); break; \
          case MOD: if (EN(MOD)) r = LW2(mod_); break; \
          case SQRT: if (EN(SQRT)) r = LW1(sqrt_); break; \
          case RSQRT: if (EN(RSQRT)) r = LW1(rsq_); break; \
          case EXP: if (EN(EXP)) r = LW1(expf); break; \
          case LOG: if (EN(LOG)) r = LW1(log_); break; \
          case POW: if (EN(POW)) r = LW2(pow_); break; \
          case SIN: if (EN(SIN)) r = LW1(sinf); break; \
          case COS: if (EN(COS)) r = LW1(cosf); break; \
          case TAN: if (EN(TAN)) r = LW1(tanf); break; \
          case ASIN: if (EN(ASIN)) r = LW1(asin_); break; \
          case ACOS: if (EN(ACOS)) r = LW1(acos_); break; \
          case ATAN2: if (EN(ATAN2)) r = LW2(at2_); break; \
          case DOT: if (EN(DOT)) r.x = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; break; \
          case CROSS: if (EN(CROSS)) r = make_float4(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, 0.f); break; \
          case LENGTH: if (EN(LENGTH)) r.x = sqrtf(a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w); break; \
          case NORMALIZE: if (EN(NORMALIZE)) { float l = a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w; float k = l > 0.f ? rsqrtf(l) : 0.f; r = make_float4(a.x * k, a.y * k, a.z * k, a.w * k); } break; \
          case DISTANCE: if (EN(DISTANCE)) { float x = a.x - b.x, y = a.y - b.y, z = a.z - b.z, w = a.w - b.w; r.x = sqrtf(x * x + y * y + z * z + w * w); } break; \
          case MIX: if (EN(MIX)) r = LW3(mix_); break; \
          case STEP: if (EN(STEP)) r = LW2(step_); break; \
          case SMOOTHSTEP: if (EN(SMOOTHSTEP)) r = LW3(ss_); break; \
          case CMP: if (EN(CMP)) { uint32_t k = cmp_mode; r = make_float4(cmp_(a.x, b.x, k), cmp_(a.y, b.y, k), cmp_(a.z, b.z, k), cmp_(a.w, b.w, k)); } break; \
          case SELECT: if (EN(SELECT)) r = LW3(sel_); break; \
          case AND: if (EN(AND)) r = LW2(and_); break; \
          case OR: if (EN(OR)) r = LW2(or_); break; \
          case NOT: if (EN(NOT)) r = LW1(not_); break; \
          case LOAD_CONST: if (EN(LOAD_CONST)) { \
              r = make_float4(c_consts[min(s0, 63u)], lanes > 1 ? c_consts[min(s0 + 1, 63u)] : 0.f, \
                              lanes > 2 ? c_consts[min(s0 + 2, 63u)] : 0.f, lanes > 3 ? c_consts[min(s0 + 3, 63u)] : 0.f); \
            } break; \
          case LOAD_BUILTIN: if (EN(LOAD_BUILTIN)) { if (s0 == 0) r.x = c_p.dt; else if (s0 == 7) r.x = float(i); else if (s0 == 1) r.x = 1.f; } break; \
          case RAND: if (EN(RAND)) { r = make_float4(float(hash3(seed, s0, 0) >> 8) * (1.f / 16777216.f), lanes > 1 ? float(hash3(seed, s0, 1) >> 8) * (1.f / 16777216.f) : 0.f, \
                                                   lanes > 2 ? float(hash3(seed, s0, 2) >> 8) * (1.f / 16777216.f) : 0.f, lanes > 3 ? float(hash3(seed, s0, 3) >> 8) * (1.f / 16777216.f) : 0.f); } break; \
          case QMUL: if (EN(QMUL)) r = make_float4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, \
                                                  a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z); break; \
          case QROTATE: if (EN(QROTATE)) { float tx = 2.f * (a.y * b.z - a.z * b.y), ty = 2.f * (a.z * b.x - a.x * b.z), tz = 2.f * (a.x * b.y - a.y * b.x); \
              r = make_float4(b.x + a.w * tx + a.y * tz - a.z * ty, b.y + a.w * ty + a.z * tx - a.x * tz, b.z + a.w * tz + a.x * ty - a.y * tx, 0.f); } break; \
          case QFAA: if (EN(QFAA)) { float s = sinf(b.x * 0.5f), co = cosf(b.x * 0.5f); r = make_float4(a.x * s, a.y * s, a.z * s, co); } break; \
          case QINT: if (EN(QINT)) { float w = sqrtf(b.x * b.x + b.y * b.y + b.z * b.z) * c.x; float s = sinf(w * 0.5f), co = cosf(w * 0.5f); \
              r = make_float4(a.x * co + s * b.x, a.y * co + s * b.y, a.z * co + s * b.z, a.w * co); } break; \
          case NOISE3: if (EN(NOISE3)) r.x = noise3(a.x, a.y, a.z); break; \
          case CURL3: if (EN(CURL3)) { float e = 1e-3f; r = make_float4(noise3(a.x, a.y + e, a.z) - noise3(a.x, a.y - e, a.z), noise3(a.x, a.y, a.z + e) - noise3(a.x, a.y, a.z - e), \
                                                                       noise3(a.x + e, a.y, a.z) - noise3(a.x - e, a.y, a.z), 0.f); } break; \
          case WIND: if (EN(WIND)) r = make_float4(sinf(a.x), cosf(a.y), sinf(a.z), 0.f); break; \
          case KILL: if (EN(KILL)) dead = dead || a.x != 0.f; break;

// Host side. The records both twins start from: position x, velocity, age and life varying with
// the particle, `rw` words each.
inline std::vector<float> twin_records(uint32_t count, uint32_t rw) {
  std::vector<float> host(size_t(count) * rw, 0.f);
  for (size_t i = 0; i < count; ++i) { float* r = &host[i * rw]; r[1] = i % 100; r[4] = 1; r[5] = 2; r[7] = 0.1f * (i % 7); r[8] = 1.f + (i % 5); }
  return host;
}
// Times launch() with the records reset before each round: the median of 7 rounds (one when
// profiling), printed with the rate of `bytes`; returns the median in ms.
template <class Launch>
float twin_time(const char* name, Launch launch, double bytes, bool profile, uint32_t* rec, const std::vector<float>& host) {
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int k = 0; k < (profile ? 1 : 7); ++k) {
    CK(cudaMemcpy(rec, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaEventRecord(e0)); launch(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
    float t; CK(cudaEventElapsedTime(&t, e0, e1)); ms.push_back(t);
  }
  CK(cudaEventDestroy(e0)); CK(cudaEventDestroy(e1));
  std::sort(ms.begin(), ms.end());
  printf("%-22s %8.3f ms (min %.3f)  %7.1f GB/s\n", name, ms[ms.size() / 2], ms[0], bytes / (ms[ms.size() / 2] * 1e6));
  return ms[ms.size() / 2];
}

// The copy kernel both twins measure their roofline with.
__global__ void twin_copy(const float4* __restrict__ a, float4* __restrict__ b, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) b[i] = a[i];
}

// One twin run's buffers: `count` records of `rw` words (rec) from twin_records (host), their
// kill flags (kil); time() as twin_time over them; copy_roofline() times a 2 GiB copy (not when
// profiling).
struct TwinRun {
  uint32_t* rec = nullptr;
  uint32_t* kil = nullptr;
  std::vector<float> host;
  bool profile = false;
  TwinRun(uint32_t count, uint32_t rw, bool profile_run) : host(twin_records(count, rw)), profile(profile_run) {
    CK(cudaMalloc(&rec, size_t(count) * rw * 4));
    CK(cudaMalloc(&kil, size_t(count) * 4));
  }
  template <class Launch>
  float time(const char* name, Launch launch, double bytes) { return twin_time(name, launch, bytes, profile, rec, host); }
  void copy_roofline() {
    if (profile) return;
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t n4 = (size_t(1) << 31) / 16; float4 *ca, *cb; CK(cudaMalloc(&ca, n4 * 16)); CK(cudaMalloc(&cb, n4 * 16));
    CK(cudaMemset(ca, 0, n4 * 16));
    time("copy roofline", [&] { twin_copy<<<sms * 8, 256>>>(ca, cb, n4); }, 2.0 * n4 * 16);
    CK(cudaFree(ca)); CK(cudaFree(cb));
  }
};
