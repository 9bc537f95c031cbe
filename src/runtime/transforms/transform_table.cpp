#include "runtime/transforms/transform_table.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "gpu/commands.hpp"
#include "mote/emitter.hpp"

namespace mote::runtime {
namespace {

shader::TransformLocal identity_local(uint32_t parent) {
  shader::TransformLocal l{};
  l.position = glm::vec4(0.0f);
  l.rotation = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
  l.scale = glm::vec4(1.0f, 1.0f, 1.0f, 0.0f);
  l.parent = parent;
  return l;
}

}  // namespace

Result<TransformTable> TransformTable::create(gpu::Device& device, uint32_t capacity) {
  if (capacity == 0) return make_error(ErrorCode::kInvalidArgument, "a transforms table needs a capacity");
  TransformTable t;
  t.device_ = &device;
  t.locals_.assign(capacity, identity_local(kNoParent));
  t.live_.assign(capacity, 0);
  t.child_count_.assign(capacity, 0);
  const VkDeviceSize locals_bytes = VkDeviceSize(capacity) * sizeof(shader::TransformLocal);
  const VkDeviceSize order_bytes = VkDeviceSize(capacity) * 4;
  MOTE_TRY_ASSIGN(t.staging_, gpu::Buffer::create(device, {.size = locals_bytes + order_bytes,
                                                           .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                           .memory = gpu::MemoryUsage::kUpload,
                                                           .name = "transforms.staging"}));
  MOTE_TRY_ASSIGN(t.locals_gpu_, gpu::Buffer::create(device, {.size = locals_bytes, .name = "transforms.locals"}));
  MOTE_TRY_ASSIGN(t.order_gpu_, gpu::Buffer::create(device, {.size = order_bytes, .name = "transforms.order"}));
  MOTE_TRY_ASSIGN(t.worlds_,
                  gpu::Buffer::create(device, {.size = VkDeviceSize(capacity) * 64, .name = "transforms.worlds"}));
  MOTE_TRY_ASSIGN(t.channels_,
                  gpu::Buffer::create(device, {.size = VkDeviceSize(capacity) * sizeof(shader::TransformChannels),
                                               .name = "transforms.channels"}));
  MOTE_TRY_ASSIGN(t.compose_, gpu::ComputePipeline::create(device, "runtime/transforms/compose"));
  return t;
}

Status TransformTable::check_live(uint32_t row, const char* what) const {
  if (!is_live(row)) {
    return make_error(ErrorCode::kInvalidArgument, std::string(what) + ": no such live row",
                      "row " + std::to_string(row));
  }
  return {};
}

uint32_t TransformTable::level_of(uint32_t row) const {
  uint32_t level = 1;
  for (uint32_t p = locals_[row].parent; p != kNoParent; p = locals_[p].parent) ++level;
  return level;
}

// The levels the subtree under `row` spans, `row` itself counting 1: every live row walks up at
// most kMaxTransformLevels parents (the table never holds a deeper one), so O(rows).
uint32_t TransformTable::subtree_levels(uint32_t row) const {
  uint32_t levels = 1;
  for (uint32_t r = 0; r < next_unused_; ++r) {
    if (!live_[r]) continue;
    uint32_t steps = 1;
    for (uint32_t p = r; p != kNoParent && steps <= kMaxTransformLevels; p = locals_[p].parent, ++steps)
      if (p == row) levels = std::max(levels, steps);
  }
  return levels;
}

Status TransformTable::check_levels(uint32_t parent, uint32_t subtree_levels) const {
  const uint32_t levels = (parent == kNoParent ? 0 : level_of(parent)) + subtree_levels;
  if (levels > kMaxTransformLevels)
    return make_error(ErrorCode::kInvalidArgument,
                      "the hierarchy would be " + std::to_string(levels) + " levels deep; the limit is " +
                          std::to_string(kMaxTransformLevels) + " (kMaxTransformLevels)",
                      "parent row " + std::to_string(parent));
  return {};
}

Result<uint32_t> TransformTable::add_row(uint32_t parent) {
  if (parent != kNoParent) MOTE_TRY(check_live(parent, "add_row parent"));
  MOTE_TRY(check_levels(parent, 1));
  uint32_t row;
  if (!free_rows_.empty()) {
    row = free_rows_.back();
    free_rows_.pop_back();
  } else if (next_unused_ < capacity()) {
    row = next_unused_++;
  } else {
    return make_error(ErrorCode::kOutOfMemory, "the transforms table is full",
                      "capacity " + std::to_string(capacity()));
  }
  locals_[row] = identity_local(parent);
  live_[row] = 1;
  if (generations_.size() <= row) generations_.resize(capacity(), 0u);
  ++generations_[row];
  child_count_[row] = 0;
  if (parent != kNoParent) ++child_count_[parent];
  ++live_count_;
  ++topology_version_;
  return row;
}

Status TransformTable::set_local(uint32_t row, const glm::vec3& position, const glm::quat& rotation,
                                 const glm::vec3& scale) {
  MOTE_TRY(check_live(row, "set_local"));
  shader::TransformLocal& l = locals_[row];
  l.position = glm::vec4(position, 0.0f);
  l.rotation = glm::vec4(rotation.x, rotation.y, rotation.z, rotation.w);
  l.scale = glm::vec4(scale, 0.0f);
  return {};
}

Status TransformTable::set_parent(uint32_t row, uint32_t parent) {
  MOTE_TRY(check_live(row, "set_parent"));
  if (parent != kNoParent) {
    MOTE_TRY(check_live(parent, "set_parent parent"));
    // Walk up from the new parent: meeting `row` means the edge would close a cycle.
    for (uint32_t p = parent; p != kNoParent; p = locals_[p].parent) {
      if (p == row) {
        return make_error(ErrorCode::kInvalidArgument, "set_parent would make a row its own ancestor",
                          "row " + std::to_string(row));
      }
    }
  }
  if (parent != locals_[row].parent) MOTE_TRY(check_levels(parent, subtree_levels(row)));
  const uint32_t old = locals_[row].parent;
  if (old == parent) return {};
  if (old != kNoParent) --child_count_[old];
  if (parent != kNoParent) ++child_count_[parent];
  locals_[row].parent = parent;
  ++topology_version_;
  return {};
}

Status TransformTable::remove_row(uint32_t row) {
  MOTE_TRY(check_live(row, "remove_row"));
  if (child_count_[row] != 0) {
    return make_error(ErrorCode::kInvalidArgument, "remove_row: the row still has children",
                      "row " + std::to_string(row));
  }
  if (locals_[row].parent != kNoParent) --child_count_[locals_[row].parent];
  locals_[row] = identity_local(kNoParent);
  live_[row] = 0;
  free_rows_.push_back(row);
  --live_count_;
  ++topology_version_;
  return {};
}

// Depth of every live row by memoised walks up its parents, then a counting sort by depth: O(rows)
// and no recursion, whatever the order rows were added and reparented in.
void TransformTable::rebuild_levels() {
  const uint32_t n = next_unused_;
  constexpr uint32_t kUnknown = 0xFFFFFFFFu;
  std::vector<uint32_t> depth(n, kUnknown);
  std::vector<uint32_t> path;
  uint32_t max_depth = 0;
  for (uint32_t r = 0; r < n; ++r) {
    if (!live_[r] || depth[r] != kUnknown) continue;
    path.clear();
    uint32_t p = r;
    while (p != kNoParent && depth[p] == kUnknown) {
      path.push_back(p);
      p = locals_[p].parent;
    }
    uint32_t d = p == kNoParent ? 0 : depth[p] + 1;
    for (auto it = path.rbegin(); it != path.rend(); ++it) depth[*it] = d++;
  }
  for (uint32_t r = 0; r < n; ++r)
    if (live_[r]) max_depth = std::max(max_depth, depth[r]);
  std::vector<uint32_t> level_size(live_count_ ? max_depth + 1 : 0, 0);
  for (uint32_t r = 0; r < n; ++r)
    if (live_[r]) ++level_size[depth[r]];
  level_ranges_.assign(level_size.size(), {});
  uint32_t first = 0;
  for (size_t l = 0; l < level_size.size(); ++l) {
    level_ranges_[l] = {first, level_size[l], 0, 0};
    first += level_size[l];
  }
  order_.assign(live_count_, 0);
  std::vector<uint32_t> cursor(level_size.size(), 0);
  for (uint32_t r = 0; r < n; ++r)
    if (live_[r]) order_[level_ranges_[depth[r]].first + cursor[depth[r]]++] = r;
  levels_version_ = topology_version_;
}

Status TransformTable::upload() {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "transforms table used before create()");
  if (levels_version_ != topology_version_) rebuild_levels();
  auto* bytes = static_cast<uint8_t*>(staging_.mapped());
  if (next_unused_ > 0) std::memcpy(bytes, locals_.data(), size_t(next_unused_) * sizeof(shader::TransformLocal));
  if (staged_levels_version_ != levels_version_) {
    // (An empty order has no data pointer to copy from: memcpy's arguments must not be null.)
    if (!order_.empty())
      std::memcpy(bytes + locals_.size() * sizeof(shader::TransformLocal), order_.data(), order_.size() * 4);
    staged_levels_version_ = levels_version_;
  }
  return staging_.flush();
}

