#include "gpu/passes/prefix_scan.hpp"

#include <algorithm>
#include <string>

#include "shared/scan.h"

namespace mote::gpu {
namespace {

using shader::kScanBlockSize;

// Vulkan guarantees maxComputeWorkGroupCount[0] >= 65535 (and 2^26 / 2048 = 32768 fits, but a
// larger capacity is split over y).
constexpr uint32_t kMaxGroupsX = 65535;

uint32_t blocks_for(uint32_t n) { return (n + kScanBlockSize - 1) / kScanBlockSize; }

// Subgroup arithmetic in compute shaders (VkPhysicalDeviceSubgroupProperties), which the scan's
// shaders use; lavapipe and every desktop GPU have it.
bool has_subgroup_arithmetic(VkPhysicalDevice physical) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physical, &props);
  return (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
         (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT) &&
         (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) && subgroup.subgroupSize >= 4;
}

void dispatch_blocks(gpu::ComputeRecorder& rec, uint32_t blocks) {
  if (blocks <= kMaxGroupsX) {
    rec.dispatch(blocks);
  } else {
    const uint32_t y = (blocks + kMaxGroupsX - 1) / kMaxGroupsX;
    rec.dispatch(kMaxGroupsX, y);  // the extra workgroups of the last row return at once
  }
}

}  // namespace

Result<PrefixScan> PrefixScan::create(gpu::Device& device, uint32_t capacity) {
  if (capacity == 0 || capacity > (1u << 31)) {
    return make_error(ErrorCode::kInvalidArgument, "prefix scan capacity must be in [1, 2^31]",
                      "capacity " + std::to_string(capacity));
  }
  if (!has_subgroup_arithmetic(device.physical_device())) {
    return make_error(ErrorCode::kUnsupported, "the prefix scan needs subgroup arithmetic in compute shaders");
  }
  PrefixScan scan;
  scan.device_ = &device;
  scan.capacity_ = capacity;
  scan.level_sizes_.push_back(capacity);
  while (scan.level_sizes_.back() > kScanBlockSize) scan.level_sizes_.push_back(blocks_for(scan.level_sizes_.back()));
  for (size_t l = 1; l < scan.level_sizes_.size(); ++l) {
    MOTE_TRY_ASSIGN(gpu::Buffer sums, gpu::Buffer::create(device, {.size = VkDeviceSize(scan.level_sizes_[l]) * 4,
                                                                   .name = "scan.block_sums." + std::to_string(l)}));
    scan.sums_.push_back(std::move(sums));
  }
  MOTE_TRY_ASSIGN(scan.dummy_count_, gpu::Buffer::create(device, {.size = 16, .name = "scan.host_count"}));
  // Three words of dispatch per level below the top (at least one level's worth: Vulkan has no
  // empty buffers).
  const VkDeviceSize args_bytes = VkDeviceSize(std::max<size_t>(scan.level_sizes_.size() - 1, 1)) * 12;
  MOTE_TRY_ASSIGN(scan.dispatch_args_, gpu::Buffer::create(device, {.size = args_bytes,
                                                                    .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                                             VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                                                             VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                                    .name = "scan.dispatch_args"}));
  MOTE_TRY_ASSIGN(scan.args_, gpu::ComputePipeline::create(device, "gpu/passes/scan_args"));
  MOTE_TRY_ASSIGN(scan.reduce_, gpu::ComputePipeline::create(device, "gpu/passes/scan_reduce"));
  MOTE_TRY_ASSIGN(scan.downsweep_, gpu::ComputePipeline::create(device, "gpu/passes/scan_downsweep"));
  return scan;
}

