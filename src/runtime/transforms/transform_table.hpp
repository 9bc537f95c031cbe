// The scene's transforms table and its GPU hierarchy pass (docs/design/runtime_passes.md,
// "Transforms table"; emitters stand at and fields bind to its rows, docs/design/runtime_frame.md):
// rows of {parent, local pose} whose world matrices the GPU
// composes every frame, parents before children, plus the per-row channels (POSITION, DIRECTION,
// UP, ORIENTATION) a field binding reads. The CPU only sorts rows into depth levels when the
// topology changes (rare); a pose change is a 64-byte write.
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "mote/result.hpp"
#include "shared/transform.h"

namespace mote::runtime {

inline constexpr uint32_t kNoParent = shader::kTransformRoot;

class TransformTable {
 public:
  static Result<TransformTable> create(gpu::Device& device, uint32_t capacity);
  TransformTable() = default;
  TransformTable(TransformTable&&) noexcept = default;
  TransformTable& operator=(TransformTable&&) noexcept = default;

  // A new row at the identity pose under `parent` (kNoParent: a root). Refuses a row that would
  // sit deeper than kMaxTransformLevels (mote/emitter.hpp): the hierarchy costs a pass a level.
  Result<uint32_t> add_row(uint32_t parent = kNoParent);
  Status set_local(uint32_t row, const glm::vec3& position, const glm::quat& rotation, const glm::vec3& scale);
  // Refuses a parent that is the row itself or one of its descendants (a cycle), and one that
  // would put the row's subtree past kMaxTransformLevels (O(rows) to check: topology is rare).
  Status set_parent(uint32_t row, uint32_t parent);
  // Refuses a row that still has children: reparent or remove them first.
  Status remove_row(uint32_t row);

  uint32_t capacity() const { return uint32_t(locals_.size()); }
  uint32_t live_rows() const { return live_count_; }
  bool is_live(uint32_t row) const { return row < live_.size() && live_[row]; }
  // Which occupant of the row this is: bumped each time add_row hands the row out, so a holder
  // of (row, generation) can tell the row it took from a later one reusing the index.
  uint32_t generation(uint32_t row) const { return row < generations_.size() ? generations_[row] : 0u; }
  uint32_t parent(uint32_t row) const { return locals_[row].parent; }
  // Bumped by every add, remove and reparent: the depth levels are rebuilt when it moves.
  uint64_t topology_version() const { return topology_version_; }
  uint32_t level_count() const { return uint32_t(level_ranges_.size()); }

  // Writes this frame's poses (and, after a topology change, the level order) into the staging
  // buffer the next record() copies from. The staging memory is single-buffered: the submission
  // of the previous record() must have completed (Device::wait on its serial) before this call.
  Status upload();
  // Records the copy of the staged data and one compose dispatch per depth level, each behind a
  // compute-to-compute barrier. After it, worlds() and channels() hold this frame's values for
  // every live row, visible to compute shaders (and transfers) recorded next after the caller's
  // own barrier (gpu::compute_to_compute / compute_to_transfer).
  void record(VkCommandBuffer cmd) const;
  // record() for a frame the host submits itself: the poses (and the level order) are written
  // into the command buffer instead of copied from the staging buffer, so no earlier frame's copy
  // has to have completed and upload() is not called. The command buffer grows by 64 bytes a row.
  void record_inline_upload(VkCommandBuffer cmd);

  const gpu::Buffer& worlds() const { return worlds_; }      // mat4 per row
  const gpu::Buffer& channels() const { return channels_; }  // shader::TransformChannels per row

 private:
  Status check_live(uint32_t row, const char* what) const;
  uint32_t level_of(uint32_t row) const;  // a root is level 1
  uint32_t subtree_levels(uint32_t row) const;
  // Whether a subtree of `subtree_levels` levels fits under `parent`.
  Status check_levels(uint32_t parent, uint32_t subtree_levels) const;
  // The compose dispatches, one per depth level, after the poses reached locals_gpu_.
  void record_compose(VkCommandBuffer cmd) const;
  void rebuild_levels();

  gpu::Device* device_ = nullptr;
  std::vector<shader::TransformLocal> locals_;
  std::vector<uint8_t> live_;
  std::vector<uint32_t> generations_;
  std::vector<uint32_t> child_count_;
  std::vector<uint32_t> free_rows_;  // a stack; rows never used are handed out after it empties
  uint32_t next_unused_ = 0;
  uint32_t live_count_ = 0;
  uint64_t topology_version_ = 1;
  uint64_t levels_version_ = 0;  // the topology the level order was built from
  uint64_t staged_levels_version_ = 0;
  std::vector<uint32_t> order_;  // live rows, level by level
  std::vector<shader::TransformLevelParams> level_ranges_;

  gpu::Buffer staging_;  // [locals | order], host-visible
  gpu::Buffer locals_gpu_;
  gpu::Buffer order_gpu_;
  gpu::Buffer worlds_;
  gpu::Buffer channels_;
  gpu::ComputePipeline compose_;
};

}  // namespace mote::runtime
