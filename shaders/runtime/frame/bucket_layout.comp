#version 460
// The coherence buckets, steps 2 and 3 (docs/design/runtime_frame.md, "Two orderings"): one
// invocation per program id. Built twice: BUCKET_PAD rounds each bucket's count up to
// kFrameWorkgroupSize into the offsets (which PrefixScan then scans in place, exclusive); without
// it, the pass writes each program's FrameBucket (its indirect simulate dispatch, first entry,
// length and the scatter's cursor) and fills the bucket's tail past its count with
// kFrameBucketPadEntry, so every workgroup of simulate reads one program's entries and padding.
#include "shared/frame.h"

layout(local_size_x = 64) in;  // kFrameWorkgroupSize

layout(std430, binding = kFrameBindingBucketSizes) readonly buffer BucketSizes { uint bucket_sizes[]; };
#ifdef BUCKET_PAD
layout(std430, binding = kFrameBindingBucketOffsets) writeonly buffer BucketOffsets { uint bucket_offsets[]; };
#else
layout(std430, binding = kFrameBindingBucketOffsets) readonly buffer BucketOffsets { uint bucket_offsets[]; };
layout(std430, binding = kFrameBindingBuckets) writeonly buffer Buckets { FrameBucket buckets[]; };
layout(std430, binding = kFrameBindingCoherence) writeonly buffer Coherence { uint coherence[]; };
#endif

layout(push_constant) uniform Push { FrameBucketPush push; };

uint padded(uint count) { return (count + kFrameWorkgroupSize - 1u) / kFrameWorkgroupSize * kFrameWorkgroupSize; }

void main() {
  uint p = gl_GlobalInvocationID.x;
  if (p >= push.program_count) return;
  uint count = bucket_sizes[p];
#ifdef BUCKET_PAD
  bucket_offsets[p] = padded(count);
#else
  uint first = bucket_offsets[p];
  uint entries = padded(count);
  FrameBucket b;
  b.groups_x = min(entries / kFrameWorkgroupSize, kFrameMaxGroups);
  b.groups_y = 1u;
  b.groups_z = 1u;
  b.first = first;
  b.entries = entries;
  b.count = count;
  b.cursor = first;
  b.pad0 = 0u;
  buckets[p] = b;
  for (uint e = first + count; e < first + entries; ++e) coherence[e] = kFrameBucketPadEntry;  // < 64 words
#endif
}
