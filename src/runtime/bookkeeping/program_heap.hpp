// The packed program buffer: every live program's constants and code, the global field words
// and every emitter's field block, in one word image the GPU binds as one buffer
// (layout: shaders/shared/program_heap.h, docs/design/runtime_bookkeeping.md).
//
// Programs are deduplicated by content (Program's operator== and hash()) and reference
// counted: acquire() takes a reference, release() gives it back, and the last release frees
// the placement. Code is copied in LINKED form (global imports rewritten to the layout's
// offsets); the program the heap is keyed by stays unlinked, so dedup holds across scenes.
// Each section is an OffsetAllocator; a section with no contiguous run long enough is
// repacked (live ranges compacted) and grown only if that is not enough, so capacity only
// rises. Every move of a placement or field block bumps placement_version, which the
// emitter registry compares once per flush.
//
// Globals are linked one of two ways (ProgramHeapOptions::per_emitter_globals): into the one
// shared global section at the field base (GlobalFieldLayout), or into each
// emitter's own copy of its imports, packed in import order right after its emitter fields in
// its field block (the GPU frame's: per-emitter overrides of a global). Either way the code is
// keyed by the unlinked program, so two emitters of one effect share one placement.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "mote/program.hpp"
#include "mote/result.hpp"
#include "runtime/bookkeeping/global_fields.hpp"
#include "runtime/bookkeeping/offset_allocator.hpp"
#include "runtime/bookkeeping/word_ranges.hpp"
#include "runtime/bookkeeping/word_span.hpp"
#include "shared/program_heap.h"

namespace mote::runtime {

// A reference to a placed program: its id. Ids are reused after the last release and never
// renumbered, because emitter records (and the coherence buckets) carry them.
struct ProgramHandle {
  uint32_t id = UINT32_MAX;
  bool valid() const { return id != UINT32_MAX; }
  bool operator==(const ProgramHandle&) const = default;
};

// A field block: one emitter's words in the field section. The id is stable; the offset
// moves with a repack.
struct FieldBlockHandle {
  uint32_t id = UINT32_MAX;
  bool valid() const { return id != UINT32_MAX; }
  bool operator==(const FieldBlockHandle&) const = default;
};

// Where a program lies. Offsets are in words, relative to their section's base (constants:
// the constants section; init/update: the code section); lengths are in words (4 per
// instruction, 4 per constant vec4). A program's init and update code are one allocation,
// init first (update_offset = init_offset + init_length); a program with no constants or no
// code at all has offset 0 and length 0 there. The code lengths are those of the section's
// encoding (ProgramHeapOptions::encode_section): 4 words per instruction unless it says otherwise.
struct Placement {
  uint32_t program_id = 0;
  uint32_t constants_offset = 0;
  uint32_t constants_length = 0;
  uint32_t init_offset = 0;
  uint32_t init_length = 0;
  uint32_t update_offset = 0;
  uint32_t update_length = 0;
  bool operator==(const Placement&) const = default;
};

struct ProgramHeapOptions {
  uint32_t initial_constant_words = 256;
  uint32_t initial_code_words = 1024;
  uint32_t initial_field_block_words = 256;  // beyond the global words
  uint32_t global_field_words = shader::kVmMaxGlobalFieldWords;
  // Link every program to its own imports packed from word 0 (prefix sums of the widths), for
  // emitters that keep their own copy of the globals after their emitter fields; the shared
  // global section is then empty (global_field_words is taken as 0) and declare_global /
  // set_global are refused.
  bool per_emitter_globals = false;
  // The words the image holds for a section of a program (its linked form), for a GPU reader
  // that wants its code in another form than the instructions as written: the frame's fast
  // interpreter reads a fast-operand image (src/vm_gpu/fast_operands.hpp). Called once per
  // placement and must depend on nothing but its arguments, since placements are deduplicated
  // by the unlinked program; any length is allowed. Unset: the instructions' words, 4 each.
  std::function<std::vector<uint32_t>(const Program& linked, Section section)> encode_section;
};

// The heap's sections, in image order (HeapChanges indices).
enum class HeapSection : uint32_t { kConstants = 0, kCode = 1, kFields = 2 };
inline constexpr uint32_t kHeapSectionCount = 3;

// What changed in the image since ProgramHeap::clear_changes(), for an owner that keeps a copy
// of it (the GPU frame's program buffer). Ranges are relative to their section's base, so they
// stay true across growth, which moves bases and not contents: the owner moves each section of
// its copy to the new base itself (the header says where) and then writes these words. A repack
// marks the live part of its section written and its free tail zeroed; apply the zeroed ranges
// first, then copy the written ones from image() (which holds their current values).
struct HeapChanges {
  bool header = false;  // the header words (section bases, capacities, placement_version)
  WordRanges written[kHeapSectionCount];
  WordRanges zeroed[kHeapSectionCount];
  bool empty() const {
    if (header) return false;
    for (uint32_t s = 0; s < kHeapSectionCount; ++s)
      if (!written[s].empty() || !zeroed[s].empty()) return false;
    return true;
  }
};

class ProgramHeap {
 public:
  explicit ProgramHeap(const ProgramHeapOptions& options = {});

