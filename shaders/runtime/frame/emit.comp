#version 460
// Emit (step 5 of docs/design/runtime_frame.md "One frame"): one invocation per newborn of the
// program's run of the frame, dispatched indirectly from its FrameSpawnRange, walking it with a
// grid stride. A newborn finds its place in the spawn order by binary search over the inclusive
// sums of the program's places, its row there, and its index in the row's batch from the sum
// before; takes the slot frame_emit_args set aside for it (the g-th from the top of the
// free list; what the stack could not hold was dropped there); writes a zeroed record with the header row | generation << 20;
// runs INIT with PARTICLE_INDEX = the birth serial (deterministic, unlike the slot an atomic pop
// returns) and the frame-INIT random stream; puts the slot at place g of this frame's alive list.
// One dispatch per live program (FramePush.program) over that program's newborns only: the tick
// wrote each row's count at its place in the spawn order, where a program's rows lie together,
// so its newborns are one run of the scan (FrameSpawnRange, frame_emit_args.comp). A
// program over the fast register file runs in the FRAME_REGISTERS_WIDE build, launched with a
// fixed number of lanes (the grid stride below walks the rest). At run time the file is also
// built with FRAME_COMPILED and one program's INIT translated in (src/vm_gpu/kernels/,
// KernelHarness::kFrameEmit): the record is built in registers where INIT's window covers it
// (zeros, the header, the serial, INIT's fields) and written with the rest zeroed, by the whole
// workgroup in contiguous runs of 16-byte chunks. The fast interpreter does the same with the
// window in its register file, INIT's code folded against it.
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_ballot : require
#include "generated/vm_isa.glsl"
#include "shared/frame.h"
#include "shared/frame_events.h"
#include "shared/transform.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std140, binding = kFrameBindingParams) uniform Params { FrameParams params; };
layout(std430, binding = kFrameBindingCounters) readonly buffer Counters { FrameCounters counters; };
layout(std430, binding = kFrameBindingEmitters) readonly buffer Emitters { EmitterRecord emitters[]; };
layout(std430, binding = kFrameBindingStates) readonly buffer State { FrameEmitterState states[]; };
layout(std430, binding = kFrameBindingSpawnSums) readonly buffer SpawnSums { uint spawn_sums[]; };
layout(std430, binding = kFrameBindingFreeList) readonly buffer FreeList { uint free_list[]; };
layout(std430, binding = kFrameBindingAliveOut) writeonly buffer AliveOut { uint alive_out[]; };
layout(std430, binding = kFrameBindingPool) buffer Pool { uint pool[]; };
layout(std430, binding = kFrameBindingPool) buffer PoolChunks { uvec4 pool_chunks[]; };
layout(std430, binding = kFrameBindingProgram) readonly buffer ProgramWords { uint program_words[]; };
layout(std430, binding = kFrameBindingTransformChannels) readonly buffer Transforms { TransformChannels transform_channels[]; };
layout(std430, binding = kFrameBindingSpawnRows) readonly buffer SpawnRows { uint spawn_rows[]; };
layout(std430, binding = kFrameBindingSpawnRanges) readonly buffer SpawnRanges { FrameSpawnRange ranges[]; };

// Events (shared/frame_events.h): last frame's queue, whose events this frame's children come
// from, and each newborn's event (event_scatter.comp wrote it for every child that got a slot).
layout(std430, binding = kFrameBindingEventsIn) readonly buffer EventsIn {
  FrameEventQueueHeader events_in_header;
  FrameEvent events_in[];
};
layout(std430, binding = kFrameBindingEventChildren) readonly buffer EventChildren { uint event_children[]; };
uint vm_event = ~0u;  // the newborn's event in events_in (~0u: a rate or burst newborn, payload 0)
uint vm_newborn;      // the newborn's index g this frame: its events' place in the delivery's order
// EVENT_POSITION, EVENT_VELOCITY, EVENT_COLOR, EVENT_ID of the newborn (vm.glsl's builtins).
vec4 frame_event_payload(uint builtin) {
  if (vm_event == ~0u) return vec4(0.0f);
  if (builtin == VM_BUILTIN_EVENT_ID) return vec4(events_in[vm_event].position.w, 0.0f, 0.0f, 0.0f);
  if (builtin == VM_BUILTIN_EVENT_POSITION) return vec4(events_in[vm_event].position.xyz, 0.0f);
  if (builtin == VM_BUILTIN_EVENT_VELOCITY) return events_in[vm_event].velocity;
  return events_in[vm_event].color;
}
#define FRAME_EVENT_PAYLOADS 1

// The fast build writes each newborn's INIT window from its register file (frame_vm.glsl).
#define FRAME_STAGES_WINDOW 1
#include "runtime/frame/vm.glsl"
#ifdef FRAME_COMPILED
// bool vm_compiled_run(): the INIT section, translated.
#include "vm_gpu/compiled_section.glsl"
#endif

layout(push_constant) uniform Push { FramePush push; };
#include "runtime/frame/events.glsl"

