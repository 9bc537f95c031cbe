#include "runtime/bookkeeping/program_heap.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>

#include "mote/link.hpp"
#include "mote/verifier.hpp"

namespace mote::runtime {
namespace {

uint32_t round_up4(uint64_t words) { return uint32_t((words + 3) & ~uint64_t(3)); }

// A program's own packing of its imports (per_emitter_globals): import i at the sum of the
// widths before it.
std::vector<uint32_t> own_import_offsets(const Program& program) {
  std::vector<uint32_t> offsets;
  offsets.reserve(program.global_imports.size());
  uint32_t words = 0;
  for (const GlobalImport& g : program.global_imports) {
    offsets.push_back(words);
    words += g.width;
  }
  return offsets;
}

uint32_t import_words(const Program& program) {
  uint32_t words = 0;
  for (const GlobalImport& g : program.global_imports) words += g.width;
  return words;
}

}  // namespace

ProgramHeap::ProgramHeap(const ProgramHeapOptions& options)
    : per_emitter_globals_(options.per_emitter_globals),
      encode_section_(options.encode_section),
      global_words_(options.per_emitter_globals ? 0 : options.global_field_words),
      globals_(options.per_emitter_globals ? 0 : options.global_field_words),
      constants_(round_up4(options.initial_constant_words)),
      code_(round_up4(options.initial_code_words)),
      fields_(round_up4(uint64_t(global_words_) + options.initial_field_block_words)) {
  // The global words are the field section's first allocation: at offset 0 nothing precedes
  // them, so a compaction never moves them and a linked program's offsets stay true.
  if (global_words_ > 0) (void)fields_.allocate(global_words_);
  rebuild_image();
}

OffsetAllocator& ProgramHeap::allocator(Part part) {
  return part == Part::kConstants ? constants_ : part == Part::kCode ? code_ : fields_;
}

uint32_t ProgramHeap::base(Part part) const {
  return part == Part::kConstants ? constants_base() : part == Part::kCode ? code_base() : field_base();
}

void ProgramHeap::mark(Part part, uint32_t first, uint32_t last) {
  const uint32_t b = base(part);
  dirty_.include(b + first, b + last);
  changes_.written[uint32_t(part)].include(first, last);
}

Status ProgramHeap::check(const Program& program) const {
  if (!per_emitter_globals_) return globals_.check(program.global_imports);
  // Each emitter's own copy: the imports must fit an empty layout of the whole budget.
  return GlobalFieldLayout(shader::kVmMaxGlobalFieldWords).check(program.global_imports);
}

uint32_t ProgramHeap::emitter_block_words(const Program& program) const {
  return program.emitter_field_words() + (per_emitter_globals_ ? import_words(program) : 0u);
}

void ProgramHeap::write_header() {
  using namespace shader;
  const uint32_t constants_base = kHeapHeaderWords;
  const uint32_t code_base = constants_base + constants_.capacity();
  const uint32_t field_base = code_base + code_.capacity();
  image_[kHeapWordConstantsBase] = constants_base;
  image_[kHeapWordCodeBase] = code_base;
  image_[kHeapWordFieldBase] = field_base;
  image_[kHeapWordConstantsCapacity] = constants_.capacity();
  image_[kHeapWordCodeCapacity] = code_.capacity();
  image_[kHeapWordFieldCapacity] = fields_.capacity();
  image_[kHeapWordGlobalWords] = global_words_;
  image_[kHeapWordPlacementVersion] = uint32_t(placement_version_);
  dirty_.include(0, kHeapHeaderWords);
  changes_.header = true;
}

void ProgramHeap::rebuild_image() {
  using namespace shader;
  std::vector<uint32_t> next(size_t(kHeapHeaderWords) + constants_.capacity() + code_.capacity() + fields_.capacity(),
                             0u);
  if (!image_.empty()) {
    // Copy each section from where the old header says it was to where the new one puts it.
    const uint32_t new_bases[3] = {kHeapHeaderWords, kHeapHeaderWords + constants_.capacity(),
                                   kHeapHeaderWords + constants_.capacity() + code_.capacity()};
    for (uint32_t s = 0; s < 3; ++s) {
      const uint32_t old_base = image_[kHeapWordConstantsBase + s];
      const uint32_t old_capacity = image_[kHeapWordConstantsCapacity + s];
      std::copy_n(image_.begin() + old_base, old_capacity, next.begin() + new_bases[s]);
    }
  }
  image_ = std::move(next);
  write_header();
  // Growth moves bases, not contents: dirty() covers everything (a whole-image upload), the
  // per-section changes only the header (an owner moves its copy's sections itself).
  dirty_.include(0, uint32_t(image_.size()));
}

void ProgramHeap::repack(Part part) {
  OffsetAllocator& alloc = allocator(part);
  const std::vector<OffsetAllocator::Move> moves = alloc.compact();
  if (moves.empty()) return;
  const uint32_t b = base(part);
  // Ascending moves, each down into vacated space: a forward copy is overlap-safe.
  for (const OffsetAllocator::Move& m : moves)
    std::copy_n(image_.begin() + b + m.from, m.size, image_.begin() + b + m.to);
  std::fill(image_.begin() + b + alloc.used(), image_.begin() + b + alloc.capacity(), 0u);
  dirty_.include(b, b + alloc.capacity());
  changes_.written[uint32_t(part)].include(0, alloc.used());
  changes_.zeroed[uint32_t(part)].include(alloc.used(), alloc.capacity());

  std::unordered_map<uint32_t, uint32_t> moved;
  moved.reserve(moves.size());
  for (const OffsetAllocator::Move& m : moves) moved.emplace(m.from, m.to);
  auto relocate = [&](uint32_t& offset) {
    auto it = moved.find(offset);
    if (it == moved.end()) return false;
    offset = it->second;
    return true;
  };
  if (part == Part::kFields) {
    for (Block& block : blocks_)
      if (block.live && block.words > 0) relocate(block.offset);
  } else {
    for (Slot& slot : slots_) {
      if (slot.refs == 0) continue;
      Placement& p = slot.placement;
      if (part == Part::kConstants) {
        if (p.constants_length > 0) relocate(p.constants_offset);
      } else if (p.init_length + p.update_length > 0 && relocate(p.init_offset)) {
        p.update_offset = p.init_offset + p.init_length;
      }
    }
  }
  ++placement_version_;
  ++repack_count_;
  write_header();
}

void ProgramHeap::grow(Part part, uint32_t min_capacity) {
  OffsetAllocator& alloc = allocator(part);
  const uint32_t target = round_up4(std::max<uint64_t>(min_capacity, uint64_t(alloc.capacity()) * 2));
  (void)alloc.grow(target);  // target > capacity: cannot fail
  rebuild_image();
}

void ProgramHeap::make_room(Part part, uint32_t size) {
  OffsetAllocator& alloc = allocator(part);
  if (alloc.largest_free() >= size) return;
  // Compact first: a section that has the words but not in one run needs no growth, and
  // growth after a compaction leaves the new words contiguous with the free tail.
  repack(part);
  if (alloc.largest_free() < size) grow(part, alloc.used() + size);
}

Result<ProgramHandle> ProgramHeap::acquire(const Program& program) {
  if (auto it = by_program_.find(program); it != by_program_.end()) {
    ++slots_[it->second].refs;
    return ProgramHandle{it->second};
  }
  // Everything that can refuse runs before anything is claimed.
  MOTE_TRY(verify_program(program));
  MOTE_TRY(check(program));

  const uint32_t constant_words = uint32_t(program.constants.size());

  std::vector<uint32_t> offsets;
  if (per_emitter_globals_) {
    offsets = own_import_offsets(program);
  } else {
    MOTE_TRY_ASSIGN(offsets, globals_.declare_imports(program.global_imports));
  }
  Result<Program> linked = link_globals(program, offsets);
  if (!linked.ok())  // the verifier already checked every import index
    return make_error(ErrorCode::kInternal, "linking a verified program failed: " + linked.error().to_string());

  // The sections as the GPU reads them.
  std::vector<uint32_t> section_words[2];
  for (Section section : {Section::kInit, Section::kUpdate}) {
    std::vector<uint32_t>& words = section_words[section == Section::kInit ? 0 : 1];
    if (encode_section_) {
      words = encode_section_(*linked, section);
    } else {
      for (const Instruction& inst : linked->code(section))
        words.insert(words.end(), inst.words.begin(), inst.words.end());
    }
  }
  const uint32_t init_words = uint32_t(section_words[0].size());
  const uint32_t update_words = uint32_t(section_words[1].size());
  const uint32_t code_words = init_words + update_words;

  Placement placement;
  if (constant_words > 0) {
    make_room(Part::kConstants, constant_words);
    placement.constants_offset = *constants_.allocate(constant_words);
    placement.constants_length = constant_words;
    const uint32_t at = constants_base() + placement.constants_offset;
    std::copy(program.constants.begin(), program.constants.end(), image_.begin() + at);
    mark(Part::kConstants, placement.constants_offset, placement.constants_offset + constant_words);
  }
  if (code_words > 0) {
    make_room(Part::kCode, code_words);
    const uint32_t offset = *code_.allocate(code_words);
    placement.init_offset = offset;
    placement.init_length = init_words;
    placement.update_offset = offset + init_words;
    placement.update_length = update_words;
    uint32_t at = code_base() + offset;
    for (const std::vector<uint32_t>& words : section_words) {
      std::copy(words.begin(), words.end(), image_.begin() + at);
      at += uint32_t(words.size());
    }
    mark(Part::kCode, offset, offset + code_words);
  }

  uint32_t id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
  } else {
    id = uint32_t(slots_.size());
    slots_.emplace_back();
  }
  placement.program_id = id;
  auto [it, inserted] = by_program_.emplace(program, id);
  Slot& slot = slots_[id];
  slot.key = &it->first;
  slot.refs = 1;
  slot.placement = placement;
  slot.linked = std::move(linked).value();
  return ProgramHandle{id};
}

