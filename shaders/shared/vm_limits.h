// Limits of the particle VM, shared by the verifier, the executors and the GPU interpreters.
#ifndef MOTE_SHADERS_SHARED_VM_LIMITS_H
#define MOTE_SHADERS_SHARED_VM_LIMITS_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// Every slot an 8-bit operand base can name; the wide interpreter's file per lane (1 KiB).
MOTE_CONSTANT(uint, kVmMaxRegisters, 256u);
// The fast interpreter's private register file, in 32-bit slots. Programs needing more run on
// the wide interpreter (register file in a storage buffer).
MOTE_CONSTANT(uint, kVmFastRegisterSlots, 64u);
// The bounded instruction loop: a section may hold at most this many instructions.
MOTE_CONSTANT(uint, kVmMaxSectionInstructions, 4096u);
// Constant pool size limit, in vec4s (64 KiB).
MOTE_CONSTANT(uint, kVmMaxConstantVec4s, 4096u);
// A particle record is at most this many 32-bit words (word 0 is the header).
MOTE_CONSTANT(uint, kVmMaxRecordWords, 256u);
// Default record stride: 32 words = 128 bytes (word 0 header + 31 field words).
MOTE_CONSTANT(uint, kVmDefaultRecordWords, 32u);
// The most 4-word chunks of a record a section's window stages (src/vm_gpu/record_window.hpp): a
// section whose fields span more goes to the records word by word.
MOTE_CONSTANT(uint, kVmMaxWindowChunks, 8u);
// Emitter field block and global field section limits, in words.
MOTE_CONSTANT(uint, kVmMaxEmitterFieldWords, 1024u);
MOTE_CONSTANT(uint, kVmMaxGlobalFieldWords, 1024u);
// A program's event outputs (EMIT_EVENT's raw src1 is an output index below this), and the most
// events one particle sends to one output in one run (EMIT_EVENT's counts saturate there).
MOTE_CONSTANT(uint, kVmEventOutputs, 4u);
MOTE_CONSTANT(uint, kVmMaxEventCount, 65535u);
// The most vector fields one system or run samples (SAMPLE_FIELD's raw src1 is a field slot below
// this; docs/design/vector_field.md).
MOTE_CONSTANT(uint, kVmVectorFields, 4u);
// An event's payload, as a child's INIT reads it (EVENT_POSITION, EVENT_VELOCITY, EVENT_COLOR):
// three vec4s, position xyz0, velocity xyz0, colour rgba.
MOTE_CONSTANT(uint, kVmEventPayloadWords, 12u);

MOTE_SHARED_END
#endif
