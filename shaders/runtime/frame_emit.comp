#version 460
// Emit (meep "Spawning is the GPU's decision", step 5): one invocation per newborn of the
// frame, dispatched indirectly from the scan's total, walking it with a grid stride. A newborn
// finds its row by binary search over the inclusive sums and its index in the row's batch from
// the sum before; takes the slot frame_emit_args set aside for it (the g-th from the top of the
// free list; what the stack could not hold was dropped there); writes a zeroed record with the header row | generation << 20;
// runs INIT with PARTICLE_INDEX = the birth serial (deterministic, unlike the slot an atomic pop
// returns) and the frame-INIT random stream; puts the slot at place g of this frame's alive list.
// One dispatch per live program (FramePush.program): newborns of other programs skip. A
// program over the fast register file runs in the FRAME_REGISTERS_WIDE build, launched with a
// fixed number of lanes (the grid stride below walks the rest). At run time the file is also
// built with FRAME_COMPILED and one program's INIT translated in (src/vm_jit/,
// KernelHarness::kFrameEmit): the record is built in registers where INIT's window covers it
// (zeros, the header, the serial, INIT's fields) and written with 16-byte stores, the rest
// zeroed a chunk at a time.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_ballot : require
#include "shared/frame.h"
#include "shared/transform.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = 0) uniform Params { FrameParams params; };
layout(std430, binding = 1) readonly buffer Counters { FrameCounters counters; };
layout(std430, binding = 2) readonly buffer Emitters { EmitterRecord emitters[]; };
layout(std430, binding = 3) readonly buffer State { FrameEmitterState states[]; };
layout(std430, binding = 4) readonly buffer SpawnSums { uint spawn_sums[]; };
layout(std430, binding = 5) readonly buffer FreeList { uint free_list[]; };
layout(std430, binding = 6) writeonly buffer AliveOut { uint alive_out[]; };
layout(std430, binding = 7) buffer Pool { uint pool[]; };
layout(std430, binding = 7) buffer PoolChunks { uvec4 pool_chunks[]; };
layout(std430, binding = 8) readonly buffer ProgramWords { uint program_words[]; };
layout(std430, binding = 9) readonly buffer Transforms { TransformChannels transform_channels[]; };

#include "runtime/frame_vm.glsl"
#ifdef FRAME_COMPILED
// bool vm_compiled_run(): the INIT section, translated.
#include "vm/compiled_section.glsl"
#endif

layout(push_constant) uniform Push { FramePush push; };

// The first row whose inclusive sum exceeds g (lower_bound over sums > g).
uint find_row(uint g, uint rows) {
  uint lo = 0u;
  uint hi = rows;
  while (lo < hi) {
    uint mid = (lo + hi) >> 1u;
    if (spawn_sums[mid] > g) hi = mid; else lo = mid + 1u;
  }
  return lo;
}

void main() {
  uint total = counters.newborns;  // the newborns that have slots (frame_emit_args)
  uint first_free = min(counters.free_count, params.capacity);
  uint first_place = counters.alive_out - total;
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  vm_record_words = max(params.record_words, 1u);
  vm_dt = params.dt;
  frame_wide_begin();
  for (uint g = gl_GlobalInvocationID.x; g < total; g += stride) {
    uint row = find_row(g, params.row_count);
    if (row >= params.row_count) continue;
    vm_emitter = emitters[row];
    if (vm_emitter.program_id != push.program) continue;
    frame_place_emitter();
    vm_state = states[row];
    uint before = row == 0u ? 0u : spawn_sums[row - 1u];
    vm_spawn_index = g - before;
    vm_spawn_count = spawn_sums[row] - before;
    uint slot = free_list[min(first_free + total - 1u - g, params.capacity - 1u)];
    uint place = min(first_place + g, params.capacity - 1u);
    // A slot outside the pool (only a corrupted list holds one) is passed on, never written:
    // simulate drops the entry next frame.
    alive_out[place] = slot;
    if (slot >= params.capacity) continue;
    vm_record_base = slot * params.record_words;
    uint header = (row & kFrameHeaderRowMask) | ((vm_emitter.generation & kFrameHeaderGenerationMask) << kFrameHeaderRowBits);
    uint serial = vm_state.spawn_first + vm_spawn_index;
    bool has_serial = params.serial_word != 0u && params.serial_word < params.record_words;
    vm_particle_index = serial;
    vm_seed = vm_particle_seed(frame_rng_base(vm_emitter.seed, vm_state.tick, kFrameRngInit), serial);
#ifdef FRAME_COMPILED
    if (kWindowChunks > 0u) {
      // Chunks outside the window are zeroed in place; the window starts as zeros in registers.
      for (uint c = 0u; c < kRecordWords / 4u; ++c)
        if (c - kWindowFirstChunk >= kWindowChunks)
          pool_chunks[min(vm_record_base / 4u + c, params.capacity * (kRecordWords / 4u) - 1u)] = uvec4(0u);
      [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c) vm_window[c] = uvec4(0u);
    } else {
      for (uint w = 0u; w < kRecordWords; ++w) pool[vm_record_base + w] = 0u;
    }
    vm_record_write_bits(0u, header);
    if (has_serial) vm_record_write_bits(params.serial_word, serial);
    vm_compiled_run();  // KILL is refused in INIT by the verifier
    // A newborn's window is all new: every chunk of it is written.
    [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c)
      if (c < kWindowChunks) pool_chunks[vm_window_chunk(c)] = vm_window[c];
#else
    pool[vm_record_base] = header;
    for (uint w = 1u; w < params.record_words; ++w) pool[vm_record_base + w] = 0u;
    if (has_serial) pool[vm_record_base + params.serial_word] = serial;
    vm_code_offset = frame_code_offset(vm_emitter.init_offset);
    vm_clear_registers();
    vm_run(frame_instructions(vm_emitter.init_length));  // KILL is refused in INIT by the verifier
#endif
  }
}
