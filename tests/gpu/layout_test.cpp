// Shared C++/GLSL layouts cannot drift: the offsets the compiled SPIR-V declares for every shared
// struct must equal the C++ offsetof of the same member.
#include <gtest/gtest.h>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "gpu/embedded_shaders.hpp"
#include "gpu/shader_reflection.hpp"
#include "support/shared_layouts.hpp"

namespace mote::gpu {
namespace {

TEST(SharedLayout, SpirvOffsetsMatchCppOffsets) {
  std::map<std::string, bool> seen;
  for (const auto& expected : test::shared_layouts()) seen[expected.type] = false;
  ASSERT_FALSE(embedded_shaders().empty());
  for (const EmbeddedShader& shader : embedded_shaders()) {
    auto reflection = reflect_spirv(std::span(shader.words, shader.word_count));
    ASSERT_TRUE(reflection.ok()) << shader.name << ": " << reflection.error().to_string();
    for (const auto& expected : test::shared_layouts()) {
      auto it = reflection->structs.find(expected.type);
      if (it == reflection->structs.end()) continue;
      seen[expected.type] = true;
      for (const auto& member : it->second) {
        auto m = expected.members.find(member.name);
        ASSERT_NE(m, expected.members.end())
            << shader.name << ": " << expected.type << "." << member.name << " has no C++ counterpart";
        EXPECT_EQ(member.offset, m->second) << shader.name << ": " << expected.type << "." << member.name;
      }
      EXPECT_EQ(it->second.size(), expected.members.size())
          << shader.name << ": " << expected.type << " member count differs from C++";
    }
  }
  for (const auto& [type, found] : seen) EXPECT_TRUE(found) << type << " is declared shared but no shader uses it";
}

TEST(SharedLayout, ReflectionGivesBindingsPushConstantsAndWorkgroupSize) {
  const EmbeddedShader* shader = find_embedded_shader("gpu/selftest_saxpy");
  ASSERT_NE(shader, nullptr);
  auto r = reflect_spirv(std::span(shader->words, shader->word_count));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->local_size[0], 256u);
  EXPECT_EQ(r->push_constant_size, 16u);
  ASSERT_EQ(r->bindings.size(), 2u);
  EXPECT_EQ(r->bindings[0].binding, 0u);
  EXPECT_TRUE(r->bindings[0].read_only);
  EXPECT_EQ(r->bindings[1].type, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
}

TEST(SharedLayout, BlocksAliasingOneBindingAreOneDescriptor) {
  // The simulate pass sees the pool as uint[] and as uvec4[] (binding 7), and reads the alive
  // list only (binding 4): one descriptor each, writable where any alias writes.
  const EmbeddedShader* shader = find_embedded_shader("runtime/frame/simulate");
  ASSERT_NE(shader, nullptr);
  auto r = reflect_spirv(std::span(shader->words, shader->word_count));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  for (size_t i = 1; i < r->bindings.size(); ++i)
    EXPECT_NE(std::pair(r->bindings[i - 1].set, r->bindings[i - 1].binding),
              std::pair(r->bindings[i].set, r->bindings[i].binding));
  const ReflectedBinding* pool = r->find_binding(0, 7);
  ASSERT_NE(pool, nullptr);
  EXPECT_FALSE(pool->read_only);
  EXPECT_NE(pool->name.find('|'), std::string::npos) << pool->name << ": both aliases named";
  const ReflectedBinding* alive_in = r->find_binding(0, 4);
  ASSERT_NE(alive_in, nullptr);
  EXPECT_TRUE(alive_in->read_only);
}

TEST(SharedLayout, MalformedSpirvIsAnError) {
  std::vector<uint32_t> garbage{0x07230203u, 0x00010000u, 0, 1};
  EXPECT_FALSE(reflect_spirv(garbage).ok());
  EXPECT_FALSE(reflect_spirv(std::vector<uint32_t>{1, 2, 3}).ok());
}

}  // namespace
}  // namespace mote::gpu
