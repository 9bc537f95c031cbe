#include "runtime_frame/particle_system.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "mote/isa.hpp"
#include "mote/link.hpp"
#include "mote/verifier.hpp"
#include "mote/vm.hpp"
#include "shared/vm_limits.h"

namespace mote::runtime {

namespace {

using shader::FrameBurst;
using shader::FrameCounters;
using shader::FrameEmitter;
using shader::FrameEmitterState;
using shader::FrameFieldBinding;
using shader::FrameFieldBindPush;
using shader::FrameParams;
using shader::FramePush;

// The opcode shape table opens the program image: 64 uvec4s, the shape in .x (what
// shaders/runtime/frame_vm.glsl's vm_op_shape reads).
constexpr uint32_t kShapeWords = 64 * 4;

// v' = v + w t + q x t, t = 2 (q x v): the VM's QROTATE, as the reference simulation turns the
// emitter's +Z and +Y.
glm::vec4 rotate(const float q[4], glm::vec3 v) {
  const glm::vec3 u(q[0], q[1], q[2]);
  const glm::vec3 t = 2.0f * glm::cross(u, v);
  const glm::vec3 r = v + q[3] * t + glm::cross(u, t);
  return glm::vec4(r, 0.0f);
}

template <typename Decl>
Status apply_values(const std::vector<Decl>& decls, const std::vector<FieldValue>& values, std::vector<uint32_t>& block,
                    const char* what) {
  for (const FieldValue& v : values) {
    uint32_t offset = 0;
    bool found = false;
    for (const Decl& d : decls) {
      if (d.name == v.name) {
        if (v.values.size() != 1 && v.values.size() != d.width)
          return make_error(ErrorCode::kInvalidArgument, std::string(what) + " '" + v.name + "' has " +
                                                             std::to_string(d.width) + " components, " +
                                                             std::to_string(v.values.size()) + " given");
        for (uint32_t c = 0; c < d.width; ++c)
          block[offset + c] = std::bit_cast<uint32_t>(v.values.size() == 1 ? v.values[0] : v.values[c]);
        found = true;
        break;
      }
      offset += d.width;
    }
    if (!found) return make_error(ErrorCode::kNotFound, std::string("no ") + what + " named '" + v.name + "'");
  }
  return ok_status();
}

Result<gpu::Buffer> make_buffer(gpu::Device& device, VkDeviceSize bytes, VkBufferUsageFlags usage, const char* name) {
  return gpu::Buffer::create(device, {.size = std::max<VkDeviceSize>(bytes, 16), .usage = usage,
                                      .memory = gpu::MemoryUsage::kDeviceLocal, .name = name});
}

const char* channel_name(Channel c) {
  switch (c) {
    case Channel::kPosition: return "POSITION";
    case Channel::kDirection: return "DIRECTION";
    case Channel::kUp: return "UP";
    case Channel::kOrientation: return "ORIENTATION";
  }
  return "?";
}

// vkCmdUpdateBuffer writes at most 65536 bytes a command: larger spans go in pieces.
void update_buffer(VkCommandBuffer cmd, const gpu::Buffer& buffer, VkDeviceSize offset, const void* data,
                   size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t done = 0; done < bytes;) {
    const size_t n = std::min<size_t>(bytes - done, 65536);
    vkCmdUpdateBuffer(cmd, buffer.handle(), offset + done, n, p + done);
    done += n;
  }
}

constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// Every earlier submission's compute and transfer work (last frame, a set-up upload, a
// readback) is done and visible before this frame touches anything.
void frame_start_barrier(VkCommandBuffer cmd) {
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT |
                          VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                      VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

// The end of a frame: next frame's indirect simulate and any readback see its writes.
void frame_end_barrier(VkCommandBuffer cmd) {
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                          VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                          VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

}  // namespace

Result<ParticleSystem> ParticleSystem::create(gpu::Device& device, const ParticleSystemOptions& options) {
  if (options.capacity == 0 || options.capacity > (1u << 24))
    return make_error(ErrorCode::kInvalidArgument, "capacity must be 1 .. 2^24 (PARTICLE_INDEX is a float)");
  if (options.record_words < 2 || options.record_words > shader::kVmMaxRecordWords)
    return make_error(ErrorCode::kInvalidArgument, "record_words must be 2 .. " +
                                                       std::to_string(shader::kVmMaxRecordWords));
  if (options.max_emitters == 0 || options.max_emitters > shader::kFrameHeaderRowMask + 1)
    return make_error(ErrorCode::kInvalidArgument, "max_emitters must be 1 .. 2^20 (the header's row bits)");
  if (options.serial_word >= options.record_words)
    return make_error(ErrorCode::kInvalidArgument, "serial_word must lie inside the record");
  const uint64_t pool_bytes = uint64_t(options.capacity) * options.record_words * 4;
  if (pool_bytes > device.limits().maxStorageBufferRange)
    return make_error(ErrorCode::kUnsupported, "the pool exceeds the device's maxStorageBufferRange");

  ParticleSystem s;
  s.device_ = &device;
  s.options_ = options;
  const VkDeviceSize cap_bytes = VkDeviceSize(options.capacity) * 4;
  MOTE_TRY_ASSIGN(s.pool_, make_buffer(device, pool_bytes, kStorage, "mote.frame.pool"));
  MOTE_TRY_ASSIGN(s.free_list_, make_buffer(device, cap_bytes, kStorage, "mote.frame.free_list"));
  MOTE_TRY_ASSIGN(s.alive_[0], make_buffer(device, cap_bytes, kStorage, "mote.frame.alive0"));
  MOTE_TRY_ASSIGN(s.alive_[1], make_buffer(device, cap_bytes, kStorage, "mote.frame.alive1"));
  MOTE_TRY_ASSIGN(s.counters_, make_buffer(device, sizeof(FrameCounters),
                                           kStorage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "mote.frame.counters"));
  const VkDeviceSize rows = options.max_emitters;
  MOTE_TRY_ASSIGN(s.emitters_, make_buffer(device, rows * sizeof(FrameEmitter), kStorage, "mote.frame.emitters"));
  MOTE_TRY_ASSIGN(s.states_, make_buffer(device, rows * sizeof(FrameEmitterState), kStorage, "mote.frame.emitter_state"));
  MOTE_TRY_ASSIGN(s.bursts_, make_buffer(device, rows * shader::kFrameMaxBursts * sizeof(FrameBurst), kStorage,
                                         "mote.frame.bursts"));
  MOTE_TRY_ASSIGN(s.spawn_counts_, make_buffer(device, rows * 4, kStorage, "mote.frame.spawn_counts"));
  MOTE_TRY_ASSIGN(s.spawn_sums_, make_buffer(device, rows * 4, kStorage, "mote.frame.spawn_sums"));
  MOTE_TRY_ASSIGN(s.commands_, make_buffer(device, shader::kFrameMaxCommands * 8, kStorage, "mote.frame.commands"));
  MOTE_TRY_ASSIGN(s.params_, make_buffer(device, sizeof(FrameParams),
                                         VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                         "mote.frame.params"));
  MOTE_TRY_ASSIGN(s.no_transforms_, make_buffer(device, sizeof(shader::TransformChannels), kStorage,
                                                "mote.frame.no_transforms"));
  MOTE_TRY_ASSIGN(s.scan_, PrefixScan::create(device, options.max_emitters));
  MOTE_TRY_ASSIGN(s.init_, gpu::ComputePipeline::create(device, "runtime/frame_init"));
  MOTE_TRY_ASSIGN(s.reset_, gpu::ComputePipeline::create(device, "runtime/frame_reset"));
  MOTE_TRY_ASSIGN(s.tick_, gpu::ComputePipeline::create(device, "runtime/frame_tick"));
  MOTE_TRY_ASSIGN(s.emit_args_, gpu::ComputePipeline::create(device, "runtime/frame_emit_args"));
  MOTE_TRY_ASSIGN(s.emit_, gpu::ComputePipeline::create(device, "runtime/frame_emit"));
  MOTE_TRY_ASSIGN(s.simulate_, gpu::ComputePipeline::create(device, "runtime/frame_simulate"));
  MOTE_TRY_ASSIGN(s.finish_, gpu::ComputePipeline::create(device, "runtime/frame_finish"));
  MOTE_TRY_ASSIGN(s.field_bind_, gpu::ComputePipeline::create(device, "runtime/frame_field_bind"));
  MOTE_TRY_ASSIGN(s.field_bindings_, make_buffer(device, 64 * sizeof(FrameFieldBinding), kStorage,
                                                 "mote.frame.field_bindings"));
  s.rows_.resize(options.max_emitters);
  MOTE_TRY(s.upload_tables());

  // The pool and the emitter state start zeroed (a free slot's header is 0; a zero state row
  // has generation 0, so every new emitter restarts it); the free list and counters by dispatch.
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, s.pool_.handle(), 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cmd, s.states_.handle(), 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cmd, s.no_transforms_.handle(), 0, VK_WHOLE_SIZE, 0);
    gpu::transfer_to_compute(cmd);
    const uint32_t capacity = options.capacity;
    const uint32_t groups = std::min((capacity + 63) / 64, shader::kFrameMaxGroups);
    gpu::ComputeRecorder(device, cmd)
        .bind(s.init_)
        .buffers({{0, &s.free_list_}, {1, &s.counters_}})
        .push(capacity)
        .dispatch(groups);
    frame_end_barrier(cmd);
  }));
  return s;
}

