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
  if (!in_background_) return cache_->kernel(linked, section, variant);
  MOTE_TRY(collect(false));
  if (const gpu::ComputePipeline* ready = cache_->find(linked, section, variant)) return ready;
  const bool started = std::any_of(jobs_.begin(), jobs_.end(),
                                   [&](const Job& job) { return job.harness == harness && job.program == linked; });
  if (!started) {
    // The worker gets its own copy of the program and the device, which outlives the system; a
    // job still running when the system goes is waited for by its future's destructor.
    gpu::Device& device = *device_;
    jobs_.push_back({linked, harness, std::async(std::launch::async, [&device, linked, section, variant] {
                       return vm_kernels::KernelCache::build(device, linked, section, variant);
                     })});
  }
  return nullptr;
}

Status FrameKernels::collect(bool wait) {
  for (size_t i = 0; i < jobs_.size();) {
    Job& job = jobs_[i];
    if (!wait && job.built.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      ++i;
      continue;
    }
    Result<vm_kernels::KernelCache::Built> built = job.built.get();
    jobs_.erase(jobs_.begin() + std::ptrdiff_t(i));
    if (!built.ok()) return built.take_error();
    cache_->insert(std::move(built).value());
  }
  return ok_status();
}

Status FrameKernels::wait_all() { return collect(true); }

}  // namespace mote::runtime
