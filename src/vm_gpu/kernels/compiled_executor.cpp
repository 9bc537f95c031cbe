#include "core/alloc_guard.hpp"
#include "vm_gpu/kernels/compiled_executor.hpp"

#include <string>

#include "vm/executor_common.hpp"
#include "vm_gpu/gpu_executor.hpp"

namespace mote {
namespace {

class CompiledGpuExecutor final : public TracingGpuExecutor {
 public:
  CompiledGpuExecutor(gpu::Device& device, std::unique_ptr<gpu::Device> owned, bool verify)
      : owned_(std::move(owned)), device_(device), cache_(device), verify_(verify) {}

  std::string_view name() const override { return "gpu-compiled"; }
  Result<RunOutput> run(const RunInput& input) override { return run_traced(input, nullptr); }
  // A failed host allocation is kOutOfMemory, not an exception (docs/design/reliability.md).
  Result<RunOutput> run_traced(const RunInput& input, std::vector<uint32_t>* trace) override {
    return core::guard_allocation("the compiled GPU executor's run",
                                  [&] { return run_traced_unguarded(input, trace); });
  }
  Result<RunOutput> run_traced_unguarded(const RunInput& input, std::vector<uint32_t>* trace);
  const vm_kernels::KernelCache& cache() const { return cache_; }

 private:
  std::unique_ptr<gpu::Device> owned_;  // declared first: destroyed last
  gpu::Device& device_;
  vm_kernels::KernelCache cache_;
  bool verify_ = true;
};

Result<RunOutput> CompiledGpuExecutor::run_traced_unguarded(const RunInput& input, std::vector<uint32_t>* trace_out) {
  uint32_t record_words = effective_record_words(input);
  if (verify_) {
    MOTE_TRY_ASSIGN(record_words, vm_detail::validate_run_input(input));
  } else if (!input.program || record_words == 0 || input.records.size() != size_t(input.count) * record_words) {
    return make_error(ErrorCode::kInvalidArgument, "records do not match count * record_words");
  }
  MOTE_TRY_ASSIGN(const gpu::ComputePipeline* kernel,
                  cache_.kernel(*input.program, input.section, record_words, trace_out != nullptr));
  // The interpreters' program image and launch: the kernel reads the same params and field
  // words (its code and constants are compiled in, so the image's code views go unbound).
  GpuProgramImage image = make_gpu_program_image(input, record_words, GpuInterpreter::kFast, device_.limits());
  return run_gpu_harness(device_, input, image, trace_out, [&](gpu::ComputeRecorder& rec, const GpuRunBuffers& b) {
    rec.bind(*kernel);
    rec.buffers({{0, &b.program},
                 {1, &b.records},
                 {2, &b.killed},
                 {3, &b.op_counts},
                 {4, &b.params},
                 {6, &b.trace},
                 {10, &b.field_headers},
                 {11, &b.field_values},
                 {12, &b.depth}});
    rec.dispatch(image.groups);
  });
}

}  // namespace

std::unique_ptr<Executor> make_compiled_gpu_executor(gpu::Device& device) {
  return std::make_unique<CompiledGpuExecutor>(device, nullptr, /*verify=*/true);
}

Result<std::unique_ptr<Executor>> make_compiled_gpu_executor(const gpu::DeviceOptions& options) {
  MOTE_TRY_ASSIGN(std::unique_ptr<gpu::Device> device, gpu::Device::create(options));
  gpu::Device& ref = *device;
  return std::unique_ptr<Executor>(std::make_unique<CompiledGpuExecutor>(ref, std::move(device), /*verify=*/true));
}

std::unique_ptr<Executor> make_unverified_compiled_gpu_executor_for_tests(gpu::Device& device) {
  return std::make_unique<CompiledGpuExecutor>(device, nullptr, /*verify=*/false);
}

const vm_kernels::KernelCache* compiled_kernel_cache(const Executor& executor) {
  const auto* compiled = dynamic_cast<const CompiledGpuExecutor*>(&executor);
  return compiled ? &compiled->cache() : nullptr;
}

}  // namespace mote