uint32_t ParticleSystem::row_count() const {
  uint32_t n = 0;
  for (uint32_t r = 0; r < rows_.size(); ++r)
    if (rows_[r].live) n = r + 1;
  return n;
}

Result<ParticleSystem::Row> ParticleSystem::make_row(const CompiledEffect& effect, const EmitterOptions& options) {
  const Program& program = effect.program;
  if (program.register_count > shader::kVmFastRegisterSlots)
    return make_error(ErrorCode::kUnsupported, "programs over " + std::to_string(shader::kVmFastRegisterSlots) +
                                                   " registers need the wide interpreter, not built into the frame yet");
  if (vm_particle_record_words(program) > options_.record_words)
    return make_error(ErrorCode::kInvalidArgument, "the program's record does not fit the pool's stride");
  if (options_.serial_word != 0 && options_.serial_word < vm_particle_record_words(program))
    return make_error(ErrorCode::kInvalidArgument, "serial_word overlaps the program's fields");

  if (options.transform_row != kNoTransformRow) {
    if (transforms_ == nullptr)
      return make_error(ErrorCode::kInvalidArgument, "an emitter at a transform row needs set_transforms first");
    if (!transforms_->is_live(options.transform_row))
      return make_error(ErrorCode::kNotFound, "no live transform row " + std::to_string(options.transform_row));
  }

  Row r;
  // The effect's declared bursts, fired by the tick (bursts with count 0 never fire: skipped).
  uint32_t burst_count = 0;
  for (const Burst& b : effect.emission.bursts) {
    if (b.count == 0) continue;
    if (!std::isfinite(b.time) || !std::isfinite(b.interval))
      return make_error(ErrorCode::kInvalidArgument, "a burst's time and interval must be finite numbers of seconds");
    if (burst_count == shader::kFrameMaxBursts)
      return make_error(ErrorCode::kUnsupported,
                        "the effect declares more than " + std::to_string(shader::kFrameMaxBursts) +
                            " bursts (with a count); the GPU frame schedules at most that many per emitter");
    r.bursts[burst_count++] = FrameBurst{b.time, b.count, b.cycles, b.interval};
  }
  r.fields.assign(vm_emitter_field_words(program), 0);
  if (!effect.emitter_defaults.empty()) {
    if (effect.emitter_defaults.size() != r.fields.size())
      return make_error(ErrorCode::kInvalidArgument, "emitter_defaults does not match the program's emitter fields");
    r.fields = effect.emitter_defaults;
  }
  MOTE_TRY(apply_values(program.emitter_fields, options.emitter_fields, r.fields, "emitter field"));
  // Globals packed in import order from the previews, then the overrides (as the reference).
  std::vector<uint32_t> offsets;
  uint32_t words = 0;
  for (const GlobalImport& g : program.global_imports) {
    offsets.push_back(words);
    words += g.width;
  }
  r.globals.assign(words, 0);
  for (size_t i = 0; i < program.global_imports.size() && i < effect.globals.size(); ++i)
    for (uint32_t c = 0; c < program.global_imports[i].width && c < effect.globals[i].values.size(); ++c)
      r.globals[offsets[i] + c] = std::bit_cast<uint32_t>(effect.globals[i].values[c]);
  // The system's values (set_global) over the previews: a name is one field, read at one width.
  for (size_t i = 0; i < program.global_imports.size(); ++i) {
    const GlobalImport& g = program.global_imports[i];
    if (auto bound = global_bindings_.find(g.name);
        bound != global_bindings_.end() && g.width != channel_width(bound->second.channel))
      return make_error(ErrorCode::kInvalidArgument,
                        "global field '" + g.name + "' is bound to " + channel_name(bound->second.channel) + " (" +
                            std::to_string(channel_width(bound->second.channel)) + " components); the effect reads " +
                            std::to_string(g.width));
    auto set = global_values_.find(g.name);
    if (set == global_values_.end()) continue;
    if (set->second.size() != g.width)
      return make_error(ErrorCode::kInvalidArgument, "global field '" + g.name + "' was set with " +
                                                         std::to_string(set->second.size()) +
                                                         " components; the effect reads " + std::to_string(g.width));
    for (uint32_t c = 0; c < g.width; ++c) r.globals[offsets[i] + c] = std::bit_cast<uint32_t>(set->second[c]);
  }
  MOTE_TRY(apply_values(program.global_imports, options.globals, r.globals, "global field"));
  r.global_offsets = offsets;
  r.options = options;
  MOTE_TRY_ASSIGN(r.linked, link_globals(program, offsets));
  MOTE_TRY(verify_program(r.linked, {.linked = true, .global_field_words = uint32_t(r.globals.size()),
                                     .record_words = options_.record_words}));

  FrameEmitter& e = r.record;
  e = {};
  e.position = {options.position[0], options.position[1], options.position[2], 0.0f};
  e.rotation = {options.rotation[0], options.rotation[1], options.rotation[2], options.rotation[3]};
  e.direction = rotate(options.rotation, {0.0f, 0.0f, 1.0f});
  e.up = rotate(options.rotation, {0.0f, 1.0f, 0.0f});
  e.seed = options.seed;
  e.rate = effect.emission.rate;
  if (auto off = program.emitter_field_offset("rate"))
    for (const FieldDecl& f : program.emitter_fields)
      if (f.name == "rate" && f.width == 1) e.rate = std::bit_cast<float>(r.fields[*off]);
  e.register_count = program.register_count;
  e.transform_row = options.transform_row;
  e.generation = next_generation_;
  // Generations wrap inside the header's 12 bits, skipping 0 (a free slot's header).
  next_generation_ = next_generation_ % shader::kFrameHeaderGenerationMask + 1;
  r.live = true;
  return r;
}

