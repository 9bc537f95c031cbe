// A CUDA twin of the fast interpreter (shaders/vm_gpu/run_program.comp), for profiling only. Nsight
// Compute cannot profile Vulkan, so this port of the same loop (same instruction encoding, the
// same 25-instruction UPDATE program as bench/update_program.hpp, the same record window staged
// by the workgroup) is what showed where an interpreted instruction's issue slots go
// (docs/PERFORMANCE.md, "The fast interpreter's operand form"). It is not part of the build and
// not a benchmark of record: every figure of record comes from bench/vm_gpu. Built and run by
// hand on the H200 (CUDA is on the device machine, not a dependency of Mote):
//   nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o vm_interpreter_twin bench/profiling/vm_interpreter_twin.cu
//   ./vm_interpreter_twin
//   ncu --kernel-name-base mangled -k 'regex:_Z6interpILi[04]' --launch-count 2 --section SpeedOfLight \
//       --section SchedulerStats --metrics smsp__inst_executed.sum ./vm_interpreter_twin --profile
//   ncu ... --section SourceCounters --page source --print-source sass --csv   (per-instruction counts)
// (The interpreter as it runs now, folded and with the window in its file, has its own twin:
// vm_fast_twin.cu. Both take the opcode bodies from twin_ops.cuh.)
// MODE 0 is the interpreter as it was (per-source swizzle decode), MODE 4 the operand form the
// fast interpreter then ran (src/vm_gpu/fast_operands.hpp; immediates there are still decoded per
// source, which the GLSL version moved into the file as well), interpK<K> the operand form with
// K particles per invocation sharing each fetch, decode and dispatch (not in the GLSL
// interpreter: see docs/PERFORMANCE.md for what it measured).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#include "twin_ops.cuh"

__constant__ uint4 c_code[64];
__constant__ uint4 c_code4[64];
__constant__ uint32_t c_shapes[64];
__constant__ float c_consts[64];
struct Params { uint32_t count, record_words, code_length, regs; float dt; uint32_t launch_lanes; };
__constant__ Params c_p;

constexpr uint32_t WG = 64, CHUNKS = 4, ROW = CHUNKS * 4 + 1, SLOTS = 64;

