// The record window of a compiled section, in registers (src/vm_gpu/record_window.hpp): the chunks
// of this particle's record that its fields touch, loaded with 16-byte loads before the section
// and the stored ones written back with 16-byte stores after, by the whole workgroup (below). The window is private variables
// indexed by constants only (every field word is an immediate in the translated code), so it
// stays in registers. Shared by the compiled kernels' harnesses (shaders/vm_gpu/run_compiled.comp,
// shaders/runtime/frame/simulate.comp through frame_vm.glsl). The includer defines, first:
//   VM_WINDOW_WORDS         the records as uint[] (one particle's record at vm_record_base)
//   VM_WINDOW_CHUNKS        the same records as uvec4[] (the record stride is a multiple of 4)
//   VM_WINDOW_RECORD_COUNT  how many records are bound: the bound on every chunk index
// and declares `uint vm_record_base` (the particle's first word), and may define
//   VM_WINDOW_LOADS_FIRST   the group load issues all of an invocation's chunk loads before it
//                           stages any (else one loop loads and stages each chunk in turn).
// The group load and store at the end need a workgroup of kVmWorkgroupSize invocations.
// Specialisation constants 1-4: the record stride, the window's first chunk, its chunk count
// (0: every field access goes to the record) and the chunks written back.
layout(constant_id = 1) const uint kRecordWords = 1u;
layout(constant_id = 2) const uint kWindowFirstChunk = 0u;
layout(constant_id = 3) const uint kWindowChunks = 0u;
layout(constant_id = 4) const uint kWindowDirtyMask = 0u;

uvec4 vm_window[kVmMaxWindowChunks];

bool vm_in_window(uint word) { return kWindowChunks > 0u && word - kWindowFirstChunk * 4u < kWindowChunks * 4u; }

// The host contract's record access: the word clamped to the record, then the window or (only
// for a word the window does not hold) the record itself.
float vm_record_read(uint word) {
  word = min(word, kRecordWords - 1u);
  if (vm_in_window(word)) return uintBitsToFloat(vm_window[(word >> 2u) - kWindowFirstChunk][word & 3u]);
  return uintBitsToFloat(VM_WINDOW_WORDS[vm_record_base + word]);
}
void vm_record_write(uint word, float v) {
  word = min(word, kRecordWords - 1u);
  if (vm_in_window(word)) vm_window[(word >> 2u) - kWindowFirstChunk][word & 3u] = floatBitsToUint(v);
  else VM_WINDOW_WORDS[vm_record_base + word] = floatBitsToUint(v);
}

// A raw word (a header, a serial) written as the record access writes it.
void vm_record_write_bits(uint word, uint bits) {
  word = min(word, kRecordWords - 1u);
  if (vm_in_window(word)) vm_window[(word >> 2u) - kWindowFirstChunk][word & 3u] = bits;
  else VM_WINDOW_WORDS[vm_record_base + word] = bits;
}

// The same load and store done by the workgroup together, which is how the window should move:
// one warp instruction per 512 contiguous bytes of windows (the chunks of consecutive particles'
// windows, consecutive lanes on consecutive chunks), staged in shared memory and handed to each
// invocation's registers. Moving a 128-byte record per invocation, every warp instruction
// touches 16 bytes of 32 lines, which moves the same bytes far more slowly than contiguous runs
// do (docs/PERFORMANCE.md, "What record layouts allow", measured with bench/roofline --records).
// Every invocation of the workgroup calls these, in the same order, in uniform control flow (they
// contain barriers); `present` says whether this invocation has a record at vm_record_base.
// The staging rows are an odd number of chunks apart, so the per-invocation 16-byte reads and
// writes of shared memory do not conflict.
const uint kWindowStride = kWindowChunks | 1u;
shared uvec4 vm_window_staged[kVmWorkgroupSize * kWindowStride];
shared uint vm_window_first_chunk[kVmWorkgroupSize];  // ~0u: no record (load) or nothing to store

