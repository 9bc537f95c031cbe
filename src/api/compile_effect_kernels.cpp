// compile_effect_kernels: an effect's frame kernels compiled ahead of time, for cooked files
// (include/mote/effect.hpp; docs/design/cooked.md, KERN). In the tools library: it needs the GLSL
// compiler, which the runtime does not carry (src/vm_gpu/kernels/kernel_compiler.hpp).
#include "mote/effect.hpp"
#include "vm_gpu/kernels/kernel_cache.hpp"

namespace mote {

Status compile_effect_kernels(CompiledEffect& effect) {
  std::vector<CookedKernel> kernels;
  auto add = [&](KernelStage stage, Section section, vm_kernels::KernelHarness harness) -> Status {
    MOTE_TRY_ASSIGN(std::vector<uint32_t> spirv,
                    vm_kernels::KernelCache::compile_spirv(effect.program, section, harness));
    kernels.push_back({stage, effect.program.hash(), std::move(spirv)});
    return ok_status();
  };
  if (!effect.program.init.empty())
    MOTE_TRY(add(KernelStage::kEmit, Section::kInit, vm_kernels::KernelHarness::kFrameEmit));
  MOTE_TRY(add(KernelStage::kSimulate, Section::kUpdate, vm_kernels::KernelHarness::kFrameSimulate));
  effect.kernels = std::move(kernels);
  return ok_status();
}

}  // namespace mote