namespace {

// Earlier compute work on the table's buffers (last frame's compose, a field-bind pass reading
// the channels) finishes before new poses and the compose overwrite them (WAR and WAW).
void before_table_writes(VkCommandBuffer cmd) {
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
}

// vkCmdUpdateBuffer writes at most 65536 bytes a command.
void update_in_pieces(VkCommandBuffer cmd, VkBuffer buffer, const void* data, size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t done = 0; done < bytes;) {
    const size_t n = std::min<size_t>(bytes - done, 65536);
    vkCmdUpdateBuffer(cmd, buffer, done, n, p + done);
    done += n;
  }
}

}  // namespace

void TransformTable::record_inline_upload(VkCommandBuffer cmd) {
  if (levels_version_ != topology_version_) rebuild_levels();
  before_table_writes(cmd);
  if (next_unused_ > 0)
    update_in_pieces(cmd, locals_gpu_.handle(), locals_.data(), size_t(next_unused_) * sizeof(shader::TransformLocal));
  if (!order_.empty()) update_in_pieces(cmd, order_gpu_.handle(), order_.data(), order_.size() * 4);
  record_compose(cmd);
}

void TransformTable::record(VkCommandBuffer cmd) const {
  const VkDeviceSize locals_bytes = VkDeviceSize(next_unused_) * sizeof(shader::TransformLocal);
  before_table_writes(cmd);
  if (locals_bytes) {
    const VkBufferCopy copy{0, 0, locals_bytes};
    vkCmdCopyBuffer(cmd, staging_.handle(), locals_gpu_.handle(), 1, &copy);
  }
  // The order only changes with the topology, but a record() may be replayed after another
  // upload(): copying it every time costs 4 bytes a row and keeps record() stateless.
  if (!order_.empty()) {
    const VkBufferCopy copy{VkDeviceSize(locals_.size()) * sizeof(shader::TransformLocal), 0,
                            VkDeviceSize(order_.size()) * 4};
    vkCmdCopyBuffer(cmd, staging_.handle(), order_gpu_.handle(), 1, &copy);
  }
  record_compose(cmd);
}

void TransformTable::record_compose(VkCommandBuffer cmd) const {
  gpu::transfer_to_compute(cmd);
  gpu::ComputeRecorder rec(*device_, cmd);
  rec.bind(compose_).buffers({{0, &locals_gpu_}, {1, &order_gpu_}, {2, &worlds_}, {3, &channels_}});
  for (size_t l = 0; l < level_ranges_.size(); ++l) {
    if (l) gpu::compute_to_compute(cmd);  // the parents' worlds, written by the previous level
    rec.push(level_ranges_[l]).dispatch_threads(level_ranges_[l].count);
  }
}

}  // namespace mote::runtime
