#include "support/program_generator.hpp"

#include "support/depth_test_image.hpp"

#include <algorithm>
#include <bit>
#include <bitset>
#include <string>
#include <vector>

#include "mote/isa.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_semantics.h"
#include "shared/vm_limits.h"

namespace mote {
namespace {

namespace sh = shader;
using isa::Op;
using isa::SrcRule;

// SplitMix64 (Steele, Lea & Flood 2014): tiny, deterministic everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform integer in [lo, hi].
  uint32_t range(uint32_t lo, uint32_t hi) { return lo + uint32_t(next() % (uint64_t(hi) - lo + 1)); }
  float unit() { return float(next() >> 40) * (1.0f / 16777216.0f); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * unit(); }
  bool chance(float p) { return unit() < p; }

 private:
  uint64_t state_;
};

uint32_t bits(float f) { return std::bit_cast<uint32_t>(f); }

uint32_t word0(uint32_t op, uint32_t lanes, const uint32_t kinds[3], uint32_t dst) {
  return op | (lanes << 8) | (kinds[0] << 16) | (kinds[1] << 18) | (kinds[2] << 20) | (dst << 24);
}

// Ops whose result can leave +-kGeneratorBound for inputs inside it.
bool unbounded(Op op) {
  switch (op) {
    case Op::ADD:
    case Op::SUB:
    case Op::MUL:
    case Op::DIV:
    case Op::FMA:
    case Op::MOD:
    case Op::EXP:
    case Op::POW:
    case Op::RSQRT:
    case Op::TAN:
    case Op::DOT:
    case Op::CROSS:
    case Op::LENGTH:
    case Op::DISTANCE:
    case Op::MIX:
    case Op::QMUL:
    case Op::QROTATE:
    case Op::CURL3:
    case Op::SAMPLE_WIND: return true;
    default: return false;
  }
}

constexpr float kImmediates[] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -0.25f, 3.75f, -12.5f, 100.0f, 1e-3f, 0.0f, 7.0f};

struct Layout {
  std::vector<uint32_t> field_start, field_width;  // particle fields
  uint32_t emitter_words = 0;
  std::vector<uint32_t> global_offset, global_width;
};

class SectionBuilder {
 public:
  SectionBuilder(Rng& rng, Rng& event_rng, const GeneratorOptions& o, Program& p, const Layout& layout, Section section,
                 uint64_t hash_seed)
      : rng_(rng),
        event_rng_(event_rng),
        hash_rng_(hash_seed),
        o_(o),
        p_(p),
        layout_(layout),
        section_(section),
        code_(p.code(section)) {}

  void build() {
    const uint32_t n = rng_.range(o_.min_instructions, o_.max_instructions);
    std::vector<Op> ops;
    for (const isa::OpInfo& info : isa::all_ops())
      if ((info.op != Op::KILL || section_ == Section::kUpdate) && info.op != Op::EMIT_EVENT && info.op != Op::HASH)
        ops.push_back(info.op);
    for (uint32_t k = 0; k < n; ++k) {
      emit_random(ops[rng_.range(0, uint32_t(ops.size() - 1))]);
      if (rng_.chance(0.15f)) emit_store();
    }
    for (uint32_t k = 0; k < 4; ++k) emit_store();
    if (section_ != Section::kEval) emit_events();  // EVAL sends no events
    emit_hashes();
  }

