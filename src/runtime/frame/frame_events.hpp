// The GPU frame's events (docs/design/events.md, "On the GPU"; layouts in shared/frame_events.h):
// which emitter output is bound to which target emitter (host), the routes table the senders
// read, the two queues (this frame's, appended by emit and simulate; last frame's, delivered this
// frame), each row's event counts and the newborns' event indices, and the two delivery passes
// (event_count.comp before the tick, event_scatter.comp after the spawn scan). Until the first
// binding every buffer is a zeroed stand-in of one entry and no pass is recorded: a system
// without events pays nothing for them.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "gpu/passes/prefix_scan.hpp"
#include "gpu/passes/radix_sort.hpp"
#include "gpu/compute_pipeline.hpp"
#include "mote/effect.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_uploads.hpp"
#include "shared/frame_events.h"

namespace mote::runtime {

struct FrameRecording;

// The buffers a frame binds for events, and whether its emit and simulate route them
// (FramePush::events). The pre-warm binds the same buffers with `on` false.
struct FrameEventViews {
  const gpu::Buffer* routes = nullptr;
  const gpu::Buffer* rows = nullptr;
  const gpu::Buffer* events_in = nullptr;
  const gpu::Buffer* events_out = nullptr;
  const gpu::Buffer* children = nullptr;
  bool on = false;
};

// One emitter's event counts of the last frame (FrameEventRow, read back).
struct EmitterEventStats {
  uint32_t sent = 0;            // events it sent (one per output with a count and bound target)
  uint32_t received = 0;        // events delivered to it
  uint32_t queue_dropped = 0;   // events for it the full queue dropped
  uint32_t children = 0;        // children its delivered events asked for
  uint32_t spawned = 0;         // of those, children that got a slot
  uint32_t spawns_dropped = 0;  // children the pool (or culling) could not take
};

// The queue's totals of the last frame (its header, read back).
struct FrameEventTotals {
  uint32_t queued = 0;   // appends asked for (may pass the capacity)
  uint32_t dropped = 0;  // appends the full queue dropped
  uint32_t capacity = 0;
};

class FrameEvents {
 public:
  static Result<FrameEvents> create(gpu::Device& device, uint32_t max_emitters, uint32_t capacity);

  // Host bookkeeping of the emitters whose outputs can be bound (their names, payload layout).
  void emitter_added(uint32_t row, uint32_t generation, const CompiledEffect& effect);
  // Drops every binding from or to the row.
  void emitter_removed(uint32_t row);
  // The row runs another effect under a new generation: bindings from outputs the new effect
  // lacks are dropped, the others kept (as targets too, at the new generation).
  void effect_swapped(uint32_t row, uint32_t generation, const CompiledEffect& effect);

  // The output named `name` of the effect at `row` (its "event_outputs"), or an error naming it.
  Result<uint32_t> output_index(uint32_t row, std::string_view name) const;
  // Binds output `output` of the emitter at `source` to the emitter at `target` (both live:
  // checked by the caller). Errors: an output the effect does not declare, kFrameEventTargets
  // targets already, the same binding twice.
  Status bind(uint32_t source, uint32_t output, uint32_t target);
  Status unbind(uint32_t source, uint32_t output, uint32_t target);
  size_t binding_count() const { return bindings_.size(); }
  // Whether a frame routes events: some binding exists.
  bool active() const { return !bindings_.empty(); }
  // The queue's capacity (events per frame): the pool's, since no frame can spawn more children
  // than the pool holds slots.
  uint32_t queue_capacity() const { return capacity_; }

  // Before a frame: on the first binding the real buffers are made (the stand-ins retired), and
  // the routes go out when a binding or an emitter changed.
  Status prepare(gpu::Device& device, FrameUploads& uploads, RetiredBuffers& retired, uint32_t frame);
  // The frame's views: frame `frame` appends to queue frame & 1 and delivers the other.
  FrameEventViews views(uint32_t frame) const;
  // Transfers at the frame's start, before its transfer-to-compute barrier: this frame's queue
  // and the rows' counts zeroed (and, on the first active frame, last frame's queue too).
  void record_fills(VkCommandBuffer cmd, uint32_t frame);
  // Delivery before the tick: the queue's dispatch, the order, each event's first child and each
  // target's children.
  Status record_delivery(const FrameRecording& frame) const;
  // After the spawn scan: each child's event index at its newborn index.
  void record_scatter(const FrameRecording& frame) const;
  // After recording frame `frame`.
  void recorded() { fresh_ = false; }

  // The last frame's counts (waits for the GPU): per row up to `rows`, and the totals of the
  // queue that frame appended to (`frames` recorded so far).
  Result<std::vector<EmitterEventStats>> read_rows(gpu::Device& device, uint32_t rows) const;
  Result<FrameEventTotals> read_totals(gpu::Device& device, uint32_t frames) const;

  FrameEvents() = default;

 private:
  struct Binding {
    uint32_t source = 0;
    uint32_t output = 0;
    uint32_t target = 0;
  };
  struct Row {
    bool live = false;
    uint32_t generation = 0;
    std::vector<std::string> outputs;
    shader::uvec4 payload{0u};
  };
  void rebuild_routes();

  uint32_t max_emitters_ = 0;
  uint32_t capacity_ = 0;
  std::vector<Row> rows_;
  std::vector<Binding> bindings_;
  std::vector<shader::FrameEventRoutes> routes_;  // the GPU table's host image
  bool dirty_ = false;
  bool allocated_ = false;
  bool fresh_ = false;  // the real buffers' first frame: both queues' headers are zeroed
  gpu::Buffer routes_buffer_;
  gpu::Buffer rows_buffer_;
  gpu::Buffer queues_[2];
  gpu::Buffer children_;
  gpu::Buffer keys_;   // the sorts' keys, then the counts and their exclusive scan
  gpu::Buffer order_;  // the sorts' values: event indices in the delivery's order
  gpu::RadixSort sort_;
  gpu::PrefixScan scan_;
  gpu::ComputePipeline args_;
  gpu::ComputePipeline keys_pipeline_;
  gpu::ComputePipeline deliver_;
  gpu::ComputePipeline scatter_;
};

}  // namespace mote::runtime
