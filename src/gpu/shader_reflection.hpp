// What a SPIR-V module declares, read with SPIRV-Cross's reflection API: descriptor bindings,
// the push-constant block size, the workgroup size and the member offsets of every struct its
// blocks use. Pipelines build their layouts from this rather than restating them (zeux/niagara
// parseShader), and the layout test compares the struct offsets against C++ offsetof.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "mote/result.hpp"

namespace mote::gpu {

struct ReflectedBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  uint32_t count = 1;
  std::string name;        // the block's instance or type name
  bool read_only = false;  // storage buffers declared `readonly`
};

struct ReflectedMember {
  std::string name;
  uint32_t offset = 0;
};

struct ShaderReflection {
  VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
  std::array<uint32_t, 3> local_size{1, 1, 1};
  uint32_t push_constant_size = 0;
  std::vector<ReflectedBinding> bindings;  // sorted by (set, binding)
  // Every struct type reachable from a block, by its declared type name.
  std::map<std::string, std::vector<ReflectedMember>> structs;

  const ReflectedBinding* find_binding(uint32_t set, uint32_t binding) const;
};

Result<ShaderReflection> reflect_spirv(std::span<const uint32_t> words);

}  // namespace mote::gpu