Result<uint32_t> ParticleSystem::add_emitter(const CompiledEffect& effect, const EmitterOptions& options) {
  uint32_t row = 0;
  while (row < rows_.size() && rows_[row].live) ++row;
  if (row == rows_.size()) return make_error(ErrorCode::kOutOfMemory, "the emitter table is full");
  MOTE_TRY_ASSIGN(Row r, make_row(effect, options));
  MOTE_TRY(sync_bound_values());
  rows_[row] = std::move(r);
  MOTE_TRY(upload_tables());
  return row;
}

Result<std::vector<uint32_t>> ParticleSystem::add_emitters(const CompiledEffect& effect,
                                                           std::span<const EmitterOptions> options) {
  MOTE_TRY(sync_bound_values());
  std::vector<uint32_t> placed;
  placed.reserve(options.size());
  uint32_t row = 0;
  for (const EmitterOptions& o : options) {
    while (row < rows_.size() && rows_[row].live) ++row;
    Result<Row> made = row == rows_.size() ? Result<Row>(make_error(ErrorCode::kOutOfMemory, "the emitter table is full"))
                                           : make_row(effect, o);
    if (!made.ok()) {
      for (uint32_t p : placed) rows_[p] = Row{};  // nothing added (the GPU never saw these rows)
      return made.error();
    }
    rows_[row] = std::move(made).value();
    placed.push_back(row);
  }
  MOTE_TRY(upload_tables());
  return placed;
}

