// The particle VM interpreter, shared by every GPU pass that runs programs. The including
// shader defines, before including this file:
//   float vm_reg_read(uint slot) / void vm_reg_write(uint slot, float v)  -- the register file
//     (private memory or a storage buffer); slot is already masked
//   uvec4 vm_instruction(uint pc)       -- the section's instruction pc (clamped by the caller)
//   float vm_record_read(uint word) / void vm_record_write(uint word, float v)  -- this
//     particle's record, word < record_words (clamped here)
//   vec4  vm_load_builtin(uint id, uint lanes)  -- LOAD_BUILTIN, any id (unknown ids read 0)
//   float vm_load_constant(uint index)  -- constant pool scalar (clamped by the caller)
//   VmWindField vm_wind()               -- the scene's wind
//   vec3  vm_sample_vector_field_slot(uint slot, vec3 p)  -- SAMPLE_FIELD: a field slot at p
//     (vm_gpu/vector_field_fetch.glsl over the includer's field table; 0 for an empty slot)
//   vec4  vm_sample_depth(vec3 p, float thickness)  -- SAMPLE_DEPTH: the collision depth at p
//     (vm_gpu/depth_fetch.glsl over the includer's depth buffer; 0 without one)
//   void  vm_count_op(uint op)          -- per-opcode execution counting (may do nothing)
//   void  vm_trace(uint pc, vec4 result) -- per-instruction result tracing (may do nothing)
//   uint  vm_op_shape(uint op)          -- mote::isa::op_shape of a known opcode
// and the globals vm_seed (the particle's RNG seed) and vm_record_words. After vm_run,
// vm_event_counts holds the events EMIT_EVENT sent to each of the kVmEventOutputs outputs.
// An includer that defines VM_FAST_OPERANDS hands over code in the fast operand form
// (shared/vm_fast_operands.h: swizzles, widths and immediates resolved by the host into slot
// bytes), reads any slot of its kVmFastFileSlots-slot file through vm_reg_read and its constant
// vectors through vm_fast_constant, and supplies
// vm_reg_write_run(base, v, n) (v's first n components to slots base..base+n-1,
// base + n <= kVmFastFileSlots) instead of vm_reg_write; vm_op_shape is then not called.
//
// The including shader enables GL_KHR_shader_subgroup_ballot (subgroupBroadcastFirst: the
// fetched instruction and its shape are broadcast from the first active lane, unless the includer
// defines VM_FETCH_IS_UNIFORM because its vm_instruction and vm_op_shape are visibly uniform).
// Opcode semantics come from shared/vm_semantics.h, the same functions the C++ executors call;
// opcode numbers and operand shapes from the generated vm_isa.glsl, and the switch's cases from
// the generated vm_interpreter_cases.glsl (both written from the ISA table by
// src/isa/gen_isa_glsl.cpp). There are no jumps: the loop
// runs the section's instructions once, in order, bounded by kVmMaxSectionInstructions.
// Every index is clamped, so even a program that got past the verifier cannot read or write
// outside its buffers: register slots are masked to the file, record words clamped to the
// stride, constants and fields clamped by their accessors.
#include "generated/vm_isa.glsl"
#include "shared/isa_encoding.h"
#include "shared/vm_limits.h"
#include "shared/vm_semantics.h"

uint vm_seed;
uint vm_record_words;
uvec4 vm_event_counts;  // EMIT_EVENT's counts of the particle vm_run ran last, per output

// Whether the build runs opcode `op` (a constant): an includer that knows which opcodes its
// programs use defines this over specialisation constants, and the driver drops the others'
// bodies from the switch. A disabled opcode computes nothing: its destination lanes get zeros.
#ifndef VM_OP_ENABLED
#define VM_OP_ENABLED(op) true
#endif

