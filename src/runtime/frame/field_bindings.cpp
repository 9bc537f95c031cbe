#include "runtime/frame/field_bindings.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <utility>

#include "gpu/transfer.hpp"
#include "isa/emitter_values.hpp"
#include "runtime/frame/frame_buffers.hpp"

namespace mote::runtime {

namespace {

std::optional<std::pair<uint32_t, uint32_t>> find_emitter_field(const Program& program, std::string_view name) {
  uint32_t offset = 0;
  for (const FieldDecl& f : program.emitter_fields) {
    if (f.name == name) return std::pair{offset, f.width};
    offset += f.width;
  }
  return std::nullopt;
}

Status check_channel(Channel channel) {
  if (uint32_t(channel) > uint32_t(Channel::kOrientation))
    return make_error(ErrorCode::kInvalidArgument, "unknown transform channel " + std::to_string(uint32_t(channel)));
  return ok_status();
}

Status check_transform_row(const TransformTable* table, uint32_t transform_row) {
  if (table == nullptr)
    return make_error(ErrorCode::kInvalidArgument, "a binding to a transform row needs set_transforms first");
  if (!table->is_live(transform_row))
    return make_error(ErrorCode::kNotFound, "no live transform row " + std::to_string(transform_row));
  return ok_status();
}

Status removed_while_used(uint32_t transform_row, const std::string& user) {
  return make_error(ErrorCode::kInvalidArgument, "transform row " + std::to_string(transform_row) +
                                                     " was removed while " + user +
                                                     " used it; the frame did not run (remove, move or unbind first)");
}

}  // namespace

const char* channel_name(Channel c) {
  switch (c) {
    case Channel::kPosition: return "POSITION";
    case Channel::kDirection: return "DIRECTION";
    case Channel::kUp: return "UP";
    case Channel::kOrientation: return "ORIENTATION";
  }
  return "?";
}

Result<FieldBindings> FieldBindings::create(gpu::Device& device, uint32_t max_emitters) {
  FieldBindings b;
  b.fields_.resize(max_emitters);
  MOTE_TRY_ASSIGN(b.buffer_, make_frame_buffer(device, 64 * sizeof(shader::FrameFieldBinding), kFrameStorageUsage,
                                               "mote.frame.field_bindings"));
  return b;
}

Status FieldBindings::bind_field(const EmitterLifecycle& emitters, const TransformTable* table, uint32_t row,
                                 std::string_view field, uint32_t transform_row, Channel channel) {
  if (!emitters.is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  MOTE_TRY(check_channel(channel));
  MOTE_TRY(check_transform_row(table, transform_row));
  const auto found = find_emitter_field(emitters.row(row)->emitter.effect.program, field);
  if (!found)
    return make_error(ErrorCode::kNotFound, "the emitter at row " + std::to_string(row) +
                                                " has no emitter field named '" + std::string(field) + "'");
  if (found->second != channel_width(channel))
    return make_error(ErrorCode::kInvalidArgument,
                      "emitter field '" + std::string(field) + "' has " + std::to_string(found->second) +
                          " components; " + channel_name(channel) + " has " + std::to_string(channel_width(channel)));
  const FieldBinding binding{std::string(field), found->first, found->second,
                             transform_row,      channel,      table->generation(transform_row)};
  std::vector<FieldBinding>& bindings = fields_[row];
  auto same = std::find_if(bindings.begin(), bindings.end(), [&](const FieldBinding& b) { return b.field == field; });
  if (same != bindings.end()) {
    *same = binding;
  } else {
    bindings.push_back(binding);
  }
  dirty_ = true;
  return ok_status();
}

bool FieldBindings::is_field_bound(uint32_t row, std::string_view field) const {
  if (row >= fields_.size()) return false;
  return std::any_of(fields_[row].begin(), fields_[row].end(), [&](const FieldBinding& b) { return b.field == field; });
}

void FieldBindings::unbind_field(uint32_t row, std::string_view field) {
  std::erase_if(fields_[row], [&](const FieldBinding& b) { return b.field == field; });
  dirty_ = true;
}

Status FieldBindings::bind_global(const EmitterLifecycle& emitters, const TransformTable* table,
                                  std::string_view global, uint32_t transform_row, Channel channel) {
  MOTE_TRY(check_channel(channel));
  MOTE_TRY(check_transform_row(table, transform_row));
  const uint32_t width = channel_width(channel);
  for (uint32_t row = 0; row < emitters.row_count(); ++row) {
    const EmitterLifecycle::Row* r = emitters.row(row);
    if (!r) continue;
    for (const GlobalImport& g : r->emitter.effect.program.global_imports)
      if (g.name == global && g.width != width)
        return make_error(ErrorCode::kInvalidArgument,
                          "global field '" + g.name + "' is read with " + std::to_string(g.width) +
                              " components by the emitter at row " + std::to_string(row) + "; " +
                              channel_name(channel) + " has " + std::to_string(width));
  }
  if (const std::vector<float>* set = emitters.system_global(global); set && set->size() != width)
    return make_error(ErrorCode::kInvalidArgument, "global field '" + std::string(global) + "' was set with " +
                                                       std::to_string(set->size()) + " components; " +
                                                       channel_name(channel) + " has " + std::to_string(width));
  globals_.insert_or_assign(std::string(global),
                            GlobalBinding{transform_row, channel, table->generation(transform_row)});
  dirty_ = true;
  return ok_status();
}

void FieldBindings::unbind_global(std::string_view global) {
  if (auto it = globals_.find(global); it != globals_.end()) globals_.erase(it);
  dirty_ = true;
}

Status FieldBindings::check_program(const Program& program) const {
  for (const GlobalImport& g : program.global_imports)
    if (auto bound = globals_.find(g.name); bound != globals_.end() && g.width != channel_width(bound->second.channel))
      return make_error(ErrorCode::kInvalidArgument, "global field '" + g.name + "' is bound to " +
                                                         channel_name(bound->second.channel) + " (" +
                                                         std::to_string(channel_width(bound->second.channel)) +
                                                         " components); the effect reads " + std::to_string(g.width));
  return ok_status();
}

void FieldBindings::emitter_removed(uint32_t row) {
  // The table written with the change that frees the block has no row that writes there.
  if (!fields_[row].empty() || !globals_.empty()) dirty_ = true;
  fields_[row].clear();
}

void FieldBindings::effect_swapped(uint32_t row, const Program& now) {
  std::vector<FieldBinding> kept;
  for (const FieldBinding& b : fields_[row])
    if (auto to = find_emitter_field(now, b.field); to && to->second == b.width) {
      FieldBinding moved = b;
      moved.offset = to->first;
      kept.push_back(std::move(moved));
    }
  fields_[row] = std::move(kept);
  dirty_ = true;
}

bool FieldBindings::any() const {
  if (!globals_.empty()) return true;
  return std::any_of(fields_.begin(), fields_.end(), [](const auto& f) { return !f.empty(); });
}

Status FieldBindings::check_transform_row_unused(uint32_t transform_row) const {
  for (uint32_t row = 0; row < fields_.size(); ++row)
    for (const FieldBinding& b : fields_[row])
      if (b.transform_row == transform_row)
        return make_error(ErrorCode::kInvalidArgument,
                          "transform row " + std::to_string(transform_row) + " is bound to field '" + b.field +
                              "' of the emitter at row " + std::to_string(row) + ": unbind it first");
  for (const auto& [name, b] : globals_)
    if (b.transform_row == transform_row)
      return make_error(ErrorCode::kInvalidArgument, "transform row " + std::to_string(transform_row) +
                                                         " is bound to global '" + name + "': unbind it first");
  return ok_status();
}

Status FieldBindings::check_transform_references(const TransformTable& table, uint32_t rows) const {
  auto same = [&](uint32_t transform_row, uint32_t generation) {
    return table.is_live(transform_row) && table.generation(transform_row) == generation;
  };
  for (uint32_t row = 0; row < rows && row < fields_.size(); ++row)
    for (const FieldBinding& b : fields_[row])
      if (!same(b.transform_row, b.transform_generation))
        return removed_while_used(b.transform_row,
                                  "field '" + b.field + "' of the emitter at row " + std::to_string(row));
  for (const auto& [name, b] : globals_)
    if (!same(b.transform_row, b.transform_generation))
      return removed_while_used(b.transform_row, "global '" + name + "'");
  return ok_status();
}

FieldBindings::Table FieldBindings::build_table(const EmitterLifecycle& emitters) const {
  Table t;
  for (uint32_t row = 0; row < emitters.row_count(); ++row) {
    const EmitterLifecycle::Row* r = emitters.row(row);
    if (!r) continue;
    const uint32_t block = shader::kFrameShapeWords + emitters.block_word(row);
    for (const FieldBinding& b : fields_[row]) {
      t.rows.push_back({block + b.offset, b.width, b.transform_row, uint32_t(b.channel)});
      t.sources.push_back({row, r->serial, false, b.field});
    }
    if (globals_.empty()) continue;
    const Program& program = r->emitter.effect.program;
    const uint32_t globals = block + program.emitter_field_words();
    uint32_t offset = 0;
    for (const GlobalImport& g : program.global_imports) {
      if (auto bound = globals_.find(g.name); bound != globals_.end()) {
        t.rows.push_back({globals + offset, g.width, bound->second.transform_row, uint32_t(bound->second.channel)});
        t.sources.push_back({row, r->serial, true, g.name});
      }
      offset += g.width;
    }
  }
  return t;
}

Status FieldBindings::prepare(gpu::Device& device, const EmitterLifecycle& emitters, FrameUploads& uploads,
                              UploadStats& stats, RetiredBuffers& retired, uint64_t frame) {
  if (emitters.heap().field_base() != field_base_) dirty_ = true;
  if (!dirty_) return ok_status();
  gpu_table_ = build_table(emitters);
  field_base_ = emitters.heap().field_base();
  const VkDeviceSize bytes = gpu_table_.rows.size() * sizeof(shader::FrameFieldBinding);
  if (bytes > buffer_.size()) {  // doubling: rare; frames in flight keep reading the old one
    MOTE_TRY_ASSIGN(gpu::Buffer grown,
                    make_frame_buffer(device, bytes * 2, kFrameStorageUsage, "mote.frame.field_bindings"));
    retired.retire(std::move(buffer_), frame);
    buffer_ = std::move(grown);
  }
  if (bytes > 0) {
    uploads.add(buffer_, 0, gpu_table_.rows.data(), bytes);
    stats.bindings_bytes += bytes;
  }
  return ok_status();
}

void FieldBindings::recorded(bool pass_ran) {
  dirty_ = false;
  if (pass_ran) written_ = true;
}

Status FieldBindings::sync(gpu::Device& device, const gpu::Buffer& program, EmitterLifecycle& emitters) {
  if (!written_ || gpu_table_.rows.empty()) return ok_status();
  uint32_t lo = 0xFFFFFFFFu, hi = 0;
  for (const shader::FrameFieldBinding& b : gpu_table_.rows) {
    lo = std::min(lo, b.word);
    hi = std::max(hi, b.word + b.width);
  }
  // The words the last frame's pass wrote, where that frame's layout put them (the program
  // buffer changes only at a frame's start, so it still has that layout).
  MOTE_TRY_ASSIGN(std::vector<uint32_t> words,
                  gpu::readback_as<uint32_t>(device, program, hi - lo, VkDeviceSize(lo) * 4));
  for (size_t i = 0; i < gpu_table_.rows.size(); ++i) {
    const shader::FrameFieldBinding& b = gpu_table_.rows[i];
    const Source& src = gpu_table_.sources[i];
    const std::span<const uint32_t> value(words.data() + (b.word - lo), b.width);
    if (src.global) {
      std::vector<float> v(b.width);
      for (uint32_t c = 0; c < b.width; ++c) v[c] = std::bit_cast<float>(value[c]);
      emitters.set_system_global(src.name, v);
    }
    emitters.take_bound_value(src.row, src.serial, src.global, src.name, value);
  }
  written_ = false;
  return ok_status();
}

}  // namespace mote::runtime
