// An exact, stable GPU radix sort of (key, value) u32 pairs, ascending by key, with the count
// decided by the host or by a word of a GPU buffer: the particle renderer's back-to-front order
// (keys = depth bits, values = pool slots) and the compute rasterizer's binning (keys = tile << 16
// | quantised depth, values = particle index).
//
// Least-significant-digit radix sort with 8-bit digits, reduce-then-scan per digit (Merrill &
// Grimshaw, "High Performance and Scalable Radix Sorting", 2011): per-tile digit histograms, one
// exclusive scan of them in digit-major order (PrefixScan), and a stable scatter ranked by
// subgroup ballots (the warp-level multi-split of Adinets & Merrill, "Onesweep", 2022). The
// passes, their barriers and the limits are described in docs/design/runtime_passes.md.
#pragma once

#include <cstdint>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/profiler.hpp"
#include "mote/result.hpp"
#include "gpu/passes/prefix_scan.hpp"

namespace mote::gpu {

class RadixSort {
 public:
  // Scratch for up to `capacity` pairs (at least 1, at most 2^31; capacity * 4 bytes must fit
  // one storage-buffer binding, maxStorageBufferRange): ping-pong keys and values (8 bytes a
  // pair), the digit histograms (256 words per 2048 pairs: 2 MiB for 16 Mi pairs) and the
  // histogram scan's own scratch. Fails with kUnsupported on a device without subgroup ballot
  // and arithmetic in compute, with subgroups narrower than 4 or wider than 128, or with too
  // little shared memory for the scatter (10 KiB with 32-wide subgroups, 18 KiB with lavapipe's
  // 8-wide ones, 34 KiB if subgroups can be 4 wide).
  static Result<RadixSort> create(gpu::Device& device, uint32_t capacity);
  RadixSort() = default;
  RadixSort(RadixSort&&) noexcept = default;
  RadixSort& operator=(RadixSort&&) noexcept = default;

  uint32_t capacity() const { return capacity_; }
  // Digit passes for `key_bits`: ceil(key_bits / 8).
  static uint32_t passes(uint32_t key_bits);

  // Records the sort of keys[0, count) with values[0, count) in place: afterwards the keys are
  // ascending by (key & low_mask), low_mask = the low `key_bits` bits, and pairs of equal masked
  // keys keep their input order (stable). Keys are moved whole: bits above key_bits are carried
  // but take no part in the order (a caller whose keys fit in key_bits gets them sorted
  // outright; key_bits = 16 sorts 0x10005 before 0x00007). Nothing past the count is read or
  // written. keys and values are different buffers with STORAGE usage holding at least `count`
  // words (host count) or the capacity's (GPU count). count is ScanCount::host(n) with n <=
  // capacity, or ScanCount::from_buffer(buffer, word): that word is read on the GPU, clamped to
  // the capacity, and the passes are dispatched for the capacity with the tiles past the count
  // returning at once, so nothing is read back.
  //
  // Synchronization: record() first puts a barrier from earlier compute and transfer writes to
  // compute reads and writes, so keys, values and the count word written by an earlier dispatch
  // or copy are seen, and an earlier record() of this sort (which shares the scratch) has
  // finished. The last pass writes keys and values from the compute stage (shader storage
  // writes); the caller records the barrier its next reader needs: gpu::compute_to_compute for
  // a compute pass, gpu::compute_to_transfer for a copy or readback, gpu::compute_to_indirect
  // when they feed indirect arguments, and for a vertex shader reading them as storage buffers
  // gpu::memory_barrier(cmd, COMPUTE_SHADER, SHADER_STORAGE_WRITE, VERTEX_SHADER,
  // SHADER_STORAGE_READ) (INDEX_INPUT / INDEX_READ when the values are an index buffer). The
  // sort's scratch is this object's: two sorts recorded with one RadixSort are ordered by the
  // leading barrier, but they must not run concurrently on two queues.
  //
  // Errors: used before create(), key_bits outside [1, 32], keys and values the same buffer, a
  // host count above the capacity, a buffer smaller than the elements it may hold, a count word
  // past the end of its buffer. Nothing is recorded when record() fails or the host count is 0.
  Status record(VkCommandBuffer cmd, const gpu::Buffer& keys, const gpu::Buffer& values, ScanCount count,
                uint32_t key_bits = 32) const;

  // When set (default: none), record() puts GPU timestamps around each of its steps, named
  // "radix.setup", "radix.copy", "radix.histogram", "radix.scan" and "radix.scatter" (one of each
  // of the last three per digit pass), for bench_radix_sort; the caller resets and resolves the
  // profiler and must not have a begin() of its own open across record(). nullptr stops it.
  void set_profiler(gpu::GpuProfiler* profiler) { profiler_ = profiler; }

 private:
  gpu::Device* device_ = nullptr;
  uint32_t capacity_ = 0;
  uint32_t tiles_ = 0;        // ceil(capacity / kRadixTileSize)
  gpu::Buffer scratch_keys_;  // the ping-pong partners of the caller's keys and values
  gpu::Buffer scratch_values_;
  gpu::Buffer histograms_;   // kRadixDigits * tiles_ words, digit-major; scanned in place
  gpu::Buffer state_;        // shader::RadixSortState, written by gpu/passes/radix_setup
  gpu::Buffer dummy_count_;  // bound as the count buffer when the count is the host's
  PrefixScan scan_;          // the histograms' exclusive scan (capacity kRadixDigits * tiles_)
  gpu::ComputePipeline setup_;
  gpu::ComputePipeline copy_;
  gpu::ComputePipeline histogram_;
  gpu::ComputePipeline scatter_;
  gpu::GpuProfiler* profiler_ = nullptr;  // optional per-step timestamps (set_profiler)
};

}  // namespace mote::gpu