// Source `s` (0..2) of an instruction: `width` components (rest 0), REG through the swizzle,
// IMM splatted, NONE as zero. Written without dynamic vec4 component indexing (which NVIDIA's
// compiler lowers to local-memory spills). Only the `width` components are read from the
// register file: kind and width are wave-uniform, so the branches cost no divergence, and a
// scalar operand reads one slot instead of four (the register file's traffic is most of an
// interpreted instruction's cost).
vec4 vm_read_source(uint w0, uint word, uint s, uint width) {
  uint kind = vm_kind(w0, s);
  vec4 v = vec4(0.0f);
  if (kind == kVmKindReg) {
    uint base = word & 0xFFu;
    if (width > 0u) v.x = vm_reg_read(base + ((word >> 8u) & 3u));
    if (width > 1u) v.y = vm_reg_read(base + ((word >> 10u) & 3u));
    if (width > 2u) v.z = vm_reg_read(base + ((word >> 12u) & 3u));
    if (width > 3u) v.w = vm_reg_read(base + ((word >> 14u) & 3u));
  } else if (kind == kVmKindImm) {
    float f = uintBitsToFloat(word);
    v = vec4(f, width > 1u ? f : 0.0f, width > 2u ? f : 0.0f, width > 3u ? f : 0.0f);
    if (width == 0u) v.x = 0.0f;
  }
  return v;
}

#ifdef VM_FAST_OPERANDS
#include "shared/vm_fast_operands.h"
// Source `s` in the fast operand form: the class says scalar, vector, constant or nothing. A
// scalar or vector word holds the slot of each component (a component the source does not read
// names the zero slot). A constant word indexes the includer's constant vectors
// (vm_fast_constant, which clamps it). A slot is a byte and the file has 256 slots, so every
// read stays inside it. The classes are tested bit by bit (scalar 1, vector 2, constant both):
// one test and branch per bit, where comparing the two-bit field took three instructions.
vec4 vm_read_operand(uint w0, uint word, uint s) {
  uint operand_class = w0 >> (kVmFastClassShift + 2u * s);
  vec4 v = vec4(0.0f);
  if ((operand_class & kVmOperandVector) != 0u) {
    if ((operand_class & kVmOperandScalar) != 0u) {
      v = vm_fast_constant(word);
    } else {
      v = vec4(vm_reg_read(word & 0xFFu), vm_reg_read((word >> 8u) & 0xFFu), vm_reg_read((word >> 16u) & 0xFFu),
               vm_reg_read(word >> 24u));
    }
  } else if ((operand_class & kVmOperandScalar) != 0u) {
    v.x = vm_reg_read(word & 0xFFu);
  }
  return v;
}
#endif

// A lane-wise opcode computes its first component, and the other three only when the
// instruction has more than one lane (a wave-uniform branch): most of a particle program's
// instructions are scalar, and their bodies (DIV, SMOOTHSTEP, the transcendentals) would
// otherwise run four times. The written count keeps the unused components out of the file.
#define VM_RUN_LANEWISE1(fn) r.x = fn(a.x); if (lanes > 1u) { r.y = fn(a.y); r.z = fn(a.z); r.w = fn(a.w); }
#define VM_RUN_LANEWISE2(fn) r.x = fn(a.x, b.x); if (lanes > 1u) { r.y = fn(a.y, b.y); r.z = fn(a.z, b.z); r.w = fn(a.w, b.w); }
#define VM_RUN_LANEWISE3(fn) \
  r.x = fn(a.x, b.x, c.x); \
  if (lanes > 1u) { r.y = fn(a.y, b.y, c.y); r.z = fn(a.z, b.z, c.z); r.w = fn(a.w, b.w, c.w); }
#define VM_RUN_LANEWISE_CMP(code) \
  r.x = vm_cmp(a.x, b.x, code); \
  if (lanes > 1u) { r.y = vm_cmp(a.y, b.y, code); r.z = vm_cmp(a.z, b.z, code); r.w = vm_cmp(a.w, b.w, code); }