  // HASH comes last too, from its own stream, for EMIT_EVENT's reason: the rest of every program
  // is what it was before the opcode existed. Each result is stored, so every executor shows it.
  void emit_hashes() {
    const uint32_t hashes = hash_rng_.range(0, 2);
    for (uint32_t h = 0; h < hashes; ++h) {
      std::vector<uint32_t> written;
      for (uint32_t s = 0; s < p_.register_count; ++s)
        if (written_.test(s)) written.push_back(s);
      const uint32_t lanes = hash_rng_.range(1, 4);
      uint32_t kinds[3] = {sh::kVmKindImm, sh::kVmKindImm, sh::kVmKindNone};
      uint32_t words[3] = {0, 0, 0};
      for (uint32_t s = 0; s < 2; ++s) {
        words[s] = bits(kImmediates[hash_rng_.range(0, uint32_t(std::size(kImmediates) - 1))]);
        if (written.empty() || !hash_rng_.chance(0.7f)) continue;
        // One written slot replicated over the lanes; the unused components keep the identity.
        uint32_t swizzle = 0;
        for (uint32_t c = lanes; c < 4; ++c) swizzle |= c << (2 * c);
        kinds[s] = sh::kVmKindReg;
        words[s] = written[hash_rng_.range(0, uint32_t(written.size() - 1))] | (swizzle << 8);
      }
      const uint32_t dst = hash_rng_.range(0, p_.register_count - lanes);
      code_.push_back(Instruction{{word0(uint32_t(Op::HASH), lanes, kinds, dst), words[0], words[1], 0}});
      for (uint32_t k = 0; k < lanes; ++k) written_.set(dst + k);
      std::vector<uint32_t> wide_enough;
      for (uint32_t f = 0; f < layout_.field_start.size(); ++f)
        if (layout_.field_width[f] >= lanes) wide_enough.push_back(f);
      const uint32_t f = wide_enough[hash_rng_.range(0, uint32_t(wide_enough.size() - 1))];
      const uint32_t offset = layout_.field_start[f] + hash_rng_.range(0, layout_.field_width[f] - lanes);
      const uint32_t store_kinds[3] = {sh::kVmKindNone, sh::kVmKindReg, sh::kVmKindNone};
      code_.push_back(Instruction{
          {word0(uint32_t(Op::STORE_FIELD), lanes, store_kinds, 0), offset, dst | (sh::kVmSwizzleIdentity << 8), 0}});
      mark_stored(offset, lanes);
    }
  }

  // EMIT_EVENT writes no register and no record word, so it comes last, from its own random
  // stream: the rest of every program is what it was before the opcode existed (the suites'
  // programs, and what the GPU tests found in them, stay the same).
  void emit_events() {
    const uint32_t events = event_rng_.range(0, 3);
    std::vector<uint32_t> written;
    for (uint32_t s = 0; s < p_.register_count; ++s)
      if (written_.test(s)) written.push_back(s);
    for (uint32_t e = 0; e < events; ++e) {
      uint32_t kinds[3] = {sh::kVmKindImm, sh::kVmKindNone, sh::kVmKindNone};
      uint32_t count = bits(kImmediates[event_rng_.range(0, uint32_t(std::size(kImmediates) - 1))]);
      if (!written.empty() && event_rng_.chance(0.7f)) {
        kinds[0] = sh::kVmKindReg;
        count = written[event_rng_.range(0, uint32_t(written.size() - 1))] | (sh::kVmSwizzleIdentity << 8);
      }
      const uint32_t output = event_rng_.range(0, sh::kVmEventOutputs - 1);
      code_.push_back(Instruction{{word0(uint32_t(Op::EMIT_EVENT), 1, kinds, 0), count, output, 0}});
    }
  }

 private:
  // A value source `width` wide: IMM, or REG over written slots with a random swizzle.
  // Returns {kind, word}.
  std::pair<uint32_t, uint32_t> value_source(uint32_t width) {
    std::vector<uint32_t> written;
    for (uint32_t s = 0; s < p_.register_count; ++s)
      if (written_.test(s)) written.push_back(s);
    if (written.empty() || rng_.chance(o_.immediate_probability))
      return {sh::kVmKindImm, bits(kImmediates[rng_.range(0, uint32_t(std::size(kImmediates) - 1))])};
    const uint32_t anchor = written[rng_.range(0, uint32_t(written.size() - 1))];
    const uint32_t base = anchor - rng_.range(0, std::min(3u, anchor));
    std::vector<uint32_t> near;
    for (uint32_t s : written)
      if (s >= base && s <= base + 3) near.push_back(s);
    uint32_t word = base;
    for (uint32_t c = 0; c < 4; ++c) {
      const uint32_t comp = c < width ? near[rng_.range(0, uint32_t(near.size() - 1))] - base : c;  // unused: identity
      word |= comp << (8 + 2 * c);
    }
    return {sh::kVmKindReg, word};
  }

