#include "runtime/drivers/stateless_driver.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "shared/emitter_record.h"
#include "shared/frame.h"
#include "shared/particle.h"
#include "shared/vm_limits.h"
#include "vm_gpu/fast_operands.hpp"

namespace mote::runtime {

namespace {

Error no_stateless_row(uint32_t row) {
  return make_error(ErrorCode::kNotFound, "no stateless emitter at row " + std::to_string(row));
}

}  // namespace

Result<StatelessDrivers> StatelessDrivers::create(gpu::Device& device) {
  StatelessDrivers d;
  d.device_ = &device;
  MOTE_TRY_ASSIGN(d.scatter_, gpu::ComputePipeline::create(device, "runtime/drivers/stateless_scatter"));
  MOTE_TRY_ASSIGN(d.outcomes_, gpu::Buffer::create(device, {.size = 16, .name = "mote.stateless_outcomes"}));
  MOTE_TRY_ASSIGN(d.op_counts_, gpu::Buffer::create(device, {.size = 256 * 4, .name = "mote.stateless_op_counts"}));
  MOTE_TRY_ASSIGN(d.trace_, gpu::Buffer::create(device, {.size = 16, .name = "mote.stateless_trace"}));
  return d;
}

Status StatelessDrivers::add(gpu::Device& device, uint32_t row, sim::StatelessEvaluation eval,
                             uint32_t pool_record_words) {
  Row r;
  r.eval = std::move(eval);
  // Whole 16-byte chunks let the interpreter stage the record window (src/vm_gpu/record_window.hpp);
  // the padding words are zeros the scatter copies over the record's own zeros.
  r.eval_words = std::min((r.eval.record_words + 3u) / 4u * 4u, pool_record_words);
  if (r.eval.record_words > pool_record_words)
    return make_error(ErrorCode::kInvalidArgument, "the program's record does not fit the pool's stride");
  const Program& program = r.eval.linked;
  r.which = choose_gpu_interpreter(program);
  GpuInterpreterSpecialization spec = gpu_interpreter_specialization(program, Section::kEval, r.eval_words);
  spec.instrumented = false;
  spec.writes_outcomes = false;
  MOTE_TRY_ASSIGN(r.interpreter, create_gpu_interpreter(device, r.which, spec));
  if (r.which == GpuInterpreter::kWide && !wide_registers_.valid()) {
    MOTE_TRY_ASSIGN(wide_registers_, gpu::Buffer::create(device, {.size = VkDeviceSize(shader::kVmWideLaunchLanes) *
                                                                          shader::kVmMaxRegisters * 4,
                                                                  .name = "mote.stateless_wide_registers"}));
  }
  // The image as written (no move fold: the fold would bake this run's TIME into the code, and
  // the clock changes every frame). Its records are not part of it: only the count is read.
  RunInput input = r.eval.input(0.0f);
  input.record_words = r.eval_words;
  input.records.clear();
  r.image = make_gpu_program_image(input, r.eval_words, r.which, device.limits(), nullptr);
  r.image.params.flags = 0;
  MOTE_TRY_ASSIGN(r.program, gpu::Buffer::create(device, {.size = r.image.words.size() * 4,
                                                          .usage = kProgramBufferUsage,
                                                          .name = "mote.stateless_program"}));
  MOTE_TRY_ASSIGN(r.params, gpu::Buffer::create(device, {.size = sizeof(shader::VmRunParams),
                                                         .usage = kParamsBufferUsage,
                                                         .name = "mote.stateless_params"}));
  MOTE_TRY_ASSIGN(r.evaluated, gpu::Buffer::create(device, {.size = VkDeviceSize(r.eval.count) * r.eval_words * 4,
                                                            .name = "mote.stateless_evaluated"}));
  MOTE_TRY(gpu::upload_span<uint32_t>(device, r.program, r.image.words));
  MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
    vkCmdFillBuffer(cmd, r.evaluated.handle(), 0, VK_WHOLE_SIZE, 0u);
  }));
  rows_.insert_or_assign(row, std::move(r));
  return ok_status();
}

Result<StatelessDrivers::Row*> StatelessDrivers::find(uint32_t row) {
  auto it = rows_.find(row);
  if (it == rows_.end()) return no_stateless_row(row);
  return &it->second;
}

Result<const StatelessDrivers::Row*> StatelessDrivers::find(uint32_t row) const {
  auto it = rows_.find(row);
  if (it == rows_.end()) return no_stateless_row(row);
  return &it->second;
}

Status StatelessDrivers::set_time(uint32_t row, double time) {
  if (!std::isfinite(time))
    return make_error(ErrorCode::kInvalidArgument, "a stateless emitter's time must be a finite number of seconds");
  MOTE_TRY_ASSIGN(Row * r, find(row));
  r->time = time;
  return ok_status();
}