Status ProgramHeap::release(ProgramHandle handle) {
  if (!is_live(handle))
    return make_error(ErrorCode::kInvalidArgument, "program id " + std::to_string(handle.id) + " is not live");
  Slot& slot = slots_[handle.id];
  if (--slot.refs > 0) return ok_status();
  const Placement& p = slot.placement;
  if (p.constants_length > 0) MOTE_TRY(constants_.free(p.constants_offset));
  if (p.init_length + p.update_length > 0) MOTE_TRY(code_.free(p.init_offset));
  by_program_.erase(*slot.key);
  slot = Slot{};
  free_ids_.push_back(handle.id);
  return ok_status();
}

uint32_t ProgramHeap::max_register_count() const {
  uint32_t most = 0;
  for (const Slot& slot : slots_)
    if (slot.refs > 0) most = std::max(most, slot.key->register_count);
  return most;
}

Result<FieldBlockHandle> ProgramHeap::allocate_field_block(uint32_t words) {
  // With per_emitter_globals a block also holds the emitter's copy of its imports.
  const uint32_t limit = shader::kVmMaxEmitterFieldWords + (per_emitter_globals_ ? shader::kVmMaxGlobalFieldWords : 0u);
  if (words > limit)
    return make_error(ErrorCode::kInvalidArgument,
                      "a field block of " + std::to_string(words) + " words exceeds " + std::to_string(limit));
  Block block{0, words, true};
  if (words > 0) {
    make_room(Part::kFields, words);
    block.offset = *fields_.allocate(words);
    // Freed words are not cleared, so a new block starts from zero here.
    const uint32_t at = field_base() + block.offset;
    std::fill_n(image_.begin() + at, words, 0u);
    mark(Part::kFields, block.offset, block.offset + words);
  }
  uint32_t id;
  if (!free_blocks_.empty()) {
    id = free_blocks_.back();
    free_blocks_.pop_back();
    blocks_[id] = block;
  } else {
    id = uint32_t(blocks_.size());
    blocks_.push_back(block);
  }
  return FieldBlockHandle{id};
}