  void emit_random(Op op) {
    const isa::OpInfo& info = isa::op_info(op);
    uint32_t lanes = rng_.range(info.lanes_min, info.lanes_max);
    uint32_t kinds[3] = {sh::kVmKindNone, sh::kVmKindNone, sh::kVmKindNone};
    uint32_t words[3] = {0, 0, 0};
    // Raw sources first: they may narrow the lane count.
    for (uint32_t s = 0; s < 3; ++s) {
      switch (info.src[s]) {
        case SrcRule::kField: {
          const uint32_t f = rng_.range(0, uint32_t(layout_.field_start.size() - 1));
          lanes = std::min(lanes, layout_.field_width[f]);
          words[s] = layout_.field_start[f] + rng_.range(0, layout_.field_width[f] - lanes);
          break;
        }
        case SrcRule::kConst: {
          const uint32_t vec = rng_.range(0, uint32_t(p_.constants.size() / 4 - 1));
          words[s] = vec * 4 + rng_.range(0, 4 - lanes);
          break;
        }
        case SrcRule::kBuiltin: words[s] = builtin_word(lanes); break;
        case SrcRule::kDraw: words[s] = rng_.range(0, 1000); break;
        case SrcRule::kCmp: words[s] = rng_.range(0, 5); break;
        case SrcRule::kEvent: words[s] = rng_.range(0, sh::kVmEventOutputs - 1); break;
        case SrcRule::kVectorField: words[s] = rng_.range(0, sh::kVmVectorFields - 1); break;
        default: break;
      }
    }
    for (uint32_t s = 0; s < 3; ++s) {
      const SrcRule rule = info.src[s];
      uint32_t width = 0;
      if (rule == SrcRule::kVal) width = lanes;
      if (rule == SrcRule::kVal1) width = 1;
      if (rule == SrcRule::kVal3) width = 3;
      if (rule == SrcRule::kVal4) width = 4;
      if (width == 0) continue;
      auto [kind, word] = value_source(width);
      kinds[s] = kind;
      words[s] = word;
    }
    uint32_t dst = 0;
    uint32_t written = 0;
    if (info.dst == isa::DstRule::kDstLanes) written = lanes;
    if (info.dst == isa::DstRule::kDstScalar) written = 1;
    if (written > 0) dst = rng_.range(0, p_.register_count - written);
    // EVAL reads back only what it stored this run: store the range first where it did not.
    if (section_ == Section::kEval && op == Op::LOAD_FIELD && !stored(words[0], lanes)) emit_store_to(words[0], lanes);
    if (op == Op::STORE_FIELD) mark_stored(words[0], lanes);
    code_.push_back(Instruction{{word0(uint32_t(op), lanes, kinds, dst), words[0], words[1], words[2]}});
    for (uint32_t k = 0; k < written; ++k) written_.set(dst + k);
    if (written > 0 && o_.clamp_unbounded && unbounded(op)) emit_clamp(dst, written);
  }

  // LOAD_BUILTIN's source word for `lanes` lanes (narrowed when the target is smaller).
  uint32_t builtin_word(uint32_t& lanes) {
    for (;;) {
      const uint32_t space = rng_.range(0, 2);
      if (space == 0) {
        const uint32_t id = rng_.range(0, isa::kBuiltinCount - 1);
        if (section_ == Section::kEval && !eval_builtin(id)) continue;
        lanes = std::min<uint32_t>(lanes, isa::builtin_info(id)->width);
        return (sh::kVmSpaceEngine << sh::kVmBuiltinSpaceShift) | id;
      }
      if (space == 1 && layout_.emitter_words > 0) {
        lanes = std::min(lanes, layout_.emitter_words);
        return (sh::kVmSpaceEmitterField << sh::kVmBuiltinSpaceShift) | rng_.range(0, layout_.emitter_words - lanes);
      }
      if (space == 2 && !layout_.global_offset.empty()) {
        const uint32_t g = rng_.range(0, uint32_t(layout_.global_offset.size() - 1));
        lanes = std::min(lanes, layout_.global_width[g]);
        return (sh::kVmSpaceGlobalField << sh::kVmBuiltinSpaceShift) |
               (layout_.global_offset[g] + rng_.range(0, layout_.global_width[g] - lanes));
      }
    }
  }

  void emit_clamp(uint32_t dst, uint32_t lanes) {
    const uint32_t kinds[3] = {sh::kVmKindReg, sh::kVmKindImm, sh::kVmKindImm};
    code_.push_back(Instruction{{word0(uint32_t(Op::CLAMP), lanes, kinds, dst), dst | (sh::kVmSwizzleIdentity << 8),
                                 bits(-kGeneratorBound), bits(kGeneratorBound)}});
  }

  // STORE_FIELD of a written register range (or an immediate) into a random field range.
  void emit_store() {
    const uint32_t f = rng_.range(0, uint32_t(layout_.field_start.size() - 1));
    const uint32_t lanes = rng_.range(1, layout_.field_width[f]);
    const uint32_t offset = layout_.field_start[f] + rng_.range(0, layout_.field_width[f] - lanes);
    emit_store_to(offset, lanes);
  }