  // Places `program` (or takes another reference to its existing placement). Refused before
  // anything is claimed (no id, range or global declaration) when it fails verification
  // (kVerify) or the global layout cannot take its imports (GlobalFieldLayout::check).
  Result<ProgramHandle> acquire(const Program& program);
  // Gives a reference back; the last one frees the placement and the id.
  Status release(ProgramHandle handle);
  // Whether acquire() would refuse `program` on its imports (claims nothing).
  Status check(const Program& program) const;
  bool per_emitter_globals() const { return per_emitter_globals_; }
  // Words of the field block an emitter of `program` needs: its emitter fields, plus its own
  // global copies with per_emitter_globals.
  uint32_t emitter_block_words(const Program& program) const;

  const Placement& placement(ProgramHandle handle) const { return slots_[handle.id].placement; }
  const Program& program(ProgramHandle handle) const { return *slots_[handle.id].key; }
  // The program as its code stands in the image: global imports linked to their offsets (what a
  // compiled kernel must be translated from; program() is the unlinked key).
  const Program& linked_program(ProgramHandle handle) const { return slots_[handle.id].linked; }
  uint32_t ref_count(ProgramHandle handle) const { return slots_[handle.id].refs; }
  bool is_live(ProgramHandle handle) const { return handle.id < slots_.size() && slots_[handle.id].refs > 0; }
  size_t live_program_count() const { return by_program_.size(); }
  // The id capacity: one past the highest id ever live (the bucket count's size).
  uint32_t program_id_capacity() const { return uint32_t(slots_.size()); }
  // Over live programs; 0 when none.
  uint32_t max_register_count() const;

  // Emitter field blocks (see the class comment). words == 0 gives a valid empty block.
  Result<FieldBlockHandle> allocate_field_block(uint32_t words);
  Status free_field_block(FieldBlockHandle handle);
  // Relative to the field section's base (so >= global_field_words() for a non-empty block).
  uint32_t field_block_offset(FieldBlockHandle handle) const { return blocks_[handle.id].offset; }
  uint32_t field_block_words(FieldBlockHandle handle) const { return blocks_[handle.id].words; }
  // Writes exactly field_block_words() values into the block and marks them dirty.
  Status write_field_block(FieldBlockHandle handle, std::span<const uint32_t> values);

  // The global layout. Values go through set_global so the image sees them.
  const GlobalFieldLayout& globals() const { return globals_; }
  Result<uint32_t> declare_global(std::string_view name, uint32_t width);
  Status set_global(std::string_view name, std::span<const uint32_t> values);

  // Bumped whenever any placement or field block moves (repacks); not by growth, which
  // moves only section bases (the header), nor by acquire/release of other programs.
  uint64_t placement_version() const { return placement_version_; }
  // How many repacks (of any section) have run; for tests and stats.
  uint64_t repack_count() const { return repack_count_; }

  // The whole buffer, header included, and the words changed since clear_dirty(). A growth
  // marks everything (the buffer is rebuilt at its new size).
  std::span<const uint32_t> image() const { return image_; }
  WordSpan dirty() const { return dirty_; }
  void clear_dirty() { dirty_ = {}; }
  // The same changes per section (see HeapChanges), kept until clear_changes().
  const HeapChanges& changes() const { return changes_; }
  void clear_changes() { changes_ = {}; }
  uint32_t section_base(HeapSection s) const { return image_[shader::kHeapWordConstantsBase + uint32_t(s)]; }
  uint32_t section_capacity(HeapSection s) const { return image_[shader::kHeapWordConstantsCapacity + uint32_t(s)]; }
  uint32_t constants_base() const { return image_[shader::kHeapWordConstantsBase]; }
  uint32_t code_base() const { return image_[shader::kHeapWordCodeBase]; }
  uint32_t field_base() const { return image_[shader::kHeapWordFieldBase]; }
  uint32_t global_field_words() const { return global_words_; }
  const OffsetAllocator& constants_allocator() const { return constants_; }
  const OffsetAllocator& code_allocator() const { return code_; }
  const OffsetAllocator& field_allocator() const { return fields_; }

 private:
  enum class Part { kConstants, kCode, kFields };
  struct Slot {
    const Program* key = nullptr;  // the map's key: stable while the node lives
    uint32_t refs = 0;
    Placement placement;
    Program linked;  // the code as placed in the image (global imports at their offsets)
  };
  struct Block {
    uint32_t offset = 0;
    uint32_t words = 0;
    bool live = false;
  };
  struct ProgramHash {
    size_t operator()(const Program& p) const { return size_t(p.hash()); }
  };

  OffsetAllocator& allocator(Part part);
  uint32_t base(Part part) const;
  // Makes a contiguous run of `size` words available in `part`: repack, then grow if needed.
  void make_room(Part part, uint32_t size);
  void repack(Part part);
  void grow(Part part, uint32_t min_capacity);
  void rebuild_image();
  void write_header();
  // Marks image words [first, last) of `part` (relative to its base) written.
  void mark(Part part, uint32_t first, uint32_t last);

  bool per_emitter_globals_;
  std::function<std::vector<uint32_t>(const Program&, Section)> encode_section_;
  uint32_t global_words_;
  GlobalFieldLayout globals_;
  OffsetAllocator constants_;
  OffsetAllocator code_;
  OffsetAllocator fields_;  // its first allocation is the global words, at 0, never moved
  std::unordered_map<Program, uint32_t, ProgramHash> by_program_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_ids_;
  std::vector<Block> blocks_;
  std::vector<uint32_t> free_blocks_;
  std::vector<uint32_t> image_;
  WordSpan dirty_;
  HeapChanges changes_;
  uint64_t placement_version_ = 0;
  uint64_t repack_count_ = 0;
};

}  // namespace mote::runtime