// MODE 0: scalar slots in a private array (local memory), as run_program.comp.
// MODE 1: scalar slots in shared memory, slot-major (the "shared file" variant).
// MODE 2: as 0, the switch holding only the program's opcodes (as "fast-ops").
// MODE 3: as 0, vec4 slots (float4 file[16]): one 16-byte access per aligned identity operand.
template <int MODE>
__global__ void __launch_bounds__(64) interp(uint32_t* __restrict__ records, uint32_t* __restrict__ killed) {
  __shared__ uint32_t win[WG * ROW];
  __shared__ float sfile[MODE == 1 ? SLOTS * WG : 1];
  float file[MODE == 1 ? 1 : (MODE == 4 ? 128 : SLOTS)];
  const uint32_t me = threadIdx.x;
  auto rd = [&](uint32_t s) -> float { s &= SLOTS - 1; if (MODE == 1) return sfile[s * WG + me]; return file[s]; };
  auto wr = [&](uint32_t s, float v) { s &= SLOTS - 1; if (MODE == 1) sfile[s * WG + me] = v; else file[s] = v; };
  uint32_t count = c_p.count, rw = c_p.record_words;
  uint32_t stride = c_p.launch_lanes;
  for (uint32_t first = blockIdx.x * WG; first < count; first += stride) {
    for (uint32_t j = me; j < WG * CHUNKS; j += WG) {
      uint32_t p = j / CHUNKS, c = j - p * CHUNKS, i = first + p;
      uint4 v = i < count ? reinterpret_cast<const uint4*>(records)[i * (rw / 4) + c] : make_uint4(0, 0, 0, 0);
      uint32_t st = p * ROW + c * 4; win[st] = v.x; win[st + 1] = v.y; win[st + 2] = v.z; win[st + 3] = v.w;
    }
    __syncthreads();
    uint32_t i = first + me;
    if (i < count) {
      for (uint32_t r = 0; r < c_p.regs; ++r) wr(r, 0.f);
      if (MODE == 4) file[64] = 0.f;
      uint32_t seed = hash3(7u, i, 0x9E3779B9u);
      bool dead = false;
      uint32_t n = c_p.code_length;
      for (uint32_t pc = 0; pc < n; ++pc) {
        uint4 ins = MODE == 4 ? c_code4[pc] : c_code[pc];
        uint32_t w0 = ins.x, op = w0 & 0xFF; if (op >= OPCOUNT) op = NOP;
        uint32_t lanes = min(max((w0 >> 8) & 7, 1u), 4u);
        uint32_t sh = c_shapes[op];
        uint32_t words[3] = {ins.y, ins.z, ins.w};
        float4 src[3];
        if (MODE == 4) {
          // Predecoded: a REG source word holds its 4 component slots as bytes (unused ones name
          // the zero slot, 64); w0 bits 11..13 say which sources are scalar.
#pragma unroll
          for (int s = 0; s < 3; ++s) {
            uint32_t kind = (w0 >> (16 + 2 * s)) & 3, word = words[s];
            float4 v = make_float4(0, 0, 0, 0);
            if (kind == 1) {
              uint32_t m = word & 0x7F7F7F7Fu;
              if ((w0 >> (11 + s)) & 1) v.x = file[m & 0xFF];
              else v = make_float4(file[m & 0xFF], file[(m >> 8) & 0xFF], file[(m >> 16) & 0xFF], file[m >> 24]);
            } else if (kind == 2) {
              uint32_t code = (sh >> (3 * s)) & 7, width = code == L ? lanes : code;
              float f = __uint_as_float(word);
              v = make_float4(width > 0 ? f : 0.f, width > 1 ? f : 0.f, width > 2 ? f : 0.f, width > 3 ? f : 0.f);
            }
            src[s] = v;
          }
        } else {
#pragma unroll
        for (int s = 0; s < 3; ++s) {
          uint32_t code = (sh >> (3 * s)) & 7, width = code == L ? lanes : code;
          uint32_t kind = (w0 >> (16 + 2 * s)) & 3, word = words[s];
          float4 v = make_float4(0, 0, 0, 0);
          if (kind == 1) {
            uint32_t base = word & 0xFF;
            if (width > 0) v.x = rd(base + ((word >> 8) & 3));
            if (width > 1) v.y = rd(base + ((word >> 10) & 3));
            if (width > 2) v.z = rd(base + ((word >> 12) & 3));
            if (width > 3) v.w = rd(base + ((word >> 14) & 3));
          } else if (kind == 2) {
            float f = __uint_as_float(word);
            v = make_float4(f, width > 1 ? f : 0.f, width > 2 ? f : 0.f, width > 3 ? f : 0.f);
            if (width == 0) v.x = 0.f;
          }
          src[s] = v;
        }
        }
        float4 a = src[0], b = src[1], c = src[2], r = make_float4(0, 0, 0, 0);
        uint32_t s0 = ins.y, cmp_mode = ins.w;
#define EN(o) (MODE != 2 || o == LOAD_FIELD || o == STORE_FIELD || o == LOAD_CONST || o == LOAD_BUILTIN || o == FMA || o == MUL || o == ADD || o == DIV || o == CLAMP || o == SMOOTHSTEP || o == MIX || o == CMP || o == KILL)
        switch (op) {
          case LOAD_FIELD: if (EN(LOAD_FIELD)) {
              uint32_t base = me * ROW;
              auto f = [&](uint32_t w) { w = min(w, rw - 1); return w < CHUNKS * 4 ? __uint_as_float(win[base + w]) : __uint_as_float(records[i * rw + w]); };
              r.x = f(s0); if (lanes > 1) r.y = f(s0 + 1); if (lanes > 2) r.z = f(s0 + 2); if (lanes > 3) r.w = f(s0 + 3);
            } break;
          case STORE_FIELD: if (EN(STORE_FIELD)) {
              uint32_t base = me * ROW;
              auto f = [&](uint32_t w, float v) { w = min(w, rw - 1); if (w < CHUNKS * 4) win[base + w] = __float_as_uint(v); else records[i * rw + w] = __float_as_uint(v); };
              f(s0, b.x); if (lanes > 1) f(s0 + 1, b.y); if (lanes > 2) f(s0 + 2, b.z); if (lanes > 3) f(s0 + 3, b.w);
            } break;
          TWIN_CASES_BUT_FIELDS
          default: break;
        }
        if (MODE == 4) {
          uint32_t rule = (w0 >> 14) & 3, written = rule == 0 ? lanes : (rule == 1 ? 1u : 0u), dst = w0 >> 24;
          if (written == 1) file[dst & 63] = r.x;
          else if (written > 1) {
            uint32_t b = min(dst, 64u - written);
            file[b] = r.x; file[b + 1] = r.y;
            if (written > 2) file[b + 2] = r.z;
            if (written > 3) file[b + 3] = r.w;
          }
        } else {
        uint32_t rule = (sh >> 9) & 3, written = rule == 0 ? lanes : (rule == 1 ? 1u : 0u), dst = w0 >> 24;
        if (written > 0) wr(dst, r.x);
        if (written > 1) wr(dst + 1, r.y);
        if (written > 2) wr(dst + 2, r.z);
        if (written > 3) wr(dst + 3, r.w);
        }
      }
      killed[i] = dead;
    }
    __syncthreads();
    for (uint32_t j = me; j < WG * CHUNKS; j += WG) {
      uint32_t p = j / CHUNKS, c = j - p * CHUNKS, ii = first + p;
      uint32_t st = p * ROW + c * 4;
      if (ii < count) reinterpret_cast<uint4*>(records)[ii * (rw / 4) + c] = make_uint4(win[st], win[st + 1], win[st + 2], win[st + 3]);
    }
    __syncthreads();
  }
}


