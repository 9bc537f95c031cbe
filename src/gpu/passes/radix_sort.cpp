#include "gpu/passes/radix_sort.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "shared/radix_sort.h"

namespace mote::gpu {
namespace {

using shader::kRadixDigitBits;
using shader::kRadixDigits;
using shader::kRadixTileSize;
using shader::kRadixWorkgroupSize;

static_assert(kRadixWorkgroupSize == kRadixDigits, "the sort's shaders give each invocation one digit");
static_assert(kRadixTileSize == kRadixWorkgroupSize * shader::kRadixItemsPerThread);
static_assert(kRadixTileSize < (1u << 16), "radix_scatter counts a digit's tile elements in 16 bits");

// Vulkan guarantees maxComputeWorkGroupCount[0] >= 65535; 2^31 pairs are 2^19 tiles, split over y.
constexpr uint32_t kMaxGroupsX = 65535;

uint32_t tiles_for(uint32_t n) { return uint32_t((uint64_t(n) + kRadixTileSize - 1) / kRadixTileSize); }

void dispatch_tiles(gpu::ComputeRecorder& rec, uint32_t tiles) {
  if (tiles <= kMaxGroupsX) {
    rec.dispatch(tiles);
  } else {
    rec.dispatch(kMaxGroupsX, (tiles + kMaxGroupsX - 1) / kMaxGroupsX);  // the extra ones return at once
  }
}

struct SubgroupSupport {
  bool ok = false;
  uint32_t min_size = 0;  // the smallest subgroup a compute dispatch may get (SPIR-V 1.6 lets it vary)
};

// radix_scatter ranks with ballots and scans with subgroup arithmetic; the shared arrays are
// sized for the most subgroups a workgroup can have, from the smallest subgroup size.
SubgroupSupport subgroup_support(VkPhysicalDevice physical) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  subgroup.pNext = &v13;
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  props.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physical, &props);
  const uint32_t min_size = std::min(subgroup.subgroupSize,
                                     v13.minSubgroupSize ? v13.minSubgroupSize : subgroup.subgroupSize);
  const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                        VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
  return {(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
              (subgroup.supportedOperations & needed) == needed && min_size >= 4 && subgroup.subgroupSize <= 128,
          min_size};
}

}  // namespace

uint32_t RadixSort::passes(uint32_t key_bits) { return (key_bits + kRadixDigitBits - 1) / kRadixDigitBits; }

