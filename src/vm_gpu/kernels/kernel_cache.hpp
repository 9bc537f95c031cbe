// Compiled kernels of program sections, cached by content: what a caller that runs programs on
// the GPU keeps for the lifetime of its device (the gpu-compiled executor; the particle frame
// keeps one per system). Per (Program::hash(), section, harness): the translation and glslang
// compile run once, and the SPIR-V is kept; per variant (record stride, trace, window) a
// pipeline is specialised from it. A hash hit is confirmed against the section's code and the constant
// pool (what the translation reads), so a 64-bit collision recompiles rather than running the
// wrong kernel.
//
// Cost: a new program is a translation, a glslang compile and the driver's pipeline compile
// (docs/design/vm.md, "The compiled kernels", has what they were measured at); a hit is a map
// lookup plus a compare of the section's words. Entries are never evicted (an effect library has
// tens of programs; clear() drops everything). Not thread-safe: one cache per thread that records
// commands.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "gpu/compute_pipeline.hpp"
#include "gpu/device.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"
#include "vm_gpu/kernels/kernel_compiler.hpp"
#include "vm_gpu/kernels/glsl_translator.hpp"

namespace mote::vm_kernels {

struct KernelCacheStats {
  uint32_t translations = 0;  // (program, section) pairs translated and compiled to SPIR-V
  uint32_t pipelines = 0;     // pipelines created (specialisations)
  uint32_t hits = 0;          // kernel() calls answered from the cache
  double translate_ms = 0.0;  // bytecode -> GLSL
  double compile_ms = 0.0;    // GLSL -> SPIR-V (glslang)
  double pipeline_ms = 0.0;   // SPIR-V -> pipeline (the driver)
};

class KernelCache {
 public:
  // `device` must outlive the cache.
  explicit KernelCache(gpu::Device& device, GlslCompileOptions options = {});

  // How a kernel is built beyond its program section: the record stride (1 ..
  // kVmMaxRecordWords), tracing every instruction's result (kRunProgram only), the record
  // window (src/vm_gpu/record_window.hpp) staged in registers with 16-byte loads and stores (the
  // default; without it every field access goes to the record, kept for the benchmark's
  // comparison), and the shader the section is put in.
  struct Variant {
    uint32_t record_words = 0;
    bool trace = false;
    bool window = true;
    KernelHarness harness = KernelHarness::kRunProgram;
    auto operator<=>(const Variant&) const = default;
  };

  // The pipeline running `section` of `program` as `variant` says. Compiles on first use; the
  // pointer stays valid until clear() or the cache's destruction. The program should be
  // verified (the cache compiles anything; the kernel keeps the interpreter's clamps).
  // Errors: kInvalidArgument for a stride out of range, the translator's and the compiler's
  // errors, Vulkan errors.
  Result<const gpu::ComputePipeline*> kernel(const Program& program, Section section, const Variant& variant);
  // A kernel built apart from any cache: what kernel() builds on a miss, as a value.
  struct Built {
    uint64_t hash = 0;
    Section section = Section::kUpdate;
    Variant variant;
    std::vector<uint32_t> identity;
    std::vector<uint32_t> spirv;
    gpu::ComputePipeline pipeline;
    KernelCacheStats stats;  // this build's times (translations and pipelines 1)
  };
  // Translates, compiles and creates the pipeline without touching a cache: safe to call from
  // any thread while the device is otherwise in use (glslang compiles are thread-safe; the
  // pipeline is created without a pipeline cache). For compiling in the background.
  static Result<Built> build(gpu::Device& device, const Program& program, Section section, const Variant& variant,
                             const GlslCompileOptions& options = {});
  // The same from SPIR-V compiled earlier (a cooked effect's kernels, docs/design/cooked.md): no
  // translation and no GLSL compiler, only the driver's pipeline compile, which is what checks
  // the words (the caller confirms they belong to this program's section by identity()).
  static Result<Built> build_from_spirv(gpu::Device& device, const Program& program, Section section,
                                        const Variant& variant, std::vector<uint32_t> spirv);
  // A section's translation compiled to SPIR-V with the process's kernel compiler
  // (kernel_compiler.hpp), device-free (the SPIR-V does not depend on the variant's stride, trace
  // or window: those are specialisation constants). `stats`, if given, gets the times.
  // Errors: kUnsupported when no compiler is registered; the translator's and compiler's.
  static Result<std::vector<uint32_t>> compile_spirv(const Program& program, Section section, KernelHarness harness,
                                                     const GlslCompileOptions& options = {},
                                                     KernelCacheStats* stats = nullptr);
  // What a kernel is the kernel of: the section's code words, then the constant pool.
  static std::vector<uint32_t> identity(const Program& program, Section section);
  // The cached pipeline for (program, section, variant), or null: never compiles.
  const gpu::ComputePipeline* find(const Program& program, Section section, const Variant& variant);
  // Takes a kernel built by build() into the cache and returns its pipeline (a kernel already
  // cached for the same key wins, and `built` is dropped).
  const gpu::ComputePipeline* insert(Built built);

  // The run-one-program harness (kRunProgram) with the window staged.
  Result<const gpu::ComputePipeline*> kernel(const Program& program, Section section, uint32_t record_words,
                                             bool trace = false) {
    return kernel(program, section, Variant{.record_words = record_words, .trace = trace});
  }

  const KernelCacheStats& stats() const { return stats_; }
  size_t size() const;
  void clear() { entries_.clear(); }

 private:
  struct Entry {
    std::vector<uint32_t> identity;  // the section's code words, then the constant pool
    std::vector<uint32_t> spirv;
    std::map<Variant, gpu::ComputePipeline> pipelines;
  };

  static Status finish_build(gpu::Device& device, const Program& program, Section section, const Variant& variant,
                             Built& built);

  gpu::Device& device_;
  GlslCompileOptions options_;
  // Usually one entry per key; more only after a hash collision (list: entries never move).
  std::map<std::tuple<uint64_t, Section, KernelHarness>, std::list<Entry>> entries_;
  KernelCacheStats stats_;
};

}  // namespace mote::vm_kernels
