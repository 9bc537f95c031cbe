// Layouts of the exact u32 prefix scan (src/gpu/passes/prefix_scan.hpp,
// shaders/gpu/passes/scan_*.comp), shared by C++ and GLSL. See docs/design/runtime_passes.md.
#ifndef MOTE_SHADERS_SHARED_SCAN_H
#define MOTE_SHADERS_SHARED_SCAN_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// One workgroup scans kScanBlockSize consecutive elements: kScanWorkgroupSize invocations with
// kScanItemsPerThread elements each. Level L of the reduce-then-scan has
// ceil(count / kScanBlockSize^L) elements.
MOTE_CONSTANT(uint, kScanWorkgroupSize, 256u);
MOTE_CONSTANT(uint, kScanItemsPerThread, 8u);
MOTE_CONSTANT(uint, kScanBlockSize, 2048u);

// ScanParams::flags
MOTE_CONSTANT(uint, kScanCountFromBuffer, 1u);  // the count is counts[count_word], clamped to `count`
MOTE_CONSTANT(uint, kScanExclusive, 2u);        // downsweep writes the exclusive prefix
MOTE_CONSTANT(uint, kScanAddOffsets, 4u);       // downsweep adds offsets[block] (the scanned block sums)

// Push constants of gpu/passes/scan_reduce and gpu/passes/scan_downsweep.
struct ScanParams {
  uint count;       // level-0 element count, or its upper bound (the capacity) with kScanCountFromBuffer
  uint level;       // this pass's level: its element count is ceil(count / kScanBlockSize^level)
  uint flags;       // kScan* flags
  uint count_word;  // with kScanCountFromBuffer: the word of the counts buffer holding the count
};
MOTE_ASSERT_SIZE(ScanParams, 16);
MOTE_ASSERT_OFFSET(ScanParams, count, 0);
MOTE_ASSERT_OFFSET(ScanParams, level, 4);
MOTE_ASSERT_OFFSET(ScanParams, flags, 8);
MOTE_ASSERT_OFFSET(ScanParams, count_word, 12);

MOTE_SHARED_END
#endif
