#include "core/alloc_guard.hpp"
#include "vm_gpu/gpu_executor.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <map>
#include <optional>
#include <string>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/transfer.hpp"
#include "shared/vm_gpu.h"
#include "shared/vm_limits.h"
#include "vm/executor_common.hpp"
#include "vm/depth_sampling.hpp"
#include "vm/vector_field_sampling.hpp"
#include "vm/wind_field.hpp"
#include "vm_gpu/fast_fold.hpp"
#include "vm_gpu/fast_fuse.hpp"
#include "vm_gpu/fast_reads.hpp"
#include "vm_gpu/record_window.hpp"

namespace mote {
namespace {

constexpr float kNoFieldValues[4] = {};

class GpuExecutor final : public TracingGpuExecutor {
 public:
  GpuExecutor(gpu::Device& device, GpuInterpreter interpreter, GpuExecutorOptions options,
              std::unique_ptr<gpu::Device> owned = nullptr, bool verify = true)
      : owned_(std::move(owned)), device_(device), interpreter_(interpreter), options_(options), verify_(verify) {}

  std::string_view name() const override {
    switch (interpreter_) {
      case GpuInterpreter::kFast: return "gpu-fast";
      case GpuInterpreter::kWide: return "gpu-wide";
      default: return "gpu";
    }
  }

  Result<RunOutput> run(const RunInput& input) override { return run_traced(input, nullptr); }
  // With `trace`: also every instruction's result per particle (see kVmRunTrace).
  // A failed host allocation is kOutOfMemory, not an exception (docs/design/reliability.md).
  Result<RunOutput> run_traced(const RunInput& input, std::vector<uint32_t>* trace) override {
    return core::guard_allocation("the GPU executor's run", [&] { return run_traced_unguarded(input, trace); });
  }
  Result<RunOutput> run_traced_unguarded(const RunInput& input, std::vector<uint32_t>* trace);
  Status run_into(const RunInput& input, RunOutput& out) override {
    MOTE_TRY_ASSIGN(out, run(input));
    return {};
  }

 private:
  Result<const gpu::ComputePipeline*> pipeline(GpuInterpreter which, const GpuInterpreterSpecialization& spec);

