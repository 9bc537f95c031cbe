// Layouts of the GPU radix sort of (key, value) u32 pairs (src/gpu/passes/radix_sort.hpp,
// shaders/gpu/passes/radix_*.comp), shared by C++ and GLSL. See docs/design/runtime_passes.md.
#ifndef MOTE_SHADERS_SHARED_RADIX_SORT_H
#define MOTE_SHADERS_SHARED_RADIX_SORT_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// One pass sorts by one kRadixDigitBits-bit digit: kRadixDigits bins, one per invocation of a
// kRadixWorkgroupSize workgroup (the shaders rely on kRadixWorkgroupSize == kRadixDigits). A
// workgroup owns a tile of kRadixTileSize consecutive elements: kRadixItemsPerThread each (8
// measured faster than 12 and 16 on the H200 at 1 Mi to 16 Mi pairs: the scatter's occupancy
// outweighs the larger histogram scan and the shorter digit runs; docs/design/runtime_passes.md).
MOTE_CONSTANT(uint, kRadixDigitBits, 8u);
MOTE_CONSTANT(uint, kRadixDigits, 256u);
MOTE_CONSTANT(uint, kRadixWorkgroupSize, 256u);
MOTE_CONSTANT(uint, kRadixItemsPerThread, 8u);
MOTE_CONSTANT(uint, kRadixTileSize, 2048u);

// RadixSortParams::flags (gpu/passes/radix_setup)
MOTE_CONSTANT(uint, kRadixCountFromBuffer, 1u);  // the count is counts[count_word], clamped to `count`

// Push constants of every gpu/passes/radix_* shader.
struct RadixSortParams {
  uint count;       // radix_setup: the host count, or the capacity (the clamp) with kRadixCountFromBuffer
  uint count_word;  // radix_setup with kRadixCountFromBuffer: the word of the counts buffer holding the count
  uint flags;       // kRadix* flags (radix_setup)
  uint shift;       // radix_histogram / radix_scatter: the lowest key bit of this pass's digit
  uint digit_mask;  // radix_histogram / radix_scatter: (1 << the bits of this pass's digit) - 1
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(RadixSortParams, 32);
MOTE_ASSERT_OFFSET(RadixSortParams, count, 0);
MOTE_ASSERT_OFFSET(RadixSortParams, count_word, 4);
MOTE_ASSERT_OFFSET(RadixSortParams, flags, 8);
MOTE_ASSERT_OFFSET(RadixSortParams, shift, 12);
MOTE_ASSERT_OFFSET(RadixSortParams, digit_mask, 16);
MOTE_ASSERT_OFFSET(RadixSortParams, pad0, 20);
MOTE_ASSERT_OFFSET(RadixSortParams, pad1, 24);
MOTE_ASSERT_OFFSET(RadixSortParams, pad2, 28);

// Written once per sort by gpu/passes/radix_setup into the sort's scratch, read by every later pass:
// the element count (clamped to the capacity) and what follows from it.
struct RadixSortState {
  uint count;       // elements sorted: min(the count, the capacity)
  uint tiles;       // ceil(count / kRadixTileSize): the workgroups that do work
  uint scan_count;  // kRadixDigits * tiles: the histogram words the exclusive scan covers
  uint pad0;
};
MOTE_ASSERT_SIZE(RadixSortState, 16);
MOTE_ASSERT_OFFSET(RadixSortState, count, 0);
MOTE_ASSERT_OFFSET(RadixSortState, tiles, 4);
MOTE_ASSERT_OFFSET(RadixSortState, scan_count, 8);
MOTE_ASSERT_OFFSET(RadixSortState, pad0, 12);

MOTE_SHARED_END
#endif