  void emit_store_to(uint32_t offset, uint32_t lanes) {
    auto [kind, word] = value_source(lanes);
    const uint32_t kinds[3] = {sh::kVmKindNone, kind, sh::kVmKindNone};
    code_.push_back(Instruction{{word0(uint32_t(Op::STORE_FIELD), lanes, kinds, 0), offset, word, 0}});
    mark_stored(offset, lanes);
  }

  bool stored(uint32_t offset, uint32_t lanes) const {
    for (uint32_t k = 0; k < lanes; ++k)
      if (!stored_.test(offset + k)) return false;
    return true;
  }
  void mark_stored(uint32_t offset, uint32_t lanes) {
    for (uint32_t k = 0; k < lanes; ++k) stored_.set(offset + k);
  }

  // The engine builtins EVAL may read (docs/design/isa.md, "EVAL"): not DT, not the event payload.
  static bool eval_builtin(uint32_t id) {
    const isa::Builtin b = isa::builtin_info(id)->builtin;
    return b != isa::Builtin::DT && b != isa::Builtin::EVENT_POSITION && b != isa::Builtin::EVENT_VELOCITY &&
           b != isa::Builtin::EVENT_COLOR && b != isa::Builtin::EVENT_ID;
  }

  Rng& rng_;
  Rng& event_rng_;
  Rng hash_rng_;  // HASH's own stream (emit_hashes)
  const GeneratorOptions& o_;
  Program& p_;
  const Layout& layout_;
  Section section_;
  std::vector<Instruction>& code_;
  std::bitset<256> written_;
  std::bitset<256> stored_;  // record words stored so far (what EVAL may read back)
};

// Registers, the particle, emitter and global layouts and the constant pool of a program.
Program random_layout(Rng& rng, const GeneratorOptions& options, Layout& layout) {
  Program p;
  p.register_count = rng.range(std::max(options.min_registers, 8u), std::min(options.max_registers, 256u));

  // Particle fields: widths 1..4 all present (shuffled), then more while the record fits the
  // default 32-word stride.
  std::vector<uint32_t> widths = {1, 2, 3, 4};
  for (uint32_t i = 3; i > 0; --i) std::swap(widths[i], widths[rng.range(0, i)]);
  uint32_t total = 1 + 10;
  while (widths.size() < 8) {
    const uint32_t w = rng.range(1, 4);
    if (total + w > 32) break;
    widths.push_back(w);
    total += w;
  }
  uint32_t start = 1;
  for (size_t i = 0; i < widths.size(); ++i) {
    p.particle_fields.push_back(FieldDecl{"f" + std::to_string(i), widths[i]});
    layout.field_start.push_back(start);
    layout.field_width.push_back(widths[i]);
    start += widths[i];
  }
  const uint32_t emitter_count = rng.range(1, 3);
  for (uint32_t i = 0; i < emitter_count; ++i) {
    const uint32_t w = rng.range(1, 4);
    p.emitter_fields.push_back(FieldDecl{"e" + std::to_string(i), w});
    layout.emitter_words += w;
  }
  // Linked globals: imports kept as documentation, offsets packed from a random start.
  const uint32_t global_count = rng.range(1, 3);
  uint32_t offset = rng.range(0, 5);
  for (uint32_t i = 0; i < global_count; ++i) {
    const uint32_t w = rng.range(1, 4);
    p.global_imports.push_back(GlobalImport{"g" + std::to_string(i), w});
    layout.global_offset.push_back(offset);
    layout.global_width.push_back(w);
    offset += w;
  }
  const uint32_t vec4s = rng.range(1, 8);
  for (uint32_t i = 0; i < vec4s * 4; ++i) p.constants.push_back(bits(rng.uniform(-20.0f, 20.0f)));
  return p;
}

}  // namespace

Program generate_random_program(uint64_t seed, const GeneratorOptions& options) {
  Rng rng(seed ^ 0x6D6F74652D766Dull);
  Layout layout;
  Program p = random_layout(rng, options, layout);
  Rng event_rng(seed ^ 0x4556454E54ull);  // "EVENT": EMIT_EVENT's own stream (SectionBuilder::emit_events)
  SectionBuilder(rng, event_rng, options, p, layout, Section::kInit, seed ^ 0x48415348494Eull).build();
  SectionBuilder(rng, event_rng, options, p, layout, Section::kUpdate, seed ^ 0x484153485550ull).build();
  return p;
}