  std::unique_ptr<gpu::Device> owned_;  // declared first: destroyed last
  gpu::Device& device_;
  GpuInterpreter interpreter_;
  GpuExecutorOptions options_;
  bool verify_ = true;
  std::map<std::pair<GpuInterpreter, GpuInterpreterSpecialization>, gpu::ComputePipeline> pipelines_;
  gpu::Buffer wide_registers_;
};

Result<const gpu::ComputePipeline*> GpuExecutor::pipeline(GpuInterpreter which,
                                                          const GpuInterpreterSpecialization& spec) {
  auto found = pipelines_.find({which, spec});
  if (found == pipelines_.end()) {
    MOTE_TRY_ASSIGN(gpu::ComputePipeline p, create_gpu_interpreter(device_, which, spec));
    found = pipelines_.emplace(std::pair{which, spec}, std::move(p)).first;
  }
  return &found->second;
}

Result<RunOutput> GpuExecutor::run_traced_unguarded(const RunInput& input, std::vector<uint32_t>* trace_out) {
  uint32_t record_words = effective_record_words(input);
  if (verify_) {
    MOTE_TRY_ASSIGN(record_words, vm_detail::validate_run_input(input));
  } else if (!input.program || record_words == 0 || input.records.size() != size_t(input.count) * record_words) {
    return make_error(ErrorCode::kInvalidArgument, "records do not match count * record_words");
  }
  if (trace_out && !options_.count_ops)
    return make_error(ErrorCode::kUnsupported, "a trace needs an executor that counts opcodes (count_ops)");
  const Program& program = *input.program;
  GpuInterpreter which = interpreter_ == GpuInterpreter::kAuto ? choose_gpu_interpreter(program) : interpreter_;
  if (which == GpuInterpreter::kFast && program.register_count > shader::kVmFastRegisterSlots)
    return make_error(ErrorCode::kUnsupported, "program needs " + std::to_string(program.register_count) +
                                                   " registers; the fast interpreter has " +
                                                   std::to_string(shader::kVmFastRegisterSlots) +
                                                   " (use gpu-wide or gpu)");
  if (which == GpuInterpreter::kFast && !fits_fast_interpreter(program))
    return make_error(ErrorCode::kUnsupported,
                      "a section holds more than " + std::to_string(shader::kVmFastMaxImmediates) +
                          " distinct immediates, the fast interpreter's file holds that many (use gpu-wide or gpu)");
  GpuInterpreterSpecialization spec = gpu_interpreter_specialization(program, input.section, record_words);
  spec.instrumented = options_.count_ops;
  MOTE_TRY_ASSIGN(const gpu::ComputePipeline* pass, pipeline(which, spec));
  if (which == GpuInterpreter::kWide && !wide_registers_.valid()) {
    MOTE_TRY_ASSIGN(wide_registers_, gpu::Buffer::create(device_, {.size = VkDeviceSize(shader::kVmWideLaunchLanes) *
                                                                           shader::kVmMaxRegisters * 4,
                                                                   .name = "vm.wide_registers"}));
  }
  GpuProgramImage image = make_gpu_program_image(input, record_words, which, device_.limits(), &spec);
  return run_gpu_harness(device_, input, image, trace_out, [&](gpu::ComputeRecorder& rec, const GpuRunBuffers& b) {
    rec.bind(*pass);
    if (which == GpuInterpreter::kWide)
      rec.buffers({{0, &b.program},
                   {1, &b.records},
                   {2, &b.killed},
                   {3, &b.op_counts},
                   {4, &b.params},
                   {5, &wide_registers_},
                   {6, &b.trace},
                   {10, &b.field_headers},
                   {11, &b.field_values},
                   {12, &b.depth},
                   code_view(image, b.program),
                   shapes_view(image, b.program)});
    else
      rec.buffers({{0, &b.program},
                   {1, &b.records},
                   {2, &b.killed},
                   {3, &b.op_counts},
                   {4, &b.params},
                   {6, &b.trace},
                   {10, &b.field_headers},
                   {11, &b.field_values},
                   {12, &b.depth},
                   code_view(image, b.program),
                   immediates_view(image, b.program)});
    rec.dispatch(image.groups);
  });
}

}  // namespace

Result<RunOutput> run_gpu_harness(gpu::Device& device, const RunInput& input, GpuProgramImage& image,
                                  std::vector<uint32_t>* trace_out,
                                  const std::function<void(gpu::ComputeRecorder&, const GpuRunBuffers&)>& dispatch) {
  RunOutput out;
  if (!input.event_payloads.empty())
    return make_error(ErrorCode::kUnsupported,
                      "the GPU run harnesses read no event payloads (the GPU frame's emit reads its event queue)",
                      "RunInput.event_payloads");
  out.killed.assign(input.count, 0);
  out.events.assign(size_t(input.count) * shader::kVmEventOutputs, 0);
  if (input.count == 0) {
    out.records = input.records;
    return out;
  }
  shader::VmRunParams& params = image.params;
  params.flags = shader::kVmRunCountOps | (trace_out ? shader::kVmRunTrace : 0u);
  const VkDeviceSize trace_words = trace_out
                                       ? std::max<VkDeviceSize>(1, VkDeviceSize(input.count) * params.code_length * 4)
                                       : 1;

  const VkDeviceSize record_bytes = VkDeviceSize(input.records.size()) * 4;
  GpuRunBuffers b;
  MOTE_TRY_ASSIGN(b.program, gpu::Buffer::create(device, {.size = image.words.size() * 4,
                                                          .usage = kProgramBufferUsage,
                                                          .name = "vm.program"}));
  MOTE_TRY_ASSIGN(b.records, gpu::Buffer::create(device, {.size = record_bytes, .name = "vm.records"}));
  MOTE_TRY_ASSIGN(b.killed,
                  gpu::Buffer::create(device, {.size = VkDeviceSize(input.count) * shader::kVmRunOutcomeWords * 4,
                                               .name = "vm.killed"}));
  MOTE_TRY_ASSIGN(b.op_counts, gpu::Buffer::create(device, {.size = 256 * 4, .name = "vm.op_counts"}));
  MOTE_TRY_ASSIGN(b.trace, gpu::Buffer::create(device, {.size = trace_words * 4, .name = "vm.trace"}));
  MOTE_TRY_ASSIGN(b.params,
                  gpu::Buffer::create(device,
                                      {.size = sizeof(params), .usage = kParamsBufferUsage, .name = "vm.params"}));
  // The fields' table (every slot's header, then the vectors; one zero float when there are none,
  // so the buffer is never empty). Shapes are checked here too: a caller may skip the verifier.
  MOTE_TRY(check_vector_field_shapes(input.vector_fields));
  const VectorFieldTable fields = vector_field_table(input.vector_fields);
  const std::span<const float> field_values = fields.values.empty() ? std::span<const float>(kNoFieldValues)
                                                                    : std::span<const float>(fields.values);
  MOTE_TRY_ASSIGN(b.field_headers,
                  gpu::Buffer::create(device, {.size = sizeof(fields.headers), .name = "vm.field_headers"}));
  MOTE_TRY_ASSIGN(b.field_values,
                  gpu::Buffer::create(device, {.size = field_values.size_bytes(), .name = "vm.field_values"}));
  MOTE_TRY(gpu::upload(device, b.field_headers,
                       std::span(reinterpret_cast<const uint8_t*>(fields.headers.data()), sizeof(fields.headers))));
  MOTE_TRY(gpu::upload_span<float>(device, b.field_values, field_values));
  MOTE_TRY(check_depth_image_shape(input.depth));
  const std::vector<uint32_t> depth_words = depth_buffer_words(input.depth);
  MOTE_TRY_ASSIGN(b.depth, gpu::Buffer::create(device, {.size = depth_words.size() * 4, .name = "vm.depth"}));
  MOTE_TRY(gpu::upload_span<uint32_t>(device, b.depth, depth_words));
  MOTE_TRY(gpu::upload_span<uint32_t>(device, b.program, image.words));
  MOTE_TRY(gpu::upload_span<uint32_t>(device, b.records, input.records));
  MOTE_TRY(gpu::upload(device, b.params, std::span(reinterpret_cast<const uint8_t*>(&params), sizeof(params))));

  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    // Poison the kill flags so an invocation that never ran cannot pass as "alive".
    vkCmdFillBuffer(cmd, b.killed.handle(), 0, VK_WHOLE_SIZE, 0xDEADBEEFu);
    vkCmdFillBuffer(cmd, b.op_counts.handle(), 0, VK_WHOLE_SIZE, 0);
    gpu::transfer_to_compute(cmd);
    gpu::ComputeRecorder rec(device, cmd);
    dispatch(rec, b);
  }));

  MOTE_TRY_ASSIGN(out.records, gpu::readback_as<uint32_t>(device, b.records, input.records.size()));
  MOTE_TRY_ASSIGN(std::vector<uint32_t> outcomes,
                  gpu::readback_as<uint32_t>(device, b.killed, size_t(input.count) * shader::kVmRunOutcomeWords));
  MOTE_TRY_ASSIGN(std::vector<uint32_t> counts, gpu::readback_as<uint32_t>(device, b.op_counts, 256));
  static_assert(shader::kVmRunOutcomeWords == 1 + shader::kVmEventOutputs);
  out.events.assign(size_t(input.count) * shader::kVmEventOutputs, 0);
  for (uint32_t i = 0; i < input.count; ++i) {
    const uint32_t* outcome = outcomes.data() + size_t(i) * shader::kVmRunOutcomeWords;
    if (outcome[0] > 1)
      return make_error(ErrorCode::kInternal, "GPU executor left particle " + std::to_string(i) + " unprocessed");
    out.killed[i] = uint8_t(outcome[0]);
    std::copy(outcome + 1, outcome + shader::kVmRunOutcomeWords,
              out.events.begin() + size_t(i) * shader::kVmEventOutputs);
  }
  for (size_t op = 0; op < 256; ++op) out.op_executions[op] = counts[op];
  if (trace_out) {
    MOTE_TRY_ASSIGN(*trace_out, gpu::readback_as<uint32_t>(device, b.trace, trace_words));
    trace_out->resize(size_t(input.count) * params.code_length * 4);
  }
  return out;
}

