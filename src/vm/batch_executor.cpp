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

#include "core/alloc_guard.hpp"
#include "vm/depth_sampling.hpp"
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
  // A failed allocation (a run sized within every limit can still exceed the machine) is
  // kOutOfMemory, not an exception (docs/design/reliability.md, "Memory").
  Status run_into(const RunInput& input, RunOutput& out) override {
    return core::guard_allocation("the batch executor's run", [&] { return run_unguarded(input, out); });
  }

 private:
  Status run_unguarded(const RunInput& input, RunOutput& out);
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

// One decoded instruction applied to one block: the source rows (per component, zero rows past
// each source's width), the result rows, and what the special rows touch.
struct Block {
  const RunInput& input;
  const Decoded& d;
  const float* const* a;
  const float* const* b;
  const float* const* c;
  Row* o;
  uint32_t n;      // particles in the block
  uint32_t first;  // the block's first particle in the run
  uint32_t record_words;
  uint32_t* records;  // the block's first record
  const uint32_t* seeds;
  uint8_t* killed;
  uint32_t* events;  // the block's first particle's kVmEventOutputs counts in the output
};

// A vector row of the table (form kVector): per particle, gather, call `f`, scatter the written
// lanes. MOV, DOT, LENGTH and DISTANCE have row-loop overrides that the vectoriser takes (the
// same operations in the same order as their vm_vector_ functions, so still bit for bit the
// reference's); the table still says which rows are vector rows, and every one is dispatched.
template <isa::Op kOp, typename F>
void run_vector(F f, const Block& x) {
  Row* o = x.o;
  if constexpr (kOp == isa::Op::MOV) {
    rows1([](float v) { return v; }, x.a, o, x.d.lanes);
  } else if constexpr (kOp == isa::Op::DOT) {
    dot_rows(x.a, x.b, o[0].v);
  } else if constexpr (kOp == isa::Op::LENGTH) {
    dot_rows(x.a, x.a, o[0].v);
    for (uint32_t i = 0; i < kBlock; ++i) o[0].v[i] = s::sqrt(o[0].v[i]);
  } else if constexpr (kOp == isa::Op::DISTANCE) {
    std::array<Row, 4> diff{};
    const float* drows[4] = {diff[0].v, diff[1].v, diff[2].v, diff[3].v};
    rows2([](float v, float w) { return v - w; }, x.a, x.b, diff.data(), 4);
    dot_rows(drows, drows, o[0].v);
    for (uint32_t i = 0; i < kBlock; ++i) o[0].v[i] = s::sqrt(o[0].v[i]);
  } else {
    for (uint32_t i = 0; i < x.n; ++i) {
      const vec4 r = f(gather(x.a, i), gather(x.b, i), gather(x.c, i));
      for (uint32_t k = 0; k < x.d.written; ++k) o[k].v[i] = r[int(k)];
    }
  }
}