Status ParticleSystem::remove_emitter(uint32_t row) {
  if (row >= rows_.size() || !rows_[row].live) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  MOTE_TRY(sync_bound_values());
  rows_[row] = Row{};  // its bindings with it: the next table has no row that writes its block
  pending_bursts_.erase(row);
  return upload_tables();
}

Status ParticleSystem::swap_effect(uint32_t row, const CompiledEffect& effect) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  const Row& old = rows_[row];
  EmitterOptions options = old.options;
  options.emitter_fields.clear();  // the old program's names: carried over below where they fit
  std::erase_if(options.globals, [&](const FieldValue& v) {
    for (const GlobalImport& g : effect.program.global_imports)
      if (g.name == v.name) return v.values.size() != 1 && v.values.size() != g.width;
    return true;
  });
  MOTE_TRY_ASSIGN(Row r, make_row(effect, options));
  MOTE_TRY(sync_bound_values());  // the old block's bound words as last written
  // Fields both programs declare at one width keep the emitter's values and bindings.
  auto old_field = [&](const FieldDecl& f) -> std::optional<uint32_t> {
    uint32_t offset = 0;
    for (const FieldDecl& d : old.linked.emitter_fields) {
      if (d.name == f.name) return d.width == f.width ? std::optional<uint32_t>(offset) : std::nullopt;
      offset += d.width;
    }
    return std::nullopt;
  };
  uint32_t offset = 0;
  for (const FieldDecl& f : r.linked.emitter_fields) {
    if (auto from = old_field(f)) {
      std::copy_n(old.fields.begin() + *from, f.width, r.fields.begin() + offset);
      for (const FieldBinding& b : old.bindings)
        if (b.field == f.name) r.bindings.push_back({b.field, offset, b.width, b.transform_row, b.channel});
      if (f.name == "rate" && f.width == 1) r.record.rate = std::bit_cast<float>(r.fields[offset]);
    }
    offset += f.width;
  }
  rows_[row] = std::move(r);
  return upload_tables();
}

bool ParticleSystem::uses_transforms() const {
  if (!global_bindings_.empty()) return true;
  for (const Row& r : rows_)
    if (r.live && (r.record.transform_row != kNoTransformRow || !r.bindings.empty())) return true;
  return false;
}

Status ParticleSystem::set_transforms(TransformTable* table) {
  if (table != transforms_ && uses_transforms())
    return make_error(ErrorCode::kInvalidArgument,
                      "emitters are placed at, or fields bound to, rows of the current transforms table: remove or "
                      "unbind them first");
  transforms_ = table;
  return ok_status();
}

Status ParticleSystem::check_transform_row(uint32_t transform_row) const {
  if (transforms_ == nullptr)
    return make_error(ErrorCode::kInvalidArgument, "a binding to a transform row needs set_transforms first");
  if (!transforms_->is_live(transform_row))
    return make_error(ErrorCode::kNotFound, "no live transform row " + std::to_string(transform_row));
  return ok_status();
}

namespace {

// The word and width of emitter field `name` in `program`'s block.
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

}  // namespace

Status ParticleSystem::bind_field(uint32_t row, std::string_view emitter_field, uint32_t transform_row,
                                  Channel channel) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  MOTE_TRY(check_channel(channel));
  MOTE_TRY(check_transform_row(transform_row));
  Row& r = rows_[row];
  const auto field = find_emitter_field(r.linked, emitter_field);
  if (!field)
    return make_error(ErrorCode::kNotFound, "the emitter at row " + std::to_string(row) + " has no emitter field named '" +
                                                std::string(emitter_field) + "'");
  if (field->second != channel_width(channel))
    return make_error(ErrorCode::kInvalidArgument,
                      "emitter field '" + std::string(emitter_field) + "' has " + std::to_string(field->second) +
                          " components; " + channel_name(channel) + " has " + std::to_string(channel_width(channel)));
  const FieldBinding binding{std::string(emitter_field), field->first, field->second, transform_row, channel};
  auto same = std::find_if(r.bindings.begin(), r.bindings.end(), [&](const FieldBinding& b) { return b.field == emitter_field; });
  if (same != r.bindings.end()) {
    *same = binding;
  } else {
    r.bindings.push_back(binding);
  }
  bindings_dirty_ = true;
  return ok_status();
}

Status ParticleSystem::unbind_field(uint32_t row, std::string_view emitter_field) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  std::vector<FieldBinding>& bindings = rows_[row].bindings;
  auto it = std::find_if(bindings.begin(), bindings.end(), [&](const FieldBinding& b) { return b.field == emitter_field; });
  if (it == bindings.end())
    return make_error(ErrorCode::kNotFound, "emitter field '" + std::string(emitter_field) + "' of the emitter at row " +
                                                std::to_string(row) + " is not bound");
  MOTE_TRY(sync_bound_values());  // the host copy takes the last written value (bindings unchanged)
  bindings.erase(it);
  bindings_dirty_ = true;
  return ok_status();
}

