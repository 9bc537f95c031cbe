#include "runtime/frame/program_dispatches.hpp"

#include "runtime/frame/interpreted_code.hpp"

namespace mote::runtime {

shader::FramePush section_push(const ProgramHeap& heap, uint32_t program, Section section) {
  shader::FramePush push{program, 0u, 0u, 0u, 0u, 0u, 0u, 0u};
  if (program < heap.program_id_capacity() && heap.is_live(ProgramHandle{program})) {
    const Placement& p = heap.placement(ProgramHandle{program});
    const bool init = section == Section::kInit;
    push.section_offset = shader::kFrameShapeWords + heap.code_base() + (init ? p.init_offset : p.update_offset);
    push.section_words = init ? p.init_length : p.update_length;
  }
  return push;
}

Result<std::vector<ProgramDispatch>> plan_program_dispatches(const ProgramHeap& heap, FrameKernels* kernels,
                                                             uint32_t record_words) {
  std::vector<ProgramDispatch> dispatches;
  for (uint32_t id = 0; id < heap.program_id_capacity(); ++id) {
    if (!heap.is_live(ProgramHandle{id})) continue;
    const Program& program = heap.program(ProgramHandle{id});
    ProgramDispatch d;
    d.program = id;
    d.wide = needs_wide_interpreter(program);
    d.init_large_window = needs_large_window(program, Section::kInit, record_words);
    d.update_large_window = needs_large_window(program, Section::kUpdate, record_words);
    d.init_push = section_push(heap, id, Section::kInit);
    d.update_push = section_push(heap, id, Section::kUpdate);
    // Compiled from the code as linked into the image: its global reads name their offsets. A
    // program over 64 registers is compiled too (its registers are the kernel's variables, so the
    // count does not matter there); the wide interpreter runs it until its kernels exist.
    if (kernels) {
      const Program& linked = heap.linked_program(ProgramHandle{id});
      MOTE_TRY_ASSIGN(d.compiled_simulate, kernels->kernel(linked, vm_kernels::KernelHarness::kFrameSimulate));
      if (!linked.init.empty()) {
        MOTE_TRY_ASSIGN(d.compiled_emit, kernels->kernel(linked, vm_kernels::KernelHarness::kFrameEmit));
      }
    }
    dispatches.push_back(d);
  }
  return dispatches;
}

}  // namespace mote::runtime
