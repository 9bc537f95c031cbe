// SAMPLE_DEPTH on the host (docs/design/depth_collision.md): a depth image's view as every
// executor reads it and the sampling over that view and the image's depths, with the projection,
// texel choice and reconstruction of shared/vm_depth.h. The CPU executors sample RunInput::depth
// with it; the GPU harnesses and the frame upload the same view and depths.
#pragma once

#include <span>
#include <vector>

#include "mote/depth_image.hpp"
#include "mote/result.hpp"
#include "shared/vm_depth.h"

namespace mote {

// The view of `image` (nullptr: no depth bound, size.z = 0 and every sample misses). The image
// must pass check_depth_image_shape.
shader::VmDepthView depth_view(const DepthImage* image);

// SAMPLE_DEPTH at p with `thickness` over view `v` and its width * height depths (row-major):
// the shared projection and collision of shared/vm_depth.h, the five texels fetched from `depths`
// (a texel outside the image reads 0: no surface).
shader::vec4 sample_depth_values(const shader::VmDepthView& v, std::span<const float> depths, shader::vec3 p,
                                 float thickness);

// The GPU buffer's content: the view, then the depths (one 0 when there is none, so the buffer is
// never empty), as floats' bits.
std::vector<uint32_t> depth_buffer_words(const DepthImage* image);

// What the executors check of a run's depth in O(1) (the values are check_depth_image's, a
// caller's duty; a NaN there misses, never reads out of bounds): sides 1 .. kMaxDepthImageSize
// and exactly width * height depths. Errors: kInvalidArgument at "depth".
Status check_depth_image_shape(const DepthImage* image);

}  // namespace mote
