// .masm text -> Program. Grammar in docs/design/isa.md ("Assembly"). One line at a time: a
// directive (`.registers`, `.particle`, ...), an instruction, or nothing; `;` starts a comment.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "core/alloc_guard.hpp"
#include "isa/encoding.hpp"
#include "isa/float_text.hpp"
#include "mote/assembly.hpp"

namespace mote {
namespace {

using isa::SrcRule;
namespace sh = mote::shader;

struct Token {
  std::string_view text;
  size_t column = 0;  // 1-based
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = char(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

// A parsed register reference: `r12` or `r12.xyz` (letters are component offsets 0..3).
struct RegRef {
  uint32_t base = 0;
  std::vector<uint32_t> components;  // empty when no `.letters` were written
};

class Assembler {
 public:
  Result<Program> run(std::string_view text) {
    size_t line_start = 0;
    size_t line_number = 0;
    while (line_start <= text.size()) {
      size_t line_end = text.find('\n', line_start);
      if (line_end == std::string_view::npos) line_end = text.size();
      ++line_number;
      line_ = line_number;
      MOTE_TRY(line(text.substr(line_start, line_end - line_start)));
      line_start = line_end + 1;
    }
    return std::move(program_);
  }

 private:
  Error error(const std::string& message, size_t column = 0) const {
    std::string where = "line " + std::to_string(line_);
    if (column > 0) where += ":" + std::to_string(column);
    return make_error(ErrorCode::kParse, message, std::move(where));
  }
  Error error(const std::string& message, const Token& t) const { return error(message, t.column); }

  // Splits `s` (starting at 1-based column `column`) at whitespace, and at commas too when
  // `commas` is set. Empty pieces between commas are kept so "a,,b" is an error, not "a,b".
  Result<std::vector<Token>> split(std::string_view s, size_t column, bool commas) const {
    std::vector<Token> out;
    if (!commas) {
      size_t i = 0;
      while (i < s.size()) {
        while (i < s.size() && is_space(s[i])) ++i;
        size_t start = i;
        while (i < s.size() && !is_space(s[i])) ++i;
        if (i > start) out.push_back({s.substr(start, i - start), column + start});
      }
      return out;
    }
    size_t start = 0;
    for (;;) {
      size_t comma = s.find(',', start);
      const size_t end = comma == std::string_view::npos ? s.size() : comma;
      size_t a = start, b = end;
      while (a < b && is_space(s[a])) ++a;
      while (b > a && is_space(s[b - 1])) --b;
      if (a == b) return error("empty operand", column + start);
      for (size_t k = a; k < b; ++k)
        if (is_space(s[k])) return error("unexpected space inside an operand", column + k);
      out.push_back({s.substr(a, b - a), column + a});
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return out;
  }

  Status line(std::string_view text) {
    if (size_t semi = text.find(';'); semi != std::string_view::npos) text = text.substr(0, semi);
    size_t a = 0;
    while (a < text.size() && is_space(text[a])) ++a;
    size_t b = text.size();
    while (b > a && is_space(text[b - 1])) --b;
    if (a == b) return ok_status();
    for (size_t k = a; k < b; ++k)
      if (static_cast<unsigned char>(text[k]) < 0x20 && !is_space(text[k]))
        return error("control character in the text", k + 1);
    size_t head_end = a;
    while (head_end < b && !is_space(text[head_end])) ++head_end;
    const Token head{text.substr(a, head_end - a), a + 1};
    size_t rest = head_end;
    while (rest < b && is_space(text[rest])) ++rest;
    const std::string_view rest_text = text.substr(rest, b - rest);
    if (head.text[0] == '.') {
      MOTE_TRY_ASSIGN(std::vector<Token> args, split(rest_text, rest + 1, false));
      // Directives separate arguments with spaces; tolerate commas as well (".const 1, 2").
      std::vector<Token> cleaned;
      for (Token t : args) {
        size_t start = 0;
        while (start <= t.text.size()) {
          size_t comma = t.text.find(',', start);
          size_t end = comma == std::string_view::npos ? t.text.size() : comma;
          if (end > start) cleaned.push_back({t.text.substr(start, end - start), t.column + start});
          if (comma == std::string_view::npos) break;
          start = comma + 1;
        }
      }
      return directive(head, cleaned);
    }
    std::vector<Token> operands;
    if (!rest_text.empty()) {
      MOTE_TRY_ASSIGN(operands, split(rest_text, rest + 1, true));
    }
    return instruction(head, operands);
  }

  Status expect_args(const Token& head, const std::vector<Token>& args, size_t n) const {
    if (args.size() != n)
      return error(std::string(head.text) + " takes " + std::to_string(n) + " argument(s), got " +
                       std::to_string(args.size()),
                   head);
    return ok_status();
  }

  Result<uint32_t> u32_arg(const Token& t) const {
    if (auto v = isa::parse_u32(t.text)) return *v;
    return error("expected an unsigned integer, got '" + std::string(t.text) + "'", t);
  }

  Result<std::string> name_arg(const Token& t) const {
    if (!isa::is_identifier(t.text))
      return error("expected a name ([A-Za-z_][A-Za-z0-9_]*), got '" + std::string(t.text) + "'", t);
    return std::string(t.text);
  }

  Status directive(const Token& head, const std::vector<Token>& args) {
    const std::string_view d = head.text;
    if (d == ".registers") {
      MOTE_TRY(expect_args(head, args, 1));
      if (registers_seen_) return error(".registers given twice", head);
      registers_seen_ = true;
      MOTE_TRY_ASSIGN(program_.register_count, u32_arg(args[0]));
      return ok_status();
    }
    if (d == ".particle" || d == ".emitter" || d == ".global") {
      MOTE_TRY(expect_args(head, args, 2));
      MOTE_TRY_ASSIGN(std::string name, name_arg(args[0]));
      MOTE_TRY_ASSIGN(uint32_t width, u32_arg(args[1]));
      if (d == ".particle") program_.particle_fields.push_back({std::move(name), width});
      else if (d == ".emitter") program_.emitter_fields.push_back({std::move(name), width});
      else program_.global_imports.push_back({std::move(name), width});
      return ok_status();
    }
    if (d == ".const") {
      if (args.empty() || args.size() > 4)
        return error(".const takes 1 to 4 values (normally 4: one vec4), got " + std::to_string(args.size()), head);
      for (const Token& t : args) {
        auto bits = isa::parse_f32(t.text);
        if (!bits) return error("expected a float or f32:0x bits, got '" + std::string(t.text) + "'", t);
        program_.constants.push_back(*bits);
      }
      return ok_status();
    }
    if (d == ".init" || d == ".update" || d == ".eval") {
      MOTE_TRY(expect_args(head, args, 0));
      section_ = d == ".init" ? Section::kInit : d == ".update" ? Section::kUpdate : Section::kEval;
      in_section_ = true;
      return ok_status();
    }
    if (d == ".word") {
      MOTE_TRY(expect_args(head, args, 4));
      if (!in_section_) return error("instruction outside .init/.update/.eval", head);
      Instruction inst;
      for (size_t i = 0; i < 4; ++i) {
        MOTE_TRY_ASSIGN(inst.words[i], u32_arg(args[i]));
      }
      program_.code(section_).push_back(inst);
      return ok_status();
    }
    return error("unknown directive '" + std::string(d) + "'", head);
  }

  Result<RegRef> reg(const Token& t) const {
    const std::string_view s = t.text;
    if (s.size() < 2 || s[0] != 'r' || !std::isdigit(static_cast<unsigned char>(s[1])))
      return error("expected a register rN, got '" + std::string(s) + "'", t);
    size_t i = 1;
    uint32_t base = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      base = base * 10 + uint32_t(s[i] - '0');
      if (base > 255 || i > 3) return error("register number above 255", t);
      ++i;
    }
    RegRef r{base, {}};
    if (i == s.size()) return r;
    if (s[i] != '.' || i + 1 == s.size() || s.size() - i - 1 > 4)
      return error("expected rN or rN.xyzw, got '" + std::string(s) + "'", t);
    for (++i; i < s.size(); ++i) {
      const char* letter = std::find(std::begin(isa::kSwizzleLetters), std::end(isa::kSwizzleLetters), s[i]);
      if (letter == std::end(isa::kSwizzleLetters))
        return error("swizzle letter '" + std::string(1, s[i]) + "' is not x, y, z or w", t.column + i);
      r.components.push_back(uint32_t(letter - isa::kSwizzleLetters));
    }
    return r;
  }

  static bool looks_like_reg(std::string_view s) {
    return s.size() >= 2 && s[0] == 'r' && std::isdigit(static_cast<unsigned char>(s[1]));
  }

  // Lanes of an op whose dst does not say: `.N`, a fixed range, the first written-out kVal
  // register, a named field's width, or (ops reading no kVal at all) lanes_min.
  Result<uint32_t> infer_lanes(const isa::OpInfo& info, const Token& head, const std::vector<Token>& srcs) const {
    if (info.lanes_min == info.lanes_max) return uint32_t(info.lanes_min);
    bool has_val = false;
    // The register first: the disassembler relies on it when it leaves out the suffix.
    for (size_t k = 0, s = 0; s < 3; ++s) {
      if (info.src[s] == SrcRule::kUnused) continue;
      const Token& t = srcs[k++];
      if (info.src[s] != SrcRule::kVal) continue;
      has_val = true;
      if (looks_like_reg(t.text)) {
        MOTE_TRY_ASSIGN(RegRef r, reg(t));
        if (!r.components.empty()) return uint32_t(r.components.size());
      }
    }
    for (size_t k = 0, s = 0; s < 3; ++s) {
      if (info.src[s] == SrcRule::kUnused) continue;
      const Token& t = srcs[k++];
      if (info.src[s] == SrcRule::kField && t.text.size() > 1 && t.text[0] == '@') {
        if (auto i = field_index(t.text.substr(1))) {
          const uint32_t width = program_.particle_fields[*i].width;
          if (width >= 1 && width <= 4) return width;
        }
      }
    }
    if (!has_val) return uint32_t(info.lanes_min);
    return error("cannot tell the lane count: write " + std::string(info.mnemonic) + ".N", head);
  }

  std::optional<size_t> field_index(std::string_view name) const {
    for (size_t i = 0; i < program_.particle_fields.size(); ++i)
      if (program_.particle_fields[i].name == name) return i;
    return std::nullopt;
  }

  Status instruction(const Token& head, const std::vector<Token>& operands) {
    if (!in_section_) return error("instruction outside .init/.update/.eval", head);
    std::string_view mnemonic = head.text;
    std::optional<uint32_t> suffix;
    if (size_t dot = mnemonic.find('.'); dot != std::string_view::npos) {
      const std::string_view n = mnemonic.substr(dot + 1);
      if (n.size() != 1 || n[0] < '1' || n[0] > '4')
        return error("lane suffix must be .1 to .4, got '." + std::string(n) + "'", head.column + dot);
      suffix = uint32_t(n[0] - '0');
      mnemonic = mnemonic.substr(0, dot);
    }
    std::string name = upper(mnemonic);
    // Older names for the particle field ops, kept as aliases (docs/design/isa.md, ".masm
    // assembly").
    if (name == "LOAD_ATTR") name = "LOAD_FIELD";
    if (name == "STORE_ATTR") name = "STORE_FIELD";
    const std::optional<isa::Op> op = isa::op_from_mnemonic(name);
    if (!op) return error("unknown mnemonic '" + std::string(mnemonic) + "'", head);
    const isa::OpInfo& info = isa::op_info(*op);

    size_t expected = info.dst == isa::DstRule::kDstNone ? 0 : 1;
    for (SrcRule rule : info.src) expected += rule != SrcRule::kUnused;
    if (operands.size() != expected)
      return error(std::string(info.mnemonic) + " takes " + std::to_string(expected) + " operand(s), got " +
                       std::to_string(operands.size()),
                   head);
    const std::vector<Token> srcs(operands.begin() + (info.dst == isa::DstRule::kDstNone ? 0 : 1), operands.end());

    uint32_t lanes = 0;
    uint32_t dst = 0;
    if (info.dst != isa::DstRule::kDstNone) {
      MOTE_TRY_ASSIGN(RegRef d, reg(operands[0]));
      dst = d.base;
      for (size_t i = 0; i < d.components.size(); ++i)
        if (d.components[i] != i) return error("destination mask must be x, xy, xyz or xyzw", operands[0]);
      if (info.dst == isa::DstRule::kDstLanes) {
        if (!d.components.empty()) {
          lanes = uint32_t(d.components.size());
        } else if (suffix) {
          lanes = *suffix;
        } else if (info.lanes_min == info.lanes_max) {
          lanes = info.lanes_min;
        } else {
          return error("destination needs a mask (.x, .xy, .xyz, .xyzw) to give the lane count", operands[0]);
        }
        if (suffix && *suffix != lanes) return error("lane suffix disagrees with the destination mask", head);
      } else if (d.components.size() > 1) {
        return error(std::string(info.mnemonic) + " writes one register: destination is rN or rN.x", operands[0]);
      }
    }
    if (lanes == 0) {
      if (suffix) {
        lanes = *suffix;
      } else {
        MOTE_TRY_ASSIGN(lanes, infer_lanes(info, head, srcs));
      }
    }

    Instruction inst;
    uint32_t kinds[3] = {0, 0, 0};
    for (size_t k = 0, s = 0; s < 3; ++s) {
      if (info.src[s] == SrcRule::kUnused) continue;
      MOTE_TRY(source(info.src[s], lanes, srcs[k++], kinds[s], inst.words[1 + s]));
    }
    inst.words[0] = isa::make_word0(uint32_t(*op), lanes, kinds, dst);
    program_.code(section_).push_back(inst);
    return ok_status();
  }

  Status source(SrcRule rule, uint32_t lanes, const Token& t, uint32_t& kind, uint32_t& word) const {
    const std::string_view s = t.text;
    if (isa::is_value_rule(rule)) {
      const uint32_t width = isa::source_width(rule, lanes);
      if (looks_like_reg(s)) {
        MOTE_TRY_ASSIGN(RegRef r, reg(t));
        uint32_t c[4] = {0, 1, 2, 3};
        if (r.components.size() == width) {
          std::copy(r.components.begin(), r.components.end(), c);
        } else if (r.components.size() == 1) {  // rN.y in a 3-wide operand: rN.yyy
          std::fill(c, c + width, r.components[0]);
        } else if (!r.components.empty()) {
          return error("swizzle has " + std::to_string(r.components.size()) + " components, the operand needs " +
                           std::to_string(width),
                       t);
        }
        kind = sh::kVmKindReg;
        word = isa::make_reg(r.base, c);
        return ok_status();
      }
      auto bits = isa::parse_f32(s);
      if (!bits) return error("expected a register or an immediate, got '" + std::string(s) + "'", t);
      kind = sh::kVmKindImm;
      word = *bits;
      return ok_status();
    }
    kind = sh::kVmKindNone;
    switch (rule) {
      case SrcRule::kField: {
        if (s.size() < 2 || s[0] != '@') return error("expected a particle field @name or @offset", t);
        const std::string_view rest = s.substr(1);
        if (std::isdigit(static_cast<unsigned char>(rest[0]))) {
          auto v = isa::parse_u32(rest);
          if (!v) return error("bad field offset '" + std::string(rest) + "'", t);
          word = *v;
          return ok_status();
        }
        auto offset = program_.particle_field_offset(rest);
        if (!offset) return error("unknown particle field '" + std::string(rest) + "'", t);
        word = *offset;
        return ok_status();
      }
      case SrcRule::kConst: {
        if (s.size() < 4 || s.substr(0, 2) != "c[" || s.back() != ']')
          return error("expected a constant index c[N]", t);
        auto v = isa::parse_u32(s.substr(2, s.size() - 3));
        if (!v) return error("bad constant index", t);
        word = *v;
        return ok_status();
      }
      case SrcRule::kDraw: {
        auto v = s.size() > 1 && s[0] == '#' ? isa::parse_u32(s.substr(1)) : std::nullopt;
        if (!v) return error("expected a draw index #N", t);
        word = *v;
        return ok_status();
      }
      case SrcRule::kCmp: {
        const std::string u = upper(s);
        for (uint32_t c = 0; c < isa::kCmpCodeCount; ++c)
          if (u == isa::kCmpNames[c]) {
            word = c;
            return ok_status();
          }
        return error("expected a comparison LT, LE, EQ, NE, GE or GT", t);
      }
      case SrcRule::kEvent: {
        auto v = s.size() > 3 && s.substr(0, 2) == "e[" && s.back() == ']' ? isa::parse_u32(s.substr(2, s.size() - 3))
                                                                           : std::nullopt;
        if (!v || *v >= sh::kVmEventOutputs)
          return error("expected an event output e[N], N < " + std::to_string(sh::kVmEventOutputs), t);
        word = *v;
        return ok_status();
      }
      case SrcRule::kVectorField: {
        auto v = s.size() > 3 && s.substr(0, 2) == "v[" && s.back() == ']' ? isa::parse_u32(s.substr(2, s.size() - 3))
                                                                           : std::nullopt;
        if (!v || *v >= sh::kVmVectorFields)
          return error("expected a vector field slot v[N], N < " + std::to_string(sh::kVmVectorFields), t);
        word = *v;
        return ok_status();
      }
      case SrcRule::kBuiltin: return builtin(t, word);
      default: return error("internal: unexpected operand rule", t);
    }
  }

  Result<uint32_t> index16(std::string_view text, const Token& t) const {
    auto v = isa::parse_u32(text);
    if (!v || *v > sh::kVmBuiltinIndexMask) return error("expected an index 0..65535", t);
    return *v;
  }

  Status builtin(const Token& t, uint32_t& word) const {
    const std::string_view s = t.text;
    auto starts = [&](std::string_view p) { return s.substr(0, p.size()) == p; };
    uint32_t index = 0;
    if (starts("emitter:@") || starts("emitter@")) {
      MOTE_TRY_ASSIGN(index, index16(s.substr(s.find('@') + 1), t));
      word = isa::make_builtin(sh::kVmSpaceEmitterField, index);
    } else if (starts("emitter:")) {
      auto offset = program_.emitter_field_offset(s.substr(8));
      if (!offset) return error("unknown emitter field '" + std::string(s.substr(8)) + "'", t);
      if (*offset > sh::kVmBuiltinIndexMask) return error("emitter field offset above 65535", t);
      word = isa::make_builtin(sh::kVmSpaceEmitterField, *offset);
    } else if (starts("global:@") || starts("global@")) {
      MOTE_TRY_ASSIGN(index, index16(s.substr(s.find('@') + 1), t));
      word = isa::make_builtin(sh::kVmSpaceGlobalField, index);
    } else if (starts("global:#")) {
      MOTE_TRY_ASSIGN(index, index16(s.substr(8), t));
      word = isa::make_builtin(sh::kVmSpaceGlobalImport, index);
    } else if (starts("global:")) {
      const std::string_view name = s.substr(7);
      const auto& imports = program_.global_imports;
      auto it = std::find_if(imports.begin(), imports.end(), [&](const GlobalImport& g) { return g.name == name; });
      if (it == imports.end()) return error("unknown global import '" + std::string(name) + "'", t);
      if (size_t(it - imports.begin()) > sh::kVmBuiltinIndexMask) return error("import index above 65535", t);
      word = isa::make_builtin(sh::kVmSpaceGlobalImport, uint32_t(it - imports.begin()));
    } else {
      auto b = isa::builtin_from_name(upper(s));
      if (!b) return error("unknown builtin '" + std::string(s) + "'", t);
      word = isa::make_builtin(sh::kVmSpaceEngine, uint32_t(*b));
    }
    return ok_status();
  }

  Program program_;
  size_t line_ = 0;
  bool registers_seen_ = false;
  bool in_section_ = false;
  Section section_ = Section::kInit;
};

}  // namespace

Result<Program> assemble(std::string_view text) {
  return core::guard_allocation("assemble", [&] { return Assembler().run(text); });
}

}  // namespace mote