// MODE 5: the operand form with K particles per invocation sharing each fetch, decode and dispatch.
#define KLOOP _Pragma("unroll") for (int k_ = 0; k_ < K; ++k_) { float4 a = A[k_], b = B[k_], c = C[k_]; float4 r = make_float4(0, 0, 0, 0); \
  uint32_t i = i0 + k_ * WG, me = me0 + k_ * WG; uint32_t seed = seeds[k_]; bool dead = deads[k_];
#define KEND R[k_] = r; deads[k_] = dead; }
template <int K>
__global__ void __launch_bounds__(64) interpK(uint32_t* __restrict__ records, uint32_t* __restrict__ killed) {
  constexpr int MODE = 5;
  __shared__ uint32_t win[K * WG * ROW];
  float file[K * 128];
  const uint32_t me0 = threadIdx.x;
  uint32_t count = c_p.count, rw = c_p.record_words;
  uint32_t stride = gridDim.x * WG * K;  // the launch's own grid: K blocks of WG records per workgroup step
  for (uint32_t first = blockIdx.x * WG * K; first < count; first += stride) {
    for (uint32_t j = me0; j < K * WG * CHUNKS; j += WG) {
      uint32_t p = j / CHUNKS, c = j - p * CHUNKS, i = first + p;
      uint4 v = i < count ? reinterpret_cast<const uint4*>(records)[i * (rw / 4) + c] : make_uint4(0, 0, 0, 0);
      uint32_t st = p * ROW + c * 4; win[st] = v.x; win[st + 1] = v.y; win[st + 2] = v.z; win[st + 3] = v.w;
    }
    __syncthreads();
    uint32_t i0 = first + me0;
    if (i0 < count) {  // (the tail's second particle computes garbage it never stores: the window store guards)
      uint32_t seeds[K]; bool deads[K];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        for (uint32_t r = 0; r < c_p.regs; ++r) file[k * 128 + r] = 0.f;
        file[k * 128 + 64] = 0.f;
        seeds[k] = hash3(7u, i0 + k * WG, 0x9E3779B9u);
        deads[k] = false;
      }
      uint32_t n = c_p.code_length;
      for (uint32_t pc = 0; pc < n; ++pc) {
        uint4 ins = c_code4[pc];
        uint32_t w0 = ins.x, op = w0 & 0xFF; if (op >= OPCOUNT) op = NOP;
        uint32_t lanes = min(max((w0 >> 8) & 7, 1u), 4u);
        uint32_t sh = c_shapes[op];
        uint32_t words[3] = {ins.y, ins.z, ins.w};
        float4 S[3][K];
#pragma unroll
        for (int s = 0; s < 3; ++s) {
          uint32_t kind = (w0 >> (16 + 2 * s)) & 3, word = words[s];
          if (kind == 1) {
            uint32_t m = word & 0x7F7F7F7Fu;
            if ((w0 >> (11 + s)) & 1) {
#pragma unroll
              for (int k = 0; k < K; ++k) S[s][k] = make_float4(file[k * 128 + (m & 0xFF)], 0, 0, 0);
            } else {
              uint32_t s0_ = m & 0xFF, s1_ = (m >> 8) & 0xFF, s2_ = (m >> 16) & 0xFF, s3_ = m >> 24;
#pragma unroll
              for (int k = 0; k < K; ++k) S[s][k] = make_float4(file[k * 128 + s0_], file[k * 128 + s1_], file[k * 128 + s2_], file[k * 128 + s3_]);
            }
          } else if (kind == 2) {
            uint32_t code = (sh >> (3 * s)) & 7, width = code == L ? lanes : code;
            float f = __uint_as_float(word);
            float4 v = make_float4(width > 0 ? f : 0.f, width > 1 ? f : 0.f, width > 2 ? f : 0.f, width > 3 ? f : 0.f);
#pragma unroll
            for (int k = 0; k < K; ++k) S[s][k] = v;
          } else {
#pragma unroll
            for (int k = 0; k < K; ++k) S[s][k] = make_float4(0, 0, 0, 0);
          }
        }
        float4 (&A)[K] = S[0], (&B)[K] = S[1], (&C)[K] = S[2];
        float4 R[K];
#pragma unroll
        for (int k = 0; k < K; ++k) R[k] = make_float4(0, 0, 0, 0);
        uint32_t s0 = ins.y;
        switch (op) {
          case MOV: if (EN(MOV)) { KLOOP { r = a; } KEND } break;
          case ADD: if (EN(ADD)) { KLOOP { r = LW2(add_); } KEND } break;
          case SUB: if (EN(SUB)) { KLOOP { r = LW2(sub_); } KEND } break;
          case MUL: if (EN(MUL)) { KLOOP { r = LW2(mul_); } KEND } break;
          case DIV: if (EN(DIV)) { KLOOP { r = LW2(div_); } KEND } break;
          case FMA: if (EN(FMA)) { KLOOP { r = LW3(fma_); } KEND } break;
          case MIN: if (EN(MIN)) { KLOOP { r = LW2(fmin_); } KEND } break;
          case MAX: if (EN(MAX)) { KLOOP { r = LW2(fmax_); } KEND } break;
          case CLAMP: if (EN(CLAMP)) { KLOOP { r = LW3(clamp_); } KEND } break;
          case ABS: if (EN(ABS)) { KLOOP { r = LW1(fabsf); } KEND } break;
          case SIGN: if (EN(SIGN)) { KLOOP { r = LW1(sgn_); } KEND } break;
          case FLOOR: if (EN(FLOOR)) { KLOOP { r = LW1(floorf); } KEND } break;
          case CEIL: if (EN(CEIL)) { KLOOP { r = LW1(ceilf); } KEND } break;
          case FRACT: if (EN(FRACT)) { KLOOP { r = LW1(fr_); } KEND } break;
          case MOD: if (EN(MOD)) { KLOOP { r = LW2(mod_); } KEND } break;
          case SQRT: if (EN(SQRT)) { KLOOP { r = LW1(sqrt_); } KEND } break;
          case RSQRT: if (EN(RSQRT)) { KLOOP { r = LW1(rsq_); } KEND } break;
          case EXP: if (EN(EXP)) { KLOOP { r = LW1(expf); } KEND } break;
          case LOG: if (EN(LOG)) { KLOOP { r = LW1(log_); } KEND } break;
          case POW: if (EN(POW)) { KLOOP { r = LW2(pow_); } KEND } break;
          case SIN: if (EN(SIN)) { KLOOP { r = LW1(sinf); } KEND } break;
          case COS: if (EN(COS)) { KLOOP { r = LW1(cosf); } KEND } break;
          case TAN: if (EN(TAN)) { KLOOP { r = LW1(tanf); } KEND } break;
          case ASIN: if (EN(ASIN)) { KLOOP { r = LW1(asin_); } KEND } break;
          case ACOS: if (EN(ACOS)) { KLOOP { r = LW1(acos_); } KEND } break;
          case ATAN2: if (EN(ATAN2)) { KLOOP { r = LW2(at2_); } KEND } break;
          case DOT: if (EN(DOT)) { KLOOP { r.x = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; } KEND } break;
          case CROSS: if (EN(CROSS)) { KLOOP { r = make_float4(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, 0.f); } KEND } break;
          case LENGTH: if (EN(LENGTH)) { KLOOP { r.x = sqrtf(a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w); } KEND } break;
          case NORMALIZE: if (EN(NORMALIZE)) { KLOOP { { float l = a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w; float k = l > 0.f ? rsqrtf(l) : 0.f; r = make_float4(a.x * k, a.y * k, a.z * k, a.w * k); } } KEND } break;
          case DISTANCE: if (EN(DISTANCE)) { KLOOP { { float x = a.x - b.x, y = a.y - b.y, z = a.z - b.z, w = a.w - b.w; r.x = sqrtf(x * x + y * y + z * z + w * w); } } KEND } break;
          case MIX: if (EN(MIX)) { KLOOP { r = LW3(mix_); } KEND } break;
          case STEP: if (EN(STEP)) { KLOOP { r = LW2(step_); } KEND } break;
          case SMOOTHSTEP: if (EN(SMOOTHSTEP)) { KLOOP { r = LW3(ss_); } KEND } break;
          case CMP: if (EN(CMP)) { KLOOP { { uint32_t k = ins.w; r = make_float4(cmp_(a.x, b.x, k), cmp_(a.y, b.y, k), cmp_(a.z, b.z, k), cmp_(a.w, b.w, k)); } } KEND } break;
          case SELECT: if (EN(SELECT)) { KLOOP { r = LW3(sel_); } KEND } break;
          case AND: if (EN(AND)) { KLOOP { r = LW2(and_); } KEND } break;
          case OR: if (EN(OR)) { KLOOP { r = LW2(or_); } KEND } break;
          case NOT: if (EN(NOT)) { KLOOP { r = LW1(not_); } KEND } break;
          case LOAD_FIELD: if (EN(LOAD_FIELD)) { KLOOP { {
              uint32_t base = me * ROW;
              auto f = [&](uint32_t w) { w = min(w, rw - 1); return w < CHUNKS * 4 ? __uint_as_float(win[base + w]) : __uint_as_float(records[i * rw + w]); };
              r.x = f(s0); if (lanes > 1) r.y = f(s0 + 1); if (lanes > 2) r.z = f(s0 + 2); if (lanes > 3) r.w = f(s0 + 3);
            } } KEND } break;
          case STORE_FIELD: if (EN(STORE_FIELD)) { KLOOP { {
              uint32_t base = me * ROW;
              auto f = [&](uint32_t w, float v) { w = min(w, rw - 1); if (w < CHUNKS * 4) win[base + w] = __float_as_uint(v); else records[i * rw + w] = __float_as_uint(v); };
              f(s0, b.x); if (lanes > 1) f(s0 + 1, b.y); if (lanes > 2) f(s0 + 2, b.z); if (lanes > 3) f(s0 + 3, b.w);
            } } KEND } break;
          case LOAD_CONST: if (EN(LOAD_CONST)) { KLOOP { {
              r = make_float4(c_consts[min(s0, 63u)], lanes > 1 ? c_consts[min(s0 + 1, 63u)] : 0.f,
                              lanes > 2 ? c_consts[min(s0 + 2, 63u)] : 0.f, lanes > 3 ? c_consts[min(s0 + 3, 63u)] : 0.f);
            } } KEND } break;
          case LOAD_BUILTIN: if (EN(LOAD_BUILTIN)) { KLOOP { { if (s0 == 0) r.x = c_p.dt; else if (s0 == 7) r.x = float(i); else if (s0 == 1) r.x = 1.f; } } KEND } break;
          case RAND: if (EN(RAND)) { KLOOP { { r = make_float4(float(hash3(seed, s0, 0) >> 8) * (1.f / 16777216.f), lanes > 1 ? float(hash3(seed, s0, 1) >> 8) * (1.f / 16777216.f) : 0.f,
                                                   lanes > 2 ? float(hash3(seed, s0, 2) >> 8) * (1.f / 16777216.f) : 0.f, lanes > 3 ? float(hash3(seed, s0, 3) >> 8) * (1.f / 16777216.f) : 0.f); } } KEND } break;
          case QMUL: if (EN(QMUL)) { KLOOP { r = make_float4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                                                  a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z); } KEND } break;
          case QROTATE: if (EN(QROTATE)) { KLOOP { { float tx = 2.f * (a.y * b.z - a.z * b.y), ty = 2.f * (a.z * b.x - a.x * b.z), tz = 2.f * (a.x * b.y - a.y * b.x);
              r = make_float4(b.x + a.w * tx + a.y * tz - a.z * ty, b.y + a.w * ty + a.z * tx - a.x * tz, b.z + a.w * tz + a.x * ty - a.y * tx, 0.f); } } KEND } break;
          case QFAA: if (EN(QFAA)) { KLOOP { { float s = sinf(b.x * 0.5f), co = cosf(b.x * 0.5f); r = make_float4(a.x * s, a.y * s, a.z * s, co); } } KEND } break;
          case QINT: if (EN(QINT)) { KLOOP { { float w = sqrtf(b.x * b.x + b.y * b.y + b.z * b.z) * c.x; float s = sinf(w * 0.5f), co = cosf(w * 0.5f);
              r = make_float4(a.x * co + s * b.x, a.y * co + s * b.y, a.z * co + s * b.z, a.w * co); } } KEND } break;
          case NOISE3: if (EN(NOISE3)) { KLOOP { r.x = noise3(a.x, a.y, a.z); } KEND } break;
          case CURL3: if (EN(CURL3)) { KLOOP { { float e = 1e-3f; r = make_float4(noise3(a.x, a.y + e, a.z) - noise3(a.x, a.y - e, a.z), noise3(a.x, a.y, a.z + e) - noise3(a.x, a.y, a.z - e),
                                                                       noise3(a.x + e, a.y, a.z) - noise3(a.x - e, a.y, a.z), 0.f); } } KEND } break;
          case WIND: if (EN(WIND)) { KLOOP { r = make_float4(sinf(a.x), cosf(a.y), sinf(a.z), 0.f); } KEND } break;
          case KILL: if (EN(KILL)) { KLOOP { dead = dead || a.x != 0.f; } KEND } break;
          default: break;
        }
        uint32_t rule = (w0 >> 14) & 3, written = rule == 0 ? lanes : (rule == 1 ? 1u : 0u), dst = w0 >> 24;
        if (written == 1) {
#pragma unroll
          for (int k = 0; k < K; ++k) file[k * 128 + (dst & 63)] = R[k].x;
        } else if (written > 1) {
          uint32_t b = min(dst, 64u - written);
#pragma unroll
          for (int k = 0; k < K; ++k) {
            file[k * 128 + b] = R[k].x; file[k * 128 + b + 1] = R[k].y;
            if (written > 2) file[k * 128 + b + 2] = R[k].z;
            if (written > 3) file[k * 128 + b + 3] = R[k].w;
          }
        }
      }
#pragma unroll
      for (int k = 0; k < K; ++k) if (i0 + k * WG < count) killed[i0 + k * WG] = deads[k];
    }
    __syncthreads();
    for (uint32_t j = me0; j < K * WG * CHUNKS; j += WG) {
      uint32_t p = j / CHUNKS, c = j - p * CHUNKS, ii = first + p;
      uint32_t st = p * ROW + c * 4;
      if (ii < count) reinterpret_cast<uint4*>(records)[ii * (rw / 4) + c] = make_uint4(win[st], win[st + 1], win[st + 2], win[st + 3]);
    }
    __syncthreads();
  }
}