gpu::BufferBinding code_view(const GpuProgramImage& image, const gpu::Buffer& program_buffer) {
  return {7, &program_buffer, VkDeviceSize(image.params.code_offset) * 4, VkDeviceSize(image.code_view_words) * 4};
}

gpu::BufferBinding shapes_view(const GpuProgramImage& image, const gpu::Buffer& program_buffer) {
  return {8, &program_buffer, VkDeviceSize(image.params.shapes_offset) * 4, 64 * 16};
}

gpu::BufferBinding immediates_view(const GpuProgramImage& image, const gpu::Buffer& program_buffer) {
  return {9, &program_buffer, VkDeviceSize(image.immediates_offset) * 4, kImmediatesViewBytes};
}

const char* gpu_interpreter_shader(GpuInterpreter which) {
  return which == GpuInterpreter::kWide ? "vm_gpu/run_program_wide" : "vm_gpu/run_program_fast";
}

GpuInterpreterSpecialization gpu_interpreter_specialization(const Program& program, Section section,
                                                            uint32_t record_words, bool stage_window,
                                                            bool only_its_opcodes) {
  GpuInterpreterSpecialization spec;
  if (stage_window) spec.window_chunks = record_window(program, section, record_words).chunks;
  if (only_its_opcodes) {
    spec.opcodes = 0;
    for (const Instruction& ins : program.code(section))
      spec.opcodes |= uint64_t(1) << (shader::vm_op(ins.words[0]) & 63u);
    spec.opcodes |= uint64_t(1) << uint32_t(isa::Op::MOV);  // the move fold may copy a field value into a register
  }
  return spec;
}