Status ParticleSystem::bind_global(std::string_view global, uint32_t transform_row, Channel channel) {
  MOTE_TRY(check_channel(channel));
  MOTE_TRY(check_transform_row(transform_row));
  const uint32_t width = channel_width(channel);
  for (uint32_t row = 0; row < rows_.size(); ++row) {
    if (!rows_[row].live) continue;
    for (const GlobalImport& g : rows_[row].linked.global_imports)
      if (g.name == global && g.width != width)
        return make_error(ErrorCode::kInvalidArgument, "global field '" + g.name + "' is read with " +
                                                           std::to_string(g.width) + " components by the emitter at row " +
                                                           std::to_string(row) + "; " + channel_name(channel) + " has " +
                                                           std::to_string(width));
  }
  if (auto set = global_values_.find(global); set != global_values_.end() && set->second.size() != width)
    return make_error(ErrorCode::kInvalidArgument, "global field '" + std::string(global) + "' was set with " +
                                                       std::to_string(set->second.size()) + " components; " +
                                                       channel_name(channel) + " has " + std::to_string(width));
  global_bindings_.insert_or_assign(std::string(global), GlobalBinding{transform_row, channel});
  bindings_dirty_ = true;
  return ok_status();
}

Status ParticleSystem::unbind_global(std::string_view global) {
  auto it = global_bindings_.find(global);
  if (it == global_bindings_.end())
    return make_error(ErrorCode::kNotFound, "global field '" + std::string(global) + "' is not bound");
  MOTE_TRY(sync_bound_values());  // global_values_ takes the last written value
  global_bindings_.erase(global_bindings_.find(global));
  bindings_dirty_ = true;
  // Every reader keeps the last written value, also one added since the last frame.
  auto last = global_values_.find(global);
  if (last == global_values_.end()) return ok_status();  // never written: readers keep their own
  for (Row& r : rows_) {
    if (!r.live) continue;
    for (size_t i = 0; i < r.linked.global_imports.size(); ++i) {
      if (r.linked.global_imports[i].name != global) continue;
      for (uint32_t c = 0; c < r.linked.global_imports[i].width; ++c)
        r.globals[r.global_offsets[i] + c] = std::bit_cast<uint32_t>(last->second[c]);
      r.globals_dirty = true;
      values_dirty_ = true;
    }
  }
  return ok_status();
}

Status ParticleSystem::set_global(std::string_view name, std::span<const float> values) {
  if (values.empty() || values.size() > 4)
    return make_error(ErrorCode::kInvalidArgument, "global field '" + std::string(name) + "': 1 to 4 values, " +
                                                       std::to_string(values.size()) + " given");
  if (global_bindings_.contains(name))
    return make_error(ErrorCode::kInvalidArgument,
                      "global field '" + std::string(name) + "' is bound to a transform: unbind it first");
  for (uint32_t row = 0; row < rows_.size(); ++row) {
    if (!rows_[row].live) continue;
    for (const GlobalImport& g : rows_[row].linked.global_imports)
      if (g.name == name && g.width != values.size())
        return make_error(ErrorCode::kInvalidArgument, "global field '" + g.name + "' is read with " +
                                                           std::to_string(g.width) + " components by the emitter at row " +
                                                           std::to_string(row) + ", " + std::to_string(values.size()) +
                                                           " given");
  }
  global_values_.insert_or_assign(std::string(name), std::vector<float>(values.begin(), values.end()));
  for (Row& r : rows_) {
    if (!r.live) continue;
    for (size_t i = 0; i < r.linked.global_imports.size(); ++i) {
      if (r.linked.global_imports[i].name != name) continue;
      for (uint32_t c = 0; c < values.size(); ++c) r.globals[r.global_offsets[i] + c] = std::bit_cast<uint32_t>(values[c]);
      r.globals_dirty = true;
      values_dirty_ = true;
    }
  }
  return ok_status();
}

Status ParticleSystem::set_emitter_field(uint32_t row, std::string_view name, std::span<const float> values) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  Row& r = rows_[row];
  const auto field = find_emitter_field(r.linked, name);
  if (!field)
    return make_error(ErrorCode::kNotFound, "the emitter at row " + std::to_string(row) + " has no emitter field named '" +
                                                std::string(name) + "'");
  const auto [offset, width] = *field;
  if (values.size() != 1 && values.size() != width)
    return make_error(ErrorCode::kInvalidArgument, "emitter field '" + std::string(name) + "' has " +
                                                       std::to_string(width) + " components, " +
                                                       std::to_string(values.size()) + " given");
  for (const FieldBinding& b : r.bindings)
    if (b.field == name)
      return make_error(ErrorCode::kInvalidArgument,
                        "emitter field '" + std::string(name) + "' is bound to a transform: unbind it first");
  for (uint32_t c = 0; c < width; ++c)
    r.fields[offset + c] = std::bit_cast<uint32_t>(values.size() == 1 ? values[0] : values[c]);
  // The tick reads the rate from the record (make_row's rule: a width-1 field named "rate").
  if (name == "rate" && width == 1) r.record.rate = values[0];
  r.fields_dirty = true;
  values_dirty_ = true;
  return ok_status();
}

