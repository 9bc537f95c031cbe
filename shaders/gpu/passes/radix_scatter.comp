#version 460
// Radix sort, step (c) of a digit pass: a stable scatter of each workgroup's tile to the
// positions the scanned histograms give it (Merrill & Grimshaw, "High Performance and Scalable
// Radix Sorting", 2011: reduce-then-scan LSD with a local ranking and a shared-memory exchange
// so that the global writes go out in digit runs).
//
// Ranking is by subgroup ballots, the warp-level multi-split of Adinets & Merrill ("Onesweep",
// 2022, section 4.1; Ashkiani et al., "GPU Multisplit", 2016): each subgroup owns a contiguous
// run of the tile and walks it in rounds of one element per lane; kRadixDigitBits ballots give
// every lane the mask of lanes holding its digit, so its rank among equal digits is the number of
// those lanes below it plus the count of that digit in the subgroup's earlier rounds (16-bit
// counters in shared memory, per subgroup and digit). Subgroup runs are in subgroup order, lanes
// in invocation order, rounds in input order: equal keys keep their input order (stable). A
// per-digit prefix over the subgroups and an exclusive scan over the digits turn the ranks into
// positions in the tile sorted by digit; keys then values go through shared memory in that order
// and leave in runs of equal digits, coalesced.
//
// Nothing assumes which invocations form a subgroup or that subgroups are full: the runs come
// from the subgroups' actual sizes (a ballot of the active lanes), and `slot` is a bijection of
// the workgroup's invocations onto [0, kRadixWorkgroupSize) that follows them.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "gpu/passes/radix_common.glsl"

layout(local_size_x = kRadixWorkgroupSize) in;
// The most subgroups a workgroup can have: kRadixWorkgroupSize / the device's minimum subgroup
// size (set by RadixSort::create). A workgroup with more returns without sorting (no device
// Mote runs on does this; the guard keeps the shared arrays in bounds).
layout(constant_id = 0) const uint kMaxSubgroups = 64u;
// max(kMaxSubgroups * kRadixDigits / 2, kRadixTileSize): s_work holds first the per-subgroup
// digit counters (two 16-bit counters a word), then the tile being exchanged.
layout(constant_id = 1) const uint kWorkWords = 8192u;

layout(std430, binding = 0) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = 1) readonly buffer ValuesIn { uint values_in[]; };
layout(std430, binding = 2) writeonly buffer KeysOut { uint keys_out[]; };
layout(std430, binding = 3) writeonly buffer ValuesOut { uint values_out[]; };
layout(std430, binding = 4) readonly buffer Offsets { uint offsets[]; };  // the exclusive scan of radix_histogram's output
layout(std430, binding = 5) readonly buffer State { RadixSortState state; };

const uint kCounterWords = kRadixDigits / 2u;  // per subgroup
shared uint s_work[kWorkWords];
shared uint s_subgroup_words[kMaxSubgroups];   // lanes per subgroup, then digit totals per subgroup
shared uint s_digit_start[kRadixDigits];       // first tile position of each digit (its count before that)
shared uint s_digit_base[kRadixDigits];        // output position of tile position 0 as if it had that digit