Result<gpu::ComputePipeline> create_gpu_interpreter(gpu::Device& device, GpuInterpreter which,
                                                    const GpuInterpreterSpecialization& spec) {
  // The block's staged windows take 64 * (8 * 4 + 1) words at most (8.4 KiB), inside the 16 KiB
  // of workgroup memory every Vulkan device has.
  static_assert(shader::kVmWorkgroupSize * (shader::kVmMaxWindowChunks * 4 + 1) * 4 <= 16384);
  const gpu::SpecializationConstant constants[] = {{1, spec.window_chunks},
                                                   {2, uint32_t(spec.opcodes)},
                                                   {3, uint32_t(spec.opcodes >> 32)},
                                                   {5, spec.instrumented ? 1u : 0u},
                                                   {6, spec.writes_outcomes ? 1u : 0u}};
  return gpu::ComputePipeline::create(device, gpu_interpreter_shader(which), constants);
}

namespace {

// LOAD_BUILTIN as shaders/vm_gpu/harness_builtins.glsl reads it, for the builtins every particle of
// the run shares, from the same values the run's parameters and program buffer carry (below):
// the four components before the lane count masks them. Nothing for the per-particle ones.
std::optional<std::array<uint32_t, 4>> run_uniform_builtin(const RunInput& input, uint32_t id) {
  const uint32_t space = id >> shader::kVmBuiltinSpaceShift, index = id & shader::kVmBuiltinIndexMask;
  const auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
  std::array<uint32_t, 4> v{};
  if (space == shader::kVmSpaceEmitterField || space == shader::kVmSpaceGlobalField) {
    const std::vector<uint32_t>& fields = space == shader::kVmSpaceEmitterField ? input.emitter_fields
                                                                                : input.global_fields;
    for (uint32_t c = 0; c < 4; ++c)
      v[c] = fields.empty() ? 0u : fields[std::min<size_t>(uint32_t(index + c), fields.size() - 1)];
    return v;
  }
  if (space != shader::kVmSpaceEngine) return v;
  const VmEmitterContext& e = input.emitter;
  switch (isa::Builtin(index)) {
    case isa::Builtin::DT: v[0] = bits(e.dt); break;
    case isa::Builtin::TIME: v[0] = bits(e.time); break;
    case isa::Builtin::EMITTER_AGE: v[0] = bits(e.emitter_age); break;
    case isa::Builtin::EMITTER_POSITION: v = {bits(e.position[0]), bits(e.position[1]), bits(e.position[2]), 0u}; break;
    case isa::Builtin::EMITTER_DIRECTION:
      v = {bits(e.direction[0]), bits(e.direction[1]), bits(e.direction[2]), 0u};
      break;
    case isa::Builtin::EMITTER_UP: v = {bits(e.up[0]), bits(e.up[1]), bits(e.up[2]), 0u}; break;
    case isa::Builtin::EMITTER_ROTATION:
      v = {bits(e.rotation[0]), bits(e.rotation[1]), bits(e.rotation[2]), bits(e.rotation[3])};
      break;
    case isa::Builtin::SPAWN_COUNT:
      if (input.count > (1u << 24)) return std::nullopt;  // float(count) is exact only up to 2^24
      v[0] = bits(float(input.count));
      break;
    case isa::Builtin::EMITTER_SEED: v[0] = bits(float(e.seed & 0xFFFFFFu)); break;
    case isa::Builtin::PARTICLE_INDEX:
    case isa::Builtin::SPAWN_INDEX:
    case isa::Builtin::SPAWN_FRACTION:
    case isa::Builtin::EVENT_POSITION:
    case isa::Builtin::EVENT_VELOCITY:
    case isa::Builtin::EVENT_COLOR:
    case isa::Builtin::EVENT_ID: return std::nullopt;
    default: break;  // an unknown engine builtin reads 0
  }
  return v;
}

}  // namespace