Status PrefixScan::record(VkCommandBuffer cmd, const gpu::Buffer& input, const gpu::Buffer& output, ScanCount count,
                          ScanKind kind) const {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "prefix scan used before create()");
  const bool indirect = count.buffer != nullptr;
  if (!indirect && count.count > capacity_) {
    return make_error(ErrorCode::kInvalidArgument, "scan count exceeds the scan's capacity",
                      "count " + std::to_string(count.count) + " > capacity " + std::to_string(capacity_));
  }
  // An indirect scan may touch up to `capacity` elements; a host one exactly `count`.
  const uint32_t n = indirect ? capacity_ : count.count;
  const VkDeviceSize bytes = VkDeviceSize(n) * 4;
  if (input.size() < bytes || output.size() < bytes) {
    return make_error(ErrorCode::kInvalidArgument, "scan buffers are smaller than the elements scanned",
                      "need " + std::to_string(bytes) + " bytes");
  }
  if (indirect && count.buffer->size() < VkDeviceSize(count.word + 1) * 4) {
    return make_error(ErrorCode::kInvalidArgument, "scan count word lies past the end of its buffer",
                      "word " + std::to_string(count.word));
  }
  if (n == 0) return {};

  // Level sizes for this recording: the host count's, or the capacity's for an indirect count
  // (the shaders derive the real ones from the count word).
  std::vector<uint32_t> sizes{n};
  while (sizes.back() > kScanBlockSize) sizes.push_back(blocks_for(sizes.back()));
  const uint32_t top = uint32_t(sizes.size()) - 1;

  const gpu::Buffer& counts = indirect ? *count.buffer : dummy_count_;
  const uint32_t base_flags = indirect ? shader::kScanCountFromBuffer : 0u;
  auto params = [&](uint32_t level, uint32_t flags) {
    return shader::ScanParams{n, level, base_flags | flags, indirect ? count.word : 0u};
  };
  auto level_in = [&](uint32_t l) -> const gpu::Buffer& { return l == 0 ? input : sums_[l - 1]; };
  auto level_out = [&](uint32_t l) -> const gpu::Buffer& { return l == 0 ? output : sums_[l - 1]; };

  // Earlier writes of the input or the count (a compute pass, an upload's copy) become visible,
  // and an earlier scan's indirect reads of the dispatch words are done before they are rewritten.
  gpu::memory_barrier(cmd,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT |
                          VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                      VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
  gpu::ComputeRecorder rec(*device_, cmd);
  // A GPU-decided count: each level's workgroups are dispatched from the count (scan_args.comp),
  // so the scan's cost follows the count, not the capacity.
  if (indirect && top > 0) {
    rec.bind(args_)
        .buffers({{3, &counts}, {4, &dispatch_args_}})
        .push(shader::ScanParams{n, top, base_flags, count.word})
        .dispatch(1);
    gpu::compute_to_indirect(cmd);
  }
  auto dispatch_level = [&](uint32_t l) {
    if (indirect) {
      rec.dispatch_indirect(dispatch_args_, VkDeviceSize(l) * 12);
    } else {
      dispatch_blocks(rec, sizes[l + 1]);
    }
  };

  // Upsweep: block sums of every level into the next one.
  rec.bind(reduce_);
  for (uint32_t l = 0; l < top; ++l) {
    rec.buffers({{0, &level_in(l)}, {1, &sums_[l]}, {3, &counts}}).push(params(l, 0));
    dispatch_level(l);
    gpu::compute_to_compute(cmd);
  }
  // The top level fits one block: scan it whole (exclusive, so it becomes the offsets of the
  // level below; or the caller's kind when it is the only level).
  rec.bind(downsweep_);
  {
    const uint32_t flags = top == 0 ? (kind == ScanKind::kExclusive ? shader::kScanExclusive : 0u)
                                    : shader::kScanExclusive;
    rec.buffers({{0, &level_in(top)}, {1, &level_out(top)}, {2, &level_in(top)}, {3, &counts}})
        .push(params(top, flags))
        .dispatch(1);
  }
  // Downsweep: each level's blocks scanned and offset by the scanned sums above them.
  for (uint32_t l = top; l-- > 0;) {
    gpu::compute_to_compute(cmd);
    uint32_t flags = shader::kScanAddOffsets;
    if (l > 0 || kind == ScanKind::kExclusive) flags |= shader::kScanExclusive;
    rec.buffers({{0, &level_in(l)}, {1, &level_out(l)}, {2, &sums_[l]}, {3, &counts}}).push(params(l, flags));
    dispatch_level(l);
  }
  return {};
}

}  // namespace mote::gpu