ParticleSystem::BindingTable ParticleSystem::build_binding_table() const {
  BindingTable t;
  for (uint32_t row = 0; row < rows_.size(); ++row) {
    const Row& r = rows_[row];
    if (!r.live) continue;
    for (const FieldBinding& b : r.bindings) {
      t.rows.push_back({r.record.fields_offset + b.offset, b.width, b.transform_row, uint32_t(b.channel)});
      t.sources.push_back({row, false, b.offset, {}});
    }
    if (global_bindings_.empty()) continue;
    for (size_t i = 0; i < r.linked.global_imports.size(); ++i) {
      const GlobalImport& g = r.linked.global_imports[i];
      auto bound = global_bindings_.find(g.name);
      if (bound == global_bindings_.end()) continue;
      t.rows.push_back({r.record.globals_offset + r.global_offsets[i], g.width, bound->second.transform_row,
                        uint32_t(bound->second.channel)});
      t.sources.push_back({row, true, r.global_offsets[i], g.name});
    }
  }
  return t;
}

Status ParticleSystem::sync_bound_values() {
  if (!bindings_written_ || gpu_bindings_.rows.empty()) return ok_status();
  uint32_t lo = 0xFFFFFFFFu, hi = 0;
  for (const FrameFieldBinding& b : gpu_bindings_.rows) {
    lo = std::min(lo, b.word);
    hi = std::max(hi, b.word + b.width);
  }
  MOTE_TRY_ASSIGN(std::vector<uint32_t> words,
                  gpu::readback_as<uint32_t>(*device_, program_, hi - lo, VkDeviceSize(lo) * 4));
  for (size_t i = 0; i < gpu_bindings_.rows.size(); ++i) {
    const FrameFieldBinding& b = gpu_bindings_.rows[i];
    const BindingSource& src = gpu_bindings_.sources[i];
    Row& r = rows_[src.row];
    std::vector<uint32_t>& block = src.global ? r.globals : r.fields;
    std::copy_n(words.begin() + (b.word - lo), b.width, block.begin() + src.offset);
    if (src.global) {
      std::vector<float>& value = global_values_[src.global_name];
      value.resize(b.width);
      for (uint32_t c = 0; c < b.width; ++c) value[c] = std::bit_cast<float>(words[b.word - lo + c]);
    }
  }
  bindings_written_ = false;
  return ok_status();
}

Status ParticleSystem::burst(uint32_t row, uint32_t count) {
  if (row >= rows_.size() || !rows_[row].live) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  uint32_t& pending = pending_bursts_[row];
  pending = uint32_t(std::min<uint64_t>(uint64_t(pending) + count, 0xFFFFFFFFu));
  return ok_status();
}

// Rebuilds the program image ([shapes][per program: constants, init, update][per row: fields,
// globals]) and the emitter table, and uploads both. Identical linked programs share one code
// copy and one program id, so their emitters share emit and simulate dispatches.
Status ParticleSystem::upload_tables() {
  std::vector<uint32_t> words(kShapeWords, 0);
  for (const isa::OpInfo& op : isa::all_ops()) words[op.number * 4] = isa::op_shape(op);
  std::vector<const Program*> unique;
  std::vector<uint32_t> first_row;  // per program id, the row that placed its code
  std::vector<FrameEmitter> table(rows_.size());
  std::vector<FrameBurst> burst_table(rows_.size() * shader::kFrameMaxBursts, FrameBurst{});
  programs_.clear();
  for (uint32_t row = 0; row < rows_.size(); ++row) {
    Row& r = rows_[row];
    if (!r.live) continue;
    uint32_t id = 0;
    while (id < unique.size() && !(*unique[id] == r.linked)) ++id;
    FrameEmitter& e = r.record;
    if (id == unique.size()) {
      unique.push_back(&r.linked);
      first_row.push_back(row);
      programs_.push_back(id);
      e.constants_offset = uint32_t(words.size());
      words.insert(words.end(), r.linked.constants.begin(), r.linked.constants.end());
      e.init_offset = uint32_t(words.size());
      for (const Instruction& ins : r.linked.init) words.insert(words.end(), ins.words.begin(), ins.words.end());
      e.update_offset = uint32_t(words.size());
      for (const Instruction& ins : r.linked.update) words.insert(words.end(), ins.words.begin(), ins.words.end());
    } else {
      const FrameEmitter& first = rows_[first_row[id]].record;
      e.constants_offset = first.constants_offset;
      e.init_offset = first.init_offset;
      e.update_offset = first.update_offset;
    }
    e.program = id;
    e.constants_words = uint32_t(r.linked.constants.size());
    e.init_length = uint32_t(r.linked.init.size());
    e.update_length = uint32_t(r.linked.update.size());
    e.fields_offset = uint32_t(words.size());
    e.fields_words = uint32_t(r.fields.size());
    words.insert(words.end(), r.fields.begin(), r.fields.end());
    e.globals_offset = uint32_t(words.size());
    e.globals_words = uint32_t(r.globals.size());
    words.insert(words.end(), r.globals.begin(), r.globals.end());
    table[row] = e;
    std::copy_n(r.bursts, shader::kFrameMaxBursts, burst_table.begin() + ptrdiff_t(row) * shader::kFrameMaxBursts);
  }
  // Set-up path: the previous frame may still read the old image and table.
  MOTE_TRY(device_->wait_idle());
  if (!program_.valid() || program_.size() < words.size() * 4) {
    const VkDeviceSize bytes = std::max<VkDeviceSize>(words.size() * 4 * 2, 4096);
    MOTE_TRY_ASSIGN(program_, make_buffer(*device_, bytes, kStorage, "mote.frame.program"));
  }
  MOTE_TRY(gpu::upload_span(*device_, program_, std::span<const uint32_t>(words)));
  MOTE_TRY(gpu::upload_span(*device_, emitters_, std::span<const FrameEmitter>(table)));
  if (!burst_table.empty()) MOTE_TRY(gpu::upload_span(*device_, bursts_, std::span<const FrameBurst>(burst_table)));
  image_words_ = uint32_t(words.size());
  // The host copies went out whole; the bound words moved with the layout (the callers synced
  // the last written values into the copies first).
  for (Row& r : rows_) r.fields_dirty = r.globals_dirty = false;
  values_dirty_ = false;
  bindings_written_ = false;
  bindings_dirty_ = true;
  return ok_status();
}

