// The batch executor: structure-of-arrays over blocks of kBlock particles. Each instruction is
// decoded once per run into per-component source pointers (a register row, an immediate's
// splat row or the zero row), then applied to the whole block in simple counted loops over
// float rows, which GCC auto-vectorises at -O2/-O3 (check: -fopt-info-vec-optimized). The math
// is the reference's own (vm_semantics.h scalar overloads, same operation order, no
// contraction), so the two agree bit for bit.
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "vm/executor_common.hpp"

namespace mote {
namespace {

using namespace vm_detail;
namespace s = shader;

constexpr uint32_t kBlock = 64;

struct alignas(64) Row {
  float v[kBlock];
};

struct Decoded {
  uint32_t op = 0;
  uint32_t lanes = 0;
  uint32_t dst = 0;
  uint32_t written = 0;  // destination slots written
  uint32_t raw[3] = {};  // the source words, for opcodes reading them raw
  // Per source and component: a register slot (>= 0) or an index into the constant rows
  // (encoded as -1 - row).
  int32_t row[3][4] = {};
};

class BatchExecutor final : public Executor {
 public:
  std::string_view name() const override { return "batch"; }
  Result<RunOutput> run(const RunInput& input) override {
    RunOutput out;
    MOTE_TRY(run_into(input, out));
    return out;
  }
  Status run_into(const RunInput& input, RunOutput& out) override;
};

// Lane-wise kernels over one row per component. `__restrict` plus counted loops of a constant
// trip count let the vectoriser go; `ivdep` tells it the rows never alias the output.
template <typename F>
void rows1(F f, const float* const* a, Row* out, uint32_t lanes) {
  for (uint32_t c = 0; c < lanes; ++c) {
    const float* __restrict pa = a[c];
    float* __restrict po = out[c].v;
#pragma GCC ivdep
    for (uint32_t i = 0; i < kBlock; ++i) po[i] = f(pa[i]);
  }
}
template <typename F>
void rows2(F f, const float* const* a, const float* const* b, Row* out, uint32_t lanes) {
  for (uint32_t c = 0; c < lanes; ++c) {
    const float* __restrict pa = a[c];
    const float* __restrict pb = b[c];
    float* __restrict po = out[c].v;
#pragma GCC ivdep
    for (uint32_t i = 0; i < kBlock; ++i) po[i] = f(pa[i], pb[i]);
  }
}
template <typename F>
void rows3(F f, const float* const* a, const float* const* b, const float* const* c3, Row* out, uint32_t lanes) {
  for (uint32_t c = 0; c < lanes; ++c) {
    const float* __restrict pa = a[c];
    const float* __restrict pb = b[c];
    const float* __restrict pc = c3[c];
    float* __restrict po = out[c].v;
#pragma GCC ivdep
    for (uint32_t i = 0; i < kBlock; ++i) po[i] = f(pa[i], pb[i], pc[i]);
  }
}

// sum_c a_c * b_c over 4 zero-padded components, x..w in order: vm_dot's exact operations.
void dot_rows(const float* const* a, const float* const* b, float* __restrict out) {
  const float* __restrict a0 = a[0];
  const float* __restrict a1 = a[1];
  const float* __restrict a2 = a[2];
  const float* __restrict a3 = a[3];
  const float* __restrict b0 = b[0];
  const float* __restrict b1 = b[1];
  const float* __restrict b2 = b[2];
  const float* __restrict b3 = b[3];
#pragma GCC ivdep
  for (uint32_t i = 0; i < kBlock; ++i) out[i] = a0[i] * b0[i] + a1[i] * b1[i] + a2[i] * b2[i] + a3[i] * b3[i];
}

vec4 gather(const float* const* rows, uint32_t i) { return vec4(rows[0][i], rows[1][i], rows[2][i], rows[3][i]); }

Status BatchExecutor::run_into(const RunInput& input, RunOutput& out) {
  MOTE_TRY_ASSIGN(const uint32_t record_words, validate_run_input(input));
  const Program& program = *input.program;
  const auto& code = program.code(input.section);
  out.records.assign(input.records.begin(), input.records.end());
  out.killed.assign(input.count, 0);
  out.op_executions.fill(0);

  // Constant rows: row 0 is all zeros (padding components, unused sources); each immediate
  // gets its own splat row.
  std::vector<Row> const_rows(1);
  std::fill(std::begin(const_rows[0].v), std::end(const_rows[0].v), 0.0f);
  std::vector<Decoded> decoded(code.size());
  for (size_t k = 0; k < code.size(); ++k) {
    const auto& w = code[k].words;
    Decoded& d = decoded[k];
    d.op = s::vm_op(w[0]);
    d.lanes = s::vm_lanes(w[0]);
    d.dst = s::vm_dst(w[0]);
    const isa::OpInfo& info = *isa::op_info(d.op);  // validated
    d.written = info.dst == isa::DstRule::kDstLanes ? d.lanes : info.dst == isa::DstRule::kDstScalar ? 1u : 0u;
    for (uint32_t src = 0; src < 3; ++src) {
      d.raw[src] = w[1 + src];
      const uint32_t width = source_width(info.src[src], d.lanes);
      const uint32_t kind = s::vm_kind(w[0], src);
      int32_t imm_row = -1;
      if (kind == s::kVmKindImm && width > 0) {
        Row r;
        std::fill(std::begin(r.v), std::end(r.v), as_float(w[1 + src]));
        const_rows.push_back(r);
        imm_row = -1 - int32_t(const_rows.size() - 1);
      }
      for (uint32_t c = 0; c < 4; ++c) {
        int32_t row = -1;  // the zero row
        if (c < width && kind == s::kVmKindReg) row = int32_t(reg_slot(w[1 + src], c));
        if (c < width && kind == s::kVmKindImm) row = imm_row;
        d.row[src][c] = row;
      }
    }
  }

  const uint32_t reg_count = std::min<uint32_t>(std::max<uint32_t>(program.register_count, 1u), 256u) + 3u;
  std::vector<Row> regs(reg_count);
  std::array<Row, 4> result{};
  std::array<uint32_t, kBlock> seeds{};
  std::array<uint8_t, kBlock> killed{};

  for (uint32_t first = 0; first < input.count; first += kBlock) {
    const uint32_t n = std::min(kBlock, input.count - first);
    std::memset(static_cast<void*>(regs.data()), 0, regs.size() * sizeof(Row));
    killed.fill(0);
    for (uint32_t i = 0; i < n; ++i) seeds[i] = s::vm_particle_seed(input.rng_base, input.first_particle_index + first + i);
    uint32_t* records = out.records.data() + size_t(first) * record_words;

    for (const Decoded& d : decoded) {
      out.op_executions[d.op] += n;
      const float* src[3][4];
      for (uint32_t q = 0; q < 3; ++q)
        for (uint32_t c = 0; c < 4; ++c) {
          const int32_t r = d.row[q][c];
          src[q][c] = r >= 0 ? regs[uint32_t(r)].v : const_rows[uint32_t(-1 - r)].v;
        }
      const float* const* a = src[0];
      const float* const* b = src[1];
      const float* const* c = src[2];
      const uint32_t L = d.lanes;
      Row* o = result.data();

      switch (isa::Op(d.op)) {
        case isa::Op::NOP: break;
        case isa::Op::MOV: rows1([](float x) { return x; }, a, o, L); break;
        case isa::Op::ADD: rows2([](float x, float y) { return s::vm_add(x, y); }, a, b, o, L); break;
        case isa::Op::SUB: rows2([](float x, float y) { return s::vm_sub(x, y); }, a, b, o, L); break;
        case isa::Op::MUL: rows2([](float x, float y) { return s::vm_mul(x, y); }, a, b, o, L); break;
        case isa::Op::DIV: rows2([](float x, float y) { return s::vm_div(x, y); }, a, b, o, L); break;
        case isa::Op::FMA: rows3([](float x, float y, float z) { return s::vm_fma(x, y, z); }, a, b, c, o, L); break;
        case isa::Op::MIN: rows2([](float x, float y) { return s::vm_min(x, y); }, a, b, o, L); break;
        case isa::Op::MAX: rows2([](float x, float y) { return s::vm_max(x, y); }, a, b, o, L); break;
        case isa::Op::CLAMP: rows3([](float x, float y, float z) { return s::vm_clamp(x, y, z); }, a, b, c, o, L); break;
        case isa::Op::ABS: rows1([](float x) { return s::vm_abs(x); }, a, o, L); break;
        case isa::Op::SIGN: rows1([](float x) { return s::vm_sign(x); }, a, o, L); break;
        case isa::Op::FLOOR: rows1([](float x) { return s::vm_floor(x); }, a, o, L); break;
        case isa::Op::CEIL: rows1([](float x) { return s::vm_ceil(x); }, a, o, L); break;
        case isa::Op::FRACT: rows1([](float x) { return s::vm_fract(x); }, a, o, L); break;
        case isa::Op::MOD: rows2([](float x, float y) { return s::vm_mod(x, y); }, a, b, o, L); break;
        case isa::Op::SQRT: rows1([](float x) { return s::vm_sqrt(x); }, a, o, L); break;
        case isa::Op::RSQRT: rows1([](float x) { return s::vm_rsqrt(x); }, a, o, L); break;
        case isa::Op::EXP: rows1([](float x) { return s::vm_exp(x); }, a, o, L); break;
        case isa::Op::LOG: rows1([](float x) { return s::vm_log(x); }, a, o, L); break;
        case isa::Op::POW: rows2([](float x, float y) { return s::vm_pow(x, y); }, a, b, o, L); break;
        case isa::Op::SIN: rows1([](float x) { return s::vm_sin(x); }, a, o, L); break;
        case isa::Op::COS: rows1([](float x) { return s::vm_cos(x); }, a, o, L); break;
        case isa::Op::TAN: rows1([](float x) { return s::vm_tan(x); }, a, o, L); break;
        case isa::Op::ASIN: rows1([](float x) { return s::vm_asin(x); }, a, o, L); break;
        case isa::Op::ACOS: rows1([](float x) { return s::vm_acos(x); }, a, o, L); break;
        case isa::Op::ATAN2: rows2([](float x, float y) { return s::vm_atan2(x, y); }, a, b, o, L); break;
        case isa::Op::DOT: dot_rows(a, b, o[0].v); break;
        case isa::Op::LENGTH:
          dot_rows(a, a, o[0].v);
          for (uint32_t i = 0; i < kBlock; ++i) o[0].v[i] = s::sqrt(o[0].v[i]);
          break;
        case isa::Op::DISTANCE: {
          std::array<Row, 4> diff{};
          const float* drows[4] = {diff[0].v, diff[1].v, diff[2].v, diff[3].v};
          rows2([](float x, float y) { return x - y; }, a, b, diff.data(), 4);
          dot_rows(drows, drows, o[0].v);
          for (uint32_t i = 0; i < kBlock; ++i) o[0].v[i] = s::sqrt(o[0].v[i]);
          break;
        }
        case isa::Op::MIX: rows3([](float x, float y, float z) { return s::vm_mix(x, y, z); }, a, b, c, o, L); break;
        case isa::Op::STEP: rows2([](float x, float y) { return s::vm_step(x, y); }, a, b, o, L); break;
        case isa::Op::SMOOTHSTEP:
          rows3([](float x, float y, float z) { return s::vm_smoothstep(x, y, z); }, a, b, c, o, L);
          break;
        case isa::Op::CMP: {
          const uint32_t code_word = d.raw[2];
          switch (code_word) {  // hoist the compare code out of the row loops
            case s::kVmCmpLt: rows2([](float x, float y) { return s::vm_cmp(x, y, s::kVmCmpLt); }, a, b, o, L); break;
            case s::kVmCmpLe: rows2([](float x, float y) { return s::vm_cmp(x, y, s::kVmCmpLe); }, a, b, o, L); break;
            case s::kVmCmpEq: rows2([](float x, float y) { return s::vm_cmp(x, y, s::kVmCmpEq); }, a, b, o, L); break;
            case s::kVmCmpNe: rows2([](float x, float y) { return s::vm_cmp(x, y, s::kVmCmpNe); }, a, b, o, L); break;
            case s::kVmCmpGe: rows2([](float x, float y) { return s::vm_cmp(x, y, s::kVmCmpGe); }, a, b, o, L); break;
            case s::kVmCmpGt: rows2([](float x, float y) { return s::vm_cmp(x, y, s::kVmCmpGt); }, a, b, o, L); break;
            default: rows2([code_word](float x, float y) { return s::vm_cmp(x, y, code_word); }, a, b, o, L); break;
          }
          break;
        }
        case isa::Op::SELECT: rows3([](float x, float y, float z) { return s::vm_select(x, y, z); }, a, b, c, o, L); break;
        case isa::Op::AND: rows2([](float x, float y) { return s::vm_and(x, y); }, a, b, o, L); break;
        case isa::Op::OR: rows2([](float x, float y) { return s::vm_or(x, y); }, a, b, o, L); break;
        case isa::Op::NOT: rows1([](float x) { return s::vm_not(x); }, a, o, L); break;
        case isa::Op::LOAD_FIELD:
          for (uint32_t k = 0; k < L; ++k)
            for (uint32_t i = 0; i < n; ++i) o[k].v[i] = as_float(records[size_t(i) * record_words + d.raw[0] + k]);
          break;
        case isa::Op::STORE_FIELD:
          for (uint32_t k = 0; k < L; ++k)
            for (uint32_t i = 0; i < n; ++i) records[size_t(i) * record_words + d.raw[0] + k] = as_bits(b[k][i]);
          break;
        case isa::Op::LOAD_CONST:
          for (uint32_t k = 0; k < L; ++k) std::fill(std::begin(o[k].v), std::end(o[k].v), as_float(program.constants[d.raw[0] + k]));
          break;
        case isa::Op::LOAD_BUILTIN:
          for (uint32_t i = 0; i < n; ++i) {
            const vec4 v = load_builtin(input, d.raw[0], L, first + i);
            for (uint32_t k = 0; k < L; ++k) o[k].v[i] = v[int(k)];
          }
          break;
        case isa::Op::RAND:
          for (uint32_t k = 0; k < L; ++k)
            for (uint32_t i = 0; i < n; ++i) o[k].v[i] = s::vm_rand(seeds[i], d.raw[0], k);
          break;
        case isa::Op::KILL:
          for (uint32_t i = 0; i < n; ++i) killed[i] |= a[0][i] != 0.0f ? 1 : 0;
          break;
        default:
          // The rest are per-particle vector functions: gather, call, scatter.
          for (uint32_t i = 0; i < n; ++i) {
            const vec4 x = gather(a, i), y = gather(b, i), z = gather(c, i);
            vec4 r(0.0f);
            switch (isa::Op(d.op)) {
              case isa::Op::CROSS: r = s::vm_cross(x, y); break;
              case isa::Op::NORMALIZE: r = s::vm_normalize(x); break;
              case isa::Op::QMUL: r = s::vm_qmul(x, y); break;
              case isa::Op::QROTATE: r = vec4(s::vm_qrotate(x, vec3(y)), 0.0f); break;
              case isa::Op::QFROM_AXIS_ANGLE: r = s::vm_qfrom_axis_angle(vec3(x), y.x); break;
              case isa::Op::QINTEGRATE: r = s::vm_qintegrate(x, vec3(y), z.x); break;
              case isa::Op::NOISE3: r.x = s::vm_noise3(vec3(x)); break;
              case isa::Op::CURL3: r = vec4(s::vm_curl3(vec3(x)), 0.0f); break;
              case isa::Op::SAMPLE_WIND: r = vec4(s::vm_sample_wind(input.wind, vec3(x)), 0.0f); break;
              default:
                return make_error(ErrorCode::kInternal, "batch executor has no case for opcode " + std::to_string(d.op));
            }
            for (uint32_t k = 0; k < d.written; ++k) o[k].v[i] = r[int(k)];
          }
          break;
      }
      for (uint32_t k = 0; k < d.written; ++k) std::memcpy(regs[d.dst + k].v, o[k].v, sizeof(Row));
    }
    for (uint32_t i = 0; i < n; ++i) out.killed[first + i] = killed[i];
  }
  return ok_status();
}

}  // namespace

std::unique_ptr<Executor> make_batch_executor() { return std::make_unique<BatchExecutor>(); }

}  // namespace mote
