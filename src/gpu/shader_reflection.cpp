#include "gpu/shader_reflection.hpp"

#include <spirv_cross/spirv_cross_c.h>

#include <algorithm>
#include <memory>

namespace mote::gpu {
namespace {

struct ContextDeleter {
  void operator()(spvc_context ctx) const { spvc_context_destroy(ctx); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<spvc_context>, ContextDeleter>;

Error spvc_error(spvc_context ctx, const char* what) {
  return make_error(ErrorCode::kFormat, std::string(what) + ": " + spvc_context_get_last_error_string(ctx));
}

void collect_struct(spvc_compiler compiler, spvc_type_id type_id, ShaderReflection& out, int depth) {
  if (depth > 16) return;
  spvc_type type = spvc_compiler_get_type_handle(compiler, type_id);
  if (spvc_type_get_basetype(type) != SPVC_BASETYPE_STRUCT) return;
  // Arrays and pointers of a struct share its name through the base type id.
  spvc_type_id base_id = spvc_type_get_base_type_id(type);
  std::string name = spvc_compiler_get_name(compiler, base_id);
  if (name.empty() || out.structs.count(name)) return;
  std::vector<ReflectedMember> members;
  const unsigned n = spvc_type_get_num_member_types(type);
  for (unsigned i = 0; i < n; ++i) {
    unsigned offset = 0;
    if (spvc_compiler_type_struct_member_offset(compiler, type, i, &offset) != SPVC_SUCCESS) continue;
    members.push_back({spvc_compiler_get_member_name(compiler, base_id, i), offset});
  }
  out.structs.emplace(name, std::move(members));
  for (unsigned i = 0; i < n; ++i) collect_struct(compiler, spvc_type_get_member_type(type, i), out, depth + 1);
}

}  // namespace

const ReflectedBinding* ShaderReflection::find_binding(uint32_t set, uint32_t binding) const {
  for (const auto& b : bindings)
    if (b.set == set && b.binding == binding) return &b;
  return nullptr;
}

Result<ShaderReflection> reflect_spirv(std::span<const uint32_t> words) {
  spvc_context raw_ctx = nullptr;
  if (spvc_context_create(&raw_ctx) != SPVC_SUCCESS)
    return make_error(ErrorCode::kOutOfMemory, "spvc_context_create failed");
  ContextPtr ctx(raw_ctx);
  spvc_parsed_ir ir = nullptr;
  if (spvc_context_parse_spirv(raw_ctx, words.data(), words.size(), &ir) != SPVC_SUCCESS)
    return spvc_error(raw_ctx, "SPIR-V parse");
  spvc_compiler compiler = nullptr;
  if (spvc_context_create_compiler(raw_ctx, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler) !=
      SPVC_SUCCESS)
    return spvc_error(raw_ctx, "SPIR-V reflection");

  ShaderReflection out;
  switch (spvc_compiler_get_execution_model(compiler)) {
    case SpvExecutionModelGLCompute: out.stage = VK_SHADER_STAGE_COMPUTE_BIT; break;
    case SpvExecutionModelVertex: out.stage = VK_SHADER_STAGE_VERTEX_BIT; break;
    case SpvExecutionModelFragment: out.stage = VK_SHADER_STAGE_FRAGMENT_BIT; break;
    default: return make_error(ErrorCode::kUnsupported, "SPIR-V execution model not used by Mote");
  }
  if (out.stage == VK_SHADER_STAGE_COMPUTE_BIT)
    for (unsigned i = 0; i < 3; ++i)
      out.local_size[i] = spvc_compiler_get_execution_mode_argument_by_index(compiler, SpvExecutionModeLocalSize, i);

  spvc_resources resources = nullptr;
  if (spvc_compiler_create_shader_resources(compiler, &resources) != SPVC_SUCCESS)
    return spvc_error(raw_ctx, "SPIR-V resources");

  struct Kind {
    spvc_resource_type resource;
    VkDescriptorType descriptor;
  };
  const Kind kinds[] = {
      {SPVC_RESOURCE_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
      {SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
      {SPVC_RESOURCE_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
      {SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER},
      {SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE},
      {SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, VK_DESCRIPTOR_TYPE_SAMPLER},
  };
  for (const Kind& kind : kinds) {
    const spvc_reflected_resource* list = nullptr;
    size_t count = 0;
    if (spvc_resources_get_resource_list_for_type(resources, kind.resource, &list, &count) != SPVC_SUCCESS)
      return spvc_error(raw_ctx, "SPIR-V resource list");
    for (size_t i = 0; i < count; ++i) {
      ReflectedBinding b;
      b.set = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationDescriptorSet);
      b.binding = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationBinding);
      b.type = kind.descriptor;
      b.name = list[i].name ? list[i].name : "";
      spvc_type type = spvc_compiler_get_type_handle(compiler, list[i].type_id);
      b.count = 1;
      for (unsigned d = 0; d < spvc_type_get_num_array_dimensions(type); ++d)
        b.count *= std::max<uint32_t>(1, spvc_type_get_array_dimension(type, d));
      if (kind.resource == SPVC_RESOURCE_TYPE_STORAGE_BUFFER) {
        // glslang puts `readonly` on the block's members, not on the variable.
        spvc_type block = spvc_compiler_get_type_handle(compiler, list[i].base_type_id);
        const unsigned members = spvc_type_get_num_member_types(block);
        b.read_only = members > 0;
        for (unsigned m = 0; m < members; ++m)
          b.read_only = b.read_only && spvc_compiler_has_member_decoration(compiler, list[i].base_type_id, m,
                                                                           SpvDecorationNonWritable);
        collect_struct(compiler, list[i].base_type_id, out, 0);
      }
      if (kind.resource == SPVC_RESOURCE_TYPE_UNIFORM_BUFFER) collect_struct(compiler, list[i].base_type_id, out, 0);
      out.bindings.push_back(std::move(b));
    }
  }
  {
    const spvc_reflected_resource* list = nullptr;
    size_t count = 0;
    if (spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_PUSH_CONSTANT, &list, &count) !=
        SPVC_SUCCESS)
      return spvc_error(raw_ctx, "SPIR-V push constants");
    for (size_t i = 0; i < count; ++i) {
      size_t size = 0;
      spvc_type type = spvc_compiler_get_type_handle(compiler, list[i].base_type_id);
      if (spvc_compiler_get_declared_struct_size(compiler, type, &size) != SPVC_SUCCESS)
        return spvc_error(raw_ctx, "SPIR-V push constant size");
      out.push_constant_size = std::max<uint32_t>(out.push_constant_size, uint32_t(size));
      collect_struct(compiler, list[i].base_type_id, out, 0);
    }
  }
  std::sort(out.bindings.begin(), out.bindings.end(),
            [](const auto& a, const auto& b) { return std::tie(a.set, a.binding) < std::tie(b.set, b.binding); });
  // Blocks aliasing one binding (the same buffer seen as uint[] and as uvec4[]) are one
  // descriptor: merged, read-only only if every alias is.
  std::vector<ReflectedBinding> merged;
  for (ReflectedBinding& b : out.bindings) {
    if (!merged.empty() && merged.back().set == b.set && merged.back().binding == b.binding) {
      ReflectedBinding& first = merged.back();
      if (first.type != b.type || first.count != b.count)
        return make_error(ErrorCode::kInvalidArgument,
                          "set " + std::to_string(b.set) + " binding " + std::to_string(b.binding) +
                              " is declared twice with different descriptor types or counts ('" + first.name + "', '" +
                              b.name + "')");
      first.read_only = first.read_only && b.read_only;
      first.name += "|" + b.name;
      continue;
    }
    merged.push_back(std::move(b));
  }
  out.bindings = std::move(merged);
  return out;
}

}  // namespace mote::gpu