GpuProgramImage make_gpu_program_image(const RunInput& input, uint32_t record_words, GpuInterpreter which,
                                       const VkPhysicalDeviceLimits& limits,
                                       const GpuInterpreterSpecialization* pipeline) {
  const Program& program = *input.program;
  GpuProgramImage image;
  std::vector<uint32_t>& words = image.words;
  shader::VmRunParams& params = image.params;
  // Uniform-buffer views (shapes, the section's code) start at the device's offset alignment.
  const uint32_t align_words = uint32_t(std::max<VkDeviceSize>(16, limits.minUniformBufferOffsetAlignment) / 4);
  auto align = [&] { words.resize((words.size() + align_words - 1) / align_words * align_words, 0); };
  // Opcode shapes: std140 uvec4 per opcode (the shape in .x), 64 entries.
  params.shapes_offset = 0;
  words.assign(64 * 4, 0);
  for (const isa::OpInfo& op : isa::all_ops()) words[op.number * 4] = isa::op_shape(op);
  params.constants_offset = uint32_t(words.size());
  params.constants_words = uint32_t(program.constants.size());
  words.insert(words.end(), program.constants.begin(), program.constants.end());
  align();
  // The fast interpreter runs the sections in the fast operand form (src/vm_gpu/fast_operands.hpp)
  // and reads the run's section's immediates from their own uniform view; the wide one runs
  // the instructions as they are. (A section whose immediates do not fit stays as it is: the
  // executor never runs the fast interpreter on it, and the compiled kernels read no code.)
  const RecordWindow window = record_window(program, input.section, record_words);
  std::optional<FastOperandSection> fast[std::size(kAllSections)];
  if (which == GpuInterpreter::kFast) {
    for (Section section : kAllSections) fast[uint32_t(section)] = fast_operand_section(program.code(section));
    // A pipeline without the counters and the trace runs the section with its moves folded;
    // the run's section is the one that matters (the other is never read).
    if (pipeline && !pipeline->instrumented) {
      std::optional<FastOperandSection>& run = fast[uint32_t(input.section)];
      FastFoldContext fold{.constants = program.constants, .record_words = record_words};
      fold.uniform_builtin = [&input](uint32_t id) { return run_uniform_builtin(input, id); };
      if (pipeline->window_chunks > 0 && pipeline->window_chunks == window.chunks) fold.window = window;
      if (run) run = read_constants_as_constants(fuse_fast_instructions(fold_fast_moves(*run, fold)));
    }
  }
  auto insert_section = [&](const std::vector<Instruction>& code, const std::optional<FastOperandSection>& rewritten) {
    if (rewritten) {
      words.insert(words.end(), rewritten->code.begin(), rewritten->code.end());
      return;
    }
    for (const Instruction& ins : code) words.insert(words.end(), ins.words.begin(), ins.words.end());
  };
  uint32_t section_offsets[std::size(kAllSections)] = {};
  for (Section section : kAllSections) {
    section_offsets[uint32_t(section)] = uint32_t(words.size());
    insert_section(program.code(section), fast[uint32_t(section)]);
    align();
  }
  // The immediates block (run_program.comp, binding 9): the count, then the bit patterns, then
  // the constant vectors.
  image.immediates_offset = uint32_t(words.size());
  words.resize(words.size() + kImmediatesViewBytes / 4, 0);
  if (const std::optional<FastOperandSection>& run = fast[uint32_t(input.section)]; run) {
    words[image.immediates_offset] = uint32_t(run->immediates.size());
    std::copy(run->immediates.begin(), run->immediates.end(), words.begin() + image.immediates_offset + 4);
    const size_t vectors_at = image.immediates_offset + kConstantVectorsViewOffset / 4;
    for (size_t v = 0; v < run->constant_vectors.size(); ++v)
      std::copy(run->constant_vectors[v].begin(), run->constant_vectors[v].end(), words.begin() + vectors_at + 4 * v);
  }
  params.emitter_fields_offset = uint32_t(words.size());
  params.emitter_fields_words = uint32_t(input.emitter_fields.size());
  words.insert(words.end(), input.emitter_fields.begin(), input.emitter_fields.end());
  params.globals_offset = uint32_t(words.size());
  params.globals_words = uint32_t(input.global_fields.size());
  words.insert(words.end(), input.global_fields.begin(), input.global_fields.end());
  params.code_offset = section_offsets[uint32_t(input.section)];
  {
    const std::optional<FastOperandSection>& run = fast[uint32_t(input.section)];
    params.code_length = run ? uint32_t(run->code.size() / 4) : uint32_t(program.code(input.section).size());
  }
  // The code view is the shader's whole SectionCode block (4096 instructions = 64 KiB), so the
  // buffer extends at least that far past the section's start.
  image.code_view_words = shader::kVmMaxSectionInstructions * 4;
  words.resize(std::max<size_t>(words.size(), size_t(params.code_offset) + image.code_view_words), 0);

  const VmEmitterContext& e = input.emitter;
  params.emitter_position = {e.position[0], e.position[1], e.position[2], 0.0f};
  params.emitter_direction = {e.direction[0], e.direction[1], e.direction[2], 0.0f};
  params.emitter_up = {e.up[0], e.up[1], e.up[2], 0.0f};
  params.emitter_rotation = {e.rotation[0], e.rotation[1], e.rotation[2], e.rotation[3]};
  params.wind = vm_detail::to_shader_wind(input.wind);
  params.dt = e.dt;
  params.time = e.time;
  params.emitter_age = e.emitter_age;
  params.emitter_seed = e.seed;
  params.count = input.count;
  params.record_words = record_words;
  params.rng_base = input.rng_base;
  params.first_particle_index = input.first_particle_index;
  params.flags = 0;
  params.register_count = program.register_count;
  // The fast interpreter zeroes only the registers its section reads before writing them.
  if (const std::optional<FastOperandSection>& run = fast[uint32_t(input.section)]; run)
    params.register_count = run->registers_to_clear;
  params.record_capacity = input.count;  // callers bind exactly count * record_words words
  // The window is in the params whether or not the pipeline stages it (its specialisation
  // constant decides; see GpuInterpreterSpecialization).
  params.window_first_chunk = window.first_chunk;
  params.window_chunks = window.chunks;
  params.window_dirty_mask = window.dirty_mask;
  const uint32_t needed_groups = (input.count + shader::kVmWorkgroupSize - 1) / shader::kVmWorkgroupSize;
  image.groups = which == GpuInterpreter::kWide
                     ? shader::kVmWideLaunchLanes / shader::kVmWorkgroupSize
                     : std::max(1u, std::min(needed_groups, limits.maxComputeWorkGroupCount[0]));
  params.launch_lanes = image.groups * shader::kVmWorkgroupSize;
  return image;
}

