// The vector fields a ParticleSystem's SAMPLE_FIELD reads (docs/design/vector_field.md, "In the
// frame"): up to kVmVectorFields slots, each a copy of the caller's field, laid out as the
// executors' table (src/vm/vector_field_sampling.hpp: a header per slot, then every field's
// vectors) in two buffers the emit and simulate passes bind (kFrameBindingVectorField*). With no
// field set they hold the stand-in: four empty headers and one zero float, so every slot reads 0.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "mote/vector_field.hpp"
#include "runtime/frame/frame_uploads.hpp"
#include "shared/vm_limits.h"
#include "vm/vector_field_sampling.hpp"

namespace mote::runtime {

class FrameVectorFields {
 public:
  static Result<FrameVectorFields> create(gpu::Device& device);

  // Slot `slot` samples `field` from the next frame on (nullopt: the slot empties and reads 0).
  // Errors (nothing changes): a slot at or past kVmVectorFields (where "slot"), a field that fails
  // check_vector_field (where "field." + its member).
  Status set(uint32_t slot, std::optional<VectorField> field);
  // The field in slot `slot`, or nullptr.
  const VectorField* field(uint32_t slot) const;

  // Before a frame: after a change, the table is rebuilt into new buffers (the old ones retired,
  // since frames in flight may still read them) and uploaded with the frame.
  Status prepare(gpu::Device& device, FrameUploads& uploads, RetiredBuffers& retired, uint32_t frame);

  const gpu::Buffer& headers() const { return headers_; }
  const gpu::Buffer& values() const { return values_; }

 private:
  std::array<std::optional<VectorField>, shader::kVmVectorFields> fields_;
  VectorFieldTable table_;  // what the last prepare uploaded: read by the frame's uploads
  gpu::Buffer headers_, values_;
  bool dirty_ = false;
};

}  // namespace mote::runtime