Status ParticleSystem::execute(float dt) {
  if (!(dt > 0.0f)) return make_error(ErrorCode::kInvalidArgument, "dt must be a positive number of seconds");
  const uint32_t rows = row_count();
  std::vector<uint32_t> commands;
  for (const auto& [row, count] : pending_bursts_) {
    if (commands.size() / 2 >= shader::kFrameMaxCommands) break;
    commands.push_back(row);
    commands.push_back(count);
  }
  pending_bursts_.clear();
  FrameParams params{};
  params.dt = dt;
  params.row_count = rows;
  params.command_count = uint32_t(commands.size() / 2);
  params.capacity = options_.capacity;
  params.record_words = options_.record_words;
  params.serial_word = options_.serial_word;

  const gpu::Buffer& alive_out = alive_[frame_ & 1u];
  const gpu::Buffer& alive_in = alive_[(frame_ + 1u) & 1u];
  Status scan_status = ok_status();
  gpu::Device& device = *device_;
  gpu::GpuProfiler* profiler = profiler_;
  TransformTable* transforms = transforms_;
  const gpu::Buffer& channels = transforms ? transforms->channels() : no_transforms_;

  // The bindings table, rebuilt after a binding or the image's layout changed. Growing its
  // buffer waits for the frames that may still read the old one (doubling: rare).
  const bool write_bindings = bindings_dirty_;
  if (write_bindings) {
    gpu_bindings_ = build_binding_table();
    const VkDeviceSize bytes = gpu_bindings_.rows.size() * sizeof(FrameFieldBinding);
    if (bytes > field_bindings_.size()) {
      MOTE_TRY(device.wait_idle());
      MOTE_TRY_ASSIGN(field_bindings_, make_buffer(device, bytes * 2, kStorage, "mote.frame.field_bindings"));
    }
  }
  const uint32_t binding_count = uint32_t(gpu_bindings_.rows.size());
  const bool bind_pass = transforms != nullptr && binding_count > 0;
  MOTE_TRY(device.submit([&](VkCommandBuffer cmd) {
    // Optional timestamps: a branch per pass when off.
    auto pass = [&](const char* name) {
      if (profiler) profiler->begin(cmd, name);
    };
    auto pass_end = [&] {
      if (profiler) profiler->end(cmd);
    };
    if (profiler) profiler->reset(cmd);
    pass("reset");
    frame_start_barrier(cmd);
    vkCmdUpdateBuffer(cmd, params_.handle(), 0, sizeof(params), &params);
    if (!commands.empty()) vkCmdUpdateBuffer(cmd, commands_.handle(), 0, commands.size() * 4, commands.data());
    // Run-time values (set_global, set_emitter_field): the changed rows' blocks and records,
    // from the host copies, ahead of every pass (a bound word among them is rewritten by the
    // bind pass below before anything reads it).
    if (values_dirty_) {
      for (uint32_t row = 0; row < rows_.size(); ++row) {
        const Row& r = rows_[row];
        if (!r.live) continue;
        if (r.fields_dirty && !r.fields.empty()) {
          update_buffer(cmd, program_, VkDeviceSize(r.record.fields_offset) * 4, r.fields.data(), r.fields.size() * 4);
          update_buffer(cmd, emitters_, VkDeviceSize(row) * sizeof(FrameEmitter), &r.record, sizeof(FrameEmitter));
        }
        if (r.globals_dirty && !r.globals.empty())
          update_buffer(cmd, program_, VkDeviceSize(r.record.globals_offset) * 4, r.globals.data(), r.globals.size() * 4);
      }
    }
    if (write_bindings && binding_count > 0)
      update_buffer(cmd, field_bindings_, 0, gpu_bindings_.rows.data(), size_t(binding_count) * sizeof(FrameFieldBinding));
    gpu::transfer_to_compute(cmd);
    // (0) the transforms' hierarchy pass: this frame's world poses and channels, composed before
    // anything of the frame reads them (emit and simulate, behind the barriers below; the reset's
    // own compute-to-compute barrier already orders them, this one says so where it matters).
    if (transforms) {
      transforms->record(cmd);
      gpu::compute_to_compute(cmd);
    }
    // (0b) field bindings: this frame's channels into the bound words of the program image. The
    // reset below touches other buffers, so the barrier after it orders both before the tick.
    if (bind_pass) {
      gpu::ComputeRecorder(device, cmd)
          .bind(field_bind_)
          .buffers({{0, &field_bindings_}, {1, &channels}, {2, &program_}})
          .push(FrameFieldBindPush{binding_count, 0u, 0u, 0u})
          .dispatch(std::min((binding_count + shader::kFrameWorkgroupSize - 1) / shader::kFrameWorkgroupSize,
                             shader::kFrameMaxGroups));
    }

    // (1) reset the counters, seed the budget; (2) the host's spawn commands into PENDING.
    gpu::ComputeRecorder(device, cmd)
        .bind(reset_)
        .buffers({{0, &params_}, {1, &counters_}, {2, &states_}, {3, &commands_}})
        .dispatch_threads(std::max(1u, params.command_count));
    gpu::compute_to_compute(cmd);
    pass_end();
    if (rows > 0) {
      pass("tick");
      // (3) emitter tick: spawn count per row under the budget.
      gpu::ComputeRecorder(device, cmd)
          .bind(tick_)
          .buffers({{0, &params_}, {1, &counters_}, {2, &emitters_}, {3, &states_}, {4, &spawn_counts_},
                    {5, &bursts_}})
          .dispatch_threads(rows);
      pass_end();
      pass("scan");
      // (4) inclusive scan of the counts: a row's batch ends at its sum.
      scan_status = scan_.record(cmd, spawn_counts_, spawn_sums_, ScanCount::host(rows), ScanKind::kInclusive);
      gpu::compute_to_compute(cmd);
      pass_end();
      pass("emit_args");
      gpu::ComputeRecorder(device, cmd)
          .bind(emit_args_)
          .buffers({{0, &params_}, {1, &counters_}, {2, &spawn_sums_}})
          .dispatch(1);
      gpu::compute_to_indirect(cmd);
      pass_end();
      pass("emit");
      // (5) emit, one dispatch per live program.
      for (uint32_t p : programs_) {
        const FramePush push{p, 0u, 0u, 0u};
        gpu::ComputeRecorder(device, cmd)
            .bind(emit_)
            .buffers({{0, &params_}, {1, &counters_}, {2, &emitters_}, {3, &states_}, {4, &spawn_sums_},
                      {5, &free_list_}, {6, &alive_out}, {7, &pool_}, {8, &program_}, {9, &channels}})
            .push(push)
            .dispatch_indirect(counters_, shader::kFrameEmitArgsOffset);
      }
      // Emit pops the free list; simulate pushes onto it.
      gpu::compute_to_compute(cmd);
      pass_end();
    }
    pass("simulate");
    // (6) simulate last frame's alive list, one dispatch per live program; the first frees the
    // orphans (it runs even with no live program, so removed emitters' particles still die).
    const std::vector<uint32_t> dispatches = programs_.empty() ? std::vector<uint32_t>{0xFFFFFFFFu} : programs_;
    for (size_t i = 0; i < dispatches.size(); ++i) {
      const FramePush push{dispatches[i], i == 0 ? 1u : 0u, 0u, 0u};
      gpu::ComputeRecorder(device, cmd)
          .bind(simulate_)
          .buffers({{0, &params_}, {1, &counters_}, {2, &emitters_}, {3, &states_}, {4, &alive_in},
                    {5, &free_list_}, {6, &alive_out}, {7, &pool_}, {8, &program_}, {9, &channels}})
          .push(push)
          .dispatch_indirect(counters_, shader::kFrameSimulateArgsOffset);
    }
    gpu::compute_to_compute(cmd);
    pass_end();
    pass("finish");
    // (7) next frame's simulate dispatch from this frame's alive count.
    gpu::ComputeRecorder(device, cmd).bind(finish_).buffers({{0, &counters_}}).dispatch(1);
    frame_end_barrier(cmd);
    pass_end();
  }));
  MOTE_TRY(scan_status);
  if (values_dirty_) {
    for (Row& r : rows_) r.fields_dirty = r.globals_dirty = false;
    values_dirty_ = false;
  }
  bindings_dirty_ = false;
  if (bind_pass) bindings_written_ = true;
  ++frame_;
  return ok_status();
}