// The special rows of the ISA table (include/mote/isa/isa_table.inc, form kSpecial): the
// generated cases expand VM_SPECIAL_<NAME>() inside the row's VM_OP_ENABLED guard, so a special
// row this file does not define fails glslc at build time. Lane-wise rows run VM_RUN_LANEWISE<n>
// over their scalar function and vector rows call their vm_vector_ function (vm_semantics.h).
#define VM_SPECIAL_NOP()
// The compare code is src2's raw word, whole (vm_cmp reads codes 0..5; any other is false).
#define VM_SPECIAL_CMP() VM_RUN_LANEWISE_CMP(s2)
#define VM_SPECIAL_LOAD_FIELD()                                     \
  r.x = vm_record_read(vm_record_word(s0));                         \
  if (lanes > 1u) r.y = vm_record_read(vm_record_word(s0 + 1u));    \
  if (lanes > 2u) r.z = vm_record_read(vm_record_word(s0 + 2u));    \
  if (lanes > 3u) r.w = vm_record_read(vm_record_word(s0 + 3u))
#define VM_SPECIAL_STORE_FIELD()                                    \
  vm_record_write(vm_record_word(s0), b.x);                         \
  if (lanes > 1u) vm_record_write(vm_record_word(s0 + 1u), b.y);    \
  if (lanes > 2u) vm_record_write(vm_record_word(s0 + 2u), b.z);    \
  if (lanes > 3u) vm_record_write(vm_record_word(s0 + 3u), b.w)
#define VM_SPECIAL_LOAD_CONST()                                                                   \
  r = vec4(vm_load_constant(s0), lanes > 1u ? vm_load_constant(s0 + 1u) : 0.0f,                   \
           lanes > 2u ? vm_load_constant(s0 + 2u) : 0.0f, lanes > 3u ? vm_load_constant(s0 + 3u) : 0.0f)
#define VM_SPECIAL_LOAD_BUILTIN() r = vm_load_builtin(s0, lanes)
#define VM_SPECIAL_RAND()                                                                   \
  r = vec4(vm_rand(vm_seed, s0, 0u), lanes > 1u ? vm_rand(vm_seed, s0, 1u) : 0.0f,          \
           lanes > 2u ? vm_rand(vm_seed, s0, 2u) : 0.0f, lanes > 3u ? vm_rand(vm_seed, s0, 3u) : 0.0f)
#define VM_SPECIAL_SAMPLE_WIND() r = vec4(vm_sample_wind(vm_wind(), a.xyz), 0.0f)
// The slot is src1's raw word (< kVmVectorFields: check_form); the fetch reads 0 for any other.
#define VM_SPECIAL_SAMPLE_FIELD() r = vec4(vm_sample_vector_field_slot(s1, a.xyz), 0.0f)
#define VM_SPECIAL_SAMPLE_DEPTH() r = vm_sample_depth(a.xyz, b.x)
#ifdef VM_FAST_OPERANDS
// A comparison in the fast form: KILL x arrives as (x, 0.0, NE), a fused CMP as its own.
#define VM_SPECIAL_KILL() killed = killed || vm_cmp(a.x, b.x, s2) != 0.0f
#else
#define VM_SPECIAL_KILL() killed = killed || a.x != 0.0f
#endif
// The output index is src1's raw word (< kVmEventOutputs: check_form); vm_event_add4 ignores any
// other, so a corrupt word changes nothing.
#define VM_SPECIAL_EMIT_EVENT() vm_event_counts = vm_event_add4(vm_event_counts, s1, a.x)

uint vm_shape_width(uint code, uint lanes) { return code == VM_SHAPE_WIDTH_LANES ? lanes : code; }

uint vm_record_word(uint word) { return min(word, vm_record_words - 1u); }

