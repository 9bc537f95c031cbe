#include "vm_gpu/kernels/kernel_compiler.hpp"

#include <atomic>

namespace mote::vm_kernels {
namespace {

// A function-local static: registration from another library's static initialiser may run
// before this translation unit's own initialisers.
std::atomic<const KernelCompiler*>& registered() {
  static std::atomic<const KernelCompiler*> compiler{nullptr};
  return compiler;
}

}  // namespace

const KernelCompiler* kernel_compiler() { return registered().load(std::memory_order_acquire); }

void register_kernel_compiler(const KernelCompiler* compiler) {
  registered().store(compiler, std::memory_order_release);
}

}  // namespace mote::vm_kernels
