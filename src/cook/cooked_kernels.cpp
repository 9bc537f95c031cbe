// KERN, the cooked effect's ahead-of-time kernels (docs/design/cooked.md): u32 count (at most one
// kernel per stage), then per kernel u32 stage (KernelStage), u32 x 2 the program hash (low word
// first), u32 words, the SPIR-V words. The reader refuses what a driver must never see: each
// module must pass SPIRV-Tools' validator for Vulkan 1.3 (the environment the tools' compiler
// targets, src/vm_gpu/kernels/glsl_compiler.cpp), declare one GLCompute entry point "main", be
// compiled from PROG's program (its hash) and belong to a section that program has.
#include <spirv-tools/libspirv.hpp>

#include <string>

#include "cook/byte_io.hpp"
#include "cook/cooked_format.hpp"
#include "mote/cooked_effect.hpp"

namespace mote::cook {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203u;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kExecutionModelGlCompute = 5;

std::string stage_name(KernelStage stage) { return stage == KernelStage::kEmit ? "emit" : "simulate"; }

// The module's entry points must be exactly one, GLCompute, named "main" (what the frame binds).
bool one_compute_main(std::span<const uint32_t> spirv) {
  uint32_t entries = 0;
  bool main_compute = false;
  for (size_t at = 5; at < spirv.size();) {
    const uint32_t count = spirv[at] >> 16, opcode = spirv[at] & 0xffffu;
    if (count == 0 || at + count > spirv.size()) return false;  // the validator refuses these first
    if (opcode == kOpEntryPoint && count >= 4) {
      ++entries;
      const char* name = reinterpret_cast<const char*>(&spirv[at + 3]);
      const size_t name_bytes = size_t(count - 3) * 4;
      main_compute = spirv[at + 1] == kExecutionModelGlCompute && name_bytes >= 5 && std::string(name, 4) == "main" &&
                     name[4] == '\0';
    }
    at += count;
  }
  return entries == 1 && main_compute;
}

Status validate_kernel(std::span<const uint32_t> spirv, const std::string& what, size_t at) {
  if (spirv.size() < 5 || spirv[0] != kSpirvMagic)
    return make_error(ErrorCode::kFormat, what + " is not a SPIR-V module (bad magic or shorter than its header)",
                      offset_text(at));
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string diagnostics;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& p, const char* message) {
    if (diagnostics.empty()) diagnostics = "word " + std::to_string(p.index) + ": " + message;
  });
  spvtools::ValidatorOptions options;
  // The layouts the compiled kernels are written with (shaders/vm_gpu/run_compiled.comp).
  options.SetScalarBlockLayout(true);
  if (!tools.Validate(spirv.data(), spirv.size(), options))
    return make_error(ErrorCode::kFormat, what + " does not validate: " + diagnostics, offset_text(at));
  if (!one_compute_main(spirv))
    return make_error(ErrorCode::kFormat, what + " must have one entry point, a GLCompute \"main\"", offset_text(at));
  return ok_status();
}

}  // namespace

Status read_kernels(ByteReader& in, CompiledEffect& effect) {
  const size_t count_at = in.offset();
  MOTE_TRY_ASSIGN(const uint32_t count, in.u32());
  if (count > 2) return in.error_at(std::to_string(count) + " kernels (at most one per stage: 2)", count_at);
  effect.kernels.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    CookedKernel& kernel = effect.kernels[i];
    const size_t stage_at = in.offset();
    MOTE_TRY_ASSIGN(const uint32_t stage, in.u32());
    if (stage > uint32_t(KernelStage::kSimulate))
      return in.error_at("kernel " + std::to_string(i) + " has stage " + std::to_string(stage) +
                             " (0 emit, 1 simulate)",
                         stage_at);
    kernel.stage = KernelStage(stage);
    for (uint32_t j = 0; j < i; ++j)
      if (effect.kernels[j].stage == kernel.stage)
        return in.error_at("a second " + stage_name(kernel.stage) + " kernel", stage_at);
    if (kernel.stage == KernelStage::kEmit && effect.program.init.empty())
      return in.error_at("an emit kernel for a program without an INIT section", stage_at);
    const size_t hash_at = in.offset();
    MOTE_TRY_ASSIGN(const uint32_t hash_low, in.u32());
    MOTE_TRY_ASSIGN(const uint32_t hash_high, in.u32());
    kernel.program_hash = uint64_t(hash_high) << 32 | hash_low;
    if (kernel.program_hash != effect.program.hash())
      return in.error_at("the " + stage_name(kernel.stage) + " kernel was compiled from another program than PROG's",
                         hash_at);
    const size_t words_at = in.offset();
    MOTE_TRY_ASSIGN(const uint32_t words, in.u32());
    if (words > kCookedMaxKernelWords || words > in.left() / 4)
      return in.error_at(std::to_string(words) + " SPIR-V words do not fit in KERN (at most " +
                             std::to_string(kCookedMaxKernelWords) + ")",
                         words_at);
    const size_t spirv_at = in.offset();
    kernel.spirv.resize(words);
    for (uint32_t& w : kernel.spirv) {
      MOTE_TRY_ASSIGN(w, in.u32());
    }
    MOTE_TRY(validate_kernel(kernel.spirv, "the " + stage_name(kernel.stage) + " kernel", spirv_at));
  }
  return ok_status();
}

void write_kernels(const CompiledEffect& effect, ByteWriter& out) {
  out.u32(uint32_t(effect.kernels.size()));
  for (const CookedKernel& kernel : effect.kernels) {
    out.u32(uint32_t(kernel.stage));
    out.u32(uint32_t(kernel.program_hash));
    out.u32(uint32_t(kernel.program_hash >> 32));
    out.u32(uint32_t(kernel.spirv.size()));
    for (uint32_t w : kernel.spirv) out.u32(w);
  }
}

}  // namespace mote::cook
