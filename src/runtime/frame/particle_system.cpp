#include "runtime/frame/particle_system.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "mote/isa.hpp"
#include "mote/link.hpp"
#include "mote/verifier.hpp"
#include "mote/vm.hpp"
#include "shared/isa_encoding.h"
#include "shared/program_heap.h"
#include "shared/vm_limits.h"
#include "vm_gpu/fast_fold.hpp"
#include "vm_gpu/fast_fuse.hpp"
#include "vm_gpu/fast_operands.hpp"
#include "vm_gpu/fast_reads.hpp"

namespace mote::runtime {

namespace {

using shader::EmitterRecord;
using shader::FrameBurst;
using shader::FrameCounters;
using shader::FrameEmitterState;
using shader::FrameFieldBinding;
using shader::FrameFieldBindPush;
using shader::FrameParams;
using shader::FramePush;

constexpr uint32_t kShapeWords = shader::kFrameShapeWords;
// Regions up to this size go into the command buffer (vkCmdUpdateBuffer); larger ones through a
// staging buffer and vkCmdCopyBuffer.
constexpr VkDeviceSize kInlineUpdateBytes = 512;
// Storage buffers the wide emit and simulate bind (bindings 1..10; binding 0 is a uniform).
constexpr uint32_t kWideStorageBuffers = 10;

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

// Import i's word in an emitter's own global copies (the heap's per-emitter packing).
std::vector<uint32_t> import_offsets(const Program& program) {
  std::vector<uint32_t> offsets;
  uint32_t words = 0;
  for (const GlobalImport& g : program.global_imports) {
    offsets.push_back(words);
    words += g.width;
  }
  return offsets;
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

// Transfer writes (a fill, a section copy) before later transfers that overlap them.
void transfer_to_transfer(VkCommandBuffer cmd) {
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

// The end of a frame: next frame's indirect simulate and any readback see its writes.
void frame_end_barrier(VkCommandBuffer cmd) {
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                          VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                          VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

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

// A program the fast interpreter's private file cannot hold (over 64 registers, or a section
// with more distinct immediates than its immediate slots) runs on the wide one.
bool is_wide(const Program& program) { return !fits_fast_interpreter(program); }

// frame_vm.glsl's specialisation constant: the chunks of a record the interpreted simulate's
// workgroup staging holds.
constexpr uint32_t kFrameWindowCapacityId = 10;

// Whether the fast interpreter runs `section` of `program` with a window wider than the default
// emit or simulate pipeline stages (kFrameFastWindowChunks): it gets the one specialised for
// kVmMaxWindowChunks. frame_section_code folds the code against the same window.
bool has_large_window(const Program& program, Section section, uint32_t record_words) {
  return !is_wide(program) && record_window(program, section, record_words).chunks > shader::kFrameFastWindowChunks;
}

// The code the frame's interpreters read for a section (ProgramHeapOptions::encode_section): the
// wide one reads the instructions as written; the fast one reads the section in the fast
// operand form (src/vm_gpu/fast_operands.hpp) with its immediates in front, rewritten once here
// instead of decoded per instruction per particle, and with its moves folded away
// (src/vm_gpu/fast_fold.hpp): constant loads become immediates, and field loads and stores become
// slots of the section's record window, which the interpreted emit and simulate keep in the file
// and move through the workgroup (has_large_window picks the pipeline whose staging holds it).
// DT, which every particle of a frame reads alike, becomes an immediate the interpreter fills
// from the frame's parameters (kVmFastImageDtShift); the other builtins stay loads, since the
// emitters of one program differ in them. The compiled kernels are translated from the program
// itself.
std::vector<uint32_t> frame_section_code(const Program& linked, Section section, uint32_t record_words) {
  std::vector<uint32_t> words;
  const std::span<const Instruction> code = linked.code(section);
  std::optional<FastOperandSection> fast;
  if (!is_wide(linked)) fast = fast_operand_section(code);
  if (!fast) {
    for (const Instruction& inst : code) words.insert(words.end(), inst.words.begin(), inst.words.end());
    return words;
  }
  const RecordWindow window = record_window(linked, section, record_words);
  // DT folds as an immediate of a bit pattern that no immediate or constant of the program has
  // (immediates are shared by bit pattern), whose slot the image then names.
  uint32_t dt_stand_in = 0x7FB5D700u;  // a NaN: never a result of the fold's own values
  auto taken = [&](uint32_t bits) {
    return std::find(fast->immediates.begin(), fast->immediates.end(), bits) != fast->immediates.end() ||
           std::find(linked.constants.begin(), linked.constants.end(), bits) != linked.constants.end();
  };
  while (taken(dt_stand_in)) ++dt_stand_in;
  auto dt = [dt_stand_in](uint32_t id) -> std::optional<std::array<uint32_t, 4>> {
    // LOAD_BUILTIN as frame_vm.glsl's vm_load_builtin reads it: only the engine's DT.
    if (id >> shader::kVmBuiltinSpaceShift != shader::kVmSpaceEngine ||
        (id & shader::kVmBuiltinIndexMask) != uint32_t(isa::Builtin::DT))
      return std::nullopt;
    return std::array<uint32_t, 4>{dt_stand_in, 0u, 0u, 0u};
  };
  const FastFoldContext context{.constants = linked.constants,
                                .record_words = record_words,
                                .window = window,
                                .uniform_builtin = dt,
                                .runtime_immediates = {dt_stand_in}};
  const FastOperandSection folded =
      read_constants_as_constants(fuse_fast_instructions(fold_fast_moves(*fast, context)), context.runtime_immediates);
  const auto at = std::find(folded.immediates.begin(), folded.immediates.end(), dt_stand_in);
  std::optional<uint32_t> dt_immediate;
  if (at != folded.immediates.end()) dt_immediate = uint32_t(at - folded.immediates.begin());
  return fast_section_image(folded, window, dt_immediate);
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
  if (options.wide_lanes == 0 || options.wide_lanes % shader::kFrameWorkgroupSize != 0 || options.wide_lanes > (1u << 20))
    return make_error(ErrorCode::kInvalidArgument, "wide_lanes must be a multiple of " +
                                                       std::to_string(shader::kFrameWorkgroupSize) + ", at most 2^20");
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
  MOTE_TRY_ASSIGN(s.emitters_, make_buffer(device, rows * sizeof(EmitterRecord), kStorage, "mote.frame.emitters"));
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
  MOTE_TRY_ASSIGN(s.scan_, gpu::PrefixScan::create(device, options.max_emitters));
  // Simulate's survivors per tile of 64 list entries (shared/frame.h, kFrameKeepWordsPerTile).
  const uint32_t tiles = (options.capacity + shader::kFrameWorkgroupSize - 1) / shader::kFrameWorkgroupSize;
  MOTE_TRY_ASSIGN(s.keep_, make_buffer(device, VkDeviceSize(tiles) * shader::kFrameKeepWordsPerTile * 4, kStorage,
                                       "mote.frame.keep"));
  MOTE_TRY_ASSIGN(s.keep_scan_, gpu::PrefixScan::create(device, tiles));
  MOTE_TRY_ASSIGN(s.compact_, gpu::ComputePipeline::create(device, "runtime/frame/compact"));
  MOTE_TRY_ASSIGN(s.init_, gpu::ComputePipeline::create(device, "runtime/frame/init"));
  MOTE_TRY_ASSIGN(s.reset_, gpu::ComputePipeline::create(device, "runtime/frame/reset"));
  MOTE_TRY_ASSIGN(s.tick_, gpu::ComputePipeline::create(device, "runtime/frame/tick"));
  MOTE_TRY_ASSIGN(s.emit_args_, gpu::ComputePipeline::create(device, "runtime/frame/emit_args"));
  const gpu::SpecializationConstant window_capacity[] = {{kFrameWindowCapacityId, shader::kFrameFastWindowChunks}};
  MOTE_TRY_ASSIGN(s.emit_, gpu::ComputePipeline::create(device, "runtime/frame/emit", window_capacity));
  MOTE_TRY_ASSIGN(s.simulate_, gpu::ComputePipeline::create(device, "runtime/frame/simulate", window_capacity));
  MOTE_TRY_ASSIGN(s.finish_, gpu::ComputePipeline::create(device, "runtime/frame/finish"));
  MOTE_TRY_ASSIGN(s.field_bind_, gpu::ComputePipeline::create(device, "runtime/frame/field_bind"));
  if (options.compiled_simulate) s.kernels_ = std::make_unique<vm_kernels::KernelCache>(device);
  MOTE_TRY_ASSIGN(s.field_bindings_, make_buffer(device, 64 * sizeof(FrameFieldBinding), kStorage,
                                                 "mote.frame.field_bindings"));

  // The bookkeeping: globals are per-emitter copies in each emitter's block (EmitterOptions
  // overrides a global per emitter), generations stay inside the particle header's bits, and a
  // seed of 0 is a seed (as in the reference simulation).
  // The code as the interpreters read it (frame_section_code).
  auto encode_section = [record_words = options.record_words](const Program& linked, Section section) {
    return frame_section_code(linked, section, record_words);
  };
  s.heap_ = std::make_unique<ProgramHeap>(ProgramHeapOptions{.initial_constant_words = options.heap_constant_words,
                                                             .initial_code_words = options.heap_code_words,
                                                             .initial_field_block_words = options.heap_field_words,
                                                             .per_emitter_globals = true,
                                                             .encode_section = encode_section});
  s.registry_ = std::make_unique<EmitterRegistry>(
      *s.heap_, EmitterRegistryOptions{.max_generation = shader::kFrameHeaderGenerationMask, .seed_from_generation = false});
  s.rows_.resize(options.max_emitters);

  // The program buffer: the opcode shapes, then the heap's (empty) image, uploaded whole once.
  const std::span<const uint32_t> image = s.heap_->image();
  std::vector<uint32_t> words(kShapeWords + image.size(), 0u);
  for (const isa::OpInfo& op : isa::all_ops()) words[op.number * 4] = isa::op_shape(op);
  std::copy(image.begin(), image.end(), words.begin() + kShapeWords);
  MOTE_TRY_ASSIGN(s.program_, make_buffer(device, words.size() * 4, kStorage, "mote.frame.program"));
  MOTE_TRY(gpu::upload_span(device, s.program_, std::span<const uint32_t>(words)));
  s.uploads_.program_bytes += words.size() * 4;
  for (uint32_t i = 0; i < kHeapSectionCount; ++i) {
    s.gpu_bases_[i] = s.heap_->section_base(HeapSection(i));
    s.gpu_capacities_[i] = s.heap_->section_capacity(HeapSection(i));
  }
  s.gpu_image_words_ = uint32_t(image.size());
  s.heap_->clear_changes();
  s.heap_->clear_dirty();

  // The pool and the emitter state start zeroed (a free slot's header is 0; a zero state row
  // has generation 0, so every new emitter restarts it), and so does the table (generation 0:
  // free rows); the free list and counters by dispatch.
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, s.pool_.handle(), 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cmd, s.states_.handle(), 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cmd, s.emitters_.handle(), 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(cmd, s.bursts_.handle(), 0, VK_WHOLE_SIZE, 0);
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

uint32_t ParticleSystem::generation(uint32_t row) const {
  const EmitterContext* c = registry_ ? registry_->context(row) : nullptr;
  return c ? c->generation : 0u;
}

uint32_t ParticleSystem::wide_program_count() const {
  if (!heap_) return 0;
  uint32_t n = 0;
  for (uint32_t id = 0; id < heap_->program_id_capacity(); ++id)
    if (heap_->is_live(ProgramHandle{id}) && is_wide(heap_->program(ProgramHandle{id}))) ++n;
  return n;
}

Status ParticleSystem::ensure_interpreters(const Program& program) {
  const gpu::SpecializationConstant capacity[] = {{kFrameWindowCapacityId, shader::kVmMaxWindowChunks}};
  if (has_large_window(program, Section::kInit, options_.record_words) && !emit_large_window_.valid()) {
    MOTE_TRY_ASSIGN(emit_large_window_, gpu::ComputePipeline::create(*device_, "runtime/frame/emit", capacity));
  }
  if (has_large_window(program, Section::kUpdate, options_.record_words) && !simulate_large_window_.valid()) {
    MOTE_TRY_ASSIGN(simulate_large_window_, gpu::ComputePipeline::create(*device_, "runtime/frame/simulate", capacity));
  }
  if (!is_wide(program) || wide_registers_.valid()) return ok_status();
  const VkPhysicalDeviceLimits& limits = device_->limits();
  const VkDeviceSize bytes = VkDeviceSize(shader::kVmMaxRegisters) * options_.wide_lanes * 4;
  if (limits.maxPerStageDescriptorStorageBuffers < kWideStorageBuffers)
    return make_error(ErrorCode::kUnsupported,
                      "a program of " + std::to_string(program.register_count) +
                          " registers (or with more distinct immediates in a section than the fast file's " +
                          std::to_string(shader::kVmFastMaxImmediates) +
                          ") needs the wide interpreter, whose emit and simulate bind " +
                          std::to_string(kWideStorageBuffers) + " storage buffers; the device allows " +
                          std::to_string(limits.maxPerStageDescriptorStorageBuffers));
  if (bytes > limits.maxStorageBufferRange)
    return make_error(ErrorCode::kUnsupported, "the wide register file (" + std::to_string(bytes) +
                                                   " bytes) exceeds maxStorageBufferRange: lower wide_lanes");
  MOTE_TRY_ASSIGN(emit_wide_, gpu::ComputePipeline::create(*device_, "runtime/frame/emit_wide"));
  MOTE_TRY_ASSIGN(simulate_wide_, gpu::ComputePipeline::create(*device_, "runtime/frame/simulate_wide"));
  MOTE_TRY_ASSIGN(wide_registers_, make_buffer(*device_, bytes, kStorage, "mote.frame.wide_registers"));
  return ok_status();
}

Result<ParticleSystem::Row> ParticleSystem::make_row(const CompiledEffect& effect, const EmitterOptions& options) {
  const Program& program = effect.program;
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
  Emitter& e = r.emitter;
  e.field_values.assign(vm_emitter_field_words(program), 0);
  if (!effect.emitter_defaults.empty()) {
    if (effect.emitter_defaults.size() != e.field_values.size())
      return make_error(ErrorCode::kInvalidArgument, "emitter_defaults does not match the program's emitter fields");
    e.field_values = effect.emitter_defaults;
  }
  MOTE_TRY(apply_values(program.emitter_fields, options.emitter_fields, e.field_values, "emitter field"));
  // The emitter's own copy of its globals, packed in import order: the previews, then the
  // system's values (set_global), then the overrides (as the reference).
  const std::vector<uint32_t> offsets = import_offsets(program);
  uint32_t global_words = 0;
  for (const GlobalImport& g : program.global_imports) global_words += g.width;
  e.global_values.assign(global_words, 0);
  for (size_t i = 0; i < program.global_imports.size() && i < effect.globals.size(); ++i)
    for (uint32_t c = 0; c < program.global_imports[i].width && c < effect.globals[i].values.size(); ++c)
      e.global_values[offsets[i] + c] = std::bit_cast<uint32_t>(effect.globals[i].values[c]);
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
    for (uint32_t c = 0; c < g.width; ++c) e.global_values[offsets[i] + c] = std::bit_cast<uint32_t>(set->second[c]);
  }
  MOTE_TRY(apply_values(program.global_imports, options.globals, e.global_values, "global field"));
  // The code the heap places: linked to the emitter's own copies; verified for the pool's stride
  // here (the heap verifies the unlinked program, which knows no stride).
  MOTE_TRY_ASSIGN(const Program linked, link_globals(program, offsets));
  MOTE_TRY(verify_program(linked, {.linked = true, .global_field_words = global_words,
                                   .record_words = options_.record_words}));
  MOTE_TRY(heap_->check(program));

  e.effect = effect;
  e.transform_row = options.transform_row;
  std::copy_n(options.position, 3, e.position);
  std::copy_n(options.rotation, 4, e.rotation);
  e.seed = options.seed;
  r.options = options;
  if (options.transform_row != kNoTransformRow) r.transform_generation = transforms_->generation(options.transform_row);
  return r;
}

void ParticleSystem::note_row_changed(uint32_t row) {
  dirty_rows_.include(row, row + 1);
  const size_t need = (size_t(row) + 1) * shader::kFrameMaxBursts;
  if (burst_table_.size() < need) burst_table_.resize(need, FrameBurst{});
  const Row* r = rows_[row].get();
  for (uint32_t i = 0; i < shader::kFrameMaxBursts; ++i)
    burst_table_[size_t(row) * shader::kFrameMaxBursts + i] = r ? r->bursts[i] : FrameBurst{};
}

Status ParticleSystem::flush_registry() {
  // Once a frame, after a change (the flush walks every row): the set-up paths and run-time
  // values only edit emitters and note their rows, so adding emitters one at a time stays O(1).
  if (dirty_rows_.empty()) return ok_status();
  const FlushReport report = registry_->flush();
  if (report.relocated) {  // a repack moved placements or blocks: every row was restaged
    dirty_rows_.include(0, registry_->row_capacity());
    bindings_dirty_ = true;
  }
  if (report.refused > 0)  // every program is checked before the registry sees it
    return make_error(ErrorCode::kInternal, "the program heap refused a program the frame had accepted");
  return ok_status();
}

void ParticleSystem::edited(Emitter& emitter, uint32_t row) {
  ++emitter.version;  // the next flush rewrites the block and restages the record
  dirty_rows_.include(row, row + 1);
}

Result<uint32_t> ParticleSystem::add_emitter(const CompiledEffect& effect, const EmitterOptions& options) {
  MOTE_TRY_ASSIGN(std::vector<uint32_t> rows, add_emitters(effect, std::span(&options, 1)));
  return rows[0];
}

Result<std::vector<uint32_t>> ParticleSystem::add_emitters(const CompiledEffect& effect,
                                                           std::span<const EmitterOptions> options) {
  if (registry_->live_count() + options.size() > options_.max_emitters)
    return make_error(ErrorCode::kOutOfMemory, "the emitter table is full");
  // Everything that can refuse runs before anything is added.
  MOTE_TRY(ensure_interpreters(effect.program));
  std::vector<std::unique_ptr<Row>> made;
  made.reserve(options.size());
  for (const EmitterOptions& o : options) {
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
  if (!global_bindings_.empty()) bindings_dirty_ = true;  // readers of a bound global are bound too
  return placed;
}

Status ParticleSystem::remove_emitter(uint32_t row) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  // Its bindings go with it: the table written with the change that frees its block has no row
  // that writes there.
  if (!rows_[row]->bindings.empty() || !global_bindings_.empty()) bindings_dirty_ = true;
  MOTE_TRY(registry_->remove(row));
  rows_[row].reset();
  pending_bursts_.erase(row);
  note_row_changed(row);
  while (row_count_ > 0 && !registry_->is_live(row_count_ - 1)) --row_count_;
  return ok_status();
}

Status ParticleSystem::swap_effect(uint32_t row, const CompiledEffect& effect) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  Row& old = *rows_[row];
  EmitterOptions options = old.options;
  options.emitter_fields.clear();  // the old program's names: carried over below where they fit
  std::erase_if(options.globals, [&](const FieldValue& v) {
    for (const GlobalImport& g : effect.program.global_imports)
      if (g.name == v.name) return v.values.size() != 1 && v.values.size() != g.width;
    return true;
  });
  MOTE_TRY(ensure_interpreters(effect.program));
  MOTE_TRY_ASSIGN(Row r, make_row(effect, options));
  // Fields both programs declare at one width keep the emitter's values and bindings.
  const Program& old_program = old.emitter.effect.program;
  uint32_t offset = 0;
  for (const FieldDecl& f : effect.program.emitter_fields) {
    if (auto from = find_emitter_field(old_program, f.name); from && from->second == f.width) {
      std::copy_n(old.emitter.field_values.begin() + from->first, f.width, r.emitter.field_values.begin() + offset);
      for (const FieldBinding& b : old.bindings)
        if (b.field == f.name)
          r.bindings.push_back({b.field, offset, b.width, b.transform_row, b.channel, b.transform_generation});
    }
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
  old.bindings = std::move(r.bindings);
  std::copy_n(r.bursts, shader::kFrameMaxBursts, old.bursts);
  MOTE_TRY(registry_->renew_generation(row));
  note_row_changed(row);
  bindings_dirty_ = true;
  return ok_status();
}

Status ParticleSystem::burst(uint32_t row, uint32_t count) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  uint32_t& pending = pending_bursts_[row];
  pending = uint32_t(std::min<uint64_t>(uint64_t(pending) + count, 0xFFFFFFFFu));
  return ok_status();
}

bool ParticleSystem::uses_transforms() const {
  if (!global_bindings_.empty()) return true;
  for (uint32_t row = 0; row < row_count_; ++row) {
    const Row* r = rows_[row].get();
    if (r && (r->emitter.transform_row != kNoTransformRow || !r->bindings.empty())) return true;
  }
  return false;
}

Result<const gpu::ComputePipeline*> ParticleSystem::frame_kernel(const Program& linked, vm_kernels::KernelHarness harness) {
  const Section section = harness == vm_kernels::KernelHarness::kFrameEmit ? Section::kInit : Section::kUpdate;
  const vm_kernels::KernelCache::Variant variant{.record_words = options_.record_words, .harness = harness};
  if (!options_.compile_in_background) return kernels_->kernel(linked, section, variant);
  MOTE_TRY(collect_kernels(false));
  if (const gpu::ComputePipeline* ready = kernels_->find(linked, section, variant)) return ready;
  const bool started = std::any_of(kernel_jobs_.begin(), kernel_jobs_.end(), [&](const KernelJob& job) {
    return job.harness == harness && job.program == linked;
  });
  if (!started) {
    // The worker gets its own copy of the program and the device, which outlives the system;
    // a job still running when the system goes is waited for by its future's destructor.
    gpu::Device& device = *device_;
    kernel_jobs_.push_back({linked, harness, std::async(std::launch::async, [&device, linked, section, variant] {
                              return vm_kernels::KernelCache::build(device, linked, section, variant);
                            })});
  }
  return nullptr;  // the interpreter runs this section until its kernel is ready
}

FramePush ParticleSystem::frame_push(uint32_t program, Section section, uint32_t first_dispatch,
                                     uint32_t only_dispatch) const {
  FramePush push{program, first_dispatch, only_dispatch, 0u, 0u, 0u, 0u, 0u};
  if (program < heap_->program_id_capacity() && heap_->is_live(ProgramHandle{program})) {
    const Placement& p = heap_->placement(ProgramHandle{program});
    const bool init = section == Section::kInit;
    push.section_offset = kShapeWords + heap_->code_base() + (init ? p.init_offset : p.update_offset);
    push.section_words = init ? p.init_length : p.update_length;
  }
  return push;
}

Status ParticleSystem::collect_kernels(bool wait) {
  for (size_t i = 0; i < kernel_jobs_.size();) {
    KernelJob& job = kernel_jobs_[i];
    if (!wait && job.built.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      ++i;
      continue;
    }
    Result<vm_kernels::KernelCache::Built> built = job.built.get();
    kernel_jobs_.erase(kernel_jobs_.begin() + std::ptrdiff_t(i));
    if (!built.ok()) return built.take_error();
    kernels_->insert(std::move(built).value());
  }
  return ok_status();
}

Status ParticleSystem::wait_for_kernels() {
  if (!kernels_) return ok_status();
  return collect_kernels(true);
}

Status ParticleSystem::check_transform_row_unused(uint32_t transform_row) const {
  for (uint32_t row = 0; row < row_count_; ++row) {
    const Row* r = rows_[row].get();
    if (!r) continue;
    if (r->emitter.transform_row == transform_row)
      return make_error(ErrorCode::kInvalidArgument, "transform row " + std::to_string(transform_row) +
                                                         " is where the emitter at row " + std::to_string(row) +
                                                         " stands: remove or move the emitter first");
    for (const FieldBinding& b : r->bindings)
      if (b.transform_row == transform_row)
        return make_error(ErrorCode::kInvalidArgument, "transform row " + std::to_string(transform_row) +
                                                           " is bound to field '" + b.field + "' of the emitter at row " +
                                                           std::to_string(row) + ": unbind it first");
  }
  for (const auto& [name, b] : global_bindings_)
    if (b.transform_row == transform_row)
      return make_error(ErrorCode::kInvalidArgument, "transform row " + std::to_string(transform_row) +
                                                         " is bound to global '" + name + "': unbind it first");
  return ok_status();
}

Status ParticleSystem::check_transform_references() {
  if (transforms_ == nullptr || transforms_->topology_version() == checked_topology_) return ok_status();
  auto same = [&](uint32_t transform_row, uint32_t generation) {
    return transforms_->is_live(transform_row) && transforms_->generation(transform_row) == generation;
  };
  auto removed = [](uint32_t transform_row, const std::string& user) {
    return make_error(ErrorCode::kInvalidArgument, "transform row " + std::to_string(transform_row) +
                                                       " was removed while " + user +
                                                       " used it; the frame did not run (remove, move or unbind first)");
  };
  for (uint32_t row = 0; row < row_count_; ++row) {
    const Row* r = rows_[row].get();
    if (!r) continue;
    if (r->emitter.transform_row != kNoTransformRow && !same(r->emitter.transform_row, r->transform_generation))
      return removed(r->emitter.transform_row, "the emitter at row " + std::to_string(row));
    for (const FieldBinding& b : r->bindings)
      if (!same(b.transform_row, b.transform_generation))
        return removed(b.transform_row, "field '" + b.field + "' of the emitter at row " + std::to_string(row));
  }
  for (const auto& [name, b] : global_bindings_)
    if (!same(b.transform_row, b.transform_generation)) return removed(b.transform_row, "global '" + name + "'");
  checked_topology_ = transforms_->topology_version();
  return ok_status();
}

Status ParticleSystem::set_transforms(TransformTable* table) {
  if (table != transforms_ && uses_transforms())
    return make_error(ErrorCode::kInvalidArgument,
                      "emitters are placed at, or fields bound to, rows of the current transforms table: remove or "
                      "unbind them first");
  transforms_ = table;
  checked_topology_ = UINT64_MAX;
  return ok_status();
}

Status ParticleSystem::check_transform_row(uint32_t transform_row) const {
  if (transforms_ == nullptr)
    return make_error(ErrorCode::kInvalidArgument, "a binding to a transform row needs set_transforms first");
  if (!transforms_->is_live(transform_row))
    return make_error(ErrorCode::kNotFound, "no live transform row " + std::to_string(transform_row));
  return ok_status();
}

Status ParticleSystem::bind_field(uint32_t row, std::string_view emitter_field, uint32_t transform_row,
                                  Channel channel) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  MOTE_TRY(check_channel(channel));
  MOTE_TRY(check_transform_row(transform_row));
  Row& r = *rows_[row];
  const auto field = find_emitter_field(r.emitter.effect.program, emitter_field);
  if (!field)
    return make_error(ErrorCode::kNotFound, "the emitter at row " + std::to_string(row) + " has no emitter field named '" +
                                                std::string(emitter_field) + "'");
  if (field->second != channel_width(channel))
    return make_error(ErrorCode::kInvalidArgument,
                      "emitter field '" + std::string(emitter_field) + "' has " + std::to_string(field->second) +
                          " components; " + channel_name(channel) + " has " + std::to_string(channel_width(channel)));
  const FieldBinding binding{std::string(emitter_field), field->first, field->second, transform_row, channel,
                             transforms_->generation(transform_row)};
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
  {
    const std::vector<FieldBinding>& bindings = rows_[row]->bindings;
    if (std::none_of(bindings.begin(), bindings.end(), [&](const FieldBinding& b) { return b.field == emitter_field; }))
      return make_error(ErrorCode::kNotFound, "emitter field '" + std::string(emitter_field) +
                                                  "' of the emitter at row " + std::to_string(row) + " is not bound");
  }
  MOTE_TRY(sync_bound_values());  // the host copy takes the last written value (bindings unchanged)
  std::vector<FieldBinding>& bindings = rows_[row]->bindings;
  bindings.erase(std::find_if(bindings.begin(), bindings.end(), [&](const FieldBinding& b) { return b.field == emitter_field; }));
  bindings_dirty_ = true;
  return ok_status();
}

Status ParticleSystem::bind_global(std::string_view global, uint32_t transform_row, Channel channel) {
  MOTE_TRY(check_channel(channel));
  MOTE_TRY(check_transform_row(transform_row));
  const uint32_t width = channel_width(channel);
  for (uint32_t row = 0; row < row_count_; ++row) {
    if (!rows_[row]) continue;
    for (const GlobalImport& g : rows_[row]->emitter.effect.program.global_imports)
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
  global_bindings_.insert_or_assign(std::string(global),
                                    GlobalBinding{transform_row, channel, transforms_->generation(transform_row)});
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
  for (uint32_t row = 0; row < row_count_; ++row) {
    if (!rows_[row]) continue;
    Emitter& e = rows_[row]->emitter;
    const std::vector<GlobalImport>& imports = e.effect.program.global_imports;
    const std::vector<uint32_t> offsets = import_offsets(e.effect.program);
    for (size_t i = 0; i < imports.size(); ++i) {
      if (imports[i].name != global) continue;
      for (uint32_t c = 0; c < imports[i].width; ++c)
        e.global_values[offsets[i] + c] = std::bit_cast<uint32_t>(last->second[c]);
      edited(e, row);
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
  for (uint32_t row = 0; row < row_count_; ++row) {
    if (!rows_[row]) continue;
    for (const GlobalImport& g : rows_[row]->emitter.effect.program.global_imports)
      if (g.name == name && g.width != values.size())
        return make_error(ErrorCode::kInvalidArgument, "global field '" + g.name + "' is read with " +
                                                           std::to_string(g.width) + " components by the emitter at row " +
                                                           std::to_string(row) + ", " + std::to_string(values.size()) +
                                                           " given");
  }
  global_values_.insert_or_assign(std::string(name), std::vector<float>(values.begin(), values.end()));
  for (uint32_t row = 0; row < row_count_; ++row) {
    if (!rows_[row]) continue;
    Emitter& e = rows_[row]->emitter;
    const std::vector<GlobalImport>& imports = e.effect.program.global_imports;
    uint32_t offset = 0;
    for (const GlobalImport& g : imports) {
      if (g.name == name) {
        for (uint32_t c = 0; c < values.size(); ++c) e.global_values[offset + c] = std::bit_cast<uint32_t>(values[c]);
        edited(e, row);
      }
      offset += g.width;
    }
  }
  return ok_status();
}

Status ParticleSystem::set_emitter_field(uint32_t row, std::string_view name, std::span<const float> values) {
  if (!is_live(row)) return make_error(ErrorCode::kNotFound, "no live emitter at row " + std::to_string(row));
  Row& r = *rows_[row];
  const auto field = find_emitter_field(r.emitter.effect.program, name);
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
    r.emitter.field_values[offset + c] = std::bit_cast<uint32_t>(values.size() == 1 ? values[0] : values[c]);
  // The registry rewrites the block and restages the record (a width-1 field "rate" is the
  // record's spawn rate: write_emitter_record's rule).
  edited(r.emitter, row);
  return ok_status();
}

ParticleSystem::BindingTable ParticleSystem::build_binding_table() const {
  BindingTable t;
  if (!heap_) return t;
  const uint32_t field_base = kShapeWords + heap_->field_base();
  for (uint32_t row = 0; row < row_count_; ++row) {
    const Row* r = rows_[row].get();
    if (!r) continue;
    const EmitterContext& ctx = *registry_->context(row);
    const uint32_t block = field_base + heap_->field_block_offset(ctx.field_block);
    for (const FieldBinding& b : r->bindings) {
      t.rows.push_back({block + b.offset, b.width, b.transform_row, uint32_t(b.channel)});
      t.sources.push_back({row, r->serial, false, b.field});
    }
    if (global_bindings_.empty()) continue;
    const Program& program = r->emitter.effect.program;
    const uint32_t globals = block + program.emitter_field_words();
    uint32_t offset = 0;
    for (const GlobalImport& g : program.global_imports) {
      if (auto bound = global_bindings_.find(g.name); bound != global_bindings_.end()) {
        t.rows.push_back({globals + offset, g.width, bound->second.transform_row, uint32_t(bound->second.channel)});
        t.sources.push_back({row, r->serial, true, g.name});
      }
      offset += g.width;
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
  // The words the last frame's bind pass wrote, where that frame's layout put them (the program
  // buffer changes only in execute(), so it still has that layout).
  MOTE_TRY_ASSIGN(std::vector<uint32_t> words,
                  gpu::readback_as<uint32_t>(*device_, program_, hi - lo, VkDeviceSize(lo) * 4));
  for (size_t i = 0; i < gpu_bindings_.rows.size(); ++i) {
    const FrameFieldBinding& b = gpu_bindings_.rows[i];
    const BindingSource& src = gpu_bindings_.sources[i];
    const uint32_t* value = words.data() + (b.word - lo);
    if (src.global) {
      std::vector<float>& v = global_values_[src.name];
      v.resize(b.width);
      for (uint32_t c = 0; c < b.width; ++c) v[c] = std::bit_cast<float>(value[c]);
    }
    // The emitter that was bound, if it is still there (removed or re-added rows have another
    // serial), takes the value into its field or global copy of that name and width, wherever its
    // block is now.
    Row* r = src.row < rows_.size() ? rows_[src.row].get() : nullptr;
    if (r == nullptr || r->serial != src.serial) continue;
    Emitter& e = r->emitter;
    if (src.global) {
      const std::vector<uint32_t> offsets = import_offsets(e.effect.program);
      for (size_t g = 0; g < offsets.size(); ++g)
        if (e.effect.program.global_imports[g].name == src.name && e.effect.program.global_imports[g].width == b.width)
          std::copy_n(value, b.width, e.global_values.begin() + offsets[g]);
    } else if (auto f = find_emitter_field(e.effect.program, src.name); f && f->second == b.width) {
      std::copy_n(value, b.width, e.field_values.begin() + f->first);
    }
    edited(e, src.row);
  }
  bindings_written_ = false;
  return ok_status();
}

Result<ParticleSystem::Staging*> ParticleSystem::staging_for(VkDeviceSize bytes) {
  MOTE_TRY_ASSIGN(const uint64_t completed, device_->completed_serial());
  Staging* best = nullptr;
  for (Staging& s : staging_)
    if (s.serial <= completed && s.buffer.size() >= bytes && (!best || s.buffer.size() < best->buffer.size())) best = &s;
  if (best) return best;
  // None free and large enough: a new one (powers of two from 64 KiB), replacing a free one if any.
  VkDeviceSize size = 65536;
  while (size < bytes) size *= 2;
  MOTE_TRY_ASSIGN(gpu::Buffer buffer, gpu::Buffer::create(*device_, {.size = size,
                                                                     .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                                     .memory = gpu::MemoryUsage::kUpload,
                                                                     .name = "mote.frame.staging"}));
  for (Staging& s : staging_)
    if (s.serial <= completed) {
      s.buffer = std::move(buffer);  // the old one is destroyed once the GPU is done with it
      s.serial = 0;
      return &s;
    }
  staging_.push_back({std::move(buffer), 0});
  return &staging_.back();
}

Status ParticleSystem::execute(float dt) {
  if (!(dt > 0.0f)) return make_error(ErrorCode::kInvalidArgument, "dt must be a positive number of seconds");
  gpu::Device& device = *device_;
  // The emitters' edits into the heap (blocks) and the table (records) first.
  MOTE_TRY(flush_registry());
  MOTE_TRY(check_transform_references());
  const uint32_t rows = row_count_;
  std::vector<uint32_t> commands;
  for (const auto& [row, count] : pending_bursts_) {
    if (commands.size() / 2 >= shader::kFrameMaxCommands) break;
    commands.push_back(row);
    commands.push_back(count);
  }
  pending_bursts_.clear();

  // The live programs, one emit and simulate dispatch each (the heap holds exactly the programs
  // of the live emitters: the last one's removal released it).
  struct Dispatch {
    uint32_t program;
    bool wide;  // over the fast file's 64 registers: the wide interpreter until its kernels exist
    bool init_large_window = false;    // interpreted: the emit pipeline that stages kVmMaxWindowChunks
    bool update_large_window = false;  // and the simulate one
    const gpu::ComputePipeline* compiled = nullptr;       // its compiled simulate kernel, if any
    const gpu::ComputePipeline* compiled_emit = nullptr;  // its compiled emit kernel, if any
  };
  std::vector<Dispatch> programs;
  for (uint32_t id = 0; id < heap_->program_id_capacity(); ++id) {
    if (!heap_->is_live(ProgramHandle{id})) continue;
    const Program& program = heap_->program(ProgramHandle{id});
    Dispatch d{id, is_wide(program)};
    d.init_large_window = has_large_window(program, Section::kInit, options_.record_words);
    d.update_large_window = has_large_window(program, Section::kUpdate, options_.record_words);
    // Compiled for the first frame that runs the program (or, in the background, for a later
    // one), from the code as linked into the image: its global reads name their offsets. A
    // program over 64 registers is compiled too (its registers are the kernel's variables, so
    // the count does not matter there); the wide interpreter runs it until its kernels exist.
    if (kernels_) {
      const Program& linked = heap_->linked_program(ProgramHandle{id});
      MOTE_TRY_ASSIGN(d.compiled, frame_kernel(linked, vm_kernels::KernelHarness::kFrameSimulate));
      if (!linked.init.empty()) {
        MOTE_TRY_ASSIGN(d.compiled_emit, frame_kernel(linked, vm_kernels::KernelHarness::kFrameEmit));
      }
    }
    programs.push_back(d);
  }

  // (a) The program buffer follows the heap's layout: when a section grew, a larger buffer gets
  // the old sections copied to their new bases on the GPU (nothing re-uploaded); the old buffer
  // is destroyed once this submission is done with it.
  const std::span<const uint32_t> image = heap_->image();
  bool relayout = image.size() != gpu_image_words_;
  for (uint32_t i = 0; i < kHeapSectionCount; ++i)
    relayout = relayout || heap_->section_base(HeapSection(i)) != gpu_bases_[i] ||
               heap_->section_capacity(HeapSection(i)) != gpu_capacities_[i];
  gpu::Buffer retired;
  std::vector<VkBufferCopy> moves;
  if (relayout) {
    MOTE_TRY_ASSIGN(gpu::Buffer grown, make_buffer(device, (VkDeviceSize(kShapeWords) + image.size()) * 4, kStorage,
                                                   "mote.frame.program"));
    moves.push_back({0, 0, VkDeviceSize(kShapeWords) * 4});
    for (uint32_t i = 0; i < kHeapSectionCount; ++i) {
      const uint32_t words = std::min(gpu_capacities_[i], heap_->section_capacity(HeapSection(i)));
      if (words == 0) continue;
      moves.push_back({VkDeviceSize(kShapeWords + gpu_bases_[i]) * 4,
                       VkDeviceSize(kShapeWords + heap_->section_base(HeapSection(i))) * 4, VkDeviceSize(words) * 4});
    }
    retired = std::move(program_);
    program_ = std::move(grown);
    ++uploads_.program_buffer_growths;
    bindings_dirty_ = true;  // the field base moved
  }
  if (heap_->field_base() != bindings_field_base_) bindings_dirty_ = true;

  // (b) What changed since the last frame, as regions: the heap's changed ranges (zeroed ones
  // filled first), the changed rows' records and bursts, the bindings table.
  const HeapChanges& changes = heap_->changes();
  std::vector<std::pair<VkDeviceSize, VkDeviceSize>> fills;  // program buffer bytes: offset, size
  std::vector<Upload> uploads;
  auto program_region = [&](uint32_t first_word, uint32_t words) {
    uploads.push_back({&program_, VkDeviceSize(kShapeWords + first_word) * 4, image.data() + first_word,
                       VkDeviceSize(words) * 4});
    uploads_.program_bytes += VkDeviceSize(words) * 4;
  };
  if (changes.header) program_region(0, shader::kHeapHeaderWords);
  for (uint32_t i = 0; i < kHeapSectionCount; ++i) {
    const uint32_t base = heap_->section_base(HeapSection(i));
    for (const auto& [first, last] : changes.zeroed[i])
      fills.push_back({VkDeviceSize(kShapeWords + base + first) * 4, VkDeviceSize(last - first) * 4});
    for (const auto& [first, last] : changes.written[i]) program_region(base + first, last - first);
  }
  const std::span<const uint32_t> table = registry_->table();
  const uint32_t table_rows = registry_->row_capacity();
  for (const auto& [first, end] : dirty_rows_) {
    const uint32_t last = std::min(end, table_rows);
    if (first >= last) continue;
    const VkDeviceSize n = last - first;
    uploads.push_back({&emitters_, VkDeviceSize(first) * sizeof(EmitterRecord),
                       table.data() + size_t(first) * shader::kEmitterRecordWords, n * sizeof(EmitterRecord)});
    const VkDeviceSize burst_bytes = n * shader::kFrameMaxBursts * sizeof(FrameBurst);
    if (burst_table_.size() >= size_t(last) * shader::kFrameMaxBursts)
      uploads.push_back({&bursts_, VkDeviceSize(first) * shader::kFrameMaxBursts * sizeof(FrameBurst),
                         burst_table_.data() + size_t(first) * shader::kFrameMaxBursts, burst_bytes});
    uploads_.table_bytes += n * sizeof(EmitterRecord) + burst_bytes;
  }
  // The bindings table, rebuilt after a binding changed or a bound block moved. Growing its
  // buffer waits for the frames that may still read the old one (doubling: rare).
  const bool write_bindings = bindings_dirty_;
  if (write_bindings) {
    gpu_bindings_ = build_binding_table();
    bindings_field_base_ = heap_->field_base();
    const VkDeviceSize bytes = gpu_bindings_.rows.size() * sizeof(FrameFieldBinding);
    if (bytes > field_bindings_.size()) {
      MOTE_TRY(device.wait_idle());
      MOTE_TRY_ASSIGN(field_bindings_, make_buffer(device, bytes * 2, kStorage, "mote.frame.field_bindings"));
    }
    if (bytes > 0) {
      uploads.push_back({&field_bindings_, 0, gpu_bindings_.rows.data(), bytes});
      uploads_.bindings_bytes += bytes;
    }
  }
  // Large regions through the staging buffer (one vkCmdCopyBuffer per destination), small ones
  // into the command buffer.
  VkDeviceSize staged_bytes = 0;
  for (const Upload& u : uploads)
    if (u.bytes > kInlineUpdateBytes) staged_bytes += u.bytes;
  Staging* staging = nullptr;
  std::vector<std::pair<const gpu::Buffer*, VkBufferCopy>> copies;
  if (staged_bytes > 0) {
    MOTE_TRY_ASSIGN(staging, staging_for(staged_bytes));
    auto* mapped = static_cast<uint8_t*>(staging->buffer.mapped());
    VkDeviceSize at = 0;
    for (const Upload& u : uploads) {
      if (u.bytes <= kInlineUpdateBytes) continue;
      std::memcpy(mapped + at, u.data, u.bytes);
      copies.push_back({u.dst, VkBufferCopy{at, u.offset, u.bytes}});
      at += u.bytes;
    }
    MOTE_TRY(staging->buffer.flush());
  }

  FrameParams params{};
  params.dt = dt;
  params.row_count = rows;
  params.command_count = uint32_t(commands.size() / 2);
  params.capacity = options_.capacity;
  params.record_words = options_.record_words;
  params.serial_word = options_.serial_word;
  params.constants_base = kShapeWords + heap_->constants_base();
  params.code_base = kShapeWords + heap_->code_base();
  params.field_base = kShapeWords + heap_->field_base();

  const gpu::Buffer& alive_out = alive_[frame_ & 1u];
  const gpu::Buffer& alive_in = alive_[(frame_ + 1u) & 1u];
  Status scan_status = ok_status();
  gpu::GpuProfiler* profiler = profiler_;
  TransformTable* transforms = transforms_;
  const gpu::Buffer& channels = transforms ? transforms->channels() : no_transforms_;
  const uint32_t binding_count = uint32_t(gpu_bindings_.rows.size());
  const bool bind_pass = transforms != nullptr && binding_count > 0;
  const uint32_t wide_groups = options_.wide_lanes / shader::kFrameWorkgroupSize;
  MOTE_TRY_ASSIGN(const uint64_t serial, device.submit([&](VkCommandBuffer cmd) {
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
    // The program buffer's growth: a zeroed larger buffer, the shapes and every section copied
    // to its new base, before anything below writes into it.
    if (relayout) {
      vkCmdFillBuffer(cmd, program_.handle(), 0, VK_WHOLE_SIZE, 0);
      transfer_to_transfer(cmd);
      vkCmdCopyBuffer(cmd, retired.handle(), program_.handle(), uint32_t(moves.size()), moves.data());
      transfer_to_transfer(cmd);
    }
    if (!fills.empty()) {
      for (const auto& [offset, bytes] : fills) vkCmdFillBuffer(cmd, program_.handle(), offset, bytes, 0);
      transfer_to_transfer(cmd);
    }
    vkCmdUpdateBuffer(cmd, params_.handle(), 0, sizeof(params), &params);
    if (!commands.empty()) vkCmdUpdateBuffer(cmd, commands_.handle(), 0, commands.size() * 4, commands.data());
    // The changed ranges (a bound word among them is rewritten by the bind pass below before
    // anything reads it).
    for (const gpu::Buffer* dst : {&program_, &emitters_, &bursts_, &field_bindings_}) {
      std::vector<VkBufferCopy> regions;
      for (const auto& [to, region] : copies)
        if (to == dst) regions.push_back(region);
      if (!regions.empty())
        vkCmdCopyBuffer(cmd, staging->buffer.handle(), dst->handle(), uint32_t(regions.size()), regions.data());
    }
    for (const Upload& u : uploads)
      if (u.bytes <= kInlineUpdateBytes) update_buffer(cmd, *u.dst, u.offset, u.data, size_t(u.bytes));
    gpu::transfer_to_compute(cmd);
    // (0) the transforms' hierarchy pass: this frame's world poses and channels, composed before
    // anything of the frame reads them (emit and simulate, behind the barriers below; the reset's
    // own compute-to-compute barrier already orders them, this one says so where it matters).
    if (transforms) {
      transforms->record(cmd);
      gpu::compute_to_compute(cmd);
    }
    // (0b) field bindings: this frame's channels into the bound words of the program buffer. The
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
      scan_status = scan_.record(cmd, spawn_counts_, spawn_sums_, gpu::ScanCount::host(rows), gpu::ScanKind::kInclusive);
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
      // (5) emit, one dispatch per live program: indirect over the newborns, or for a program on
      // the wide interpreter a fixed launch of wide_lanes walking them with a grid stride.
      for (const Dispatch& d : programs) {
        const FramePush push = frame_push(d.program, Section::kInit, 0u, 0u);
        gpu::ComputeRecorder rec(device, cmd);
        const bool wide = d.wide && !d.compiled_emit;
        if (wide) {
          rec.bind(emit_wide_)
              .buffers({{0, &params_}, {1, &counters_}, {2, &emitters_}, {3, &states_}, {4, &spawn_sums_},
                        {5, &free_list_}, {6, &alive_out}, {7, &pool_}, {8, &program_}, {9, &channels},
                        {10, &wide_registers_}})
              .push(push)
              .dispatch(wide_groups);
        } else {
          rec.bind(d.compiled_emit ? *d.compiled_emit : d.init_large_window ? emit_large_window_ : emit_)
              .buffers({{0, &params_}, {1, &counters_}, {2, &emitters_}, {3, &states_}, {4, &spawn_sums_},
                        {5, &free_list_}, {6, &alive_out}, {7, &pool_}, {8, &program_}, {9, &channels}})
              .push(push)
              .dispatch_indirect(counters_, shader::kFrameEmitArgsOffset);
        }
        // Wide dispatches share one register file: each waits for the one before.
        if (wide) gpu::compute_to_compute(cmd);
      }
      // Emit takes slots off the free list; compact pushes the freed ones back.
      gpu::compute_to_compute(cmd);
      pass_end();
    }
    pass("simulate");
    // (6) simulate last frame's alive list, one dispatch per live program; the first frees the
    // orphans (it runs even with no live program, so removed emitters' particles still die).
    // Each dispatch adds its survivors to the cleared per-tile counts and masks.
    vkCmdFillBuffer(cmd, keep_.handle(), 0, VK_WHOLE_SIZE, 0u);
    gpu::transfer_to_compute(cmd);
    const std::vector<Dispatch> dispatches = programs.empty() ? std::vector<Dispatch>{{0xFFFFFFFFu, false}} : programs;
    for (size_t i = 0; i < dispatches.size(); ++i) {
      const Dispatch& d = dispatches[i];
      const FramePush push = frame_push(d.program, Section::kUpdate, i == 0 ? 1u : 0u, dispatches.size() == 1 ? 1u : 0u);
      gpu::ComputeRecorder rec(device, cmd);
      if (d.wide && !d.compiled) {
        rec.bind(simulate_wide_)
            .buffers({{0, &params_}, {1, &counters_}, {2, &emitters_}, {3, &states_}, {4, &alive_in},
                      {6, &keep_}, {7, &pool_}, {8, &program_}, {9, &channels},
                      {10, &wide_registers_}})
            .push(push)
            .dispatch(wide_groups);
        gpu::compute_to_compute(cmd);
      } else {
        rec.bind(d.compiled ? *d.compiled : d.update_large_window ? simulate_large_window_ : simulate_)
            .buffers({{0, &params_}, {1, &counters_}, {2, &emitters_}, {3, &states_}, {4, &alive_in},
                      {6, &keep_}, {7, &pool_}, {8, &program_}, {9, &channels}})
            .push(push)
            .dispatch_indirect(counters_, shader::kFrameSimulateArgsOffset);
      }
    }
    gpu::compute_to_compute(cmd);
    pass_end();
    pass("compact");
    // (6b) the survivors into this frame's list after the newborns, and the freed slots onto the
    // free list, both in last frame's order: the tiles' survivor counts scanned in place (every
    // tile of the capacity: a few hundred thousand words at most, zero past the list), then
    // placed (frame_compact.comp) from the sums and the tiles' bits.
    if (Status st = keep_scan_.record(cmd, keep_, keep_, gpu::ScanCount::host(keep_scan_.capacity()), gpu::ScanKind::kInclusive);
        !st.ok() && scan_status.ok())
      scan_status = st;
    gpu::compute_to_compute(cmd);
    gpu::ComputeRecorder(device, cmd)
        .bind(compact_)
        .buffers({{0, &params_}, {1, &counters_}, {2, &keep_}, {3, &alive_in}, {4, &alive_out}, {5, &free_list_}})
        .dispatch_indirect(counters_, shader::kFrameSimulateArgsOffset);
    gpu::compute_to_compute(cmd);
    pass_end();
    pass("finish");
    // (7) this frame's alive count (newborns + survivors) and next frame's simulate dispatch.
    gpu::ComputeRecorder(device, cmd).bind(finish_).buffers({{0, &counters_}, {1, &params_}, {2, &keep_}}).dispatch(1);
    frame_end_barrier(cmd);
    pass_end();
  }));
  MOTE_TRY(scan_status);
  if (staging) staging->serial = serial;
  uploads_.staged_regions += copies.size();
  uploads_.updated_regions += uploads.size() - copies.size();
  // The GPU now has the heap's layout and words, and the rows' records.
  for (uint32_t i = 0; i < kHeapSectionCount; ++i) {
    gpu_bases_[i] = heap_->section_base(HeapSection(i));
    gpu_capacities_[i] = heap_->section_capacity(HeapSection(i));
  }
  gpu_image_words_ = uint32_t(image.size());
  heap_->clear_changes();
  heap_->clear_dirty();
  dirty_rows_.clear();
  bindings_dirty_ = false;
  if (bind_pass) bindings_written_ = true;
  ++frame_;
  return ok_status();
}

Result<std::vector<uint32_t>> ParticleSystem::read_program_image() {
  return gpu::readback_as<uint32_t>(*device_, program_, gpu_image_words_, VkDeviceSize(kShapeWords) * 4);
}

Result<std::vector<uint32_t>> ParticleSystem::read_emitter_table(uint32_t rows) {
  return gpu::readback_as<uint32_t>(*device_, emitters_,
                                    size_t(std::min(rows, options_.max_emitters)) * shader::kEmitterRecordWords);
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
  return gpu::readback_as<FrameEmitterState>(*device_, states_, options_.max_emitters);
}

}  // namespace mote::runtime