Result<RadixSort> RadixSort::create(gpu::Device& device, uint32_t capacity) {
  if (capacity == 0 || capacity > (1u << 31)) {
    return make_error(ErrorCode::kInvalidArgument, "radix sort capacity must be in [1, 2^31]",
                      "capacity " + std::to_string(capacity));
  }
  const VkDeviceSize bytes = VkDeviceSize(capacity) * 4;
  if (bytes > device.limits().maxStorageBufferRange) {
    return make_error(ErrorCode::kUnsupported, "radix sort capacity exceeds the device's storage buffer range",
                      std::to_string(bytes) + " bytes > maxStorageBufferRange " +
                          std::to_string(device.limits().maxStorageBufferRange));
  }
  const SubgroupSupport subgroups = subgroup_support(device.physical_device());
  if (!subgroups.ok) {
    return make_error(ErrorCode::kUnsupported,
                      "the radix sort needs subgroup ballot and arithmetic in compute shaders, subgroups of 4 to 128");
  }
  // radix_scatter's shared memory: s_work, s_subgroup_words, s_digit_start, s_digit_base.
  const uint32_t max_subgroups = kRadixWorkgroupSize / subgroups.min_size;
  const uint32_t work_words = std::max(max_subgroups * kRadixDigits / 2, kRadixTileSize);
  const uint32_t shared_bytes = (work_words + max_subgroups + 2 * kRadixDigits) * 4;
  if (shared_bytes > device.limits().maxComputeSharedMemorySize) {
    return make_error(ErrorCode::kUnsupported, "the radix sort's scatter needs more shared memory than the device has",
                      std::to_string(shared_bytes) + " bytes > " +
                          std::to_string(device.limits().maxComputeSharedMemorySize));
  }

  RadixSort sort;
  sort.device_ = &device;
  sort.capacity_ = capacity;
  sort.tiles_ = tiles_for(capacity);
  MOTE_TRY_ASSIGN(sort.scratch_keys_, gpu::Buffer::create(device, {.size = bytes, .name = "radix_sort.scratch_keys"}));
  MOTE_TRY_ASSIGN(sort.scratch_values_,
                  gpu::Buffer::create(device, {.size = bytes, .name = "radix_sort.scratch_values"}));
  MOTE_TRY_ASSIGN(sort.histograms_, gpu::Buffer::create(device, {.size = VkDeviceSize(sort.tiles_) * kRadixDigits * 4,
                                                                 .name = "radix_sort.histograms"}));
  MOTE_TRY_ASSIGN(sort.state_,
                  gpu::Buffer::create(device, {.size = sizeof(shader::RadixSortState), .name = "radix_sort.state"}));
  MOTE_TRY_ASSIGN(sort.dummy_count_, gpu::Buffer::create(device, {.size = 16, .name = "radix_sort.host_count"}));
  MOTE_TRY_ASSIGN(sort.scan_, PrefixScan::create(device, sort.tiles_ * kRadixDigits));
  MOTE_TRY_ASSIGN(sort.setup_, gpu::ComputePipeline::create(device, "gpu/passes/radix_setup"));
  MOTE_TRY_ASSIGN(sort.copy_, gpu::ComputePipeline::create(device, "gpu/passes/radix_copy"));
  MOTE_TRY_ASSIGN(sort.histogram_, gpu::ComputePipeline::create(device, "gpu/passes/radix_histogram"));
  const std::array<gpu::SpecializationConstant, 2> scatter_constants{{{0, max_subgroups}, {1, work_words}}};
  MOTE_TRY_ASSIGN(sort.scatter_, gpu::ComputePipeline::create(device, "gpu/passes/radix_scatter", scatter_constants));
  return sort;
}

