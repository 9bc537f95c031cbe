#include "runtime/bookkeeping/emitter_registry.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

namespace mote::runtime {
namespace {

uint32_t projection_index(std::string_view projection) {
  constexpr std::string_view kNames[] = {"billboard",    "stretched", "vertical", "horizontal",
                                         "facing_world", "mesh",      "ribbon"};
  for (uint32_t i = 0; i < std::size(kNames); ++i)
    if (projection == kNames[i]) return i;
  return 0;
}

// The record word of particle field `name` when the program declares it `width` wide, else 0
// (unbound): the words the renderer draws with (render/draw_records.cpp resolves the same names
// and reports the mistakes; the bounds only need to know what is drawn).
uint32_t drawn_field_word(const Program& program, const std::string& name, uint32_t width) {
  for (const FieldDecl& f : program.particle_fields)
    if (f.name == name && f.width == width) return program.particle_field_offset(name).value_or(0u);
  return 0u;
}

// The bounds pass's view of an emitter: where its particles' drawn position, size and velocity
// lie, and how far the drawn shape reaches per unit of size — a quad's corners at (+-0.5, +-0.5)
// size, turned by rotations, reach 0.5 * sqrt(1 + stretch^2) size; the unit box mesh its
// half-diagonal sqrt(3)/2, the unit sphere 0.5; a glTF mesh's extent is the renderer's, so its
// box is published as unknown (reach 0: never culled, docs/design/runtime_frame.md, "Bounds").
void write_bounds_binding(shader::EmitterRecord& record, const Program& program, const RenderSettings& render) {
  record.bounds_position_word = drawn_field_word(program, render.position_field, 3);
  record.bounds_size_word = drawn_field_word(program, render.size_field, 1);
  record.bounds_velocity_word = drawn_field_word(program, render.velocity_field, 3);
  if (render.projection != "mesh") {
    record.bounds_reach = 0.5f;
  } else if (render.mesh == "box") {
    record.bounds_reach = 0.8660254f;  // sqrt(3) / 2
  } else if (render.mesh == "sphere") {
    record.bounds_reach = 0.5f;
  } else {
    record.bounds_reach = 0.0f;
  }
}

// v' = v + w t + q x t, t = 2 (q x v): the VM's QROTATE, as the reference simulation turns the
// emitter's +Z and +Y. Unfused, as the CPU executors compute it.
shader::vec4 rotate(const float q[4], float vx, float vy, float vz) {
  const float tx = 2.0f * (q[1] * vz - q[2] * vy);
  const float ty = 2.0f * (q[2] * vx - q[0] * vz);
  const float tz = 2.0f * (q[0] * vy - q[1] * vx);
  return {vx + q[3] * tx + (q[1] * tz - q[2] * ty), vy + q[3] * ty + (q[2] * tx - q[0] * tz),
          vz + q[3] * tz + (q[0] * ty - q[1] * tx), 0.0f};
}

}  // namespace

void write_emitter_record(shader::EmitterRecord& record, const Emitter& emitter, const EmitterContext& context,
                          const ProgramHeap& heap, bool seed_from_generation) {
  const Placement& p = heap.placement(context.program);
  const Program& program = heap.program(context.program);
  const RenderSettings& render = emitter.effect.render;
  record.position = {emitter.position[0], emitter.position[1], emitter.position[2], 0.0f};
  record.rotation = {emitter.rotation[0], emitter.rotation[1], emitter.rotation[2], emitter.rotation[3]};
  record.direction = rotate(emitter.rotation, 0.0f, 0.0f, 1.0f);
  record.up = rotate(emitter.rotation, 0.0f, 1.0f, 0.0f);
  record.program_id = p.program_id;
  record.constants_offset = p.constants_offset;
  record.constants_length = p.constants_length;
  record.init_offset = p.init_offset;
  record.init_length = p.init_length;
  record.update_offset = p.update_offset;
  record.update_length = p.update_length;
  const uint32_t block = heap.field_block_offset(context.field_block);
  const uint32_t field_words = program.emitter_field_words();
  record.field_offset = block;
  record.field_words = field_words;
  if (heap.per_emitter_globals()) {
    record.global_offset = block + field_words;
    record.global_words = heap.field_block_words(context.field_block) - field_words;
  } else {
    record.global_offset = 0;  // the shared global words open the field section
    record.global_words = heap.global_field_words();
  }
  record.seed = emitter.seed != 0 || !seed_from_generation ? emitter.seed : context.generation;
  // A width-1 emitter field named "rate" is the emitter's rate (the author edits it per
  // emitter); otherwise the effect's.
  record.spawn_rate = emitter.effect.emission.rate;
  if (const auto rate = program.emitter_field_offset("rate"))
    for (const FieldDecl& f : program.emitter_fields)
      if (f.name == "rate" && f.width == 1)
        record.spawn_rate = std::bit_cast<float>(heap.image()[heap.field_base() + block + *rate]);
  record.transform_row = emitter.transform_row;
  record.generation = context.generation;
  uint32_t flags = shader::kEmitterFlagLive;
  if (render.soft) flags |= shader::kEmitterFlagSoft;
  if (render.lit) flags |= shader::kEmitterFlagLit;
  if (render.blend == "additive") flags |= shader::kEmitterFlagAdditive;
  if (render.flipbook_blend) flags |= shader::kEmitterFlagFlipbookBlend;
  if (emitter.effect.emission.cull) flags |= shader::kEmitterFlagCull;
  flags |= (projection_index(render.projection) << shader::kEmitterFlagProjectionShift) &
           shader::kEmitterFlagProjectionMask;
  flags |= emitter.control_flags & shader::kEmitterControlFlags;
  record.flags = flags;
  record.capacity_hint = emitter.effect.emission.capacity_hint;
  record.register_count = program.register_count;
  record.record_words = program.particle_record_words();
  write_bounds_binding(record, program, render);
  record.cull_catchup_seconds = emitter.effect.emission.max_catchup_seconds;
}

EmitterRegistry::EmitterRegistry(ProgramHeap& heap, const EmitterRegistryOptions& options)
    : heap_(heap),
      options_(options),
      zeros_(shader::kVmMaxEmitterFieldWords + shader::kVmMaxGlobalFieldWords, 0u),
      block_(shader::kVmMaxEmitterFieldWords + shader::kVmMaxGlobalFieldWords, 0u),
      next_generation_(options.first_generation == 0 ? 1 : options.first_generation),
      staged_placement_version_(heap.placement_version()) {
  if (options_.max_generation == 0) options_.max_generation = UINT32_MAX;
  if (next_generation_ > options_.max_generation) next_generation_ = 1;
}

uint32_t EmitterRegistry::take_generation() {
  const uint32_t generation = next_generation_;
  // 0 marks a free row to the GPU (a zero-filled record), so the counter skips it on wrap.
  next_generation_ = next_generation_ >= options_.max_generation ? 1 : next_generation_ + 1;
  return generation;
}

std::span<const uint32_t> EmitterRegistry::field_values_for(const Emitter& emitter, uint32_t words) const {
  if (emitter.field_values.size() == words) return emitter.field_values;
  if (emitter.effect.emitter_defaults.size() == words) return emitter.effect.emitter_defaults;
  return std::span<const uint32_t>(zeros_).first(words);
}

void EmitterRegistry::write_block(const Emitter& emitter, FieldBlockHandle block, const Program& program) {
  const uint32_t field_words = program.emitter_field_words();
  const uint32_t words = heap_.field_block_words(block);
  if (words == field_words) {
    (void)heap_.write_field_block(block, field_values_for(emitter, field_words));
    return;
  }
  // Per-emitter globals: the copies follow the fields in the same block.
  const std::span<const uint32_t> fields = field_values_for(emitter, field_words);
  std::copy(fields.begin(), fields.end(), block_.begin());
  const uint32_t global_words = words - field_words;
  const std::span<const uint32_t> globals = emitter.global_values.size() == global_words
                                                ? std::span<const uint32_t>(emitter.global_values)
                                                : std::span<const uint32_t>(zeros_).first(global_words);
  std::copy(globals.begin(), globals.end(), block_.begin() + field_words);
  (void)heap_.write_field_block(block, std::span<const uint32_t>(block_).first(words));
}

Result<uint32_t> EmitterRegistry::add(Emitter& emitter) {
  const Program& program = emitter.effect.program;
  MOTE_TRY_ASSIGN(const ProgramHandle handle, heap_.acquire(program));
  const uint32_t words = heap_.emitter_block_words(program);
  Result<FieldBlockHandle> block = heap_.allocate_field_block(words);
  if (!block.ok()) {
    (void)heap_.release(handle);
    return block.take_error();
  }
  write_block(emitter, *block, program);

  uint32_t row;
  if (!free_rows_.empty()) {
    std::pop_heap(free_rows_.begin(), free_rows_.end(), std::greater<>());
    row = free_rows_.back();
    free_rows_.pop_back();
  } else {
    row = uint32_t(rows_.size());
    rows_.emplace_back();
    table_.resize(table_.size() + shader::kEmitterRecordWords, 0u);
  }
  Row& r = rows_[row];
  r.emitter = &emitter;
  r.context = EmitterContext{};
  r.context.row = row;
  r.context.generation = take_generation();
  r.context.program = handle;
  r.context.field_block = *block;
  r.context.transform_row = emitter.transform_row;
  r.context.staged_version = emitter.version;
  r.context.needs_stage = true;
  ++live_;
  return row;
}

Status EmitterRegistry::remove(uint32_t row) {
  if (!is_live(row)) return make_error(ErrorCode::kInvalidArgument, "row " + std::to_string(row) + " is not live");
  Row& r = rows_[row];
  MOTE_TRY(heap_.release(r.context.program));
  MOTE_TRY(heap_.free_field_block(r.context.field_block));
  r = Row{};
  const uint32_t at = row * shader::kEmitterRecordWords;
  std::fill_n(table_.begin() + at, shader::kEmitterRecordWords, 0u);
  pending_rows_.include(row, row + 1);
  free_rows_.push_back(row);
  std::push_heap(free_rows_.begin(), free_rows_.end(), std::greater<>());
  --live_;
  return ok_status();
}

Status EmitterRegistry::renew_generation(uint32_t row) {
  if (!is_live(row)) return make_error(ErrorCode::kInvalidArgument, "row " + std::to_string(row) + " is not live");
  rows_[row].context.generation = take_generation();
  rows_[row].context.needs_stage = true;
  return ok_status();
}

Status EmitterRegistry::swap_program(Row& row, const Program& program) {
  EmitterContext& ctx = row.context;
  // Acquire before release: when both are one program's neighbours the old one must not be
  // unpacked and repacked under us, and a refusal must leave the emitter as it was.
  MOTE_TRY_ASSIGN(const ProgramHandle handle, heap_.acquire(program));
  const uint32_t words = heap_.emitter_block_words(program);
  if (words != heap_.field_block_words(ctx.field_block)) {
    Result<FieldBlockHandle> block = heap_.allocate_field_block(words);
    if (!block.ok()) {
      (void)heap_.release(handle);
      return block.take_error();
    }
    (void)heap_.free_field_block(ctx.field_block);
    ctx.field_block = *block;
  }
  (void)heap_.release(ctx.program);
  ctx.program = handle;
  ctx.has_refused = false;
  ctx.needs_stage = true;
  return ok_status();
}

Status EmitterRegistry::set_program(uint32_t row, const Program& program) {
  if (!is_live(row)) return make_error(ErrorCode::kInvalidArgument, "row " + std::to_string(row) + " is not live");
  Row& r = rows_[row];
  if (heap_.program(r.context.program) == program) return ok_status();
  MOTE_TRY(swap_program(r, program));
  r.emitter->effect.program = program;  // so the next flush does not swap it back
  write_block(*r.emitter, r.context.field_block, program);
  return ok_status();
}

void EmitterRegistry::reconcile(Row& row, FlushReport& report) {
  EmitterContext& ctx = row.context;
  const Program& wanted = row.emitter->effect.program;
  if (!(heap_.program(ctx.program) == wanted)) {
    const uint64_t hash = wanted.hash();
    if (ctx.has_refused && ctx.refused_hash == hash) return;  // refused before and unchanged
    if (!swap_program(row, wanted).ok()) {
      // Keep the old program with its own layout: block, values and all.
      ctx.has_refused = true;
      ctx.refused_hash = hash;
      ++report.refused;
      return;
    }
  } else {
    ctx.has_refused = false;
  }
  write_block(*row.emitter, ctx.field_block, heap_.program(ctx.program));
  ctx.needs_stage = true;
}

void EmitterRegistry::stage(uint32_t row) {
  Row& r = rows_[row];
  write_emitter_record(staging_, *r.emitter, r.context, heap_, options_.seed_from_generation);
  static_assert(sizeof(staging_) == shader::kEmitterRecordWords * sizeof(uint32_t));
  std::memcpy(table_.data() + size_t(row) * shader::kEmitterRecordWords, &staging_, sizeof(staging_));
  r.context.staged_version = r.emitter->version;
  r.context.transform_row = r.emitter->transform_row;
  r.context.needs_stage = false;
}

FlushReport EmitterRegistry::flush() {
  FlushReport report;
  // Replacements first: acquiring one may repack and move other programs.
  for (Row& r : rows_)
    if (r.emitter != nullptr && r.emitter->version != r.context.staged_version) reconcile(r, report);
  report.relocated = heap_.placement_version() != staged_placement_version_;
  for (uint32_t row = 0; row < rows_.size(); ++row) {
    Row& r = rows_[row];
    if (r.emitter == nullptr) continue;
    const bool edited = r.emitter->version != r.context.staged_version;
    if (!(report.relocated || r.context.needs_stage || edited)) continue;
    stage(row);
    ++report.restaged;
    pending_rows_.include(row, row + 1);
  }
  staged_placement_version_ = heap_.placement_version();
  report.rows = pending_rows_;
  pending_rows_ = {};
  return report;
}

}  // namespace mote::runtime