void main() {
  // Every buffer holds at least the count (checked when recorded); the min keeps it so on the GPU.
  const uint n = min(state.count, uint(min(min(keys_in.length(), values_in.length()),
                                           min(keys_out.length(), values_out.length()))));
  const uint tiles = state.tiles;
  const uint tile = tile_index();
  if (tile >= tiles || gl_NumSubgroups > kMaxSubgroups) return;  // uniform over the workgroup
  const uint base = tile * kRadixTileSize;
  if (base >= n) return;
  const uint tile_count = min(kRadixTileSize, n - base);
  const uint sg = gl_SubgroupID;

  // This invocation's place: subgroup runs in subgroup order, lanes in invocation order.
  const uvec4 present = subgroupBallot(true);
  const uint lanes = subgroupBallotBitCount(present);
  const uint lane = subgroupBallotExclusiveBitCount(present);
  if (subgroupElect()) s_subgroup_words[sg] = lanes;
  for (uint i = gl_LocalInvocationIndex; i < gl_NumSubgroups * kCounterWords; i += kRadixWorkgroupSize) s_work[i] = 0u;
  barrier();
  uint first = 0u;
  for (uint s = 0u; s < sg; ++s) first += s_subgroup_words[s];
  const uint slot = first + lane;
  const uint run = first * kRadixItemsPerThread;  // this subgroup's run: lanes * kRadixItemsPerThread elements
  const uint digit_bits = bitCount(params.digit_mask);

  // All the keys first: the ranking loop's subgroup barriers would keep each load from starting
  // before the previous round is done, one memory latency a round.
  uint keys[kRadixItemsPerThread];
  for (uint r = 0u; r < kRadixItemsPerThread; ++r) {
    const uint j = run + r * lanes + lane;
    keys[r] = j < tile_count ? keys_in[base + j] : 0u;
  }

  // Rank every element among the equal digits of its subgroup's run.
  uint ranks[kRadixItemsPerThread];
  for (uint r = 0u; r < kRadixItemsPerThread; ++r) {
    const bool valid = run + r * lanes + lane < tile_count;
    const uint digit = key_digit(keys[r]);
    uvec4 peers = subgroupBallot(valid);
    for (uint b = 0u; b < digit_bits; ++b) {
      const bool bit = ((digit >> b) & 1u) != 0u;
      const uvec4 ones = subgroupBallot(bit);
      peers &= bit ? ones : ~ones;
    }
    const uint word = sg * kCounterWords + (digit >> 1u);
    const uint half_shift = (digit & 1u) * 16u;
    const uint below = subgroupBallotExclusiveBitCount(peers);
    const uint earlier = (s_work[word] >> half_shift) & 0xFFFFu;
    subgroupBarrier();  // every lane has read its counter before any is bumped
    // The lowest lane of each digit bumps its counter; two digits share a word, hence the atomic.
    // A counter never passes the run's length (at most kRadixTileSize < 2^16): no carry into its
    // neighbour.
    if (valid && below == 0u) atomicAdd(s_work[word], subgroupBallotBitCount(peers) << half_shift);
    subgroupBarrier();
    ranks[r] = earlier + below;
  }
  barrier();

  // Per digit (two a word, kCounterWords invocations): the exclusive prefix of the counters over
  // the subgroups, in place, and the digit's count in the tile (at most kRadixTileSize < 2^16, so
  // the halves never carry).
  if (slot < kCounterWords) {
    uint running = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) {
      const uint w = s * kCounterWords + slot;
      const uint c = s_work[w];
      s_work[w] = running;
      running += c;
    }
    s_digit_start[2u * slot] = running & 0xFFFFu;
    s_digit_start[2u * slot + 1u] = running >> 16u;
  }
  barrier();

  // Exclusive scan of the digit counts over the tile (invocation `slot` has digit `slot`), and
  // each digit's output position from the scanned histograms.
  const uint digit_count = s_digit_start[slot];
  const uint in_subgroup = subgroupExclusiveAdd(digit_count);
  const uint subgroup_total = subgroupAdd(digit_count);
  if (subgroupElect()) s_subgroup_words[sg] = subgroup_total;
  barrier();
  uint start = in_subgroup;
  for (uint s = 0u; s < sg; ++s) start += s_subgroup_words[s];
  s_digit_start[slot] = start;
  const uint offset_index = slot * tiles + tile;
  const uint offset = offset_index < uint(offsets.length()) ? offsets[offset_index] : 0u;
  s_digit_base[slot] = offset - start;  // wraps; adding a tile position of this digit unwraps it
  barrier();

  // Tile positions: where the digit starts, plus the earlier subgroups', plus the rank.
  for (uint r = 0u; r < kRadixItemsPerThread; ++r) {
    const uint digit = key_digit(keys[r]);
    const uint counters = s_work[sg * kCounterWords + (digit >> 1u)];
    ranks[r] += s_digit_start[digit] + ((counters >> ((digit & 1u) * 16u)) & 0xFFFFu);
  }
  barrier();  // the counters are read; s_work becomes the tile

  // Keys, exchanged through shared memory into digit order, then written out in digit runs.
  for (uint r = 0u; r < kRadixItemsPerThread; ++r) {
    const bool valid = run + r * lanes + lane < tile_count;
    if (valid && ranks[r] < kRadixTileSize) s_work[ranks[r]] = keys[r];
  }
  barrier();
  uint destinations[kRadixItemsPerThread];
  for (uint r = 0u; r < kRadixItemsPerThread; ++r) {
    const uint j = r * kRadixWorkgroupSize + slot;
    destinations[r] = 0xFFFFFFFFu;
    if (j < tile_count) {
      const uint key = s_work[j];
      destinations[r] = s_digit_base[key_digit(key)] + j;
      if (destinations[r] < n) keys_out[destinations[r]] = key;
    }
  }
  barrier();  // the keys are out of s_work

  // Values, the same way (the destinations of tile position j are the keys').
  for (uint r = 0u; r < kRadixItemsPerThread; ++r) {
    const uint j = run + r * lanes + lane;
    if (j < tile_count && ranks[r] < kRadixTileSize) s_work[ranks[r]] = values_in[base + j];
  }
  barrier();
  for (uint r = 0u; r < kRadixItemsPerThread; ++r) {
    const uint j = r * kRadixWorkgroupSize + slot;
    if (j < tile_count && destinations[r] < n) values_out[destinations[r]] = s_work[j];
  }
}
