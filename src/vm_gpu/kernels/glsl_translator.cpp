#include "vm_gpu/kernels/glsl_translator.hpp"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <set>

#include "mote/isa.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_limits.h"
#include "vm_gpu/kernels/op_glsl.hpp"
#include "vm_gpu/kernels/shader_sources.hpp"

namespace mote::vm_kernels {
namespace {

constexpr std::string_view kHarness = "vm_gpu/run_compiled.comp";
constexpr std::string_view kFrameSimulateHarness = "runtime/frame/simulate.comp";
constexpr std::string_view kFrameEmitHarness = "runtime/frame/emit.comp";
constexpr std::string_view kSectionInclude = "#include \"vm_gpu/compiled_section.glsl\"";

std::string reg(uint32_t slot) { return "r" + std::to_string(slot & (shader::kVmMaxRegisters - 1u)); }

// Source s of an instruction as the interpreter's vm_read_source reads it: `width` components,
// REG through the swizzle, IMM splatted, anything else 0.
std::string source(uint32_t w0, uint32_t word, uint32_t s, uint32_t width, std::set<uint32_t>& slots) {
  const uint32_t kind = shader::vm_kind(w0, s);
  std::string lane[4] = {"0.0f", "0.0f", "0.0f", "0.0f"};
  for (uint32_t c = 0; c < width && c < 4; ++c) {
    if (kind == shader::kVmKindReg) {
      const uint32_t slot = ((word & 0xFFu) + ((word >> (8u + 2u * c)) & 3u)) & (shader::kVmMaxRegisters - 1u);
      slots.insert(slot);
      lane[c] = reg(slot);
    } else if (kind == shader::kVmKindImm) {
      lane[c] = glsl_float_bits(word);
    }
  }
  if (lane[0] == "0.0f" && lane[1] == "0.0f" && lane[2] == "0.0f" && lane[3] == "0.0f") return "vec4(0.0f)";
  return "vec4(" + lane[0] + ", " + lane[1] + ", " + lane[2] + ", " + lane[3] + ")";
}

}  // namespace

Result<std::string> translate_section(const Program& program, Section section) {
  const std::vector<Instruction>& code = program.code(section);
  if (code.size() > shader::kVmMaxSectionInstructions)
    return make_error(ErrorCode::kUnsupported,
                      "section has " + std::to_string(code.size()) + " instructions; at most " +
                          std::to_string(shader::kVmMaxSectionInstructions) + " run on the GPU",
                      section_name(section));
  std::set<uint32_t> slots;  // register slots the code names
  std::array<uint32_t, 256> op_count{};
  std::string body;
  for (size_t pc = 0; pc < code.size(); ++pc) {
    const std::array<uint32_t, 4>& w = code[pc].words;
    uint32_t op = shader::vm_op(w[0]);
    if (op >= isa::kOpCount) op = uint32_t(isa::Op::NOP);  // unknown opcodes do nothing
    const isa::OpInfo& info = isa::op_info(isa::Op(op));
    const uint32_t lanes = std::clamp(shader::vm_lanes(w[0]), 1u, 4u);
    ++op_count[op];
    body += "  {  // [" + std::to_string(pc) + "] " + std::string(info.mnemonic) + "." + std::to_string(lanes) + "\n";
    // Only the value sources the opcode's row declares (a translation naming another one does
    // not compile, which the single-op parity suite would report).
    const char* names[3] = {"a", "b", "c"};
    for (uint32_t s = 0; s < 3; ++s) {
      const uint32_t width = isa::source_width(info.src[s], lanes);
      if (width > 0)
        body += std::string("    vec4 ") + names[s] + " = " + source(w[0], w[1 + s], s, width, slots) + ";\n";
    }
    body += "    vec4 r = vec4(0.0f);\n";
    const std::string statements = translate_op(info.op, OpSite{lanes, w, program.constants});
    if (!statements.empty()) body += "    " + statements + "\n";
    body += "    vm_trace(" + std::to_string(pc) + "u, r);\n";
    const uint32_t written = info.dst == isa::DstRule::kDstLanes    ? lanes
                             : info.dst == isa::DstRule::kDstScalar ? 1u
                                                                    : 0u;
    if (written > 0) {
      body += "   ";
      for (uint32_t k = 0; k < written; ++k) {
        const uint32_t slot = (shader::vm_dst(w[0]) + k) & (shader::kVmMaxRegisters - 1u);
        slots.insert(slot);
        body += " " + reg(slot) + " = r." + "xyzw"[k] + ";";
      }
      body += "\n";
    }
    body += "  }\n";
  }

  char title[160];
  std::snprintf(title, sizeof(title), "// Program %016" PRIx64 ", section %s: %zu instructions, %zu register slots.\n",
                program.hash(), section_name(section), code.size(), slots.size());
  std::string text = title;
  text += "// Translated by mote::vm_kernels::translate_section (src/vm_gpu/kernels/glsl_translator.cpp).\n";
  // EMIT_EVENT's counts per output, as the interpreter keeps them (shaders/vm_gpu/interpreter.glsl):
  // the includer reads them after the run.
  text += "uvec4 vm_event_counts;\n";
  text += "bool vm_compiled_run() {\n  bool vm_killed = false;\n  vm_event_counts = uvec4(0u);\n";
  // Registers start at zero for every particle, as in the reference.
  std::string regs;
  for (uint32_t slot : slots) {
    if (regs.size() > 80) {
      text += "  float" + regs + ";\n";
      regs.clear();
    }
    regs += (regs.empty() ? " " : ", ") + reg(slot) + " = 0.0f";
  }
  if (!regs.empty()) text += "  float" + regs + ";\n";
  text += body;
  // The code is straight-line: a particle that got here executed each instruction once.
  for (uint32_t op = 0; op < op_count.size(); ++op)
    if (op_count[op] > 0)
      text += "  vm_count_ops(" + std::to_string(op) + "u, " + std::to_string(op_count[op]) + "u);\n";
  text += "  return vm_killed;\n}\n";
  return text;
}

Result<std::string> translate_to_glsl(const Program& program, Section section, KernelHarness harness) {
  MOTE_TRY_ASSIGN(std::string function, translate_section(program, section));
  const std::string_view name = harness == KernelHarness::kFrameSimulate ? kFrameSimulateHarness
                                : harness == KernelHarness::kFrameEmit   ? kFrameEmitHarness
                                                                         : kHarness;
  const std::optional<std::string_view> source = find_shader_source(name);
  if (!source)
    return make_error(ErrorCode::kInternal, "the compiled kernels' harness was not embedded", std::string(name));
  std::string kernel(*source);
  const size_t at = kernel.find(kSectionInclude);
  if (at == std::string::npos)
    return make_error(ErrorCode::kInternal, "the harness does not include vm_gpu/compiled_section.glsl",
                      std::string(name));
  kernel.replace(at, kSectionInclude.size(), function);
  if (harness != KernelHarness::kRunProgram) {
    // The frame's passes are also built as the interpreter (at build time, without the define):
    // the define, right after #version, selects the compiled path.
    const size_t line_end = kernel.find('\n');
    if (kernel.compare(0, 8, "#version") != 0 || line_end == std::string::npos)
      return make_error(ErrorCode::kInternal, "the frame harness does not start with #version", std::string(name));
    kernel.insert(line_end + 1, "#define FRAME_COMPILED 1\n");
  }
  return kernel;
}

}  // namespace mote::vm_kernels
