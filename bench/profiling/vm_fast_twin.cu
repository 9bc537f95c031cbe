// A CUDA twin of the fast interpreter as it runs today (shaders/vm_gpu/run_program.comp with
// VM_REGISTERS_FAST, the folded section): the file of 256 slots in local memory, with the zero
// slot, the immediates and the record window in it, and the block's windows staged by the
// workgroup. It runs the very words the Vulkan interpreter runs, from a `vm_gpu --print-code`
// line. For profiling only: not part of the build, and none of its times is a figure of record
// (docs/PERFORMANCE.md, "The fast interpreter's memory", says what it showed). Variants:
//   V0  as the GLSL;
//   V1  no operand classes: every source reads its four slots;
//   V2  the switch holding only the folded program's opcodes (as "fast-ops");
//   V3  the file in shared memory, slot-major, the window's slots being the staged records
//       (no copy in or out), slots packed on the host into [registers | zero, immediates | window];
//   V4  V3 with no operand classes;
//   V5  V0 with streaming (evict-first) loads and stores of the records.
// Built and run by hand on the H200 (CUDA is on the device machine, not a dependency of Mote):
//   ./build-gpu/bench/vm_gpu --executors fast --print-code --particles 4096 | grep '"code"' > /tmp/code.jsonl
//   nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o /tmp/twin bench/profiling/vm_fast_twin.cu
//   /tmp/twin /tmp/code.jsonl --time [CARVEOUT%]      (16M particles; the carveout: -1 the driver's)
//   ncu --kernel-name-base mangled -k 'regex:interp' --launch-count 6 --section SpeedOfLight \
//       --section Occupancy --metrics dram__bytes_read.sum,dram__bytes_write.sum,\
//       l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct /tmp/twin /tmp/code.jsonl --profile [CARVEOUT%]
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <cuda_runtime.h>
#include "twin_ops.cuh"

__constant__ uint4 c_code[64];
__constant__ uint4 c_imm[16];
__constant__ uint4 c_constant_vectors[32];  // class 3 sources (src/vm_gpu/fast_reads.hpp)
__constant__ float c_consts[64];
struct Params { uint32_t count, record_words, code_length, imm_count; float dt; uint32_t launch_lanes; };
__constant__ Params c_p;
constexpr uint32_t WG = 64, CHUNKS = 4, ROW = CHUNKS * 4 + 1;

// The three sources of a fast-form instruction (shared/vm_fast_operands.h): every source reads
// its four slots when all_four is set, else as its class says (3: a constant vector).
// read(slot) reads the file.
template <class Read>
__device__ __forceinline__ void read_sources(uint4 ins, bool all_four, Read read, float4& a, float4& b, float4& c) {
  const uint32_t words[3] = {ins.y, ins.z, ins.w};
  float4 src[3];
#pragma unroll
  for (int s = 0; s < 3; ++s) {
    const uint32_t cls = (ins.x >> (16 + 2 * s)) & 3, m = words[s];
    float4 v = make_float4(0, 0, 0, 0);
    if (cls == 3) {
      const uint4 k = c_constant_vectors[min(m, 31u)];
      v = make_float4(__uint_as_float(k.x), __uint_as_float(k.y), __uint_as_float(k.z), __uint_as_float(k.w));
    } else if (all_four || cls == 2) v = make_float4(read(m & 0xFF), read((m >> 8) & 0xFF), read((m >> 16) & 0xFF), read(m >> 24));
    else if (cls == 1) v.x = read(m & 0xFF);
    src[s] = v;
  }
  a = src[0], b = src[1], c = src[2];
}

