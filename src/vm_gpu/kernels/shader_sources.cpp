#include "vm_gpu/kernels/shader_sources.hpp"

namespace mote::vm_kernels {
namespace {

struct EmbeddedText {
  std::string_view name;
  std::string_view text;
};
#include "vm_kernels_shader_sources.inc"

}  // namespace

std::optional<std::string_view> find_shader_source(std::string_view include_name) {
  for (const EmbeddedText& t : kEmbeddedTexts)
    if (t.name == include_name) return t.text;
  return std::nullopt;
}

std::vector<std::string_view> shader_source_names() {
  std::vector<std::string_view> names;
  for (const EmbeddedText& t : kEmbeddedTexts) names.push_back(t.name);
  return names;
}

}  // namespace mote::vm_kernels
