#include "runtime/frame/frame_events.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "runtime/frame/frame_buffers.hpp"
#include "runtime/frame/frame_recording.hpp"
#include "shared/frame.h"
#include "shared/vm_limits.h"
#include "sim/event_payload.hpp"

namespace mote::runtime {

using shader::FrameEvent;
using shader::FrameEventQueueHeader;
using shader::FrameEventRoutes;
using shader::FrameEventRow;

namespace {

// A zeroed device-local buffer of `bytes`.
Result<gpu::Buffer> make_zeroed(gpu::Device& device, VkDeviceSize bytes, VkBufferUsageFlags usage, const char* name) {
  MOTE_TRY_ASSIGN(gpu::Buffer buffer, make_frame_buffer(device, bytes, usage, name));
  const std::vector<uint8_t> zeros(size_t(std::max<VkDeviceSize>(bytes, 16)), 0);
  MOTE_TRY(gpu::upload(device, buffer, zeros));
  return buffer;
}

VkDeviceSize queue_bytes(uint32_t events) {
  return sizeof(FrameEventQueueHeader) + VkDeviceSize(events) * sizeof(FrameEvent);
}

// A route's target word: the row and its generation as a record header holds them, so a row
// reused after the send is told apart (event_count.comp).
uint32_t target_word(uint32_t row, uint32_t generation) {
  return (row & shader::kFrameHeaderRowMask) |
         ((generation & shader::kFrameHeaderGenerationMask) << shader::kFrameHeaderRowBits);
}

}  // namespace

Result<FrameEvents> FrameEvents::create(gpu::Device& device, uint32_t max_emitters, uint32_t capacity) {
  FrameEvents e;
  e.max_emitters_ = max_emitters;
  e.capacity_ = capacity;
  e.rows_.resize(max_emitters);
  const VkBufferUsageFlags queue_usage = kFrameStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
  MOTE_TRY_ASSIGN(e.routes_buffer_,
                  make_zeroed(device, sizeof(FrameEventRoutes), kFrameStorageUsage, "mote.frame.event_routes"));
  MOTE_TRY_ASSIGN(e.rows_buffer_,
                  make_zeroed(device, sizeof(FrameEventRow), kFrameStorageUsage, "mote.frame.event_rows"));
  MOTE_TRY_ASSIGN(e.queues_[0], make_zeroed(device, queue_bytes(1), queue_usage, "mote.frame.events0"));
  MOTE_TRY_ASSIGN(e.queues_[1], make_zeroed(device, queue_bytes(1), queue_usage, "mote.frame.events1"));
  MOTE_TRY_ASSIGN(e.children_, make_zeroed(device, 4, kFrameStorageUsage, "mote.frame.event_children"));
  MOTE_TRY_ASSIGN(e.args_, gpu::ComputePipeline::create(device, "runtime/frame/event_args"));
  MOTE_TRY_ASSIGN(e.keys_pipeline_, gpu::ComputePipeline::create(device, "runtime/frame/event_keys"));
  MOTE_TRY_ASSIGN(e.deliver_, gpu::ComputePipeline::create(device, "runtime/frame/event_deliver"));
  MOTE_TRY_ASSIGN(e.scatter_, gpu::ComputePipeline::create(device, "runtime/frame/event_scatter"));
  return e;
}

void FrameEvents::emitter_added(uint32_t row, uint32_t generation, const CompiledEffect& effect) {
  if (row >= rows_.size()) return;
  Row& r = rows_[row];
  r.live = true;
  r.generation = generation;
  r.outputs = effect.event_outputs;
  const sim::EventPayloadLayout layout = sim::event_payload_layout(effect);
  for (uint32_t part = 0; part < 4; ++part) r.payload[int(part)] = layout.offset[part] | (layout.width[part] << 16);
  dirty_ = true;
}

void FrameEvents::emitter_removed(uint32_t row) {
  if (row >= rows_.size()) return;
  rows_[row] = Row{};
  std::erase_if(bindings_, [&](const Binding& b) { return b.source == row || b.target == row; });
  dirty_ = true;
}

void FrameEvents::effect_swapped(uint32_t row, uint32_t generation, const CompiledEffect& effect) {
  if (row >= rows_.size()) return;
  emitter_added(row, generation, effect);
  const size_t outputs = effect.event_outputs.size();
  std::erase_if(bindings_, [&](const Binding& b) { return b.source == row && b.output >= outputs; });
}

Result<uint32_t> FrameEvents::output_index(uint32_t row, std::string_view name) const {
  if (row >= rows_.size() || !rows_[row].live) return make_error(ErrorCode::kNotFound, "no live emitter at that row");
  const std::vector<std::string>& outputs = rows_[row].outputs;
  for (uint32_t o = 0; o < outputs.size(); ++o)
    if (outputs[o] == name) return o;
  return make_error(ErrorCode::kNotFound, "the effect declares no event output '" + std::string(name) + "'", "output");
}

Status FrameEvents::bind(uint32_t source, uint32_t output, uint32_t target) {
  if (source >= rows_.size() || !rows_[source].live || target >= rows_.size() || !rows_[target].live)
    return make_error(ErrorCode::kNotFound, "no live emitter at that row",
                      source >= rows_.size() || !rows_[source].live ? "source" : "target");
  // A cooked effect keeps no output names: its outputs are bound by index, up to the ISA's.
  const size_t declared = rows_[source].outputs.empty() ? shader::kVmEventOutputs : rows_[source].outputs.size();
  if (output >= declared)
    return make_error(ErrorCode::kInvalidArgument,
                      "event output " + std::to_string(output) + " is not below " + std::to_string(declared), "output");
  uint32_t targets = 0;
  for (const Binding& b : bindings_) {
    if (b.source != source || b.output != output) continue;
    if (b.target == target)
      return make_error(ErrorCode::kInvalidArgument, "that output is already bound to that emitter", "target");
    ++targets;
  }
  if (targets >= shader::kFrameEventTargets)
    return make_error(ErrorCode::kInvalidArgument,
                      "an output is bound to at most " + std::to_string(shader::kFrameEventTargets) + " emitters",
                      "target");
  bindings_.push_back({source, output, target});
  dirty_ = true;
  return ok_status();
}

Status FrameEvents::unbind(uint32_t source, uint32_t output, uint32_t target) {
  const size_t before = bindings_.size();
  std::erase_if(bindings_,
                [&](const Binding& b) { return b.source == source && b.output == output && b.target == target; });
  if (bindings_.size() == before) return make_error(ErrorCode::kNotFound, "no such event binding");
  dirty_ = true;
  return ok_status();
}

void FrameEvents::rebuild_routes() {
  uint32_t rows = 0;
  for (uint32_t r = 0; r < rows_.size(); ++r)
    if (rows_[r].live) rows = r + 1;
  routes_.assign(std::max(rows, 1u), FrameEventRoutes{});
  for (uint32_t r = 0; r < rows; ++r) {
    FrameEventRoutes& route = routes_[r];
    for (int o = 0; o < 4; ++o) route.targets[o] = shader::uvec4(shader::kFrameNoEventTarget);
    route.payload = rows_[r].payload;
  }
  for (const Binding& b : bindings_) {
    FrameEventRoutes& route = routes_[b.source];
    for (int k = 0; k < int(shader::kFrameEventTargets); ++k) {
      if (route.targets[b.output][k] != shader::kFrameNoEventTarget) continue;
      route.targets[b.output][k] = target_word(b.target, rows_[b.target].generation);
      break;
    }
  }
}

Status FrameEvents::prepare(gpu::Device& device, FrameUploads& uploads, RetiredBuffers& retired, uint32_t frame) {
  if (!active()) return ok_status();
  if (!allocated_) {
    const VkBufferUsageFlags queue_usage = kFrameStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    MOTE_TRY_ASSIGN(gpu::Buffer routes,
                    make_frame_buffer(device, VkDeviceSize(max_emitters_) * sizeof(FrameEventRoutes),
                                      kFrameStorageUsage, "mote.frame.event_routes"));
    MOTE_TRY_ASSIGN(gpu::Buffer rows, make_frame_buffer(device, VkDeviceSize(max_emitters_) * sizeof(FrameEventRow),
                                                        kFrameStorageUsage, "mote.frame.event_rows"));
    MOTE_TRY_ASSIGN(gpu::Buffer queue0,
                    make_frame_buffer(device, queue_bytes(capacity_), queue_usage, "mote.frame.events0"));
    MOTE_TRY_ASSIGN(gpu::Buffer queue1,
                    make_frame_buffer(device, queue_bytes(capacity_), queue_usage, "mote.frame.events1"));
    MOTE_TRY_ASSIGN(gpu::Buffer children, make_frame_buffer(device, VkDeviceSize(capacity_) * 4, kFrameStorageUsage,
                                                            "mote.frame.event_children"));
    MOTE_TRY_ASSIGN(keys_, make_frame_buffer(device, VkDeviceSize(capacity_) * 4, kFrameStorageUsage,
                                             "mote.frame.event_keys"));
    MOTE_TRY_ASSIGN(order_, make_frame_buffer(device, VkDeviceSize(capacity_) * 4, kFrameStorageUsage,
                                              "mote.frame.event_order"));
    MOTE_TRY_ASSIGN(sort_, gpu::RadixSort::create(device, capacity_));
    MOTE_TRY_ASSIGN(scan_, gpu::PrefixScan::create(device, capacity_));
    retired.retire(std::exchange(routes_buffer_, std::move(routes)), frame);
    retired.retire(std::exchange(rows_buffer_, std::move(rows)), frame);
    retired.retire(std::exchange(queues_[0], std::move(queue0)), frame);
    retired.retire(std::exchange(queues_[1], std::move(queue1)), frame);
    retired.retire(std::exchange(children_, std::move(children)), frame);
    allocated_ = true;
    fresh_ = true;
    dirty_ = true;
  }
  if (dirty_) {
    rebuild_routes();
    // Rows past the table's live ones keep what they held: no route points at them, and a
    // row added later is rebuilt with its first binding.
    uploads.add(routes_buffer_, 0, routes_.data(), VkDeviceSize(routes_.size()) * sizeof(FrameEventRoutes));
    dirty_ = false;
  }
  return ok_status();
}

FrameEventViews FrameEvents::views(uint32_t frame) const {
  return {.routes = &routes_buffer_,
          .rows = &rows_buffer_,
          .events_in = &queues_[(frame + 1u) & 1u],
          .events_out = &queues_[frame & 1u],
          .children = &children_,
          .on = active() && allocated_};
}

void FrameEvents::record_fills(VkCommandBuffer cmd, uint32_t frame) {
  if (!allocated_) return;
  vkCmdFillBuffer(cmd, queues_[frame & 1u].handle(), 0, sizeof(FrameEventQueueHeader), 0u);
  if (fresh_) vkCmdFillBuffer(cmd, queues_[(frame + 1u) & 1u].handle(), 0, sizeof(FrameEventQueueHeader), 0u);
  vkCmdFillBuffer(cmd, rows_buffer_.handle(), 0, VkDeviceSize(max_emitters_) * sizeof(FrameEventRow), 0u);
}

Status FrameEvents::record_delivery(const FrameRecording& frame) const {
  const FrameEventViews& v = frame.events;
  if (!v.on) return ok_status();
  frame.begin_pass("event_delivery");
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(args_)
      .buffers({{shader::kFrameBindingEventsIn, v.events_in}})
      .dispatch(1);
  gpu::compute_to_indirect(frame.cmd);
  // The queue's count, read on the GPU by the sorts and the scan.
  const gpu::ScanCount count = gpu::ScanCount::from_buffer(*v.events_in, offsetof(FrameEventQueueHeader, queued) / 4);
  const uint32_t row_bits = std::max<uint32_t>(1u, uint32_t(std::bit_width(std::max(frame.rows, 1u) - 1u)));
  const uint32_t key_bits[3] = {shader::kFrameEventSenderKeyBits, row_bits, row_bits};
  Status status = ok_status();
  for (uint32_t key = shader::kFrameEventKeySender; key <= shader::kFrameEventKeyTarget; ++key) {
    gpu::ComputeRecorder(frame.device, frame.cmd)
        .bind(keys_pipeline_)
        .buffers({{shader::kFrameBindingEventsIn, v.events_in},
                  {shader::kFrameBindingEventKeys, &keys_},
                  {shader::kFrameBindingEventOrder, &order_}})
        .push(shader::FrameEventPush{key, 0u, 0u, 0u})
        .dispatch_indirect(*v.events_in, 0);
    if (Status sorted = sort_.record(frame.cmd, keys_, order_, count, key_bits[key]); !sorted.ok() && status.ok())
      status = sorted;
    gpu::compute_to_compute(frame.cmd);
  }
  for (uint32_t step = shader::kFrameEventStepCounts; step <= shader::kFrameEventStepAssign; ++step) {
    gpu::ComputeRecorder(frame.device, frame.cmd)
        .bind(deliver_)
        .buffers({{shader::kFrameBindingParams, &frame.buffers.params},
                  {shader::kFrameBindingEmitters, &frame.buffers.emitters},
                  {shader::kFrameBindingEventRows, v.rows},
                  {shader::kFrameBindingEventsIn, v.events_in},
                  {shader::kFrameBindingEventKeys, &keys_},
                  {shader::kFrameBindingEventOrder, &order_}})
        .push(shader::FrameEventPush{step, 0u, 0u, 0u})
        .dispatch_indirect(*v.events_in, 0);
    gpu::compute_to_compute(frame.cmd);
    if (step == shader::kFrameEventStepCounts) {
      if (Status scanned = scan_.record(frame.cmd, keys_, keys_, count, gpu::ScanKind::kExclusive);
          !scanned.ok() && status.ok())
        status = scanned;
      gpu::compute_to_compute(frame.cmd);
    }
  }
  frame.end_pass();
  return status;
}

void FrameEvents::record_scatter(const FrameRecording& frame) const {
  const FrameEventViews& v = frame.events;
  if (!v.on) return;
  frame.begin_pass("event_scatter");
  gpu::ComputeRecorder(frame.device, frame.cmd)
      .bind(scatter_)
      .buffers({{shader::kFrameBindingParams, &frame.buffers.params},
                {shader::kFrameBindingSpawnSums, &frame.buffers.spawn_sums},
                {shader::kFrameBindingSpawnPlaces, &frame.buffers.spawn_places},
                {shader::kFrameBindingEventRows, v.rows},
                {shader::kFrameBindingEventsIn, v.events_in},
                {shader::kFrameBindingEventChildren, v.children}})
      .dispatch_indirect(*v.events_in, 0);
  gpu::compute_to_compute(frame.cmd);
  frame.end_pass();
}

Result<std::vector<EmitterEventStats>> FrameEvents::read_rows(gpu::Device& device, uint32_t rows) const {
  std::vector<EmitterEventStats> stats(rows);
  if (!allocated_ || rows == 0) return stats;
  MOTE_TRY_ASSIGN(auto words, gpu::readback_as<FrameEventRow>(device, rows_buffer_, std::min(rows, max_emitters_)));
  for (size_t r = 0; r < words.size(); ++r) {
    const FrameEventRow& w = words[r];
    stats[r] = {.sent = w.sent,
                .received = w.received,
                .queue_dropped = w.queue_dropped,
                .children = w.children,
                .spawned = w.granted,
                .spawns_dropped = w.spawns_dropped};
  }
  return stats;
}

Result<FrameEventTotals> FrameEvents::read_totals(gpu::Device& device, uint32_t frames) const {
  FrameEventTotals totals{.capacity = allocated_ ? capacity_ : 0u};
  if (!allocated_ || frames == 0) return totals;
  MOTE_TRY_ASSIGN(auto header, gpu::readback_as<FrameEventQueueHeader>(device, queues_[(frames - 1u) & 1u], 1));
  totals.queued = header[0].queued;
  totals.dropped = header[0].dropped;
  return totals;
}

}  // namespace mote::runtime