// Runs the section for particle i over a file reached through file(slot) (a float&), slots
// below file_slots; the window's words from window_slot. Returns whether a KILL fired.
// ALL_FOUR: every source reads its four slots; ITS_OPS: the switch holds only the folded
// program's opcodes.
template <bool ALL_FOUR, bool ITS_OPS, class File>
__device__ __forceinline__ bool run_section(uint32_t i, uint32_t* __restrict__ records, uint32_t window_slot,
                                            uint32_t file_slots, File file) {
  const uint32_t rw = c_p.record_words, seed = hash3(7u, i, 0x9E3779B9u);
  bool dead = false;
  for (uint32_t pc = 0; pc < c_p.code_length; ++pc) {
    const uint4 ins = c_code[pc];
    const uint32_t w0 = ins.x, s0 = ins.y, cmp_mode = ins.w;
    uint32_t op = w0 & 0xFF; if (op >= OPCOUNT) op = NOP;
    const uint32_t lanes = (w0 >> 8) & 7;
    float4 a, b, c, r = make_float4(0, 0, 0, 0);
    read_sources(ins, ALL_FOUR, [&](uint32_t slot) { return file(slot); }, a, b, c);
#define EN(o) (!ITS_OPS || o == FMA || o == MUL || o == ADD || o == DIV || o == CLAMP || o == SMOOTHSTEP || o == MIX || o == CMP || o == KILL || o == MOV)
    switch (op) {
      case LOAD_FIELD: if (EN(LOAD_FIELD)) {
          auto f = [&](uint32_t w) { w = min(w, rw - 1); return w < 16 ? file(window_slot + w) : __uint_as_float(records[i * rw + w]); };
          r.x = f(s0); if (lanes > 1) r.y = f(s0 + 1); if (lanes > 2) r.z = f(s0 + 2); if (lanes > 3) r.w = f(s0 + 3);
        } break;
      case STORE_FIELD: if (EN(STORE_FIELD)) {
          auto f = [&](uint32_t w, float v) { w = min(w, rw - 1); if (w < 16) file(window_slot + w) = v; else records[i * rw + w] = __float_as_uint(v); };
          f(s0, b.x); if (lanes > 1) f(s0 + 1, b.y); if (lanes > 2) f(s0 + 2, b.z); if (lanes > 3) f(s0 + 3, b.w);
        } break;
      TWIN_CASES_BUT_FIELDS
      default: break;
    }
#undef EN
    const uint32_t written = min((w0 >> 11) & 7, 4u);
    if (written > 0) {
      const uint32_t base = min(w0 >> 24, file_slots - written);
      file(base) = r.x;
      if (written > 1) file(base + 1) = r.y;
      if (written > 2) file(base + 2) = r.z;
      if (written > 3) file(base + 3) = r.w;
    }
  }
  return dead;
}

