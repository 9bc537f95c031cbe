// Layouts of the GPU layer's own test and benchmark kernels, shared by C++ and GLSL.
#ifndef MOTE_SHADERS_SHARED_GPU_SELFTEST_H
#define MOTE_SHADERS_SHARED_GPU_SELFTEST_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

// y[i] = a * x[i] + b for i < count (push constants of gpu/selftest_saxpy).
struct SaxpyParams {
  float a;
  float b;
  uint count;
  uint pad0;
};
MOTE_ASSERT_SIZE(SaxpyParams, 16);
MOTE_ASSERT_OFFSET(SaxpyParams, a, 0);
MOTE_ASSERT_OFFSET(SaxpyParams, b, 4);
MOTE_ASSERT_OFFSET(SaxpyParams, count, 8);

// VkDispatchIndirectCommand followed by the element count the indirect pass covers.
struct IndirectDispatch {
  uint groups_x;
  uint groups_y;
  uint groups_z;
  uint element_count;
};
MOTE_ASSERT_SIZE(IndirectDispatch, 16);
MOTE_ASSERT_OFFSET(IndirectDispatch, groups_x, 0);
MOTE_ASSERT_OFFSET(IndirectDispatch, groups_y, 4);
MOTE_ASSERT_OFFSET(IndirectDispatch, groups_z, 8);
MOTE_ASSERT_OFFSET(IndirectDispatch, element_count, 12);

// Push constants of gpu/write_indirect_args: the pass decides how many elements to touch.
struct IndirectArgsParams {
  uint element_count;
  uint local_size;
  uint pad0;
  uint pad1;
};
MOTE_ASSERT_SIZE(IndirectArgsParams, 16);
MOTE_ASSERT_OFFSET(IndirectArgsParams, element_count, 0);
MOTE_ASSERT_OFFSET(IndirectArgsParams, local_size, 4);

// Push constants of bench/roofline_copy: copies vec4 [first, first + count) of one chunk.
struct RooflineParams {
  uint first_vec4;
  uint count_vec4;
  uint pad0;
  uint pad1;
};
MOTE_ASSERT_SIZE(RooflineParams, 16);
MOTE_ASSERT_OFFSET(RooflineParams, first_vec4, 0);
MOTE_ASSERT_OFFSET(RooflineParams, count_vec4, 4);

// Push constants of bench/record_access: records [0, record_count) of record_vec4 vec4s each.
// `salt` is XORed into every stored word: zero at run time, but the compiler cannot know it, so a
// store of what was just loaded is never elided.
struct RecordAccessParams {
  uint record_count;
  uint salt;
  uint pad0;
  uint pad1;
};
MOTE_ASSERT_SIZE(RecordAccessParams, 16);
MOTE_ASSERT_OFFSET(RecordAccessParams, record_count, 0);
MOTE_ASSERT_OFFSET(RecordAccessParams, salt, 4);

MOTE_SHARED_END
#endif