Result<FrameStats> ParticleSystem::read_stats() {
  MOTE_TRY_ASSIGN(auto c, gpu::readback_as<FrameCounters>(*device_, counters_, 1));
  const FrameCounters& k = c[0];
  FrameStats s;
  s.alive = k.alive_out;
  s.previous_alive = k.alive_in;
  s.free_count = k.free_count;
  s.budget_left = k.budget;
  s.newborns = k.newborns;
  s.dropped = k.dropped;
  s.killed = k.killed;
  s.orphaned = k.orphaned;
  s.spawned_total = k.spawned_total;
  s.frames = k.frames;
  return s;
}

Result<std::vector<uint32_t>> ParticleSystem::read_alive_slots() {
  MOTE_TRY_ASSIGN(FrameStats s, read_stats());
  const gpu::Buffer& list = alive_[(frame_ + 1u) & 1u];  // the one the last frame wrote
  return gpu::readback_as<uint32_t>(*device_, list, std::min(s.alive, options_.capacity));
}

Result<std::vector<uint32_t>> ParticleSystem::read_free_slots() {
  MOTE_TRY_ASSIGN(FrameStats s, read_stats());
  return gpu::readback_as<uint32_t>(*device_, free_list_, std::min(s.free_count, options_.capacity));
}

Result<std::vector<uint32_t>> ParticleSystem::read_pool() {
  return gpu::readback_as<uint32_t>(*device_, pool_, size_t(options_.capacity) * options_.record_words);
}

Result<std::vector<FrameEmitterState>> ParticleSystem::read_emitter_states() {
  return gpu::readback_as<FrameEmitterState>(*device_, states_, rows_.size());
}

}  // namespace mote::runtime
