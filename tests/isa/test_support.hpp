// Builders and fixtures shared by the ISA tests.
#pragma once

#include <algorithm>
#include <bit>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/file.hpp"
#include "isa/encoding.hpp"
#include "mote/program.hpp"

namespace mote::test {

namespace sh = mote::shader;

struct Src {
  uint32_t kind = 0;
  uint32_t word = 0;
};

// A register operand: base slot and swizzle letters (identity padding for the rest).
inline Src reg(uint32_t base, std::string_view letters = "xyzw") {
  uint32_t c[4] = {0, 1, 2, 3};
  for (size_t i = 0; i < letters.size() && i < 4; ++i) c[i] = uint32_t(std::string_view("xyzw").find(letters[i]));
  return {sh::kVmKindReg, isa::make_reg(base, c)};
}
inline Src imm(float f) { return {sh::kVmKindImm, std::bit_cast<uint32_t>(f)}; }
inline Src raw(uint32_t word) { return {sh::kVmKindNone, word}; }

inline Instruction inst(isa::Op op, uint32_t lanes, uint32_t dst, Src s0 = {}, Src s1 = {}, Src s2 = {}) {
  const uint32_t kinds[3] = {s0.kind, s1.kind, s2.kind};
  Instruction i;
  i.words = {isa::make_word0(uint32_t(op), lanes, kinds, dst), s0.word, s1.word, s2.word};
  return i;
}

inline std::vector<std::pair<std::string, std::string>> example_programs() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& entry : std::filesystem::directory_iterator(MOTE_PROGRAMS_DIR)) {
    if (entry.path().extension() != ".masm") continue;
    auto text = read_file_text(entry.path().string());
    if (text) out.emplace_back(entry.path().filename().string(), std::move(*text));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace mote::test
