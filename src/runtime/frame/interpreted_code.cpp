#include "runtime/frame/interpreted_code.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "mote/isa.hpp"
#include "shared/frame.h"
#include "shared/isa_encoding.h"
#include "shared/vm_limits.h"
#include "vm_gpu/fast_fold.hpp"
#include "vm_gpu/fast_fuse.hpp"
#include "vm_gpu/fast_operands.hpp"
#include "vm_gpu/fast_reads.hpp"
#include "vm_gpu/record_window.hpp"

namespace mote::runtime {

bool needs_wide_interpreter(const Program& program) { return !fits_fast_interpreter(program); }

bool needs_large_window(const Program& program, Section section, uint32_t record_words) {
  return !needs_wide_interpreter(program) &&
         record_window(program, section, record_words).chunks > shader::kFrameFastWindowChunks;
}

Result<VkDeviceSize> wide_register_file_bytes(const gpu::Device& device, const Program& program, uint32_t wide_lanes) {
  const VkPhysicalDeviceLimits& limits = device.limits();
  const VkDeviceSize bytes = VkDeviceSize(shader::kVmMaxRegisters) * wide_lanes * 4;
  if (limits.maxPerStageDescriptorStorageBuffers < kWideStorageBuffers)
    return make_error(ErrorCode::kUnsupported,
                      "a program of " + std::to_string(program.register_count) +
                          " registers (or with more distinct immediates in a section than the fast file's " +
                          std::to_string(shader::kVmFastMaxImmediates) +
                          ") needs the wide interpreter, whose emit and simulate bind " +
                          std::to_string(kWideStorageBuffers) + " storage buffers; the device allows " +
                          std::to_string(limits.maxPerStageDescriptorStorageBuffers));
  if (bytes > limits.maxStorageBufferRange)
    return make_error(ErrorCode::kUnsupported, "the wide register file (" + std::to_string(bytes) +
                                                   " bytes) exceeds maxStorageBufferRange: lower wide_lanes");
  return bytes;
}

std::vector<uint32_t> interpreted_section_code(const Program& linked, Section section, uint32_t record_words) {
  std::vector<uint32_t> words;
  const std::span<const Instruction> code = linked.code(section);
  std::optional<FastOperandSection> fast;
  if (!needs_wide_interpreter(linked)) fast = fast_operand_section(code);
  if (!fast) {
    for (const Instruction& inst : code) words.insert(words.end(), inst.words.begin(), inst.words.end());
    return words;
  }
  const RecordWindow window = record_window(linked, section, record_words);
  // DT folds as an immediate of a bit pattern that no immediate or constant of the program has
  // (immediates are shared by bit pattern), whose slot the image then names.
  uint32_t dt_stand_in = 0x7FB5D700u;  // a NaN: never a result of the fold's own values
  auto taken = [&](uint32_t bits) {
    return std::find(fast->immediates.begin(), fast->immediates.end(), bits) != fast->immediates.end() ||
           std::find(linked.constants.begin(), linked.constants.end(), bits) != linked.constants.end();
  };
  while (taken(dt_stand_in)) ++dt_stand_in;
  auto dt = [dt_stand_in](uint32_t id) -> std::optional<std::array<uint32_t, 4>> {
    // LOAD_BUILTIN as frame/vm.glsl's vm_load_builtin reads it: only the engine's DT.
    if (id >> shader::kVmBuiltinSpaceShift != shader::kVmSpaceEngine ||
        (id & shader::kVmBuiltinIndexMask) != uint32_t(isa::Builtin::DT))
      return std::nullopt;
    return std::array<uint32_t, 4>{dt_stand_in, 0u, 0u, 0u};
  };
  const FastFoldContext context{.constants = linked.constants,
                                .record_words = record_words,
                                .window = window,
                                .uniform_builtin = dt,
                                .runtime_immediates = {dt_stand_in}};
  const FastOperandSection folded = read_constants_as_constants(fuse_fast_instructions(fold_fast_moves(*fast, context)),
                                                                context.runtime_immediates);
  const auto at = std::find(folded.immediates.begin(), folded.immediates.end(), dt_stand_in);
  std::optional<uint32_t> dt_immediate;
  if (at != folded.immediates.end()) dt_immediate = uint32_t(at - folded.immediates.begin());
  return fast_section_image(folded, window, dt_immediate);
}

}  // namespace mote::runtime
