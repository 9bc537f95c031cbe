// An exact GPU prefix scan over u32 (wrapping, as std::inclusive_scan over uint32_t): the spawn
// pipeline's scan over per-emitter spawn counts (the GPU decides how many particles spawn,
// docs/design/runtime_frame.md, "One frame").
// Reduce-then-scan over blocks of kScanBlockSize elements, recursive over the block sums; the
// passes, their barriers and the indirect count are described in docs/design/runtime_passes.md.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/compute_pipeline.hpp"
#include "mote/result.hpp"

namespace mote::gpu {

enum class ScanKind { kInclusive, kExclusive };

// Where the element count comes from.
struct ScanCount {
  // Host-known count (<= capacity) when `buffer` is null.
  uint32_t count = 0;
  // GPU-decided: the count is word `word` of `buffer`, clamped to the scan's capacity. A first
  // one-invocation pass derives each level's dispatch from the count and the passes are
  // dispatched indirectly, so the CPU never reads the count back and a small count costs little
  // whatever the capacity.
  const gpu::Buffer* buffer = nullptr;
  uint32_t word = 0;

  static ScanCount host(uint32_t n) { return {n, nullptr, 0}; }
  static ScanCount from_buffer(const gpu::Buffer& b, uint32_t w = 0) { return {0, &b, w}; }
};

class PrefixScan {
 public:
  // Scratch for up to `capacity` elements (at least 1, at most 2^31). Fails with kUnsupported on
  // a device without subgroup arithmetic in compute shaders.
  static Result<PrefixScan> create(gpu::Device& device, uint32_t capacity);
  PrefixScan() = default;
  PrefixScan(PrefixScan&&) noexcept = default;
  PrefixScan& operator=(PrefixScan&&) noexcept = default;

  uint32_t capacity() const { return capacity_; }
  // Levels of block sums below the element level (0 when the capacity fits one block).
  uint32_t levels() const { return uint32_t(level_sizes_.size()) - 1u; }

  // Records the scan of input[0, count) into output[0, count). input and output may be the same
  // buffer (an in-place scan). Both need STORAGE usage. Reads of input wait for earlier compute
  // and transfer writes; the caller adds a barrier from compute to whatever reads output next
  // (gpu::compute_to_compute, compute_to_transfer, ...). Errors: a host count above capacity, a
  // buffer too small for the capacity (indirect) or count (host).
  Status record(VkCommandBuffer cmd, const gpu::Buffer& input, const gpu::Buffer& output, ScanCount count,
                ScanKind kind = ScanKind::kInclusive) const;

 private:
  gpu::Device* device_ = nullptr;
  uint32_t capacity_ = 0;
  std::vector<uint32_t> level_sizes_;  // [0] = capacity, [L] = ceil(capacity / B^L), last <= B
  std::vector<gpu::Buffer> sums_;      // sums_[L - 1]: the block sums of level L - 1 (size level_sizes_[L])
  gpu::Buffer dummy_count_;            // bound as the count buffer when the count is the host's
  gpu::Buffer dispatch_args_;          // per level below the top: its indirect dispatch (GPU counts)
  gpu::ComputePipeline args_;
  gpu::ComputePipeline reduce_;
  gpu::ComputePipeline downsweep_;
};

}  // namespace mote::gpu
