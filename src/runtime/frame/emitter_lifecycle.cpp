#include "runtime/frame/emitter_lifecycle.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <utility>

#include "isa/emitter_values.hpp"
#include "mote/link.hpp"
#include "mote/verifier.hpp"
#include "mote/vm.hpp"

namespace mote::runtime {

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

Status no_row(uint32_t row) {
  return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
}

}  // namespace

EmitterLifecycle::EmitterLifecycle(const ParticleSystemOptions& options, ProgramHeapOptions heap_options)
    : options_(options) {
  heap_ = std::make_unique<ProgramHeap>(std::move(heap_options));
  // Generations stay inside the particle header's bits, and a seed of 0 is a seed (as in the
  // reference simulation).
  registry_ = std::make_unique<EmitterRegistry>(*heap_, EmitterRegistryOptions{.max_generation =
                                                                                   shader::kFrameHeaderGenerationMask,
                                                                               .seed_from_generation = false});
  rows_.resize(options.max_emitters);
}

uint32_t EmitterLifecycle::generation(uint32_t row) const {
  const EmitterContext* c = registry_->context(row);
  return c ? c->generation : 0u;
}

uint32_t EmitterLifecycle::block_word(uint32_t row) const {
  return heap_->field_base() + heap_->field_block_offset(registry_->context(row)->field_block);
}

Result<EmitterLifecycle::Row> EmitterLifecycle::make_row(const CompiledEffect& effect,
                                                         const EmitterDesc& options) const {
  const Program& program = effect.program;
  if (vm_particle_record_words(program) > options_.record_words)
    return make_error(ErrorCode::kInvalidArgument, "the program's record does not fit the pool's stride");
  if (options_.serial_word != 0 && options_.serial_word < vm_particle_record_words(program))
    return make_error(ErrorCode::kInvalidArgument, "serial_word overlaps the program's fields");
  if (options.transform.row != kNoTransformRow) {
    if (transforms_ == nullptr)
      return make_error(ErrorCode::kInvalidArgument, "an emitter at a transform row needs set_transforms first");
    if (!transforms_->is_live(options.transform.row))
      return make_error(ErrorCode::kNotFound, "no live transform row " + std::to_string(options.transform.row));
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
    r.bursts[burst_count++] = shader::FrameBurst{b.time, b.count, b.cycles, b.interval};
  }
  Emitter& e = r.emitter;
  MOTE_TRY_ASSIGN(e.field_values, initial_emitter_fields(effect, options.fields));
  // The emitter's own copy of its globals, packed in import order: the previews, then the
  // system's values (set_global), then the overrides (as the reference).
  const std::vector<uint32_t> offsets = global_import_offsets(program);
  e.global_values = initial_global_values(effect);
  for (size_t i = 0; i < program.global_imports.size(); ++i) {
    const GlobalImport& g = program.global_imports[i];
    auto set = global_values_.find(g.name);
    if (set == global_values_.end()) continue;
    if (set->second.size() != g.width)
      return make_error(ErrorCode::kInvalidArgument, "global field '" + g.name + "' was set with " +
                                                         std::to_string(set->second.size()) +
                                                         " components; the effect reads " + std::to_string(g.width));
    for (uint32_t c = 0; c < g.width; ++c) e.global_values[offsets[i] + c] = std::bit_cast<uint32_t>(set->second[c]);
  }
  MOTE_TRY(apply_field_values(program.global_imports, options.globals, e.global_values, "global field"));
  // The code the heap places: linked to the emitter's own copies; verified for the pool's stride
  // here (the heap verifies the unlinked program, which knows no stride).
  MOTE_TRY_ASSIGN(const Program linked, link_globals(program, offsets));
  MOTE_TRY(verify_program(linked, {.linked = true,
                                   .global_field_words = uint32_t(e.global_values.size()),
                                   .record_words = options_.record_words}));
  MOTE_TRY(heap_->check(program));
  e.effect = effect;
  e.transform_row = options.transform.row;
  std::copy_n(options.position.begin(), 3, e.position);
  std::copy_n(options.rotation.begin(), 4, e.rotation);
  e.seed = options.seed;
  r.options = options;
  if (options.transform.row != kNoTransformRow) r.transform_generation = transforms_->generation(options.transform.row);
  return r;
}

void EmitterLifecycle::note_row_changed(uint32_t row) {
  dirty_rows_.include(row, row + 1);
  const size_t need = (size_t(row) + 1) * shader::kFrameMaxBursts;
  if (burst_table_.size() < need) burst_table_.resize(need, shader::FrameBurst{});
  const Row* r = rows_[row].get();
  for (uint32_t i = 0; i < shader::kFrameMaxBursts; ++i)
    burst_table_[size_t(row) * shader::kFrameMaxBursts + i] = r ? r->bursts[i] : shader::FrameBurst{};
}

void EmitterLifecycle::edited(uint32_t row) {
  ++rows_[row]->emitter.version;  // the next flush rewrites the block and restages the record
  dirty_rows_.include(row, row + 1);
}

