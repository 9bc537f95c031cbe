// The ribbon build (docs/design/ribbons.md): every frame, on the GPU, the alive particles of the
// ribbon rows sorted by (row, ribbon id, serial) with the radix sort (three stable sorts, least
// significant key first), each place of that order made a RibbonPoint, neighbours of one ribbon
// linked into segments, and every segment cut into its row's subdivisions as the piece list the
// draws expand (shaders/shared/ribbon.h). Nothing is read back; every count is on the GPU.
//
// Passes (shaders/render/ribbon_*.comp, each a thread per alive-list place, past the alive count
// returning at once): keys (serial; values = slots) → sort → keys (id; skipped when no row has an
// id field) → sort → keys (row) → sort over the row bits → points → links (flags, fixed-point
// segment lengths, piece counts) → two exclusive PrefixScans (distances along the order, piece
// places) → pieces (u from the strip's ends found by binary search; the piece list; the counts).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "gpu/passes/prefix_scan.hpp"
#include "gpu/passes/radix_sort.hpp"
#include "mote/result.hpp"
#include "render/particle_inputs.hpp"
#include "shared/ribbon.h"

namespace mote::render {

struct RibbonPassOptions {
  uint32_t capacity = 0;  // the most particles (alive-list places) a frame holds
  uint32_t max_rows = 1;  // emitter rows: the row sort's key bits
};

class RibbonPass {
 public:
  // Buffers for `capacity` points and capacity × kRibbonMaxSubdivisions pieces, the pipelines, a
  // radix sort and two scans. Errors: a zero capacity or row count (kInvalidArgument); the sort's
  // and scan's own (kUnsupported without subgroup operations).
  static Result<RibbonPass> create(gpu::Device& device, const RibbonPassOptions& options);
  RibbonPass() = default;
  RibbonPass(RibbonPass&&) noexcept = default;
  RibbonPass& operator=(RibbonPass&&) noexcept = default;

  // Records the build over `in`'s pool, alive list, counters and draw records, with `ribbons` a
  // RibbonRecord per row (in.record_count of them). `id_sort`: some live row takes its ribbon id
  // from a field (false skips that sort: every id is 0). Opens with a barrier from every earlier
  // write (and the previous frame's readers of these buffers); ends with points, pieces and counts
  // visible to vertex, fragment and compute shaders, indirect draws and transfers. Errors
  // (kInvalidArgument, nothing recorded): missing buffers, a capacity or row count past the pass's.
  Status record(VkCommandBuffer cmd, const ParticleInputs& in, const gpu::Buffer& ribbons, bool id_sort) const;

  // RibbonPoint per alive-list place, in (row, id, serial) order (the first counts[kRibbonCountPoints]).
  const gpu::Buffer& points() const { return points_; }
  // u32 per piece: point << kRibbonPieceShift | piece (the first counts[kRibbonCountPieces]).
  const gpu::Buffer& pieces() const { return pieces_; }
  // kRibbonCountWords u32: the totals, and at kRibbonCountDrawOffset a VkDrawIndexedIndirectCommand
  // of 6 indices per piece instance.
  const gpu::Buffer& counts() const { return counts_; }
  uint32_t capacity() const { return options_.capacity; }

 private:
  void dispatch(VkCommandBuffer cmd, const gpu::ComputePipeline& pipeline, const ParticleInputs& in,
                const gpu::Buffer& ribbons, uint32_t key, std::initializer_list<gpu::BufferBinding> extra) const;

  gpu::Device* device_ = nullptr;
  RibbonPassOptions options_;
  uint32_t row_bits_ = 1;
  gpu::RadixSort sort_;
  gpu::PrefixScan scan_;
  gpu::ComputePipeline keys_pipeline_;
  gpu::ComputePipeline points_pipeline_;
  gpu::ComputePipeline links_pipeline_;
  gpu::ComputePipeline pieces_pipeline_;
  gpu::Buffer keys_;
  gpu::Buffer values_;
  gpu::Buffer points_;
  gpu::Buffer lengths_;  // segment length per place (fixed point), then scanned into distances_
  gpu::Buffer distances_;
  gpu::Buffer piece_counts_;
  gpu::Buffer places_;
  gpu::Buffer pieces_;
  gpu::Buffer counts_;
};

}  // namespace mote::render
