// The instruction word encoding, shared by C++ and GLSL. An instruction is 4 x u32:
//   word 0: op (bits 0..7) | lanes (bits 8..10, 1..4) | kinds (bits 16..21, 2 bits per source,
//           src0 lowest) | dst (bits 24..31, the first destination register slot)
//   words 1..3: s0, s1, s2, each meaning what its kind says:
//     REG  : base slot (bits 0..7) | swizzle (bits 8..15, 2 bits per component, x lowest);
//            component i reads slot base + swizzle_i. Bits 16..31 are zero.
//     IMM  : an f32 bit pattern, the same value in every lane.
//     NONE : a raw word the opcode reads for itself (field offset, constant index, builtin id,
//            draw index, compare code), or 0 when the source is unused.
// Bits 11..15 and 22..23 of word 0 are reserved and must be zero.
#ifndef MOTE_SHADERS_SHARED_ISA_ENCODING_H
#define MOTE_SHADERS_SHARED_ISA_ENCODING_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

MOTE_CONSTANT(uint, kVmInstructionWords, 4u);

MOTE_CONSTANT(uint, kVmKindNone, 0u);
MOTE_CONSTANT(uint, kVmKindReg, 1u);
MOTE_CONSTANT(uint, kVmKindImm, 2u);

// The identity swizzle: x=0, y=1, z=2, w=3 -> 0b11'10'01'00.
MOTE_CONSTANT(uint, kVmSwizzleIdentity, 0xE4u);

// CMP codes (raw src2).
MOTE_CONSTANT(uint, kVmCmpLt, 0u);
MOTE_CONSTANT(uint, kVmCmpLe, 1u);
MOTE_CONSTANT(uint, kVmCmpEq, 2u);
MOTE_CONSTANT(uint, kVmCmpNe, 3u);
MOTE_CONSTANT(uint, kVmCmpGe, 4u);
MOTE_CONSTANT(uint, kVmCmpGt, 5u);

// LOAD_BUILTIN ids: space (bits 16..17) | index (bits 0..15).
//   space 0: an engine builtin (builtins.inc)
//   space 1: an emitter field, index = word offset in the emitter's field block
//   space 2: a global field import, index = import index (a program as compiled; keyed)
//   space 3: a global field, index = word offset in the global field section (a program as
//            placed: the linker rewrites space 2 to space 3)
MOTE_CONSTANT(uint, kVmBuiltinSpaceShift, 16u);
MOTE_CONSTANT(uint, kVmBuiltinIndexMask, 0xFFFFu);
MOTE_CONSTANT(uint, kVmSpaceEngine, 0u);
MOTE_CONSTANT(uint, kVmSpaceEmitterField, 1u);
MOTE_CONSTANT(uint, kVmSpaceGlobalImport, 2u);
MOTE_CONSTANT(uint, kVmSpaceGlobalField, 3u);

MOTE_SHARED_END

#ifdef __cplusplus
namespace mote::shader {
constexpr uint vm_op(uint w0) { return w0 & 0xFFu; }
constexpr uint vm_lanes(uint w0) { return (w0 >> 8) & 0x7u; }
constexpr uint vm_kind(uint w0, uint src) { return (w0 >> (16u + 2u * src)) & 0x3u; }
constexpr uint vm_dst(uint w0) { return w0 >> 24; }
}  // namespace mote::shader
#else
uint vm_op(uint w0) { return w0 & 0xFFu; }
uint vm_lanes(uint w0) { return (w0 >> 8) & 0x7u; }
uint vm_kind(uint w0, uint src) { return (w0 >> (16u + 2u * src)) & 0x3u; }
uint vm_dst(uint w0) { return w0 >> 24; }
#endif

#endif