Result<std::vector<uint32_t>> EmitterLifecycle::add_emitters(const CompiledEffect& effect,
                                                             std::span<const EmitterDesc> options) {
  if (registry_->live_count() + options.size() > options_.max_emitters)
    return make_error(ErrorCode::kOutOfMemory, "the emitter table is full");
  std::vector<std::unique_ptr<Row>> made;
  made.reserve(options.size());
  for (const EmitterDesc& o : options) {
    MOTE_TRY_ASSIGN(Row r, make_row(effect, o));
    made.push_back(std::make_unique<Row>(std::move(r)));
  }
  std::vector<uint32_t> placed;
  placed.reserve(options.size());
  for (std::unique_ptr<Row>& r : made) {
    Result<uint32_t> row = registry_->add(r->emitter);
    if (!row.ok() || *row >= options_.max_emitters) {
      for (uint32_t p : placed) {
        (void)registry_->remove(p);
        rows_[p].reset();
      }
      if (row.ok()) {
        (void)registry_->remove(*row);
        return make_error(ErrorCode::kInternal, "the registry handed out a row past max_emitters");
      }
      return row.take_error();
    }
    r->serial = next_serial_++;
    rows_[*row] = std::move(r);
    row_count_ = std::max(row_count_, *row + 1);
    note_row_changed(*row);
    placed.push_back(*row);
  }
  return placed;
}

Status EmitterLifecycle::remove_emitter(uint32_t row) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  MOTE_TRY(registry_->remove(row));
  rows_[row].reset();
  pending_bursts_.erase(row);
  note_row_changed(row);
  while (row_count_ > 0 && !registry_->is_live(row_count_ - 1)) --row_count_;
  return ok_status();
}

Status EmitterLifecycle::swap_effect(uint32_t row, const CompiledEffect& effect) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  Row& old = *rows_[row];
  EmitterDesc options = old.options;
  options.fields.clear();  // the old program's names: carried over below where they fit
  std::erase_if(options.globals, [&](const FieldValue& v) {
    for (const GlobalImport& g : effect.program.global_imports)
      if (g.name == v.name) return v.values.size() != 1 && v.values.size() != g.width;
    return true;
  });
  MOTE_TRY_ASSIGN(Row r, make_row(effect, options));
  // Fields both programs declare at one width keep the emitter's values.
  const Program& old_program = old.emitter.effect.program;
  uint32_t offset = 0;
  for (const FieldDecl& f : effect.program.emitter_fields) {
    if (auto from = find_emitter_field(old_program, f.name); from && from->second == f.width)
      std::copy_n(old.emitter.field_values.begin() + from->first, f.width, r.emitter.field_values.begin() + offset);
    offset += f.width;
  }
  // Acquire the new placement before the old one goes (a refusal leaves the row as it was), then
  // a new generation: the old particles die as orphans and the GPU state starts over.
  MOTE_TRY(registry_->set_program(row, effect.program));
  const uint64_t version = old.emitter.version;
  old.emitter.effect = std::move(r.emitter.effect);
  old.emitter.field_values = std::move(r.emitter.field_values);
  old.emitter.global_values = std::move(r.emitter.global_values);
  old.emitter.version = version + 1;  // the block is rewritten from the new values
  std::copy_n(r.bursts, shader::kFrameMaxBursts, old.bursts);
  MOTE_TRY(registry_->renew_generation(row));
  note_row_changed(row);
  return ok_status();
}

Status EmitterLifecycle::burst(uint32_t row, uint32_t count) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  uint32_t& pending = pending_bursts_[row];
  pending = uint32_t(std::min<uint64_t>(uint64_t(pending) + count, 0xFFFFFFFFu));
  return ok_status();
}

Status EmitterLifecycle::set_global(std::string_view name, std::span<const float> values) {
  if (values.empty() || values.size() > 4)
    return make_error(ErrorCode::kInvalidArgument, "global field '" + std::string(name) + "': 1 to 4 values, " +
                                                       std::to_string(values.size()) + " given");
  for (uint32_t row = 0; row < row_count_; ++row) {
    if (!rows_[row]) continue;
    for (const GlobalImport& g : rows_[row]->emitter.effect.program.global_imports)
      if (g.name == name && g.width != values.size())
        return make_error(ErrorCode::kInvalidArgument, "global field '" + g.name + "' is read with " +
                                                           std::to_string(g.width) +
                                                           " components by the emitter at row " + std::to_string(row) +
                                                           ", " + std::to_string(values.size()) + " given");
  }
  set_system_global(name, values);
  write_global_to_readers(name, values);
  return ok_status();
}

void EmitterLifecycle::set_system_global(std::string_view name, std::span<const float> values) {
  global_values_.insert_or_assign(std::string(name), std::vector<float>(values.begin(), values.end()));
}

const std::vector<float>* EmitterLifecycle::system_global(std::string_view name) const {
  auto it = global_values_.find(name);
  return it == global_values_.end() ? nullptr : &it->second;
}