Status StatelessDrivers::set_time_scale(uint32_t row, double scale) {
  if (!std::isfinite(scale))
    return make_error(ErrorCode::kInvalidArgument, "a stateless emitter's time scale must be a finite number");
  MOTE_TRY_ASSIGN(Row * r, find(row));
  r->scale = scale;
  return ok_status();
}

Result<double> StatelessDrivers::time(uint32_t row) const {
  MOTE_TRY_ASSIGN(const Row* r, find(row));
  return r->time;
}

Result<double> StatelessDrivers::time_scale(uint32_t row) const {
  MOTE_TRY_ASSIGN(const Row* r, find(row));
  return r->scale;
}

uint32_t StatelessDrivers::count(uint32_t row) const {
  auto it = rows_.find(row);
  return it == rows_.end() ? 0u : it->second.eval.count;
}

const sim::StatelessEvaluation* StatelessDrivers::evaluation(uint32_t row) const {
  auto it = rows_.find(row);
  return it == rows_.end() ? nullptr : &it->second.eval;
}

bool StatelessDrivers::runs(const EmitterLifecycle& emitters, uint32_t row) {
  const EmitterLifecycle::Row* live = emitters.row(row);
  return live != nullptr && (live->emitter.control_flags & shader::kEmitterFlagInactive) == 0;
}

Status StatelessDrivers::prepare(const EmitterLifecycle& emitters, ManualDrivers& manual) {
  for (const auto& [row, r] : rows_) {
    // An upload with nothing written places the records when they are not placed (the first
    // frame, after the row was inactive) and sends nothing otherwise (ManualDrivers::prepare).
    // An inactive row asks for nothing: a placing burst would wait there for it.
    if (runs(emitters, row)) MOTE_TRY(manual.upload(row));
  }
  return ok_status();
}

void StatelessDrivers::record_uploads(VkCommandBuffer cmd, const EmitterLifecycle& emitters) const {
  for (const auto& [row, r] : rows_) {
    if (!runs(emitters, row)) continue;
    shader::VmRunParams params = r.image.params;
    params.time = float(r.time);
    vkCmdUpdateBuffer(cmd, r.params.handle(), 0, sizeof(params), &params);
  }
}

void StatelessDrivers::record(const FrameRecording& frame, const EmitterLifecycle& emitters,
                              const ManualDrivers& manual) const {
  if (rows_.empty()) return;
  frame.begin_pass("stateless");
  bool any = false;
  for (const auto& [row, r] : rows_) {
    if (!runs(emitters, row)) continue;
    any = true;
    gpu::ComputeRecorder rec(frame.device, frame.cmd);
    rec.bind(r.interpreter);
    if (r.which == GpuInterpreter::kWide)
      rec.buffers({{0, &r.program},
                   {1, &r.evaluated},
                   {2, &outcomes_},
                   {3, &op_counts_},
                   {4, &r.params},
                   {5, &wide_registers_},
                   {6, &trace_},
                   {10, frame.field_headers},
                   {11, frame.field_values},
                   {12, frame.collision_depth},
                   code_view(r.image, r.program),
                   shapes_view(r.image, r.program)});
    else
      rec.buffers({{0, &r.program},
                   {1, &r.evaluated},
                   {2, &outcomes_},
                   {3, &op_counts_},
                   {4, &r.params},
                   {6, &trace_},
                   {10, frame.field_headers},
                   {11, frame.field_values},
                   {12, frame.collision_depth},
                   code_view(r.image, r.program),
                   immediates_view(r.image, r.program)});
    rec.dispatch(r.image.groups);
  }
  if (any) gpu::compute_to_compute(frame.cmd);
  const FrameBuffers& b = frame.buffers;
  for (const auto& [row, r] : rows_) {
    const gpu::Buffer* slots = manual.slot_map(row);
    if (!runs(emitters, row) || slots == nullptr) continue;
    const uint32_t header = (row & shader::kFrameHeaderRowMask) |
                            ((emitters.generation(row) & shader::kFrameHeaderGenerationMask)
                             << shader::kFrameHeaderRowBits);
    gpu::ComputeRecorder(frame.device, frame.cmd)
        .bind(scatter_)
        .buffers({{shader::kFrameBindingParams, &b.params},
                  {shader::kFrameBindingPool, &b.pool},
                  {shader::kStatelessBindingEvaluated, &r.evaluated},
                  {shader::kManualFillBindingSlots, slots}})
        .push(shader::StatelessScatterPush{r.eval.count, r.eval_words, header, 0u})
        .dispatch_threads(r.eval.count);
  }
  if (any) gpu::compute_to_compute(frame.cmd);
  frame.end_pass();
}

void StatelessDrivers::recorded(float dt, const EmitterLifecycle& emitters) {
  for (auto& [row, r] : rows_) {
    const EmitterLifecycle::Row* live = emitters.row(row);
    if (live == nullptr) continue;
    if ((live->emitter.control_flags & (shader::kEmitterFlagInactive | shader::kEmitterFlagPaused)) != 0) continue;
    r.time += double(dt) * r.scale;
  }
}

}  // namespace mote::runtime
