#include "runtime/frame/frame_kernels.hpp"

#include <algorithm>
#include <chrono>

namespace mote::runtime {

FrameKernels::FrameKernels(gpu::Device& device, uint32_t record_words, bool in_background)
    : device_(&device),
      record_words_(record_words),
      in_background_(in_background),
      cache_(std::make_unique<vm_kernels::KernelCache>(device)) {}

Result<const gpu::ComputePipeline*> FrameKernels::kernel(const Program& linked, vm_kernels::KernelHarness harness) {
  const Section section = harness == vm_kernels::KernelHarness::kFrameEmit ? Section::kInit : Section::kUpdate;
  const vm_kernels::KernelCache::Variant variant{.record_words = record_words_, .harness = harness};
  MOTE_TRY(collect(false));
  if (const gpu::ComputePipeline* ready = cache_->find(linked, section, variant)) return ready;
  const auto cooked = cooked_.find({harness, vm_kernels::KernelCache::identity(linked, section)});
  const bool have_cooked = cooked != cooked_.end();
  // Without a GLSL compiler in the process (a runtime-only program) and no cooked kernel, the
  // interpreter runs the section (docs/design/package.md, "Kernels without glslang").
  if (!have_cooked && vm_kernels::kernel_compiler() == nullptr) return nullptr;
  if (!in_background_) {
    if (!have_cooked) return cache_->kernel(linked, section, variant);
    Result<vm_kernels::KernelCache::Built> built = vm_kernels::KernelCache::build_from_spirv(*device_, linked, section,
                                                                                             variant, cooked->second);
    if (built.ok()) return cache_->insert(std::move(built).value());
    // A cooked kernel this build cannot bind (another version's harness): forgotten, and the
    // section goes the way of an effect cooked without kernels.
    cooked_.erase(cooked);
    ++refused_cooked_;
    return kernel(linked, harness);
  }
  const bool started = std::any_of(jobs_.begin(), jobs_.end(),
                                   [&](const Job& job) { return job.harness == harness && job.program == linked; });
  if (!started) {
    // The worker gets its own copy of the program, the cooked words and the device, which
    // outlives the system; a job still running when the system goes is waited for by its
    // future's destructor.
    gpu::Device& device = *device_;
    std::vector<uint32_t> spirv = have_cooked ? cooked->second : std::vector<uint32_t>{};
    jobs_.push_back({linked, harness, have_cooked,
                     std::async(std::launch::async, [&device, linked, section, variant, spirv = std::move(spirv)] {
                       if (!spirv.empty())
                         return vm_kernels::KernelCache::build_from_spirv(device, linked, section, variant, spirv);
                       return vm_kernels::KernelCache::build(device, linked, section, variant);
                     })});
  }
  return nullptr;
}

void FrameKernels::offer(const CompiledEffect& effect) {
  const uint64_t program_hash = effect.program.hash();
  for (const CookedKernel& kernel : effect.kernels) {
    if (kernel.program_hash != program_hash) continue;  // another program's: not this one's code
    const bool emit = kernel.stage == KernelStage::kEmit;
    const Section section = emit ? Section::kInit : Section::kUpdate;
    const vm_kernels::KernelHarness harness = emit ? vm_kernels::KernelHarness::kFrameEmit
                                                   : vm_kernels::KernelHarness::kFrameSimulate;
    cooked_.insert_or_assign({harness, vm_kernels::KernelCache::identity(effect.program, section)}, kernel.spirv);
  }
}

Status FrameKernels::collect(bool wait) {
  for (size_t i = 0; i < jobs_.size();) {
    Job& job = jobs_[i];
    if (!wait && job.built.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      ++i;
      continue;
    }
    Result<vm_kernels::KernelCache::Built> built = job.built.get();
    const bool from_cooked = job.from_cooked;
    const vm_kernels::KernelHarness harness = job.harness;
    const Program program = std::move(job.program);
    jobs_.erase(jobs_.begin() + std::ptrdiff_t(i));
    if (!built.ok() && from_cooked) {
      // As in the foreground: the refused cooked kernel is forgotten; the next frame's request
      // compiles the section, or leaves it to the interpreter.
      const Section section = harness == vm_kernels::KernelHarness::kFrameEmit ? Section::kInit : Section::kUpdate;
      cooked_.erase({harness, vm_kernels::KernelCache::identity(program, section)});
      ++refused_cooked_;
      continue;
    }
    if (!built.ok()) return built.take_error();
    cache_->insert(std::move(built).value());
  }
  return ok_status();
}

Status FrameKernels::wait_all() { return collect(true); }

}  // namespace mote::runtime
