// The GPU frame's value types: how a system is created (ParticleSystemOptions), the transform
// channels a field binding reads, and what the frame
// reports back (FrameStats, UploadStats). Shared by every part of src/runtime/frame/.
#pragma once

#include <cstdint>
#include <vector>

#include "mote/emitter.hpp"
#include "shared/frame.h"

namespace mote::runtime {

struct ParticleSystemOptions {
  uint32_t capacity = 0;       // pool records, 1 .. 2^24 (PARTICLE_INDEX is a float)
  uint32_t record_words = 32;  // pool stride (word 0 is the header)
  uint32_t max_emitters = 64;  // emitter table rows (the scan's length)
  // When non-zero, emit writes each newborn's birth serial into this record word (which must lie
  // past every program's fields): a debugging and test aid to match particles across executors.
  uint32_t serial_word = 0;
  // The program heap's first section sizes, in words. Sections only grow (a section with no
  // room is repacked, then grown to at least twice its size; the GPU buffer follows by a copy
  // on the GPU). Tiny values force repacks and growth early (tests).
  uint32_t heap_constant_words = 256;
  uint32_t heap_code_words = 1024;
  uint32_t heap_field_words = 1024;
  // Lanes one dispatch of the wide interpreter launches (a multiple of kFrameWorkgroupSize,
  // 64 .. 2^20): the lanes walk the newborns or the alive list with a grid stride, and the
  // register file holds kVmMaxRegisters slots per lane (4 MiB at 4096 lanes), allocated when the
  // first program over kVmFastRegisterSlots registers is added.
  uint32_t wide_lanes = 4096;
  // Simulate and emit run each program's UPDATE and INIT sections as their own compiled
  // kernels (src/vm_gpu/kernels/, KernelHarness::kFrameSimulate / kFrameEmit: straight-line code,
  // the record window in registers) instead of the fast interpreter (docs/PERFORMANCE.md has the
  // figures). A program is translated and compiled when a frame first runs it (glslang and driver
  // work, once per content per system). Programs over kVmFastRegisterSlots registers stay on the
  // wide interpreter until their kernels exist. Off: every program is interpreted.
  bool compiled_simulate = true;
  // With compiled_simulate: a new program's kernel is translated, compiled and its pipeline
  // created on a worker thread while its particles keep running on the interpreter, and the
  // first frame after it is ready switches over — no frame waits for a compile. Off (the
  // default here: frames are reproducible run to run), a frame compiles before it records.
  // The public API (mote::ParticleSystemDesc) turns it on.
  bool compile_in_background = false;
  // Where the measured bounds are folded (docs/design/runtime_frame.md, "Bounds"): with at most
  // this many emitter rows in the frame, simulate folds each survivor from the record it holds
  // and the bounds pass reads only the newborns; with more, the bounds pass reads the whole list.
  // Measured on the H200 (docs/PERFORMANCE.md, "Bounds folded into simulate"): one emitter of
  // 16M gains by the fold, 100,000 emitters lose by it; between them not yet measured.
  uint32_t bounds_in_simulate_max_rows = 64;
  // Frames the host may have recorded (record()) and not yet seen complete on the GPU: buffers
  // the frame retires (a grown program buffer) live that many further record() calls. execute()
  // tracks its own submissions and does not depend on it. 1 .. 8.
  uint32_t frames_in_flight = 3;
};

// Bytes the host wrote into the frame's GPU buffers since create() (tests and tools: a set-up
// path writes the changed ranges, not the image).
struct UploadStats {
  uint64_t program_bytes = 0;           // the program buffer (at create: the shapes and the whole image)
  uint64_t table_bytes = 0;             // emitter records and declared bursts of changed rows
  uint64_t bindings_bytes = 0;          // the field-bindings table
  uint64_t staged_regions = 0;          // regions copied from a staging buffer (vkCmdCopyBuffer)
  uint64_t updated_regions = 0;         // regions written inline (vkCmdUpdateBuffer)
  uint64_t program_buffer_growths = 0;  // the program buffer replaced by a larger one, copied on the GPU
};

// Declared bursts (EmissionSettings::bursts with count > 0) an effect may have on the GPU frame.
inline constexpr uint32_t kMaxEffectBursts = shader::kFrameMaxBursts;

// The transform row of an emitter placed by its own constant pose (TransformId{}.row).
inline constexpr uint32_t kNoTransformRow = shader::kFrameNoTransform;
static_assert(kNoTransformRow == TransformId{}.row, "an invalid TransformId is the constant pose");

// The TransformTable channel a field binding copies (shader::TransformChannels): POSITION,
// DIRECTION and UP are 3 words (as the emitter builtins of the same names), ORIENTATION a
// quaternion of 4 (scale and a mirror divided out). A field is bound only to a channel exactly
// as wide as it.
enum class Channel : uint32_t {
  kPosition = shader::kFrameChannelPosition,
  kDirection = shader::kFrameChannelDirection,
  kUp = shader::kFrameChannelUp,
  kOrientation = shader::kFrameChannelOrientation,
};
constexpr uint32_t channel_width(Channel c) { return c == Channel::kOrientation ? 4u : 3u; }
const char* channel_name(Channel c);

// The counters as the last completed frame left them (read_stats: tests and tools only).
struct FrameStats {
  uint32_t alive = 0;           // this frame's alive list length
  uint32_t previous_alive = 0;  // what simulate walked (last frame's alive)
  uint32_t free_count = 0;
  uint32_t budget_left = 0;
  uint32_t newborns = 0;
  uint32_t dropped = 0;
  uint32_t killed = 0;
  uint32_t orphaned = 0;
  uint32_t spawned_total = 0;
  uint32_t frames = 0;
  uint32_t prewarmed = 0;  // particles a GPU pre-warm moved into the pool this frame
};

}  // namespace mote::runtime
