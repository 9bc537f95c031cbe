#include "vm_gpu/kernels/glsl_compiler.hpp"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <mutex>
#include <string>

#include "vm_gpu/kernels/shader_sources.hpp"

namespace mote::vm_kernels {
namespace {

// Serves `#include` from the embedded sources. For an unknown name it returns a
// result with an empty header name and the message as its data, which glslang reports as the
// include error.
class EmbeddedIncluder final : public glslang::TShader::Includer {
 public:
  IncludeResult* includeLocal(const char* requested, const char*, size_t) override { return lookup(requested); }
  IncludeResult* includeSystem(const char* requested, const char*, size_t) override { return lookup(requested); }
  void releaseInclude(IncludeResult* result) override {
    if (result) delete static_cast<std::string*>(result->userData);
    delete result;
  }

 private:
  static IncludeResult* lookup(const char* requested) {
    if (std::optional<std::string_view> text = find_shader_source(requested))
      return new IncludeResult(requested, text->data(), text->size(), nullptr);
    auto* message =
        new std::string(std::string("no embedded source named '") + requested +
                        "' (the run-time compiler serves only the headers src/vm_gpu/kernels/CMakeLists.txt embeds)");
    return new IncludeResult("", message->data(), message->size(), message);
  }
};

std::once_flag glslang_initialised;

// Loading this library makes glslang the process's kernel compiler (kernel_compiler.hpp). The
// object lives as long as the process (never destroyed: compiles may run on worker threads
// while static destructors run).
[[maybe_unused]] const bool registered = [] {
  static const GlslCompiler* const compiler = new GlslCompiler();
  register_kernel_compiler(compiler);
  return true;
}();

}  // namespace

GlslCompiler::GlslCompiler() {
  // Process-wide and never finalised: other compilers in the process may use glslang too.
  std::call_once(glslang_initialised, [] { glslang::InitializeProcess(); });
}

Result<std::vector<uint32_t>> GlslCompiler::compile_compute(std::string_view source, std::string_view name,
                                                            const GlslCompileOptions& options) const {
  const std::string tag(name);
  const char* text = source.data();
  const int length = int(source.size());
  const char* names = tag.c_str();
  glslang::TShader shader(EShLangCompute);
  shader.setStringsWithLengthsAndNames(&text, &length, &names, 1);
  // What glslc does for every source: #include is on.
  shader.setPreamble("#extension GL_GOOGLE_include_directive : require\n");
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_3);
  shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_6);
  shader.setEntryPoint("main");
  const auto messages = EShMessages(EShMsgSpvRules | EShMsgVulkanRules);
  EmbeddedIncluder includer;
  const bool parsed = shader.parse(GetDefaultResources(), 460, ENoProfile, false, false, messages, includer);
  const std::string log = shader.getInfoLog();
  if (!parsed) return make_error(ErrorCode::kParse, "GLSL compilation failed: " + log, tag);
  // glslc -Werror: a warning in a generated kernel is a translation bug too.
  if (log.find("WARNING") != std::string::npos)
    return make_error(ErrorCode::kParse, "GLSL compilation warned: " + log, tag);
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages))
    return make_error(ErrorCode::kParse, std::string("GLSL link failed: ") + program.getInfoLog(), tag);

  std::vector<uint32_t> spirv;
  spv::SpvBuildLogger logger;
  glslang::SpvOptions spv_options;
  spv_options.disableOptimizer = !options.optimize;
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), spirv, &logger, &spv_options);
  const std::string spv_log = logger.getAllMessages();
  if (spirv.empty() || spv_log.find("error") != std::string::npos)
    return make_error(ErrorCode::kParse, "SPIR-V generation failed: " + spv_log, tag);
  return spirv;
}

}  // namespace mote::vm_kernels
