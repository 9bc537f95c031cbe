#include "runtime/drivers/pool_full_policy.hpp"

#include <algorithm>
#include <cstddef>

#include "gpu/transfer.hpp"
#include "runtime/frame/frame_readbacks.hpp"
#include "shared/emitter_record.h"
#include "shared/frame.h"

namespace mote::runtime {

const uint32_t PoolFullPolicies::kFrozenFlags = shader::kEmitterFlagPaused | shader::kEmitterFlagInactive;

void PoolFullPolicies::set(uint32_t row, PoolFullPolicy policy) {
  if (policy == PoolFullPolicy::kDrop) rows_.erase(row);
  else rows_[row] = policy;
}

PoolFullPolicy PoolFullPolicies::policy(uint32_t row) const {
  const auto it = rows_.find(row);
  return it == rows_.end() ? PoolFullPolicy::kDrop : it->second;
}

void PoolFullPolicies::reserve(const FrameBuffers& buffers, const ReplaceOldestReport& report, FrameUploads& uploads) {
  if (report.reserved_spawns == 0) return;
  reserved_ = report.reserved_spawns;
  uploads.add(buffers.counters, offsetof(shader::FrameCounters, reserved), &reserved_, sizeof(reserved_));
}

namespace {

// The header word of every listed slot (the records' first words), from one readback of the pool.
Result<std::vector<uint32_t>> read_headers(gpu::Device& device, const FrameBuffers& buffers,
                                           const ParticleSystemOptions& options, const std::vector<uint32_t>& list) {
  MOTE_TRY_ASSIGN(std::vector<uint32_t> pool, read_pool_words(device, buffers, options));
  std::vector<uint32_t> headers(list.size(), 0u);
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i] < options.capacity) headers[i] = pool[size_t(list[i]) * options.record_words];
  return headers;
}

}  // namespace

Result<ReplaceOldestReport> PoolFullPolicies::replace_oldest(gpu::Device& device, const FrameBuffers& buffers,
                                                             uint32_t frame, const ParticleSystemOptions& options,
                                                             const EmitterLifecycle& emitters,
                                                             const std::vector<uint32_t>& candidates,
                                                             std::vector<uint32_t>& commands, FrameUploads& uploads) {
  MOTE_TRY_ASSIGN(const FrameStats stats, read_frame_stats(device, buffers));
  const uint32_t free_count = std::min(stats.free_count, options.capacity);
  uint64_t asked = 0;
  for (uint32_t c : candidates) asked += commands[c + 1];
  ReplaceOldestReport report;
  // Enough room: the bursts only keep their slots from the frame's other spawns.
  if (asked <= free_count) {
    for (uint32_t c : candidates) {
      commands[c] |= shader::kFrameReservedCommand;
      report.reserved_spawns += commands[c + 1];
    }
    return report;
  }

  // Short: the rows' oldest make room. The list is newest first by birth frame (each frame's
  // list is its newborns, then last frame's survivors in order), so a row's oldest are its last
  // entries in it.
  MOTE_TRY_ASSIGN(std::vector<uint32_t> list, read_alive_list(device, buffers, frame, options.capacity));
  MOTE_TRY_ASSIGN(const std::vector<uint32_t> headers, read_headers(device, buffers, options, list));
  std::vector<uint8_t> freed(list.size(), 0);
  uint32_t room = free_count;   // free slots not yet promised, handed out in row order
  std::vector<uint32_t> extra;  // plain commands for what cannot be held at all
  for (uint32_t c : candidates) {
    const uint32_t row = commands[c];
    const uint32_t count = commands[c + 1];
    const uint32_t served = std::min(count, room);
    room -= served;
    uint32_t wanted = count - served;  // to free from the row's oldest
    const uint32_t header = row | (emitters.generation(row) << 20);
    uint32_t replaced = 0;
    for (size_t i = list.size(); i-- > 0 && wanted > 0;) {
      if (freed[i] || headers[i] != header) continue;
      freed[i] = 1;
      --wanted;
      ++replaced;
    }
    commands[c] = row | shader::kFrameReservedCommand;
    commands[c + 1] = served + replaced;
    report.reserved_spawns += served + replaced;
    report.replaced += replaced;
    // Even an emptied row cannot hold the rest: it goes through the budget as today, and what
    // the budget cannot place is dropped and counted.
    if (wanted > 0 && (commands.size() + extra.size()) / 2 < shader::kFrameMaxCommands)
      extra.insert(extra.end(), {row, wanted});
  }
  commands.insert(commands.end(), extra.begin(), extra.end());
  if (report.replaced == 0) return report;

  // The last frame's list without the freed entries (in its order), their slots on the free
  // list's top (the first freed on top, as compact.comp pushes them), their records zeroed.
  list_.clear();
  freed_.clear();
  for (size_t i = 0; i < list.size(); ++i) (freed[i] ? freed_ : list_).push_back(list[i]);
  std::reverse(freed_.begin(), freed_.end());
  const uint32_t words = options.record_words;
  zeros_.assign(words, 0u);
  const gpu::Buffer& last = buffers.alive_in(frame);
  if (!list_.empty()) uploads.add(last, 0, list_.data(), VkDeviceSize(list_.size()) * 4);
  uploads.add(buffers.free_list, VkDeviceSize(free_count) * 4, freed_.data(), VkDeviceSize(freed_.size()) * 4);
  for (uint32_t slot : freed_)
    uploads.add(buffers.pool, VkDeviceSize(slot) * words * 4, zeros_.data(), VkDeviceSize(words) * 4);
  counts_[0] = uint32_t(list_.size());
  counts_[1] = free_count + uint32_t(freed_.size());
  static_assert(offsetof(shader::FrameCounters, free_count) == offsetof(shader::FrameCounters, alive_out) + 4);
  uploads.add(buffers.counters, offsetof(shader::FrameCounters, alive_out), counts_, sizeof(counts_));
  return report;
}

}  // namespace mote::runtime
