// The collision depth a ParticleSystem's SAMPLE_DEPTH reads (docs/design/depth_collision.md, "In
// the frame"): a copy of the caller's DepthImage laid out as the executors read it
// (src/vm/depth_sampling.hpp: the view, then the depths) in one buffer the emit and simulate
// passes bind (kFrameBindingCollisionDepth). With no depth set it holds the stand-in: a view with
// no image, so every sample misses.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "mote/depth_image.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_uploads.hpp"

namespace mote::runtime {

class FrameDepth {
 public:
  static Result<FrameDepth> create(gpu::Device& device);

  // SAMPLE_DEPTH tests against `image` from the next frame on (nullopt: no depth, every sample
  // misses). Errors (nothing changes): an image check_depth_image refuses (where "depth." + its
  // member).
  Status set(std::optional<DepthImage> image);
  // The depth set, or nullptr.
  const DepthImage* image() const { return image_ ? &*image_ : nullptr; }

  // Before a frame: after a change, the depth is written into a new buffer (the old one retired,
  // since frames in flight may still read it) and uploaded with the frame.
  Status prepare(gpu::Device& device, FrameUploads& uploads, RetiredBuffers& retired, uint32_t frame);

  const gpu::Buffer& buffer() const { return buffer_; }

 private:
  std::optional<DepthImage> image_;
  std::vector<uint32_t> words_;  // what the last prepare uploaded: read by the frame's uploads
  gpu::Buffer buffer_;
  bool dirty_ = false;
};

}  // namespace mote::runtime
