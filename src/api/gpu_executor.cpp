// mote/gpu_executor.hpp over the interpreters (src/vm_gpu/gpu_executor.hpp) and the compiled
// kernels (src/vm_gpu/kernels/compiled_executor.hpp), on the Context's device.
#include "mote/gpu_executor.hpp"

#include "api/api_access.hpp"
#include "vm_gpu/gpu_executor.hpp"
#include "vm_gpu/kernels/compiled_executor.hpp"

namespace mote {

std::unique_ptr<Executor> make_gpu_executor(Context& context, const GpuExecutorSettings& settings) {
  gpu::Device& device = detail::ApiAccess::device(context);
  const GpuExecutorOptions options{.count_ops = settings.count_ops};
  switch (settings.kind) {
    case GpuExecutorKind::kInterpreter: return make_gpu_executor(device, GpuInterpreter::kAuto, options);
    case GpuExecutorKind::kFastInterpreter: return make_gpu_executor(device, GpuInterpreter::kFast, options);
    case GpuExecutorKind::kWideInterpreter: return make_gpu_executor(device, GpuInterpreter::kWide, options);
    case GpuExecutorKind::kCompiled: return make_compiled_gpu_executor(device);
  }
  // An enumerator outside the list (a cast): the interpreter that runs any program.
  return make_gpu_executor(device, GpuInterpreter::kAuto, options);
}

}  // namespace mote
