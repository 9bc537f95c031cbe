// The fast interpreter's operand form, shared by C++ (src/vm_gpu/fast_operands.cpp writes it) and
// GLSL (shaders/vm_gpu/interpreter.glsl reads it under VM_FAST_OPERANDS). The executor rewrites a
// section once, on the host, so the interpreter does almost no operand decoding per instruction:
//   word 0: op (bits 0..7) | lanes (bits 8..10, already 1..4) | slots written (bits 11..13, 0..4,
//           from the opcode's destination rule) | saturate (bit 14: the result is clamped to
//           [0, 1] as CLAMP(r, 0, 1) would, before it is written; src/vm_gpu/fast_fuse.hpp sets it
//           where it removes that CLAMP) | operand class (bits 16..21, 2 bits per source,
//           src0 lowest) | dst (bits 24..31: the first slot written, already clamped so that
//           every written slot lies in the program's 64 registers, or, after the move fold
//           below, in the record window), the same places as the instruction word;
//   words 1..3: a source of class kVmOperandScalar or kVmOperandVector is four slot bytes,
//           component c in byte c, every swizzle and width already applied: a component the
//           source does not read names the zero slot. A source of class kVmOperandConstant is
//           the index of one of the section's constant vectors. A source of class
//           kVmOperandNone keeps its instruction word (the raw field the opcode reads: a field
//           word, a builtin id...).
//   KILL is a comparison in this form: it fires where CMP(src0, src1, word 3's code) would give
//   a non-zero mask. The rewrite writes a plain KILL x as KILL(x, 0.0, NE), which fires exactly
//   where x != 0, and src/vm_gpu/fast_fuse.hpp folds a CMP that only a KILL reads into the KILL.
// Immediates live in the register file too: each distinct bit pattern of a section gets a slot
// after the zero slot, filled before the section runs. So every operand is a register read,
// and the only per-source decision left is scalar or vector (docs/design/vm.md, "The fast
// operand form"; the measurements that led here are in docs/PERFORMANCE.md, "The fast
// interpreter's operand form"). A source that reads nothing but constants is the exception: it
// takes the constant class below, and the immediates only it read leave the file
// (src/vm_gpu/fast_reads.hpp).
// The particle's record window lives in the file as well, from kVmFastFirstWindowSlot: the
// interpreter copies it in from the workgroup's staging before the section and the written
// chunks back after. That lets the host fold moves away (src/vm_gpu/fast_fold.hpp): a field load
// or a constant load becomes nothing (its readers name the window or immediate slot), and the
// instruction whose result a field store writes out writes the window slots itself.
#ifndef MOTE_SHADERS_SHARED_VM_FAST_OPERANDS_H
#define MOTE_SHADERS_SHARED_VM_FAST_OPERANDS_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

MOTE_CONSTANT(uint, kVmOperandNone, 0u);    // reads nothing: the source is zero
MOTE_CONSTANT(uint, kVmOperandScalar, 1u);  // reads byte 0's slot into x; y, z, w are zero
MOTE_CONSTANT(uint, kVmOperandVector, 2u);  // reads all four bytes' slots
// Reads no slot: the word indexes the section's constant vectors (four f32 bit patterns each,
// lanes past the source's width zero), which the reader keeps in a uniform view. The host gives
// this class to a source whose every component is the zero slot or an immediate
// (src/vm_gpu/fast_reads.hpp), so constants cost neither a per-particle fill nor a file read.
MOTE_CONSTANT(uint, kVmOperandConstant, 3u);
MOTE_CONSTANT(uint, kVmFastMaxConstantVectors, 32u);
MOTE_CONSTANT(uint, kVmFastWrittenShift, 11u);
MOTE_CONSTANT(uint, kVmFastSaturateBit, 0x4000u);
MOTE_CONSTANT(uint, kVmFastClassShift, 16u);
// The fast file: the program's registers (kVmFastRegisterSlots), then the zero slot, then the
// section's immediates, then the record window (kVmMaxWindowChunks * 4 words at most). A slot is
// a byte and the file has 256 slots, so no operand word can reach past it.
MOTE_CONSTANT(uint, kVmFastZeroSlot, 64u);
MOTE_CONSTANT(uint, kVmFastFirstImmediateSlot, 65u);
MOTE_CONSTANT(uint, kVmFastMaxImmediates, 63u);
MOTE_CONSTANT(uint, kVmFastFirstWindowSlot, 128u);
MOTE_CONSTANT(uint, kVmFastFileSlots, 256u);
// A section's image, for a reader with no other buffer for its immediates (the GPU frame keeps
// it in the program heap, src/runtime_frame/): word 0 the immediate count n (at most
// kVmFastMaxImmediates) in bits 0..15 and the constant vector count m (at most
// kVmFastMaxConstantVectors) in bits 16..31 (kVmFastImageConstantsShift), word 1 the registers
// to clear (FastOperandSection::registers_to_clear)
// in bits 0..15 and, in bits 16..31, 1 + the index of an immediate the reader fills with DT
// before each particle's section (0: none; kVmFastImageDtShift),
// word 2 the record window the code was folded against (its first chunk in bits 0..15, its chunk
// count in bits 16..31: 0 for none), word 3 the window's written chunks (RecordWindow's
// dirty_mask); then the n immediates, padded with zeros to a multiple of 4 words; then the m
// constant vectors, 4 words each; then the code, 4 words per instruction.
MOTE_CONSTANT(uint, kVmFastImageHeaderWords, 4u);
MOTE_CONSTANT(uint, kVmFastImageConstantsShift, 16u);
MOTE_CONSTANT(uint, kVmFastImageWindowChunksShift, 16u);
MOTE_CONSTANT(uint, kVmFastImageDtShift, 16u);

MOTE_SHARED_END
#endif