// ---- The special rows of the ISA table (form kSpecial), one handler each, named after the row:
// the dispatch names special_<NAME> for every special row, so one without a handler does not
// compile.
void special_NOP(const Block&) {}
void special_CMP(const Block& x) {
  const uint32_t code_word = x.d.raw[2];
  const float* const* a = x.a;
  const float* const* b = x.b;
  Row* o = x.o;
  const uint32_t L = x.d.lanes;
  switch (code_word) {  // hoist the compare code out of the row loops
    case s::kVmCmpLt: rows2([](float v, float w) { return s::vm_cmp(v, w, s::kVmCmpLt); }, a, b, o, L); break;
    case s::kVmCmpLe: rows2([](float v, float w) { return s::vm_cmp(v, w, s::kVmCmpLe); }, a, b, o, L); break;
    case s::kVmCmpEq: rows2([](float v, float w) { return s::vm_cmp(v, w, s::kVmCmpEq); }, a, b, o, L); break;
    case s::kVmCmpNe: rows2([](float v, float w) { return s::vm_cmp(v, w, s::kVmCmpNe); }, a, b, o, L); break;
    case s::kVmCmpGe: rows2([](float v, float w) { return s::vm_cmp(v, w, s::kVmCmpGe); }, a, b, o, L); break;
    case s::kVmCmpGt: rows2([](float v, float w) { return s::vm_cmp(v, w, s::kVmCmpGt); }, a, b, o, L); break;
    default: rows2([code_word](float v, float w) { return s::vm_cmp(v, w, code_word); }, a, b, o, L); break;
  }
}
void special_LOAD_FIELD(const Block& x) {
  for (uint32_t k = 0; k < x.d.lanes; ++k)
    for (uint32_t i = 0; i < x.n; ++i) x.o[k].v[i] = as_float(x.records[size_t(i) * x.record_words + x.d.raw[0] + k]);
}
void special_STORE_FIELD(const Block& x) {
  for (uint32_t k = 0; k < x.d.lanes; ++k)
    for (uint32_t i = 0; i < x.n; ++i) x.records[size_t(i) * x.record_words + x.d.raw[0] + k] = as_bits(x.b[k][i]);
}
void special_LOAD_CONST(const Block& x) {
  for (uint32_t k = 0; k < x.d.lanes; ++k)
    std::fill(std::begin(x.o[k].v), std::end(x.o[k].v), as_float(x.input.program->constants[x.d.raw[0] + k]));
}
void special_LOAD_BUILTIN(const Block& x) {
  for (uint32_t i = 0; i < x.n; ++i) {
    const vec4 v = load_builtin(x.input, x.d.raw[0], x.d.lanes, x.first + i);
    for (uint32_t k = 0; k < x.d.lanes; ++k) x.o[k].v[i] = v[int(k)];
  }
}
void special_RAND(const Block& x) {
  for (uint32_t k = 0; k < x.d.lanes; ++k)
    for (uint32_t i = 0; i < x.n; ++i) x.o[k].v[i] = s::vm_rand(x.seeds[i], x.d.raw[0], k);
}
void special_SAMPLE_WIND(const Block& x) {
  for (uint32_t i = 0; i < x.n; ++i) {
    const vec4 r = vec4(s::vm_sample_wind(x.input.wind, vec3(gather(x.a, i))), 0.0f);
    for (uint32_t k = 0; k < x.d.written; ++k) x.o[k].v[i] = r[int(k)];
  }
}
void special_SAMPLE_FIELD(const Block& x) {
  for (uint32_t i = 0; i < x.n; ++i) {
    const vec4 r = vec4(sample_run_field(x.input, x.d.raw[1], vec3(gather(x.a, i))), 0.0f);
    for (uint32_t k = 0; k < x.d.written; ++k) x.o[k].v[i] = r[int(k)];
  }
}
void special_SAMPLE_DEPTH(const Block& x) {
  if (x.input.depth == nullptr) {
    for (uint32_t k = 0; k < x.d.written; ++k)
      for (uint32_t i = 0; i < x.n; ++i) x.o[k].v[i] = 0.0f;
    return;
  }
  const shader::VmDepthView view = depth_view(x.input.depth);
  for (uint32_t i = 0; i < x.n; ++i) {
    const vec4 r = sample_depth_values(view, x.input.depth->depths, vec3(gather(x.a, i)), gather(x.b, i).x);
    for (uint32_t k = 0; k < x.d.written; ++k) x.o[k].v[i] = r[int(k)];
  }
}
void special_KILL(const Block& x) {
  for (uint32_t i = 0; i < x.n; ++i) x.killed[i] |= x.a[0][i] != 0.0f ? 1 : 0;
}
void special_EMIT_EVENT(const Block& x) {
  const uint32_t output = x.d.raw[1];  // < kVmEventOutputs: the verifier's check_form
  for (uint32_t i = 0; i < x.n; ++i) {
    uint32_t& total = x.events[size_t(i) * s::kVmEventOutputs + output];
    total = s::vm_event_add(total, x.a[0][i]);
  }
}

