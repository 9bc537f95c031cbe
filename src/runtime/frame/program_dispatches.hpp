// The frame's per-program dispatches: one emit and one simulate dispatch per program placed in
// the heap (the heap holds exactly the programs of the live emitters), each on the program's
// compiled kernel when it exists, otherwise on the fast interpreter (with the staging its record
// window needs) or the wide one.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/compute_pipeline.hpp"
#include "mote/result.hpp"
#include "runtime/bookkeeping/program_heap.hpp"
#include "runtime/frame/frame_kernels.hpp"
#include "shared/frame.h"

namespace mote::runtime {

struct ProgramDispatch {
  uint32_t program = 0xFFFFFFFFu;    // heap program id (no program: the orphan-freeing dispatch)
  bool wide = false;                 // over the fast file: the wide interpreter until its kernels exist
  bool init_large_window = false;    // interpreted: the emit pipeline that stages kVmMaxWindowChunks
  bool update_large_window = false;  // and the simulate one
  const gpu::ComputePipeline* compiled_simulate = nullptr;
  const gpu::ComputePipeline* compiled_emit = nullptr;
  shader::FramePush init_push{};    // INIT as the heap placed it
  shader::FramePush update_push{};  // UPDATE as the heap placed it (SimulatePass sets the flags)
};

// The push constants of program `program`'s section as the heap placed it (none for an id that
// is not live): the interpreters fetch the section from there.
shader::FramePush section_push(const ProgramHeap& heap, uint32_t program, Section section);

// Every live program's dispatch. `kernels` null: every program is interpreted. Asks `kernels`
// for each program's kernels, which compiles them (or starts their background compile).
Result<std::vector<ProgramDispatch>> plan_program_dispatches(const ProgramHeap& heap, FrameKernels* kernels,
                                                             uint32_t record_words);

}  // namespace mote::runtime
