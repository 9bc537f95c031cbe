#include "runtime/frame/pool_invariants.hpp"

#include <fmt/format.h>

#include <vector>

#include "runtime/frame/particle_system.hpp"

namespace mote::runtime {
namespace {

Error broken(std::string message) { return make_error(ErrorCode::kInternal, std::move(message), "pool"); }

}  // namespace

Result<PoolCensus> check_pool_invariants(ParticleSystem& system) {
  MOTE_TRY_ASSIGN(const FrameStats stats, system.read_stats());
  MOTE_TRY_ASSIGN(const std::vector<uint32_t> alive, system.read_alive_slots());
  MOTE_TRY_ASSIGN(const std::vector<uint32_t> free, system.read_free_slots());
  MOTE_TRY_ASSIGN(const std::vector<uint32_t> pool, system.read_pool());
  const uint32_t capacity = system.capacity();
  const uint32_t words = system.record_words();
  if (uint64_t(stats.alive) + stats.free_count != capacity)
    return broken(fmt::format("alive {} + free {} != capacity {}", stats.alive, stats.free_count, capacity));
  if (alive.size() != stats.alive)
    return broken(fmt::format("the alive list holds {} slots, its counter says {}", alive.size(), stats.alive));
  if (free.size() != stats.free_count)
    return broken(fmt::format("the free list holds {} slots, its counter says {}", free.size(), stats.free_count));

  // Per slot: 0 unseen, kFree on the free list, else 1 + its entry in the alive list.
  constexpr uint32_t kFree = ~0u;
  std::vector<uint32_t> seen(capacity, 0);
  for (uint32_t entry = 0; entry < alive.size(); ++entry) {
    const uint32_t slot = alive[entry];
    if (slot >= capacity) return broken(fmt::format("alive slot {} past the capacity {}", slot, capacity));
    // Where the two entries are says which pass wrote the second: emit's newborns come first in
    // the list, the survivors frame_compact placed after them.
    if (seen[slot])
      return broken(fmt::format("slot {} twice in the alive list (entries {} and {} of {}: {} newborns, {} walked, {} "
                                "pre-warmed)",
                                slot, seen[slot] - 1, entry, alive.size(), stats.newborns, stats.previous_alive,
                                stats.prewarmed));
    seen[slot] = 1 + entry;
    const uint32_t header = pool[size_t(slot) * words];
    const uint32_t row = header & shader::kFrameHeaderRowMask;
    if (!system.is_live(row)) return broken(fmt::format("alive slot {} of row {}, which is not live", slot, row));
    const uint32_t generation = header >> shader::kFrameHeaderRowBits;
    if (generation != (system.generation(row) & shader::kFrameHeaderGenerationMask))
      return broken(fmt::format("alive slot {} of generation {} of row {}, which is at generation {}", slot, generation,
                                row, system.generation(row)));
  }
  for (uint32_t slot : free) {
    if (slot >= capacity) return broken(fmt::format("free slot {} past the capacity {}", slot, capacity));
    if (seen[slot])
      return broken(fmt::format("slot {} {}", slot, seen[slot] != kFree ? "in both lists" : "twice in the free list"));
    seen[slot] = kFree;
    // A freed record is zeroed whole (simulate's zero_freed_records), not just its header.
    for (uint32_t w = 0; w < words; ++w)
      if (pool[size_t(slot) * words + w] != 0)
        return broken(fmt::format("free slot {} holds {:#x} at word {}", slot, pool[size_t(slot) * words + w], w));
  }
  return PoolCensus{stats.alive, stats.free_count};
}

}  // namespace mote::runtime