Result<GpuTracedRun> run_gpu_traced(Executor& executor, const RunInput& input) {
  auto* gpu = dynamic_cast<TracingGpuExecutor*>(&executor);
  if (!gpu) return make_error(ErrorCode::kInvalidArgument, "run_gpu_traced needs a GPU executor");
  GpuTracedRun result;
  MOTE_TRY_ASSIGN(result.output, gpu->run_traced(input, &result.trace));
  return result;
}

GpuInterpreter choose_gpu_interpreter(const Program& program) {
  return fits_fast_interpreter(program) ? GpuInterpreter::kFast : GpuInterpreter::kWide;
}

std::unique_ptr<Executor> make_gpu_executor(gpu::Device& device, GpuInterpreter interpreter,
                                            GpuExecutorOptions options) {
  return std::make_unique<GpuExecutor>(device, interpreter, options);
}

std::unique_ptr<Executor> make_unverified_gpu_executor_for_tests(gpu::Device& device, GpuInterpreter interpreter) {
  return std::make_unique<GpuExecutor>(device, interpreter, GpuExecutorOptions{}, nullptr, /*verify=*/false);
}

Result<std::unique_ptr<Executor>> make_gpu_executor(const gpu::DeviceOptions& options, GpuInterpreter interpreter,
                                                    GpuExecutorOptions executor_options) {
  MOTE_TRY_ASSIGN(std::unique_ptr<gpu::Device> device, gpu::Device::create(options));
  gpu::Device& ref = *device;
  return std::unique_ptr<Executor>(std::make_unique<GpuExecutor>(ref, interpreter, executor_options,
                                                                 std::move(device)));
}

}  // namespace mote