// Runs the section's first `length` instructions; returns true when a KILL fired.
bool vm_run(uint length) {
  bool killed = false;
  vm_event_counts = uvec4(0u);
  uint n = min(length, kVmMaxSectionInstructions);
  for (uint pc = 0u; pc < n; ++pc) {
    // Every invocation of a wave runs the same program (one program per dispatch here; one per
    // coherence bucket in the runtime), so the instruction is wave-uniform: broadcasting it
    // tells the compiler so, and the decode and the dispatch below run on the scalar/uniform
    // datapath instead of once per lane (docs/design/vm.md, "The GPU interpreters").
#ifdef VM_FETCH_IS_UNIFORM
    uvec4 ins = vm_instruction(pc);
#else
    uvec4 ins = subgroupBroadcastFirst(vm_instruction(pc));
#endif
    uint w0 = ins.x;
    uint s0 = ins.y;
    uint s1 = ins.z;
    uint s2 = ins.w;
    uint op = vm_op(w0);
#ifndef VM_FAST_OPERANDS
    if (op >= VM_OP_COUNT) op = VM_OP_NOP;  // unknown opcodes do nothing
#endif
    // (In the fast form the switch's default does the same for an unknown opcode, and the host
    // never writes one: the rewrite turns them into NOP. vm_count_op gets the opcode as it is.)
#ifdef VM_FAST_OPERANDS
    uint lanes = vm_lanes(w0);  // 1..4, from the host's rewrite (only ever a count, never an index)
    vec4 a = vm_read_operand(w0, s0, 0u);
    vec4 b = vm_read_operand(w0, s1, 1u);
    vec4 c = vm_read_operand(w0, s2, 2u);
#else
    uint lanes = clamp(vm_lanes(w0), 1u, 4u);
#ifdef VM_FETCH_IS_UNIFORM
    uint shape = vm_op_shape(op);
#else
    uint shape = subgroupBroadcastFirst(vm_op_shape(op));
#endif
    vec4 a = vm_read_source(w0, s0, 0u, vm_shape_width(shape & 7u, lanes));
    vec4 b = vm_read_source(w0, s1, 1u, vm_shape_width((shape >> 3u) & 7u, lanes));
    vec4 c = vm_read_source(w0, s2, 2u, vm_shape_width((shape >> 6u) & 7u, lanes));
#endif
    vec4 r = vec4(0.0f);
    vm_count_op(op);

    // One OpSwitch on the opcode: drivers lower it to a jump table, and the opcode is uniform
    // across a wave (one program per dispatch or per coherence bucket), so it never diverges.
    switch (op) {
#include "generated/vm_interpreter_cases.glsl"
      default: break;
    }

    vm_trace(pc, r);
#ifdef VM_FAST_OPERANDS
    // A CLAMP(r, 0, 1) the host fused into this instruction (src/vm_gpu/fast_fuse.hpp): the same
    // function on the same value.
    if ((w0 & kVmFastSaturateBit) != 0u) r = vm_clamp(r, vec4(0.0f), vec4(1.0f));
    // The result goes to `written` consecutive slots from dst, in one run. The host already
    // placed the run (in the registers, or in the window when it folded a field store), never
    // past slot kVmFastFileSlots - 4; the clamp only keeps any word the GPU is handed inside
    // the file.
    uint written = min((w0 >> kVmFastWrittenShift) & 7u, 4u);
    if (written > 0u) vm_reg_write_run(min(vm_dst(w0), kVmFastFileSlots - 4u), r, written);
#else
    uint dst_rule = (shape >> 9u) & 3u;
    uint written = dst_rule == 0u ? lanes : (dst_rule == 1u ? 1u : 0u);
    uint dst = vm_dst(w0);
    if (written > 0u) vm_reg_write(dst, r.x);
    if (written > 1u) vm_reg_write(dst + 1u, r.y);
    if (written > 2u) vm_reg_write(dst + 2u, r.z);
    if (written > 3u) vm_reg_write(dst + 3u, r.w);
#endif
  }
  return killed;
}
