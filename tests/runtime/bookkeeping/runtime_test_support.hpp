// Program builders and image checks shared by the runtime tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "mote/assembly.hpp"
#include "mote/link.hpp"
#include "runtime/bookkeeping/program_heap.hpp"
#include "mote/verifier.hpp"

namespace mote::runtime::test {

struct ProgramSpec {
  uint32_t variant = 0;         // makes the content distinct (a constant's value)
  uint32_t constant_vec4s = 1;  // >= 1: the variant lives in the first one
  uint32_t extra_update = 0;    // extra instructions in UPDATE
  uint32_t emitter_fields = 0;  // width-1 emitter fields
  std::vector<std::pair<std::string, uint32_t>> globals;
  uint32_t registers = 8;
};

inline Program make_program(const ProgramSpec& spec) {
  static const char* kLanes[] = {"", "x", "xy", "xyz", "xyzw"};
  std::string text = ".registers " + std::to_string(spec.registers) + "\n.particle position 3\n";
  for (uint32_t i = 0; i < spec.emitter_fields; ++i) text += ".emitter e" + std::to_string(i) + " 1\n";
  for (const auto& [name, width] : spec.globals) text += ".global " + name + " " + std::to_string(width) + "\n";
  for (uint32_t i = 0; i < spec.constant_vec4s; ++i)
    text += ".const " + std::to_string(i == 0 ? spec.variant : i) + " 1 2 3\n";
  text += ".init\n  LOAD_BUILTIN r0.xyz, EMITTER_POSITION\n  STORE_FIELD @position, r0.xyz\n";
  text += ".update\n  LOAD_FIELD r0.xyz, @position\n";
  for (const auto& [name, width] : spec.globals)
    text += "  LOAD_BUILTIN r4." + std::string(kLanes[width]) + ", global:" + name + "\n";
  for (uint32_t i = 0; i < spec.extra_update; ++i) text += "  LOAD_BUILTIN r6.x, DT\n";
  text += "  STORE_FIELD @position, r0.xyz\n";
  Result<Program> p = assemble(text);
  EXPECT_TRUE(p.ok()) << p.error().to_string() << "\n" << text;
  return p.ok() ? *p : Program{};
}

// Rebuilds a placed program from the heap image alone (as a GPU pass would read it) and
// checks it against the keyed program linked to the layout, and the verifier in linked mode.
inline void expect_placed_matches(const ProgramHeap& heap, ProgramHandle handle) {
  const Program& key = heap.program(handle);
  const Placement& p = heap.placement(handle);
  std::vector<uint32_t> offsets;
  ASSERT_TRUE(heap.globals().offsets_of(key.global_imports, offsets).ok());
  Result<Program> linked = link_globals(key, offsets);
  ASSERT_TRUE(linked.ok());
  const std::span<const uint32_t> image = heap.image();

  Program placed = key;  // layouts from the key; words from the image
  placed.constants.assign(image.begin() + heap.constants_base() + p.constants_offset,
                          image.begin() + heap.constants_base() + p.constants_offset + p.constants_length);
  auto read_code = [&](uint32_t offset, uint32_t length) {
    std::vector<Instruction> code(length / 4);
    for (size_t i = 0; i < code.size(); ++i)
      for (size_t w = 0; w < 4; ++w) code[i].words[w] = image[heap.code_base() + offset + i * 4 + w];
    return code;
  };
  placed.init = read_code(p.init_offset, p.init_length);
  placed.update = read_code(p.update_offset, p.update_length);
  EXPECT_EQ(p.update_offset, p.init_offset + p.init_length);
  EXPECT_EQ(placed, *linked) << "program id " << p.program_id;
  const Status verified = verify_program(placed, {.linked = true, .global_field_words = heap.global_field_words()});
  EXPECT_TRUE(verified.ok()) << verified.error().to_string();
}

}  // namespace mote::runtime::test
