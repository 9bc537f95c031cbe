// Readbacks of the frame's GPU state (submit and wait): for tests and tools, never a per-frame
// path — nothing the frame decides is sized from them.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/frame/frame_buffers.hpp"
#include "runtime/frame/frame_options.hpp"

namespace mote::runtime {

Result<FrameStats> read_frame_stats(gpu::Device& device, const FrameBuffers& buffers);
// The alive list the last recorded frame (`frame`, counted from 0) wrote, `alive` entries.
Result<std::vector<uint32_t>> read_alive_list(gpu::Device& device, const FrameBuffers& buffers,
                                              uint32_t frames_recorded, uint32_t capacity);
Result<std::vector<uint32_t>> read_free_list(gpu::Device& device, const FrameBuffers& buffers, uint32_t capacity);
Result<std::vector<uint32_t>> read_pool_words(gpu::Device& device, const FrameBuffers& buffers,
                                              const ParticleSystemOptions& options);
Result<std::vector<shader::FrameEmitterState>> read_emitter_state_rows(gpu::Device& device, const FrameBuffers& buffers,
                                                                       uint32_t rows);
Result<std::vector<uint32_t>> read_emitter_table_words(gpu::Device& device, const FrameBuffers& buffers, uint32_t rows);

}  // namespace mote::runtime
