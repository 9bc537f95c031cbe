#include "mote/runtime/emitter_registry.hpp"

#include <bit>
#include <cstring>
#include <string>
#include <string_view>

namespace mote::runtime {
namespace {

uint32_t projection_index(std::string_view projection) {
  constexpr std::string_view kNames[] = {"billboard", "stretched", "vertical", "horizontal", "facing_world", "mesh"};
  for (uint32_t i = 0; i < std::size(kNames); ++i)
    if (projection == kNames[i]) return i;
  return 0;
}

}  // namespace

void write_emitter_record(shader::EmitterRecord& record, const Emitter& emitter, const EmitterContext& context,
                          const ProgramHeap& heap) {
  const Placement& p = heap.placement(context.program);
  const Program& program = heap.program(context.program);
  const RenderSettings& render = emitter.effect.render;
  record.program_id = p.program_id;
  record.constants_offset = p.constants_offset;
  record.init_offset = p.init_offset;
  record.init_length = p.init_length;
  record.update_offset = p.update_offset;
  record.update_length = p.update_length;
  record.field_offset = heap.field_block_offset(context.field_block);
  record.seed = emitter.seed != 0 ? emitter.seed : context.generation;
  record.spawn_rate = emitter.effect.emission.rate;
  record.transform_row = emitter.transform_row;
  record.generation = context.generation;
  uint32_t flags = shader::kEmitterFlagLive;
  if (render.soft) flags |= shader::kEmitterFlagSoft;
  if (render.lit) flags |= shader::kEmitterFlagLit;
  if (render.blend == "additive") flags |= shader::kEmitterFlagAdditive;
  if (render.flipbook_blend) flags |= shader::kEmitterFlagFlipbookBlend;
  flags |= (projection_index(render.projection) << shader::kEmitterFlagProjectionShift) &
           shader::kEmitterFlagProjectionMask;
  record.flags = flags;
  record.capacity_hint = emitter.effect.emission.capacity_hint;
  record.register_count = program.register_count;
  record.record_words = program.particle_record_words();
  record.pad0 = 0;
}

EmitterRegistry::EmitterRegistry(ProgramHeap& heap, const EmitterRegistryOptions& options)
    : heap_(heap),
      zeros_(shader::kVmMaxEmitterFieldWords, 0u),
      next_generation_(options.first_generation == 0 ? 1 : options.first_generation),
      staged_placement_version_(heap.placement_version()) {}

uint32_t EmitterRegistry::take_generation() {
  const uint32_t generation = next_generation_;
  // 0 marks a free row to the GPU (a zero-filled record), so the counter skips it on wrap.
  next_generation_ = next_generation_ == UINT32_MAX ? 1 : next_generation_ + 1;
  return generation;
}

std::span<const uint32_t> EmitterRegistry::field_values_for(const Emitter& emitter, uint32_t words) const {
  if (emitter.field_values.size() == words) return emitter.field_values;
  if (emitter.effect.emitter_defaults.size() == words) return emitter.effect.emitter_defaults;
  return std::span<const uint32_t>(zeros_).first(words);
}

Result<uint32_t> EmitterRegistry::add(Emitter& emitter) {
  const Program& program = emitter.effect.program;
  MOTE_TRY_ASSIGN(const ProgramHandle handle, heap_.acquire(program));
  const uint32_t words = program.emitter_field_words();
  Result<FieldBlockHandle> block = heap_.allocate_field_block(words);
  if (!block.ok()) {
    (void)heap_.release(handle);
    return block.take_error();
  }
  (void)heap_.write_field_block(*block, field_values_for(emitter, words));

  uint32_t row;
  if (!free_rows_.empty()) {
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
  --live_;
  return ok_status();
}

Status EmitterRegistry::swap_program(Row& row, const Program& program) {
  EmitterContext& ctx = row.context;
  // Acquire before release: when both are one program's neighbours the old one must not be
  // unpacked and repacked under us, and a refusal must leave the emitter as it was.
  MOTE_TRY_ASSIGN(const ProgramHandle handle, heap_.acquire(program));
  const uint32_t words = program.emitter_field_words();
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
  const uint32_t words = program.emitter_field_words();
  return heap_.write_field_block(r.context.field_block, field_values_for(*r.emitter, words));
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
  const uint32_t words = heap_.field_block_words(ctx.field_block);
  (void)heap_.write_field_block(ctx.field_block, field_values_for(*row.emitter, words));
  ctx.needs_stage = true;
}

void EmitterRegistry::stage(uint32_t row) {
  Row& r = rows_[row];
  write_emitter_record(staging_, *r.emitter, r.context, heap_);
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