// The newborn's event: a child of row `row` (its first FrameEventRow::granted newborns are
// children, the rest rate and burst spawns) reads the index event_scatter.comp left at g.
uint newborn_event(uint row, uint g) {
  if (push.events == 0u || row >= uint(event_rows.length()) || vm_spawn_index >= event_rows[row].granted) return ~0u;
  uint e = event_children[min(g, uint(event_children.length()) - 1u)];
  return e < uint(events_in.length()) ? e : ~0u;
}

// The first place in [lo, hi) whose inclusive sum exceeds g (lower_bound over sums > g).
uint find_place(uint g, uint lo, uint hi) {
  while (lo < hi) {
    uint mid = (lo + hi) >> 1u;
    if (spawn_sums[mid] > g) hi = mid; else lo = mid + 1u;
  }
  return lo;
}

// Everything before INIT for newborn g: its row (this dispatch's program only), its slot (put
// at place g of this frame's list whatever happens next), its header and birth serial and the
// VM's per-particle state. True when this dispatch writes its record.
bool prepare_newborn(uint g, uint run_end, uint total, uint first_free, uint first_place, uint places_first,
                     uint places_end, out uint header, out uint serial) {
  header = 0u;
  serial = 0u;
  if (g >= run_end || g >= total) return false;
  uint place = find_place(g, places_first, places_end);
  if (place >= places_end) return false;
  uint row = spawn_rows[place];
  if (row >= params.row_count) return false;
  // What the row gives the newborn, loaded together: one trip to memory, not one per use.
  uint program = emitters[row].program_id, generation = emitters[row].generation, seed = emitters[row].seed;
  uint spawn_first = states[row].spawn_first, tick = states[row].tick;
  if (program != push.program) return false;
  vm_row = row;
  uint before = place == 0u ? 0u : spawn_sums[place - 1u];
  vm_spawn_index = g - before;
  vm_spawn_count = spawn_sums[place] - before;
  vm_event = newborn_event(row, g);
  vm_newborn = g;
  uint slot = free_list[min(first_free + total - 1u - g, params.capacity - 1u)];
  // A slot outside the pool (only a corrupted list holds one) is passed on, never written:
  // simulate drops the entry next frame.
  alive_out[min(first_place + g, params.capacity - 1u)] = slot;
  if (slot >= params.capacity) return false;
  vm_record_base = slot * params.record_words;
  header = (row & kFrameHeaderRowMask) | ((generation & kFrameHeaderGenerationMask) << kFrameHeaderRowBits);
  serial = spawn_first + vm_spawn_index;
  vm_particle_index = serial;
  vm_seed = vm_particle_seed(frame_rng_base(seed, tick, kFrameRngInit), serial);
  return true;
}

#if defined(FRAME_COMPILED) || defined(FRAME_FAST_FILE)
// The compiled build and the fast interpreter write a newborn's record with the whole
// workgroup: the chunks outside the window are zeroed by consecutive lanes on consecutive chunks
// of one record (newborns take free-list runs, so their records are runs of the pool), except
// the header's and the serial's chunks outside the window, which their own invocation writes
// whole (write_outside_chunks); the window goes out through the group store (the compiled
// build's from registers, vm_window_store_group; the interpreter's from its file,
// frame_window_store_group). Moving a record per invocation touches 16 bytes of 32 lines per
// warp instruction (docs/design/vm.md, "The window moves through the workgroup").
#ifdef FRAME_COMPILED
uint newborn_window_first() { return kWindowFirstChunk; }
uint newborn_window_chunks() { return kWindowChunks; }
uint newborn_record_chunks() { return kRecordWords / 4u; }
#else
// The INIT image's window (frame_section_begin); an image has one only for a record stride of
// whole chunks.
uint newborn_window_first() { return vm_window_first; }
uint newborn_window_chunks() { return vm_window_chunks; }
uint newborn_record_chunks() { return params.record_words / 4u; }
#endif
shared uint newborn_first_chunk[kFrameWorkgroupSize];  // ~0u: no record written by this dispatch

