// What the frame's interpreters run: which interpreter a program needs (the fast one with its
// register file in private memory, or the wide one with its file in a storage buffer), which
// staging width its record window needs, and the code the program heap keeps for each section
// (ProgramHeapOptions::encode_section). The compiled kernels (src/vm_gpu/kernels/) are translated
// from the program itself and need none of this.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/device.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote::runtime {

// Storage buffers the wide emit and simulate bind (the interpreters' bindings other than the
// parameters block).
inline constexpr uint32_t kWideStorageBuffers = 10;
// frame/vm.glsl's specialisation constant: the chunks of a record the interpreted emit's and
// simulate's workgroup staging holds.
inline constexpr uint32_t kFrameWindowCapacityId = 10;

// A program the fast interpreter's private file cannot hold (over 64 registers, or a section with
// more distinct immediates than its immediate slots) runs on the wide one.
bool needs_wide_interpreter(const Program& program);
// Whether the fast interpreter runs `section` of `program` with a window wider than the default
// emit or simulate pipeline stages (kFrameFastWindowChunks): it gets the pipeline specialised for
// kVmMaxWindowChunks. interpreted_section_code folds the code against the same window.
bool needs_large_window(const Program& program, Section section, uint32_t record_words);
// kUnsupported, naming the numbers, when this device cannot run the wide interpreter for
// `program` with `wide_lanes` lanes; the register file's bytes otherwise.
Result<VkDeviceSize> wide_register_file_bytes(const gpu::Device& device, const Program& program, uint32_t wide_lanes);

// The code the frame's interpreters read for a section of a linked program. The wide one reads
// the instructions as written; the fast one reads the section in the fast operand form
// (src/vm_gpu/fast_operands.hpp) with its immediates in front, rewritten once here instead of
// decoded per instruction per particle, its moves folded away (src/vm_gpu/fast_fold.hpp:
// constant loads become immediates, field loads and stores slots of the section's record window,
// which the interpreted emit and simulate keep in the file and move through the workgroup), pairs
// fused and constant sources read as constants. DT, which every particle of a frame reads alike,
// becomes an immediate the interpreter fills from the frame's parameters; the other builtins stay
// loads, since the emitters of one program differ in them.
std::vector<uint32_t> interpreted_section_code(const Program& linked, Section section, uint32_t record_words);

}  // namespace mote::runtime