// The same window movement with no program (the "touch" floor).
__global__ void __launch_bounds__(64) touch(uint32_t* __restrict__ records) {
  __shared__ uint32_t win[WG * ROW];
  uint32_t count = c_p.count, rw = c_p.record_words, me = threadIdx.x;
  for (uint32_t first = blockIdx.x * WG; first < count; first += c_p.launch_lanes) {
    for (uint32_t j = me; j < WG * CHUNKS; j += WG) {
      uint32_t p = j / CHUNKS, c = j - p * CHUNKS, i = first + p;
      uint4 v = i < count ? reinterpret_cast<const uint4*>(records)[i * (rw / 4) + c] : make_uint4(0, 0, 0, 0);
      uint32_t st = p * ROW + c * 4; win[st] = v.x + 1; win[st + 1] = v.y; win[st + 2] = v.z; win[st + 3] = v.w;
    }
    __syncthreads();
    for (uint32_t j = me; j < WG * CHUNKS; j += WG) {
      uint32_t p = j / CHUNKS, c = j - p * CHUNKS, ii = first + p, st = p * ROW + c * 4;
      if (ii < count) reinterpret_cast<uint4*>(records)[ii * (rw / 4) + c] = make_uint4(win[st], win[st + 1], win[st + 2], win[st + 3]);
    }
    __syncthreads();
  }
}