void EmitterLifecycle::write_global_to_readers(std::string_view global, std::span<const float> values) {
  for (uint32_t row = 0; row < row_count_; ++row) {
    if (!rows_[row]) continue;
    Emitter& e = rows_[row]->emitter;
    uint32_t offset = 0;
    for (const GlobalImport& g : e.effect.program.global_imports) {
      if (g.name == global) {
        for (uint32_t c = 0; c < g.width && c < values.size(); ++c)
          e.global_values[offset + c] = std::bit_cast<uint32_t>(values[c]);
        edited(row);
      }
      offset += g.width;
    }
  }
}

Status EmitterLifecycle::check_emitter_field(uint32_t row, std::string_view name, size_t value_count) const {
  if (!is_live(row)) return no_row(row);
  const auto field = find_emitter_field(rows_[row]->emitter.effect.program, name);
  if (!field)
    return make_error(ErrorCode::kNotFound, "the emitter at row " + std::to_string(row) +
                                                " has no emitter field named '" + std::string(name) + "'");
  if (value_count != 1 && value_count != field->second)
    return make_error(ErrorCode::kInvalidArgument, "emitter field '" + std::string(name) + "' has " +
                                                       std::to_string(field->second) + " components, " +
                                                       std::to_string(value_count) + " given");
  return ok_status();
}

Status EmitterLifecycle::set_emitter_field(uint32_t row, std::string_view name, std::span<const float> values) {
  MOTE_TRY(check_emitter_field(row, name, values.size()));
  Row& r = *rows_[row];
  const auto [offset, width] = *find_emitter_field(r.emitter.effect.program, name);
  for (uint32_t c = 0; c < width; ++c)
    r.emitter.field_values[offset + c] = std::bit_cast<uint32_t>(values.size() == 1 ? values[0] : values[c]);
  // The registry rewrites the block and restages the record (a width-1 field "rate" is the
  // record's spawn rate: write_emitter_record's rule).
  edited(row);
  return ok_status();
}

void EmitterLifecycle::take_bound_value(uint32_t row, uint64_t serial, bool global, std::string_view name,
                                        std::span<const uint32_t> value) {
  Row* r = row < rows_.size() ? rows_[row].get() : nullptr;
  if (r == nullptr || r->serial != serial) return;  // removed or re-added since the binding
  Emitter& e = r->emitter;
  const uint32_t width = uint32_t(value.size());
  if (global) {
    const std::vector<uint32_t> offsets = global_import_offsets(e.effect.program);
    for (size_t g = 0; g < offsets.size(); ++g)
      if (e.effect.program.global_imports[g].name == name && e.effect.program.global_imports[g].width == width)
        std::copy_n(value.begin(), width, e.global_values.begin() + offsets[g]);
  } else if (auto f = find_emitter_field(e.effect.program, name); f && f->second == width) {
    std::copy_n(value.begin(), width, e.field_values.begin() + f->first);
  }
  edited(row);
}

Result<bool> EmitterLifecycle::flush() {
  // Once a frame, after a change (the flush walks every row): the set-up paths and run-time
  // values only edit emitters and note their rows, so adding emitters one at a time stays O(1).
  if (dirty_rows_.empty()) return false;
  const FlushReport report = registry_->flush();
  if (report.relocated) dirty_rows_.include(0, registry_->row_capacity());
  if (report.refused > 0)  // every program is checked before the registry sees it
    return make_error(ErrorCode::kInternal, "the program heap refused a program the frame had accepted");
  return report.relocated;
}

std::vector<uint32_t> EmitterLifecycle::take_commands() {
  std::vector<uint32_t> commands;
  for (const auto& [row, count] : pending_bursts_) {
    if (commands.size() / 2 >= shader::kFrameMaxCommands) break;
    commands.push_back(row);
    commands.push_back(count);
  }
  pending_bursts_.clear();
  return commands;
}

Status EmitterLifecycle::check_transform_row_unused(uint32_t transform_row) const {
  for (uint32_t row = 0; row < row_count_; ++row)
    if (rows_[row] && rows_[row]->emitter.transform_row == transform_row)
      return make_error(ErrorCode::kInvalidArgument, "transform row " + std::to_string(transform_row) +
                                                         " is where the emitter at row " + std::to_string(row) +
                                                         " stands: remove or move the emitter first");
  return ok_status();
}

Status EmitterLifecycle::check_transform_references(const TransformTable& table) const {
  for (uint32_t row = 0; row < row_count_; ++row) {
    const Row* r = rows_[row].get();
    if (!r || r->emitter.transform_row == kNoTransformRow) continue;
    const uint32_t at = r->emitter.transform_row;
    if (!table.is_live(at) || table.generation(at) != r->transform_generation)
      return make_error(ErrorCode::kInvalidArgument,
                        "transform row " + std::to_string(at) + " was removed while the emitter at row " +
                            std::to_string(row) + " used it; the frame did not run (remove, move or unbind first)");
  }
  return ok_status();
}

bool EmitterLifecycle::any_at_transform() const {
  for (uint32_t row = 0; row < row_count_; ++row)
    if (rows_[row] && rows_[row]->emitter.transform_row != kNoTransformRow) return true;
  return false;
}

}  // namespace mote::runtime
