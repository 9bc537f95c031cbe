// Field bindings (docs/design/runtime_frame.md, "Field bindings"): emitter fields and globals
// bound to a transform row's channel, copied by FieldBindPass into the bound words of the program
// buffer every frame, before the tick. This is the host side: which fields and globals are bound
// where, the bindings table the pass walks (rebuilt when a binding changes or a bound block
// moves), and reading the last written values back when a binding ends.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/emitter_lifecycle.hpp"
#include "runtime/frame/frame_options.hpp"
#include "runtime/frame/frame_uploads.hpp"
#include "runtime/transforms/transform_table.hpp"

namespace mote::runtime {

class FieldBindings {
 public:
  static Result<FieldBindings> create(gpu::Device& device, uint32_t max_emitters);

  // Emitter field `field` of the live emitter at `row`; binding a bound field again replaces its
  // binding. The field's width must equal the channel's (errors name the field).
  Status bind_field(const EmitterLifecycle& emitters, const TransformTable* table, uint32_t row, std::string_view field,
                    uint32_t transform_row, Channel channel);
  bool is_field_bound(uint32_t row, std::string_view field) const;
  // Forgets the binding (the caller synced the last written value first).
  void unbind_field(uint32_t row, std::string_view field);
  // The global `global` for every live reader and every later one; a name no emitter reads yet is
  // accepted. Refused when a reader or the system's value has another width.
  Status bind_global(const EmitterLifecycle& emitters, const TransformTable* table, std::string_view global,
                     uint32_t transform_row, Channel channel);
  bool is_global_bound(std::string_view global) const { return globals_.contains(global); }
  void unbind_global(std::string_view global);

  // kInvalidArgument when `program` reads a bound global with another width than its channel's.
  Status check_program(const Program& program) const;
  // The emitter at `row` went: its bindings go with it.
  void emitter_removed(uint32_t row);
  // The emitter at `row` now runs `now`: bindings of fields `now` declares with the same width
  // stay (at their new offsets), the others go.
  void effect_swapped(uint32_t row, const Program& now);
  // Emitters were added: readers of a bound global are bound too.
  void emitters_added() {
    if (!globals_.empty()) dirty_ = true;
  }
  // Bound blocks moved (a repack, the program buffer's growth).
  void mark_dirty() { dirty_ = true; }

  bool any() const;
  Status check_transform_row_unused(uint32_t transform_row) const;
  Status check_transform_references(const TransformTable& table, uint32_t rows) const;

  // Rows of the table the next frame's pass would walk (tests and tools).
  uint32_t table_size(const EmitterLifecycle& emitters) const { return uint32_t(build_table(emitters).rows.size()); }
  // At a frame's start: the table rebuilt when a binding changed or the heap's field base moved,
  // as an upload region (its buffer doubled when too small, the old one retired).
  Status prepare(gpu::Device& device, const EmitterLifecycle& emitters, FrameUploads& uploads, UploadStats& stats,
                 RetiredBuffers& retired, uint64_t frame);
  // After the frame was recorded: whether its pass ran with this table.
  void recorded(bool pass_ran);
  uint32_t gpu_row_count() const { return uint32_t(gpu_table_.rows.size()); }
  const gpu::Buffer& buffer() const { return buffer_; }

  // What the pass last wrote into the program buffer, into the emitters' host copies and the
  // system's global values, so an unbind keeps the last written values. Reads the buffer back
  // (waits) only when a frame ran the pass since the last sync.
  Status sync(gpu::Device& device, const gpu::Buffer& program, EmitterLifecycle& emitters);

 private:
  struct FieldBinding {
    std::string field;
    uint32_t offset = 0;  // word in the emitter's fields
    uint32_t width = 0;
    uint32_t transform_row = 0;
    Channel channel = Channel::kPosition;
    uint32_t transform_generation = 0;  // TransformTable::generation at bind time
  };
  struct GlobalBinding {
    uint32_t transform_row = 0;
    Channel channel = Channel::kPosition;
    uint32_t transform_generation = 0;
  };
  // Where a row of the table lands in the host copies: the emitter (by row and serial) and the
  // field or global it writes, by name, so a value read back still finds its field after the
  // emitter's block moved or its program was swapped.
  struct Source {
    uint32_t row = 0;
    uint64_t serial = 0;
    bool global = false;
    std::string name;
  };
  struct Table {
    std::vector<shader::FrameFieldBinding> rows;
    std::vector<Source> sources;
  };
  Table build_table(const EmitterLifecycle& emitters) const;

  std::vector<std::vector<FieldBinding>> fields_;  // by emitter row
  std::map<std::string, GlobalBinding, std::less<>> globals_;
  gpu::Buffer buffer_;       // FrameFieldBinding rows
  Table gpu_table_;          // what buffer_ holds (as of the last frame)
  bool dirty_ = false;       // the table must be rebuilt by the next frame
  bool written_ = false;     // a frame ran the pass with gpu_table_ since the last sync
  uint32_t field_base_ = 0;  // the heap field base gpu_table_ was built with
};

}  // namespace mote::runtime