struct Src { uint32_t kind = 0, word = 0; };
static Src reg(uint32_t b, uint32_t swz = 0xE4) { return {1, b | (swz << 8)}; }
static Src xxxx(uint32_t b, uint32_t lanes) { uint32_t s = 0; for (uint32_t c = lanes; c < 4; ++c) s |= c << (2 * c); return reg(b, s); }
static Src imm(float f) { uint32_t u; memcpy(&u, &f, 4); return {2, u}; }
static Src raw(uint32_t w) { return {0, w}; }
static uint4 ins(uint32_t op, uint32_t lanes, uint32_t dst, Src a = {}, Src b = {}, Src c = {}) {
  return make_uint4(op | lanes << 8 | a.kind << 16 | b.kind << 18 | c.kind << 20 | dst << 24, a.word, b.word, c.word);
}

int main(int argc, char** argv) {
  bool profile = argc > 1 && !strcmp(argv[1], "--profile");
  std::vector<uint4> code = {
      ins(LOAD_FIELD, 3, 0, raw(1)), ins(LOAD_FIELD, 3, 4, raw(4)), ins(LOAD_BUILTIN, 1, 7, raw(0)),
      ins(LOAD_FIELD, 1, 8, raw(7)), ins(LOAD_FIELD, 1, 9, raw(8)), ins(LOAD_CONST, 3, 12, raw(0)),
      ins(FMA, 3, 4, reg(12), xxxx(7, 3), reg(4)), ins(FMA, 1, 10, reg(7), imm(-0.5f), imm(1.0f)),
      ins(MUL, 3, 4, reg(4), xxxx(10, 3)), ins(FMA, 3, 0, reg(4), xxxx(7, 3), reg(0)), ins(ADD, 1, 8, reg(8), reg(7)),
      ins(DIV, 1, 11, reg(8), reg(9)), ins(CLAMP, 1, 11, reg(11), imm(0.f), imm(1.f)),
      ins(SMOOTHSTEP, 1, 15, imm(0.f), imm(1.f), reg(11)), ins(MIX, 1, 15, imm(0.5f), imm(0.05f), reg(15)),
      ins(LOAD_CONST, 4, 16, raw(4)), ins(LOAD_CONST, 4, 20, raw(8)), ins(MIX, 4, 16, reg(16), reg(20), xxxx(11, 4)),
      ins(CMP, 1, 24, reg(8), reg(9), raw(5)), ins(KILL, 1, 0, reg(24)), ins(STORE_FIELD, 3, 0, raw(1), reg(0)),
      ins(STORE_FIELD, 3, 0, raw(4), reg(4)), ins(STORE_FIELD, 1, 0, raw(7), reg(8)), ins(STORE_FIELD, 1, 0, raw(9), reg(15)),
      ins(STORE_FIELD, 4, 0, raw(10), reg(16))};
  uint32_t shapes[64] = {};
  for (uint32_t o = 0; o < OPCOUNT; ++o) shapes[o] = shape(L, L, L, 0);
  shapes[NOP] = shape(0, 0, 0, 2);
  for (uint32_t o : {LOAD_FIELD, LOAD_CONST, LOAD_BUILTIN, RAND}) shapes[o] = shape(0, 0, 0, 0);
  shapes[STORE_FIELD] = shape(0, L, 0, 2); shapes[KILL] = shape(1, 0, 0, 2); shapes[CMP] = shape(L, L, 0, 0);
  for (uint32_t o : {DOT, LENGTH, DISTANCE, NOISE3}) shapes[o] = shape(4, 4, 0, 1);
  for (uint32_t o : {ADD, SUB, MUL, DIV, MIN, MAX, MOD, POW, ATAN2, STEP, AND, OR}) shapes[o] = shape(L, L, 0, 0);
  float consts[64] = {0, -9.81f, 0, 0, 1, 0.9f, 0.2f, 1, 0.3f, 0.1f, 0.1f, 0};
  uint32_t count = profile ? (1u << 22) : (1u << 24), rw = 32;
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  Params p{count, rw, uint32_t(code.size()), 28, 0.016f, 0};
  CK(cudaMemcpyToSymbol(c_code, code.data(), code.size() * 16));
  std::vector<uint4> code4 = code;
  for (auto& in : code4) {
    uint32_t op = in.x & 0xFF, lanes = std::min(std::max((in.x >> 8) & 7, 1u), 4u), sh = shapes[op];
    uint32_t* words[3] = {&in.y, &in.z, &in.w};
    in.x |= ((sh >> 9) & 3) << 14;
    for (int s = 0; s < 3; ++s) {
      if (((in.x >> (16 + 2 * s)) & 3) != 1) continue;
      uint32_t code = (sh >> (3 * s)) & 7, width = code == L ? lanes : code, w = *words[s], base = w & 0xFF, packed = 0;
      for (uint32_t c = 0; c < 4; ++c) packed |= (c < width ? ((base + ((w >> (8 + 2 * c)) & 3)) & 63) : 64u) << (8 * c);
      *words[s] = packed;
      if (width == 1) in.x |= 1u << (11 + s);
    }
  }
  CK(cudaMemcpyToSymbol(c_code4, code4.data(), code4.size() * 16));
  CK(cudaMemcpyToSymbol(c_shapes, shapes, sizeof shapes));
  CK(cudaMemcpyToSymbol(c_consts, consts, sizeof consts));
  TwinRun run(count, rw, profile);
  run.copy_roofline();
  double wbytes = double(count) * 64 * 2;
  for (uint32_t blocks : {count / WG, uint32_t(sms) * 16u}) {
    printf("-- %u workgroups\n", blocks);
    p.launch_lanes = blocks * WG; CK(cudaMemcpyToSymbol(c_p, &p, sizeof p));
    run.time("touch", [&] { touch<<<blocks, WG>>>(run.rec); }, wbytes);
    run.time("interp local", [&] { interp<0><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
    run.time("interp shared file", [&] { interp<1><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
    run.time("interp local ops", [&] { interp<2><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
    run.time("interp predecoded", [&] { interp<4><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
    run.time("interp K=1", [&] { interpK<1><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
    run.time("interp K=2", [&] { interpK<2><<<std::max(1u, blocks / 2), WG>>>(run.rec, run.kil); }, wbytes);
    run.time("interp K=4", [&] { interpK<4><<<std::max(1u, blocks / 4), WG>>>(run.rec, run.kil); }, wbytes);
  }
  // check: first particle's position after one step
  CK(cudaMemcpy(run.rec, run.host.data(), run.host.size() * 4, cudaMemcpyHostToDevice));
  for (int m = 0; m < 4; ++m) {
  CK(cudaMemcpy(run.rec, run.host.data(), run.host.size() * 4, cudaMemcpyHostToDevice));
  if (m == 0) interp<0><<<64, WG>>>(run.rec, run.kil); else if (m == 1) interp<4><<<64, WG>>>(run.rec, run.kil);
  else if (m == 2) interpK<2><<<32, WG>>>(run.rec, run.kil); else interpK<4><<<16, WG>>>(run.rec, run.kil);
  CK(cudaDeviceSynchronize());
  float out[32]; CK(cudaMemcpy(out, run.rec + 3 * rw, 128, cudaMemcpyDeviceToHost));
  printf("particle 3: pos %g %g %g vel %g %g %g age %g size %g color %g %g %g %g\n", out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[9], out[10], out[11], out[12], out[13]);
  }
  return 0;
}