// This invocation's k-th chunk of the workgroup's run: chunk `c` of particle p's window, staged at
// `staged`; returns its index in the records (clamped to the bound ones), or ~0u when particle p
// has no record (load) or nothing to store.
uint vm_window_run_chunk(uint k, out uint staged, out uint c) {
  uint j = k * kVmWorkgroupSize + gl_LocalInvocationIndex;
  uint p = j / kWindowChunks;
  c = j - p * kWindowChunks;
  staged = p * kWindowStride + c;
  uint first = vm_window_first_chunk[p];
  return first == ~0u ? ~0u : min(first + c, (VM_WINDOW_RECORD_COUNT) * (kRecordWords / 4u) - 1u);
}
void vm_window_load_group(bool present) {
  uint me = gl_LocalInvocationIndex;
  vm_window_first_chunk[me] = present ? vm_record_base / 4u + kWindowFirstChunk : ~0u;
  barrier();
#ifdef VM_WINDOW_LOADS_FIRST
  // Every load of the invocation before any staging store (the includer's choice: measured per
  // harness, see run_compiled.comp).
  uvec4 loaded[kVmMaxWindowChunks];
  uint at[kVmMaxWindowChunks];
  [[unroll]] for (uint k = 0u; k < kVmMaxWindowChunks; ++k) {
    if (k < kWindowChunks) {
      uint c;
      uint chunk = vm_window_run_chunk(k, at[k], c);
      loaded[k] = chunk != ~0u ? VM_WINDOW_CHUNKS[chunk] : uvec4(0u);
    }
  }
  [[unroll]] for (uint k = 0u; k < kVmMaxWindowChunks; ++k)
    if (k < kWindowChunks) vm_window_staged[at[k]] = loaded[k];
#else
  [[unroll]] for (uint k = 0u; k < kVmMaxWindowChunks; ++k) {
    if (k < kWindowChunks) {
      uint staged, c;
      uint chunk = vm_window_run_chunk(k, staged, c);
      vm_window_staged[staged] = chunk != ~0u ? VM_WINDOW_CHUNKS[chunk] : uvec4(0u);
    }
  }
#endif
  barrier();
  [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c)
    if (c < kWindowChunks) vm_window[c] = vm_window_staged[me * kWindowStride + c];
}
// The group store's global half: the staged chunks in `chunks` (a mask) of every invocation that
// staged its window for storing go to their records. Ends with a barrier, so the staging can be
// reused by the next load.
void vm_window_store_staged(uint chunks) {
  [[unroll]] for (uint k = 0u; k < kVmMaxWindowChunks; ++k) {
    if (k < kWindowChunks) {
      uint staged, c;
      uint chunk = vm_window_run_chunk(k, staged, c);
      if ((chunks & (1u << c)) != 0u && chunk != ~0u) VM_WINDOW_CHUNKS[chunk] = vm_window_staged[staged];
    }
  }
  barrier();
}
// Stores the window chunks in `chunks` (a mask: the section's written ones, kWindowDirtyMask, or
// every one for a newborn's new record) of every invocation with `store` set. Ends with a
// barrier, so the staging can be reused by the next load.
void vm_window_store_group(bool store, uint chunks) {
  uint me = gl_LocalInvocationIndex;
  vm_window_first_chunk[me] = store ? vm_record_base / 4u + kWindowFirstChunk : ~0u;
  [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c)
    if (c < kWindowChunks && (chunks & (1u << c)) != 0u) vm_window_staged[me * kWindowStride + c] = vm_window[c];
  barrier();
  vm_window_store_staged(chunks);
}
// The group store split in two around a read by word: every chunk of the window of each
// invocation with `store` set is staged, then (vm_window_staged_read) the invocation reads its
// own record's words at indices the code does not know — which its registers, indexed by
// constants only, cannot give — and vm_window_store_staged writes the chunks back.
void vm_window_stage_group(bool store) {
  uint me = gl_LocalInvocationIndex;
  vm_window_first_chunk[me] = store ? vm_record_base / 4u + kWindowFirstChunk : ~0u;
  [[unroll]] for (uint c = 0u; c < kVmMaxWindowChunks; ++c)
    if (c < kWindowChunks) vm_window_staged[me * kWindowStride + c] = vm_window[c];
  barrier();
}
// A word of this invocation's record after vm_window_stage_group: the staged window, or (only for
// a word the window does not hold, which the section left as it was) the record itself.
float vm_window_staged_read(uint word) {
  word = min(word, kRecordWords - 1u);
  if (!vm_in_window(word)) return uintBitsToFloat(VM_WINDOW_WORDS[vm_record_base + word]);
  uvec4 chunk = vm_window_staged[gl_LocalInvocationIndex * kWindowStride + (word >> 2u) - kWindowFirstChunk];
  return uintBitsToFloat(chunk[word & 3u]);
}
