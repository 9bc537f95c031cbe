// What every pass of a frame records against: the command buffer, the frame's buffers and the
// views that change from frame to frame (which alive list is read and which written, the
// program buffer, the transform channels), the emitter-row count the tick and the scan walk, and
// the optional per-pass GPU timestamps. Built by ParticleSystem for one frame and handed to each
// pass's record() in order (docs/design/runtime_frame.md, "The frame, pass by pass").
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

#include "gpu/commands.hpp"

#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "runtime/frame/frame_buffers.hpp"
#include "runtime/frame/frame_events.hpp"

namespace mote::runtime {

struct FrameRecording {
  gpu::Device& device;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  const FrameBuffers& buffers;
  const gpu::Buffer& alive_in;   // last frame's list: simulate walks it, compact reads it
  const gpu::Buffer& alive_out;  // this frame's list: emit and compact write it
  const gpu::Buffer& program;    // shapes + the heap's image, as of this frame
  const gpu::Buffer& channels;   // the transforms' channels, or the unused stand-in
  uint32_t rows = 0;             // one past the highest live emitter row
  uint32_t command_count = 0;    // the host's spawn commands this frame
  uint32_t wide_lanes = 0;       // the wide interpreter's fixed launch
  gpu::GpuProfiler* profiler = nullptr;
  FrameEventViews events{};  // the event buffers (always bound by emit and simulate), on when routed
  // SAMPLE_FIELD's table (FrameVectorFields: the system's fields, or the stand-in).
  const gpu::Buffer* field_headers = nullptr;
  const gpu::Buffer* field_values = nullptr;
  // SAMPLE_DEPTH's depth (FrameDepth: the system's collision depth, or the stand-in).
  const gpu::Buffer* collision_depth = nullptr;

  // The event buffers a sender binds (emit and simulate), and with `delivers` (emit) also the
  // ones its children read their events from.
  void add_event_bindings(std::vector<gpu::BufferBinding>& bindings, bool delivers) const {
    bindings.push_back({shader::kFrameBindingEventRoutes, events.routes});
    bindings.push_back({shader::kFrameBindingEventRows, events.rows});
    bindings.push_back({shader::kFrameBindingEventsOut, events.events_out});
    if (!delivers) return;
    bindings.push_back({shader::kFrameBindingEventsIn, events.events_in});
    bindings.push_back({shader::kFrameBindingEventChildren, events.children});
  }

  // The vector field table and the collision depth, bound by the passes that run programs (emit and simulate).
  void add_vector_field_bindings(std::vector<gpu::BufferBinding>& bindings) const {
    bindings.push_back({shader::kFrameBindingVectorFieldHeaders, field_headers});
    bindings.push_back({shader::kFrameBindingVectorFieldValues, field_values});
    bindings.push_back({shader::kFrameBindingCollisionDepth, collision_depth});
  }

  // Timestamps around a pass when a profiler is set (a branch per pass otherwise).
  void begin_pass(const char* name) const {
    if (profiler) profiler->begin(cmd, name);
  }
  void end_pass() const {
    if (profiler) profiler->end(cmd);
  }
};

// Every earlier submission's compute and transfer work (last frame, a set-up upload, a
// readback) is done and visible before this frame touches anything.
void frame_start_barrier(VkCommandBuffer cmd);
// Transfer writes (a fill, a section copy) before later transfers that overlap them.
void transfer_to_transfer(VkCommandBuffer cmd);
// The end of a frame: next frame's indirect simulate, a draw and any readback see its writes.
void frame_end_barrier(VkCommandBuffer cmd);

}  // namespace mote::runtime