Status RadixSort::record(VkCommandBuffer cmd, const gpu::Buffer& keys, const gpu::Buffer& values, ScanCount count,
                         uint32_t key_bits) const {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "radix sort used before create()");
  if (key_bits == 0 || key_bits > 32) {
    return make_error(ErrorCode::kInvalidArgument, "radix sort key_bits must be in [1, 32]",
                      "key_bits " + std::to_string(key_bits));
  }
  if (keys.handle() == values.handle()) {
    return make_error(ErrorCode::kInvalidArgument, "radix sort keys and values must be different buffers");
  }
  const bool indirect = count.buffer != nullptr;
  if (!indirect && count.count > capacity_) {
    return make_error(ErrorCode::kInvalidArgument, "radix sort count exceeds the sort's capacity",
                      "count " + std::to_string(count.count) + " > capacity " + std::to_string(capacity_));
  }
  // A GPU count may reach the capacity; a host one is exactly `count`.
  const uint32_t n = indirect ? capacity_ : count.count;
  const VkDeviceSize bytes = VkDeviceSize(n) * 4;
  if (keys.size() < bytes || values.size() < bytes) {
    return make_error(ErrorCode::kInvalidArgument, "radix sort buffers are smaller than the elements sorted",
                      "need " + std::to_string(bytes) + " bytes each");
  }
  if (indirect && count.buffer->size() < VkDeviceSize(count.word + 1) * 4) {
    return make_error(ErrorCode::kInvalidArgument, "radix sort count word lies past the end of its buffer",
                      "word " + std::to_string(count.word));
  }
  if (n == 0) return {};

  const uint32_t tiles = tiles_for(n);
  const uint32_t passes = RadixSort::passes(key_bits);
  const gpu::Buffer& counts = indirect ? *count.buffer : dummy_count_;
  // Bound ranges: the words this sort may touch, so a caller's buffer larger than a binding may
  // be (maxStorageBufferRange) still binds, and the shaders' length() bounds are the count's.
  auto range = [&](const gpu::Buffer& b, uint32_t binding) { return gpu::BufferBinding{binding, &b, 0, bytes}; };

  // Earlier writes of the keys, values and count word (a compute pass, an upload's copy) become
  // visible; an earlier sort's passes, which share the scratch, are done.
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
  gpu::ComputeRecorder rec(*device_, cmd);
  auto begin = [&](const char* step) {
    if (profiler_) profiler_->begin(cmd, step);
  };
  auto end = [&]() {
    if (profiler_) profiler_->end(cmd);
  };

  // The count, once, for every later pass.
  shader::RadixSortParams params{};
  params.count = n;
  params.count_word = indirect ? count.word : 0u;
  params.flags = indirect ? shader::kRadixCountFromBuffer : 0u;
  begin("radix.setup");
  rec.bind(setup_).buffers({{0, &counts}, {1, &state_}}).push(params).dispatch(1);
  end();
  gpu::compute_to_compute(cmd);

  // The passes ping-pong between the caller's buffers and the scratch, the last one writing the
  // caller's: with an odd count the input first moves to the scratch.
  if (passes % 2 == 1) {
    begin("radix.copy");
    rec.bind(copy_)
        .buffers({range(keys, 0), range(values, 1), range(scratch_keys_, 2), range(scratch_values_, 3), {4, &state_}})
        .push(params);
    dispatch_tiles(rec, tiles);
    end();
    gpu::compute_to_compute(cmd);
  }
  const ScanCount scan_count = indirect
                                   ? ScanCount::from_buffer(state_, offsetof(shader::RadixSortState, scan_count) / 4)
                                   : ScanCount::host(tiles * kRadixDigits);
  for (uint32_t p = 0; p < passes; ++p) {
    const bool to_caller = (passes - 1 - p) % 2 == 0;
    const gpu::Buffer& keys_in = to_caller ? scratch_keys_ : keys;
    const gpu::Buffer& values_in = to_caller ? scratch_values_ : values;
    const gpu::Buffer& keys_out = to_caller ? keys : scratch_keys_;
    const gpu::Buffer& values_out = to_caller ? values : scratch_values_;
    const uint32_t shift = p * kRadixDigitBits;
    const uint32_t digit_bits = std::min(kRadixDigitBits, key_bits - shift);
    params.shift = shift;
    params.digit_mask = (1u << digit_bits) - 1u;

    // (a) per-tile digit histograms, digit-major.
    begin("radix.histogram");
    rec.bind(histogram_).buffers({range(keys_in, 0), {1, &histograms_}, {2, &state_}}).push(params);
    dispatch_tiles(rec, tiles);
    end();
    // (b) their exclusive scan, in place: every (digit, tile)'s first output position. The scan
    // opens with a compute -> compute barrier of its own.
    begin("radix.scan");
    Status scanned = scan_.record(cmd, histograms_, histograms_, scan_count, ScanKind::kExclusive);
    end();
    MOTE_TRY(scanned);
    gpu::compute_to_compute(cmd);
    // (c) the stable scatter.
    begin("radix.scatter");
    rec.bind(scatter_)
        .buffers({range(keys_in, 0),
                  range(values_in, 1),
                  range(keys_out, 2),
                  range(values_out, 3),
                  {4, &histograms_},
                  {5, &state_}})
        .push(params);
    dispatch_tiles(rec, tiles);
    end();
    // The next pass reads what this one wrote, and overwrites the histograms it read.
    if (p + 1 < passes) gpu::compute_to_compute(cmd);
  }
  return {};
}

}  // namespace mote::gpu