Program generate_random_eval_program(uint64_t seed, const GeneratorOptions& options) {
  Rng rng(seed ^ 0x6D6F74652D6576ull);  // "mote-ev": its own stream, apart from the stateful programs'
  Layout layout;
  Program p = random_layout(rng, options, layout);
  Rng event_rng(seed);  // unused: EVAL sends no events
  SectionBuilder(rng, event_rng, options, p, layout, Section::kEval, seed ^ 0x484153484556ull).build();
  return p;
}

uint32_t generated_global_field_words(const Program& program) {
  // The generator reads globals only inside [0, 5 + sum of widths): size the section to that.
  uint32_t words = 5;
  for (const GlobalImport& g : program.global_imports) words += g.width;
  return words;
}

namespace {

VectorField hashed_field(std::array<uint32_t, 3> size, std::array<float, 3> lo, std::array<float, 3> hi,
                         uint64_t seed) {
  VectorField f{.size = size, .box_min = lo, .box_max = hi, .vectors = {}};
  Rng rng(seed);
  f.vectors.resize(size_t(size[0]) * size[1] * size[2] * 3);
  for (float& v : f.vectors) v = rng.uniform(-4.0f, 4.0f);
  return f;
}

}  // namespace

const std::vector<const VectorField*>& test_vector_fields() {
  static const VectorField first = hashed_field({5, 4, 3}, {-10.0f, -5.0f, -3.0f}, {10.0f, 5.0f, 7.0f}, 0xF1E1Du);
  static const VectorField second = hashed_field({2, 3, 2}, {-1.0f, 0.0f, -30.0f}, {2.0f, 40.0f, -20.0f}, 0xF1E2Du);
  static const std::vector<const VectorField*> fields = {&first, nullptr, &second};
  return fields;
}

RunInput make_random_input(const Program& program, Section section, uint32_t count, uint64_t seed,
                           uint32_t record_words) {
  Rng rng(seed ^ 0x696E707574ull);
  auto value = [&rng]() {
    const uint32_t pick = rng.range(0, 15);
    if (pick == 0) return 0.0f;
    if (pick == 1) return 1.0f;
    if (pick == 2) return -1.0f;
    if (pick == 3) return 100.0f;
    return rng.uniform(-10.0f, 10.0f);
  };
  RunInput in;
  in.program = &program;
  in.section = section;
  in.count = count;
  in.record_words = record_words;
  const uint32_t stride = effective_record_words(in);
  const uint32_t fields_end = vm_particle_record_words(program);
  in.records.resize(size_t(count) * stride);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t* r = in.records.data() + size_t(i) * stride;
    r[0] = generated_header(i);
    for (uint32_t w = 1; w < stride; ++w) r[w] = w < fields_end ? bits(value()) : 0xDEADBEEFu;
  }
  VmEmitterContext& e = in.emitter;
  e.dt = rng.uniform(0.001f, 0.05f);
  e.time = rng.uniform(0.0f, 100.0f);
  e.emitter_age = rng.uniform(0.0f, 10.0f);
  for (float& v : e.position) v = rng.uniform(-50.0f, 50.0f);
  // Unit axes and rotation from a random rotation quaternion (exactness is not needed here).
  shader::vec4 q = shader::vm_normalize(shader::vec4(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), 1.0f));
  const shader::vec3 dir = shader::vm_qrotate(q, shader::vec3(0, 0, 1));
  const shader::vec3 up = shader::vm_qrotate(q, shader::vec3(0, 1, 0));
  for (int k = 0; k < 3; ++k) {
    e.direction[k] = dir[k];
    e.up[k] = up[k];
  }
  for (int k = 0; k < 4; ++k) e.rotation[k] = q[k];
  e.seed = uint32_t(rng.next());
  in.emitter_fields.resize(vm_emitter_field_words(program));
  for (uint32_t& w : in.emitter_fields) w = bits(value());
  in.global_fields.resize(generated_global_field_words(program));
  for (uint32_t& w : in.global_fields) w = bits(value());
  in.wind.base_velocity = {rng.uniform(-5, 5), rng.uniform(-1, 1), rng.uniform(-5, 5), 0.0f};
  in.wind.turbulence = {rng.uniform(0, 3), rng.uniform(0.05f, 1.0f), rng.uniform(0, 2), rng.uniform(0, 100)};
  in.vector_fields = test_vector_fields();
  in.depth = &test_depth_image();
  in.rng_base = uint32_t(rng.next());
  in.first_particle_index = rng.range(0, 1u << 20);
  return in;
}

}  // namespace mote