template <int V>
__global__ void __launch_bounds__(64) interp(uint32_t* __restrict__ records, uint32_t* __restrict__ killed) {
  __shared__ uint32_t win[WG * ROW];
  float file[256];
  const uint32_t me = threadIdx.x;
  const uint32_t count = c_p.count, rw = c_p.record_words, stride = c_p.launch_lanes;
  for (uint32_t first = blockIdx.x * WG; first < count; first += stride) {
    uint4 loaded[CHUNKS];
#pragma unroll
    for (uint32_t q = 0; q < CHUNKS; ++q) {
      uint32_t j = me + q * WG, p = j / CHUNKS, c = j - p * CHUNKS, i = first + p;
      const uint4* at = reinterpret_cast<const uint4*>(records) + i * (rw / 4) + c;
      loaded[q] = i < count ? (V == 5 ? __ldcs(at) : *at) : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (uint32_t q = 0; q < CHUNKS; ++q) {
      uint32_t j = me + q * WG, p = j / CHUNKS, c = j - p * CHUNKS, st = p * ROW + c * 4;
      win[st] = loaded[q].x; win[st + 1] = loaded[q].y; win[st + 2] = loaded[q].z; win[st + 3] = loaded[q].w;
    }
    __syncthreads();
    const uint32_t i = first + me;
    if (i < count) {
      file[64] = 0.f;
      for (uint32_t q = 0; q < (min(c_p.imm_count, 63u) + 3) / 4; ++q) {
        uint4 f = c_imm[q]; uint32_t s = 65 + q * 4;
        file[s] = __uint_as_float(f.x); file[s + 1] = __uint_as_float(f.y); file[s + 2] = __uint_as_float(f.z); file[s + 3] = __uint_as_float(f.w);
      }
#pragma unroll
      for (uint32_t w = 0; w < 16; ++w) file[128 + w] = __uint_as_float(win[me * ROW + w]);
      const bool dead = run_section<V == 1, V == 2>(i, records, 128, 256, [&](uint32_t slot) -> float& { return file[slot]; });
#pragma unroll
      for (uint32_t w = 0; w < 16; ++w) win[me * ROW + w] = __float_as_uint(file[128 + w]);
      killed[i] = dead;
    }
    __syncthreads();
#pragma unroll
    for (uint32_t q = 0; q < CHUNKS; ++q) {
      uint32_t j = me + q * WG, p = j / CHUNKS, c = j - p * CHUNKS, ii = first + p, st = p * ROW + c * 4;
      uint4 v = make_uint4(win[st], win[st + 1], win[st + 2], win[st + 3]);
      uint4* at = reinterpret_cast<uint4*>(records) + ii * (rw / 4) + c;
      if (ii < count) { if (V == 5) __stcs(at, v); else *at = v; }
    }
    __syncthreads();
  }
}

// V 3: the file in shared memory, slot-major (slot s of the block's particle p at s * SROW + p),
// the window's slots being the block's staging itself (no copy in or out); V 4: the same with no
// operand classes. Slots remapped on the host to [registers | zero, immediates | window].
constexpr uint32_t SROW = 65, SMAX = 64;
__constant__ uint32_t c_window_slot;  // the window's first (remapped) slot
template <int V>
__global__ void __launch_bounds__(64) interp_shared(uint32_t* __restrict__ records, uint32_t* __restrict__ killed) {
  __shared__ float sf[SMAX * SROW];
  const uint32_t me = threadIdx.x;
  const uint32_t count = c_p.count, rw = c_p.record_words, stride = c_p.launch_lanes, W = c_window_slot;
  for (uint32_t first = blockIdx.x * WG; first < count; first += stride) {
    uint4 loaded[CHUNKS];
#pragma unroll
    for (uint32_t q = 0; q < CHUNKS; ++q) {
      uint32_t j = me + q * WG, p = j / CHUNKS, c = j - p * CHUNKS, i = first + p;
      loaded[q] = i < count ? reinterpret_cast<const uint4*>(records)[i * (rw / 4) + c] : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (uint32_t q = 0; q < CHUNKS; ++q) {
      uint32_t j = me + q * WG, p = j / CHUNKS, c = j - p * CHUNKS, st = (W + c * 4) * SROW + p;
      sf[st] = __uint_as_float(loaded[q].x); sf[st + SROW] = __uint_as_float(loaded[q].y);
      sf[st + 2 * SROW] = __uint_as_float(loaded[q].z); sf[st + 3 * SROW] = __uint_as_float(loaded[q].w);
    }
    const uint32_t zero = c_p.imm_count >> 16, nimm = c_p.imm_count & 0xFFFF;
    sf[zero * SROW + me] = 0.f;
    for (uint32_t k = 0; k < nimm; ++k) sf[(zero + 1 + k) * SROW + me] = __uint_as_float(reinterpret_cast<const uint32_t*>(c_imm)[k]);
    __syncthreads();
    const uint32_t i = first + me;
    if (i < count) {
      const bool dead = run_section<V == 4, false>(i, records, W, SMAX,
                                                   [&](uint32_t slot) -> float& { return sf[min(slot, SMAX - 1) * SROW + me]; });
      killed[i] = dead;
    }
    __syncthreads();
#pragma unroll
    for (uint32_t q = 0; q < CHUNKS; ++q) {
      uint32_t j = me + q * WG, p = j / CHUNKS, c = j - p * CHUNKS, ii = first + p, st = (W + c * 4) * SROW + p;
      if (ii < count) reinterpret_cast<uint4*>(records)[ii * (rw / 4) + c] =
          make_uint4(__float_as_uint(sf[st]), __float_as_uint(sf[st + SROW]), __float_as_uint(sf[st + 2 * SROW]), __float_as_uint(sf[st + 3 * SROW]));
    }
    __syncthreads();
  }
}


static std::vector<uint32_t> json_array(const std::string& line, const std::string& key) {
  std::vector<uint32_t> out;
  size_t at = line.find("\"" + key + "\":[");
  if (at == std::string::npos) return out;
  at = line.find('[', at) + 1;
  size_t end = line.find(']', at);
  std::stringstream ss(line.substr(at, end - at));
  std::string item;
  while (std::getline(ss, item, ',')) if (!item.empty()) out.push_back(uint32_t(std::stoul(item)));
  return out;
}

int main(int argc, char** argv) {
  if (argc < 2) { printf("usage: vm_fast_twin CODE.jsonl [--profile|--time] [CARVEOUT%%]\n"); return 2; }
  bool profile = argc > 2 && !strcmp(argv[2], "--profile");
  std::ifstream in(argv[1]); std::string line, found;
  while (std::getline(in, line)) if (line.find("\"executor\":\"fast\",\"code\"") != std::string::npos) found = line;
  std::vector<uint32_t> code = json_array(found, "code"), imm = json_array(found, "immediates");
  if (code.empty()) { printf("no fast code line\n"); return 1; }
  imm.resize(64, 0);
  std::vector<uint32_t> vectors = json_array(found, "constant_vectors");
  vectors.resize(32 * 4, 0);
  printf("code: %zu instructions\n", code.size() / 4);
  uint32_t count = profile ? (1u << 22) : (1u << 24), rw = 32;
  Params p{count, rw, uint32_t(code.size() / 4), uint32_t(json_array(found, "immediates").size()), 0.016f, 0};
  CK(cudaMemcpyToSymbol(c_code, code.data(), code.size() * 4));
  CK(cudaMemcpyToSymbol(c_imm, imm.data(), 64 * 4));
  CK(cudaMemcpyToSymbol(c_constant_vectors, vectors.data(), 32 * 16));
  TwinRun run(count, rw, profile);
  run.copy_roofline();
  double wbytes = double(count) * 132;
  uint32_t blocks = count / WG;
  p.launch_lanes = blocks * WG; CK(cudaMemcpyToSymbol(c_p, &p, sizeof p));
  // The shared-file kernels' code: slots remapped to [registers 0..R) [zero, immediates) [window].
  const uint32_t nimm = uint32_t(json_array(found, "immediates").size());
  uint32_t R = 0;
  auto for_each_slot = [&](std::vector<uint32_t>& c, auto&& f) {
    for (size_t k = 0; k < c.size(); k += 4) {
      uint32_t w0 = c[k];
      for (int s = 0; s < 3; ++s) {
        uint32_t cls = (w0 >> (16 + 2 * s)) & 3;
        if (cls == 1 || cls == 2) for (int b = 0; b < 4; ++b) f(c[k + 1 + s], 8 * b, 1u);
      }
      uint32_t written = std::min((w0 >> 11) & 7, 4u);
      if (written) f(c[k], 24, written);
    }
  };
  std::vector<uint32_t> code_sh = code;
  for_each_slot(code_sh, [&](uint32_t& w, int sh, uint32_t n) { uint32_t slot = (w >> sh) & 0xFF; if (slot < 64) R = std::max(R, slot + n); });
  const uint32_t W = R + 1 + nimm;
  for_each_slot(code_sh, [&](uint32_t& w, int sh, uint32_t) {
    uint32_t slot = (w >> sh) & 0xFF, m = slot < 64 ? slot : (slot < 128 ? R + (slot - 64) : W + (slot - 128));
    w = (w & ~(0xFFu << sh)) | (m << sh);
  });
  printf("shared file: %u registers, %u immediates, window at %u, %u slots\n", R, nimm, W, W + 16);
  Params p_sh = p; p_sh.imm_count = (R << 16) | nimm;
  auto use_shared = [&](bool on) {
    CK(cudaMemcpyToSymbol(c_code, (on ? code_sh : code).data(), code.size() * 4));
    CK(cudaMemcpyToSymbol(c_p, on ? &p_sh : &p, sizeof p));
    CK(cudaMemcpyToSymbol(c_window_slot, &W, 4));
  };
  p_sh.launch_lanes = p.launch_lanes;
  // argv[3]: the preferred shared-memory carveout, in percent of the maximum (-1: the driver's
  // choice). NVIDIA's Vulkan driver appears to keep about 48 KB of shared memory per SM.
  const int carveout = argc > 3 ? atoi(argv[3]) : -1;
  CK(cudaFuncSetAttribute(interp<0>, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  CK(cudaFuncSetAttribute(interp<1>, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  CK(cudaFuncSetAttribute(interp<2>, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  CK(cudaFuncSetAttribute(interp<5>, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  CK(cudaFuncSetAttribute(interp_shared<3>, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  CK(cudaFuncSetAttribute(interp_shared<4>, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  printf("carveout %d%%\n", carveout);
  use_shared(false);
  run.time("fast V0 (as GLSL)", [&] { interp<0><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
  run.time("fast V1 (no classes)", [&] { interp<1><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
  run.time("fast V2 (its opcodes)", [&] { interp<2><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
  run.time("fast V5 (streaming hints)", [&] { interp<5><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
  use_shared(true);
  run.time("fast V3 (shared file)", [&] { interp_shared<3><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
  run.time("fast V4 (shared, no cls)", [&] { interp_shared<4><<<blocks, WG>>>(run.rec, run.kil); }, wbytes);
  for (int v = 0; v < 6; ++v) {
    use_shared(v == 3 || v == 4);
    CK(cudaMemcpy(run.rec, run.host.data(), run.host.size() * 4, cudaMemcpyHostToDevice));
    if (v == 0) interp<0><<<64, WG>>>(run.rec, run.kil); else if (v == 1) interp<1><<<64, WG>>>(run.rec, run.kil); else if (v == 2) interp<2><<<64, WG>>>(run.rec, run.kil);
    else if (v == 3) interp_shared<3><<<64, WG>>>(run.rec, run.kil); else if (v == 4) interp_shared<4><<<64, WG>>>(run.rec, run.kil); else interp<5><<<64, WG>>>(run.rec, run.kil);
    CK(cudaDeviceSynchronize());
    float out[32]; CK(cudaMemcpy(out, run.rec + 3 * rw, 128, cudaMemcpyDeviceToHost));
    printf("V%d particle 3: pos %g %g %g vel %g %g %g age %g size %g color %g %g %g %g\n", v, out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[9], out[10], out[11], out[12], out[13]);
  }
  return 0;
}