Status ProgramHeap::free_field_block(FieldBlockHandle handle) {
  if (handle.id >= blocks_.size() || !blocks_[handle.id].live)
    return make_error(ErrorCode::kInvalidArgument, "field block " + std::to_string(handle.id) + " is not live");
  Block& block = blocks_[handle.id];
  if (block.words > 0) MOTE_TRY(fields_.free(block.offset));
  block = Block{};
  free_blocks_.push_back(handle.id);
  return ok_status();
}

Status ProgramHeap::write_field_block(FieldBlockHandle handle, std::span<const uint32_t> values) {
  if (handle.id >= blocks_.size() || !blocks_[handle.id].live)
    return make_error(ErrorCode::kInvalidArgument, "field block " + std::to_string(handle.id) + " is not live");
  const Block& block = blocks_[handle.id];
  if (values.size() != block.words)
    return make_error(ErrorCode::kInvalidArgument, std::to_string(values.size()) + " values for a block of " +
                                                       std::to_string(block.words) + " words");
  if (block.words == 0) return ok_status();
  const uint32_t at = field_base() + block.offset;
  std::copy(values.begin(), values.end(), image_.begin() + at);
  mark(Part::kFields, block.offset, block.offset + block.words);
  return ok_status();
}

Result<uint32_t> ProgramHeap::declare_global(std::string_view name, uint32_t width) {
  if (per_emitter_globals_)
    return make_error(ErrorCode::kUnsupported, "the heap keeps no shared globals (per_emitter_globals)");
  return globals_.declare(name, width);  // declared words are already zero in the image
}

Status ProgramHeap::set_global(std::string_view name, std::span<const uint32_t> values) {
  if (per_emitter_globals_)
    return make_error(ErrorCode::kUnsupported, "the heap keeps no shared globals (per_emitter_globals)");
  MOTE_TRY(globals_.set(name, values));
  const GlobalField* f = globals_.find(name);
  const uint32_t at = field_base() + f->offset;
  std::copy(values.begin(), values.end(), image_.begin() + at);
  mark(Part::kFields, f->offset, f->offset + f->width);
  return ok_status();
}

}  // namespace mote::runtime
