// The manual driver (docs/design/drivers.md, "The manual driver"): emitter rows whose particles
// are the application's records. The host keeps each row's records (standard particles,
// mote/particle.hpp); an upload makes the next frame hold exactly the first `count` of them. The
// first upload (and any after the row's particles were lost, or after the count shrank) places
// them all: that frame's tick spawns `count` for the row (a host command, through the budget),
// emit places them, manual_fill.comp writes the records over them and notes each one's slot in
// the row's slot map, and the row's previous particles are freed (kEmitterFlagReplace, for that
// frame only). Any other upload sends only what changed: the records written since the last one
// (manual_patch.comp rewrites them where the map says they are) and, when the count grew, the new
// ones, placed as newborns beside the others. Between uploads the frame keeps the row's particles
// as they are (kEmitterFlagManual: no spawn from the rate, no UPDATE).
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/particle.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"
#include "runtime/frame/emitter_lifecycle.hpp"
#include "runtime/frame/frame_recording.hpp"
#include "runtime/frame/frame_uploads.hpp"

namespace mote::runtime {

// Whether `program`'s record is the standard particle after the header (its first ten particle
// fields are the standard particle's, by name and width, in order); kInvalidArgument naming the
// first field that differs.
Status check_standard_particle(const Program& program);

class ManualDrivers {
 public:
  static Result<ManualDrivers> create(gpu::Device& device);

  // A live row becomes manual, holding up to `max_count` records (its upload buffer).
  Status add(gpu::Device& device, uint32_t row, uint32_t max_count);
  void remove(uint32_t row);
  bool is_manual(uint32_t row) const { return rows_.count(row) != 0; }

  // The handle's calls (errors name the index and the bound; the records are unchanged then).
  Result<Particle> get(uint32_t row, uint32_t index) const;
  Status set(uint32_t row, uint32_t index, const Particle& particle);
  Status write_range(uint32_t row, uint32_t first, std::span<const Particle> particles);
  Status set_count(uint32_t row, uint32_t count);
  Status upload(uint32_t row);
  uint32_t count(uint32_t row) const;
  uint32_t max_count(uint32_t row) const;
  // The row's slot map (record i's pool slot since it was placed; the capacity for one dropped),
  // or null for a row that is not manual: the stateless driver scatters over it.
  const gpu::Buffer* slot_map(uint32_t row) const {
    auto it = rows_.find(row);
    return it == rows_.end() ? nullptr : &it->second.slots;
  }
  // Record bytes the uploads have put into the frames' uploads, every row, since creation.
  uint64_t uploaded_bytes() const { return uploaded_bytes_; }

  // The frame's host half, before the emitters' flush: each pending upload's spawn command (and
  // Replace flag when it places every record) and the records it sends into the frame's uploads.
  Status prepare(EmitterLifecycle& emitters, FrameUploads& uploads);
  // After emit: the placed records over their newborns, the patched ones over their slots.
  void record(const FrameRecording& frame) const;
  // After the frame was recorded: the Replace flags come off (the next frame restages the rows).
  void recorded(EmitterLifecycle& emitters);

 private:
  // More written ranges than this go out as the one range that covers them (one dispatch).
  static constexpr size_t kMaxPatchRanges = 8;

  struct Row {
    uint32_t max_count = 0;
    std::vector<Particle> records;  // max_count of them; the first `count` are drawn after an upload
    uint32_t count = 0;
    bool upload_pending = false;
    gpu::Buffer source;  // the records as the GPU reads them (max_count, at least one)
    gpu::Buffer slots;   // per record: the pool slot its placing gave it (the capacity: none)
    // Records [0, placed) sit at the slots the map holds (0: the next upload places them all).
    uint32_t placed = 0;
    uint32_t placed_generation = 0;                      // the row's generation then (another one's particles are gone)
    std::vector<std::pair<uint32_t, uint32_t>> written;  // [first, end) since the last upload
  };
  // This frame's work for a row: records [first, first + count) placed as newborns or patched.
  struct Work {
    uint32_t row = 0;
    uint32_t first = 0;
    uint32_t count = 0;
    uint32_t header = 0;  // patches: the header their slots must still hold
  };
  Result<Row*> find(uint32_t row);
  Result<const Row*> find(uint32_t row) const;
  // The ranges written since the last upload below `end`, merged (at most kMaxPatchRanges).
  static std::vector<std::pair<uint32_t, uint32_t>> patch_ranges(const Row& r, uint32_t end);

  gpu::Device* device_ = nullptr;
  gpu::ComputePipeline fill_;
  gpu::ComputePipeline patch_;
  std::map<uint32_t, Row> rows_;
  std::vector<Work> fills_;    // this frame's placings
  std::vector<Work> patches_;  // this frame's patches
  uint64_t uploaded_bytes_ = 0;
};

}  // namespace mote::runtime
