// The frame's compiled kernels (src/vm_gpu/kernels/): per linked program, its simulate (UPDATE)
// and emit (INIT) kernel, built before the frame that first runs it or, with
// compile_in_background, on worker threads while the program runs on the interpreter, taken in
// by the first frame after each is ready. Kept after the program's release (a program that comes
// back finds its kernels).
#pragma once

#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/effect.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"
#include "vm_gpu/kernels/kernel_cache.hpp"

namespace mote::runtime {

class FrameKernels {
 public:
  FrameKernels(gpu::Device& device, uint32_t record_words, bool in_background);
  FrameKernels(FrameKernels&&) noexcept = default;
  FrameKernels& operator=(FrameKernels&&) noexcept = default;

  // The compiled emit (kFrameEmit, INIT) or simulate (kFrameSimulate, UPDATE) kernel of a linked
  // program if it is ready: compiled first when not in the background; otherwise its background
  // compile is started and null returned meanwhile (the interpreter runs the section). With no
  // kernel compiler in the process (vm_gpu/kernels/kernel_compiler.hpp), null: the interpreter
  // runs it. A compile error (a Mote bug) is returned.
  Result<const gpu::ComputePipeline*> kernel(const Program& linked, vm_kernels::KernelHarness harness);
  // Keeps the kernels `effect` was cooked with (mote/effect.hpp, CookedKernel), each for the
  // program section it was compiled from: kernel() builds a pipeline from one instead of
  // compiling when the linked program's section is that same code (always, for a program without
  // global imports). Needs no kernel compiler.
  void offer(const CompiledEffect& effect);
  // Waits for every background compile and takes it in (tests and tools; frames never need to).
  Status wait_all();

  uint32_t built_count() const { return uint32_t(cache_->size()); }
  uint32_t pending_count() const { return uint32_t(jobs_.size()); }
  // Cooked kernels refused because their interface is not this build's harness's (they were
  // cooked by another version of Mote): their sections were compiled or interpreted instead.
  uint32_t refused_cooked_count() const { return refused_cooked_; }

 private:
  struct Job {
    Program program;
    vm_kernels::KernelHarness harness;
    bool from_cooked = false;  // built from a cooked kernel's words (refused: falls back)
    std::future<Result<vm_kernels::KernelCache::Built>> built;
  };
  // Takes every finished background compile into the cache (`wait`: waits for all).
  Status collect(bool wait);

  gpu::Device* device_ = nullptr;
  uint32_t record_words_ = 0;
  uint32_t refused_cooked_ = 0;
  bool in_background_ = false;
  std::unique_ptr<vm_kernels::KernelCache> cache_;
  std::vector<Job> jobs_;
  // Cooked SPIR-V by (harness, KernelCache::identity of the section it is the kernel of).
  std::map<std::pair<vm_kernels::KernelHarness, std::vector<uint32_t>>, std::vector<uint32_t>> cooked_;
};

}  // namespace mote::runtime
