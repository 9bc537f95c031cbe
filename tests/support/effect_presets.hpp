// The presets in effects/ compiled for the runtime tests. The including target defines
// MOTE_EFFECTS_DIR (the folder's absolute path).
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "mote/effect.hpp"

#ifndef MOTE_EFFECTS_DIR
#error "support/effect_presets.hpp needs MOTE_EFFECTS_DIR (target_compile_definitions)"
#endif

namespace mote::test {

// Reads and compiles effects/<name> (a file name such as "fire.json"). On a missing file or a
// compile error the test fails (non-fatally, naming the preset) and an empty effect comes back.
inline CompiledEffect load_preset(const std::string& name) {
  std::ifstream in(std::string(MOTE_EFFECTS_DIR) + "/" + name);
  std::stringstream text;
  text << in.rdbuf();
  Result<CompiledEffect> e = compile_effect(text.str());
  EXPECT_TRUE(e.ok()) << name << ": " << (e.ok() ? "" : e.error().to_string());
  return e.ok() ? std::move(e).value() : CompiledEffect{};
}

}  // namespace mote::test