bool in_window_chunk(uint c) { return c - newborn_window_first() < newborn_window_chunks(); }
// The chunk of the serial word that its invocation writes itself (~0u: none).
uint serial_chunk_outside() {
  bool has_serial = params.serial_word != 0u && params.serial_word < newborn_record_chunks() * 4u;
  uint c = params.serial_word / 4u;
  return has_serial && !in_window_chunk(c) ? c : ~0u;
}
void zero_outside_chunks_group(bool present) {
  uint me = gl_LocalInvocationIndex;
  newborn_first_chunk[me] = present ? vm_record_base / 4u : ~0u;
  barrier();
  uint serial_c = serial_chunk_outside();
  uint record_chunks = newborn_record_chunks();
  for (uint j = me; j < kFrameWorkgroupSize * record_chunks; j += kFrameWorkgroupSize) {
    uint p = j / record_chunks;
    uint c = j - p * record_chunks;
    uint first = newborn_first_chunk[p];
    if (first == ~0u || in_window_chunk(c) || c == 0u || c == serial_c) continue;
    pool_chunks[min(first + c, params.capacity * record_chunks - 1u)] = uvec4(0u);
  }
  barrier();  // the array is the next newborns' before the group store rewrites the staging
}
// The header's chunk when the window does not hold it, and the serial's chunk when the window
// does not hold it, written whole by the newborn's own invocation.
void write_outside_chunks(uint header, uint serial) {
  uint serial_c = serial_chunk_outside();
  uvec4 v = uvec4(0u);
  if (!in_window_chunk(0u)) {
    v.x = header;
    if (serial_c == 0u) v[params.serial_word & 3u] = serial;
    pool_chunks[vm_record_base / 4u] = v;
  }
  if (serial_c != ~0u && serial_c != 0u) {
    v = uvec4(0u);
    v[params.serial_word & 3u] = serial;
    pool_chunks[vm_record_base / 4u + serial_c] = v;
  }
}
#endif

void main() {
  uint total = counters.newborns;  // the newborns that have slots (frame_emit_args)
  uint first_free = min(counters.free_count, params.capacity);
  uint first_place = counters.alive_out - total;
  uint stride = gl_NumWorkGroups.x * kFrameWorkgroupSize;
  // This program's run of newborns and the places of its rows (an id past the table: none).
  bool listed = push.program < uint(ranges.length());
  uint program = listed ? push.program : 0u;
  uint places_end = listed ? min(ranges[program].end_place, params.row_count) : 0u;
  uint places_first = min(ranges[program].first_place, places_end);
  uint run_begin = listed ? min(ranges[program].begin, total) : total;
  uint run_end = min(run_begin + ranges[program].count, total);
  vm_record_words = max(params.record_words, 1u);
  vm_dt = params.dt;
  frame_section_begin(push.section_offset, push.section_words);  // the program's INIT
  frame_wide_begin();
  bool has_serial = params.serial_word != 0u && params.serial_word < params.record_words;
  // The workgroup walks the run 64 at a time, all its invocations together (the run and the
  // stride are the same for all of them), for the compiled build's group stores.
  for (uint first = run_begin + gl_WorkGroupID.x * kFrameWorkgroupSize; first < run_end; first += stride) {
    uint header, serial;
    uint g = first + gl_LocalInvocationIndex;
    bool present = prepare_newborn(g, run_end, total, first_free, first_place, places_first, places_end, header, serial);
#ifdef FRAME_COMPILED
    if (kWindowChunks > 0u) {
      zero_outside_chunks_group(present);
      if (present) {
        // The window starts as zeros in registers, with the header and serial where it holds them.
        [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c) vm_window[c] = uvec4(0u);
        write_outside_chunks(header, serial);
        if (in_window_chunk(0u)) vm_record_write_bits(0u, header);
        if (has_serial && in_window_chunk(params.serial_word / 4u)) vm_record_write_bits(params.serial_word, serial);
        vm_compiled_run();  // KILL is refused in INIT by the verifier
        frame_send_events(vm_row, 0u, vm_newborn);
      }
      // A newborn's window is all new: every chunk of it is written.
      vm_window_store_group(present, ~0u);
    } else if (present) {
      for (uint w = 0u; w < kRecordWords; ++w) pool[vm_record_base + w] = 0u;
      vm_record_write_bits(0u, header);
      if (has_serial) vm_record_write_bits(params.serial_word, serial);
      vm_compiled_run();
      frame_send_events(vm_row, 0u, vm_newborn);
    }
#else
#ifdef FRAME_FAST_FILE
    if (vm_window_chunks > 0u) {  // uniform: the INIT image was folded against a window
      zero_outside_chunks_group(present);
      if (present) {
        // The window starts as zeros in the file, with the header and serial where it holds them.
        for (uint w = 0u; w < vm_window_chunks * 4u; ++w) vm_fast_registers[kVmFastFirstWindowSlot + w] = 0.0f;
        write_outside_chunks(header, serial);
        if (in_window_chunk(0u)) vm_record_write(0u, uintBitsToFloat(header));
        if (has_serial && in_window_chunk(params.serial_word / 4u)) vm_record_write(params.serial_word, uintBitsToFloat(serial));
        vm_clear_registers();
        vm_run(vm_section_instructions);  // KILL is refused in INIT by the verifier
        frame_send_events(vm_row, 0u, vm_newborn);
      }
      frame_window_store_group(present, ~0u);  // a newborn's window is all new
      continue;
    }
#endif
    if (!present) continue;
    pool[vm_record_base] = header;
    for (uint w = 1u; w < params.record_words; ++w) pool[vm_record_base + w] = 0u;
    if (has_serial) pool[vm_record_base + params.serial_word] = serial;
    vm_clear_registers();
    vm_run(vm_section_instructions);  // KILL is refused in INIT by the verifier
    frame_send_events(vm_row, 0u, vm_newborn);
#endif
  }
}