// Every row of the table, by its form: lane-wise rows over the row loops, vector rows through
// run_vector, special rows through their handlers. False for an opcode outside the table.
bool run_instruction(const Block& x) {
  const float* const* a = x.a;
  const float* const* b = x.b;
  const float* const* c = x.c;
  Row* o = x.o;
  const uint32_t L = x.d.lanes;
  switch (isa::Op(x.d.op)) {
#define MOTE_BATCH_kLane1(NAME, FN)                   \
  case isa::Op::NAME:                                 \
    rows1([](float u) { return s::FN(u); }, a, o, L); \
    return true;
#define MOTE_BATCH_kLane2(NAME, FN)                                  \
  case isa::Op::NAME:                                                \
    rows2([](float u, float v) { return s::FN(u, v); }, a, b, o, L); \
    return true;
#define MOTE_BATCH_kLane3(NAME, FN)                                                 \
  case isa::Op::NAME:                                                               \
    rows3([](float u, float v, float w) { return s::FN(u, v, w); }, a, b, c, o, L); \
    return true;
#define MOTE_BATCH_kVector(NAME, FN)                                                     \
  case isa::Op::NAME:                                                                    \
    run_vector<isa::Op::NAME>([](vec4 u, vec4 v, vec4 w) { return s::FN(u, v, w); }, x); \
    return true;
#define MOTE_BATCH_kSpecial(NAME, FN) \
  case isa::Op::NAME:                 \
    special_##NAME(x);                \
    return true;
#define MOTE_OP(NAME, NUM, LMIN, LMAX, DST, S0, S1, S2, FORM, FN, EXACT, TULP, TABS, NODE, DOC) \
  MOTE_BATCH_##FORM(NAME, FN)
#include "mote/isa/isa_table.inc"
#undef MOTE_OP
#undef MOTE_BATCH_kLane1
#undef MOTE_BATCH_kLane2
#undef MOTE_BATCH_kLane3
#undef MOTE_BATCH_kVector
#undef MOTE_BATCH_kSpecial
    default: return false;
  }
}

Status BatchExecutor::run_unguarded(const RunInput& input, RunOutput& out) {
  MOTE_TRY_ASSIGN(const uint32_t record_words, validate_run_input(input));
  const Program& program = *input.program;
  const auto& code = program.code(input.section);
  out.records.assign(input.records.begin(), input.records.end());
  out.killed.assign(input.count, 0);
  out.events.assign(size_t(input.count) * s::kVmEventOutputs, 0);
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
    for (uint32_t i = 0; i < n; ++i)
      seeds[i] = s::vm_particle_seed(input.rng_base, input.first_particle_index + first + i);
    uint32_t* records = out.records.data() + size_t(first) * record_words;

    for (const Decoded& d : decoded) {
      out.op_executions[d.op] += n;
      const float* src[3][4];
      for (uint32_t q = 0; q < 3; ++q)
        for (uint32_t c = 0; c < 4; ++c) {
          const int32_t r = d.row[q][c];
          src[q][c] = r >= 0 ? regs[uint32_t(r)].v : const_rows[uint32_t(-1 - r)].v;
        }
      const Block block{input,
                        d,
                        src[0],
                        src[1],
                        src[2],
                        result.data(),
                        n,
                        first,
                        record_words,
                        records,
                        seeds.data(),
                        killed.data(),
                        out.events.data() + size_t(first) * s::kVmEventOutputs};
      if (!run_instruction(block))
        return make_error(ErrorCode::kInternal, "batch executor has no case for opcode " + std::to_string(d.op));
      const Row* o = result.data();
      for (uint32_t k = 0; k < d.written; ++k) std::memcpy(regs[d.dst + k].v, o[k].v, sizeof(Row));
    }
    for (uint32_t i = 0; i < n; ++i) out.killed[first + i] = killed[i];
  }
  return ok_status();
}

}  // namespace

std::unique_ptr<Executor> make_batch_executor() { return std::make_unique<BatchExecutor>(); }

}  // namespace mote
