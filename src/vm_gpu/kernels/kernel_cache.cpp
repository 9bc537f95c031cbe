#include "vm_gpu/kernels/kernel_cache.hpp"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "shared/vm_limits.h"
#include "vm_gpu/record_window.hpp"
#include "vm_gpu/kernels/glsl_translator.hpp"
#include "vm_gpu/kernels/harness_interface.hpp"

namespace mote::vm_kernels {
namespace {

std::vector<uint32_t> identity_of(const Program& program, Section section) {
  std::vector<uint32_t> words;
  const auto& code = program.code(section);
  words.reserve(code.size() * 4 + program.constants.size() + 1);
  words.push_back(uint32_t(code.size()));
  for (const Instruction& ins : code) words.insert(words.end(), ins.words.begin(), ins.words.end());
  words.insert(words.end(), program.constants.begin(), program.constants.end());
  return words;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

KernelCache::KernelCache(gpu::Device& device, GlslCompileOptions options) : device_(device), options_(options) {}

namespace {

Status check_stride(uint32_t record_words) {
  if (record_words == 0 || record_words > shader::kVmMaxRecordWords)
    return make_error(ErrorCode::kInvalidArgument, "record stride " + std::to_string(record_words) + " out of range");
  return {};
}

std::string kernel_name(uint64_t hash, Section section, const KernelCache::Variant& variant, bool with_variant) {
  const bool frame = variant.harness != KernelHarness::kRunProgram;
  char name[112];
  if (with_variant)
    std::snprintf(name, sizeof(name), "vm_gpu/kernels/%016" PRIx64 "/%s%s/stride%u%s%s", hash, section_name(section),
                  variant.harness == KernelHarness::kFrameEmit ? "/emit"
                  : frame                                      ? "/frame"
                                                               : "",
                  variant.record_words, variant.trace ? "/trace" : "", variant.window ? "" : "/direct");
  else
    std::snprintf(name, sizeof(name), "vm_gpu/kernels/%016" PRIx64 "/%s%s", hash, section_name(section),
                  variant.harness == KernelHarness::kFrameEmit ? "/emit"
                  : frame                                      ? "/frame"
                                                               : "");
  return name;
}

// The pipeline of `variant` specialised from `spirv`.
Result<gpu::ComputePipeline> specialise(gpu::Device& device, const Program& program, Section section, uint64_t hash,
                                        const KernelCache::Variant& variant, std::span<const uint32_t> spirv) {
  const bool frame = variant.harness != KernelHarness::kRunProgram;
  const RecordWindow staged = variant.window ? record_window(program, section, variant.record_words) : RecordWindow{};
  const gpu::SpecializationConstant spec[] = {{kSpecTrace, variant.trace && !frame ? 1u : 0u},
                                              {kSpecRecordWords, variant.record_words},
                                              {kSpecWindowFirstChunk, staged.first_chunk},
                                              {kSpecWindowChunks, staged.chunks},
                                              {kSpecWindowDirtyMask, staged.dirty_mask}};
  return gpu::ComputePipeline::create_from_spirv(device, kernel_name(hash, section, variant, true), spirv, spec);
}

}  // namespace

std::vector<uint32_t> KernelCache::identity(const Program& program, Section section) {
  return identity_of(program, section);
}

Result<std::vector<uint32_t>> KernelCache::compile_spirv(const Program& program, Section section, KernelHarness harness,
                                                         const GlslCompileOptions& options, KernelCacheStats* stats) {
  const Variant named{.record_words = 1, .harness = harness};
  const KernelCompiler* compiler = kernel_compiler();
  if (compiler == nullptr)
    return make_error(ErrorCode::kUnsupported,
                      "no GLSL compiler in this process (link mote::tools, which has one, or load the kernels "
                      "from a cooked effect)",
                      kernel_name(program.hash(), section, named, false));
  auto start = std::chrono::steady_clock::now();
  MOTE_TRY_ASSIGN(std::string glsl, translate_to_glsl(program, section, harness));
  if (stats) stats->translate_ms = ms_since(start);
  start = std::chrono::steady_clock::now();
  MOTE_TRY_ASSIGN(std::vector<uint32_t> spirv,
                  compiler->compile_compute(glsl, kernel_name(program.hash(), section, named, false), options));
  if (stats) stats->compile_ms = ms_since(start);
  return spirv;
}

Result<KernelCache::Built> KernelCache::build(gpu::Device& device, const Program& program, Section section,
                                              const Variant& variant, const GlslCompileOptions& options) {
  MOTE_TRY(check_stride(variant.record_words));
  Built built;
  MOTE_TRY_ASSIGN(built.spirv, compile_spirv(program, section, variant.harness, options, &built.stats));
  built.stats.translations = 1;
  MOTE_TRY(finish_build(device, program, section, variant, built));
  return built;
}

Result<KernelCache::Built> KernelCache::build_from_spirv(gpu::Device& device, const Program& program, Section section,
                                                         const Variant& variant, std::vector<uint32_t> spirv) {
  MOTE_TRY(check_stride(variant.record_words));
  Built built;
  built.spirv = std::move(spirv);
  MOTE_TRY(finish_build(device, program, section, variant, built));
  return built;
}

Status KernelCache::finish_build(gpu::Device& device, const Program& program, Section section, const Variant& variant,
                                 Built& built) {
  built.hash = program.hash();
  built.section = section;
  built.variant = variant;
  built.identity = identity_of(program, section);
  // Compiled here or cooked elsewhere, a frame kernel is bound as its interpreter build is.
  MOTE_TRY(check_harness_interface(variant.harness, built.spirv));
  const auto start = std::chrono::steady_clock::now();
  MOTE_TRY_ASSIGN(built.pipeline, specialise(device, program, section, built.hash, variant, built.spirv));
  built.stats.pipeline_ms = ms_since(start);
  built.stats.pipelines = 1;
  return {};
}

const gpu::ComputePipeline* KernelCache::find(const Program& program, Section section, const Variant& variant) {
  auto bucket = entries_.find({program.hash(), section, variant.harness});
  if (bucket == entries_.end()) return nullptr;
  const std::vector<uint32_t> identity = identity_of(program, section);
  for (Entry& entry : bucket->second) {
    if (entry.identity != identity) continue;
    auto pipeline = entry.pipelines.find(variant);
    return pipeline == entry.pipelines.end() ? nullptr : &pipeline->second;
  }
  return nullptr;
}

const gpu::ComputePipeline* KernelCache::insert(Built built) {
  std::list<Entry>& bucket = entries_[{built.hash, built.section, built.variant.harness}];
  auto found = bucket.begin();
  while (found != bucket.end() && found->identity != built.identity) ++found;
  if (found == bucket.end()) {
    Entry entry;
    entry.identity = std::move(built.identity);
    entry.spirv = std::move(built.spirv);
    found = bucket.insert(bucket.end(), std::move(entry));
  }
  stats_.translations += built.stats.translations;
  stats_.translate_ms += built.stats.translate_ms;
  stats_.compile_ms += built.stats.compile_ms;
  stats_.pipelines += built.stats.pipelines;
  stats_.pipeline_ms += built.stats.pipeline_ms;
  auto [it, inserted] = found->pipelines.try_emplace(built.variant, std::move(built.pipeline));
  return &it->second;
}

Result<const gpu::ComputePipeline*> KernelCache::kernel(const Program& program, Section section,
                                                        const Variant& variant) {
  MOTE_TRY(check_stride(variant.record_words));
  if (const gpu::ComputePipeline* cached = find(program, section, variant)) {
    ++stats_.hits;
    return cached;
  }
  // A section already compiled for another variant: only a new specialisation of its SPIR-V.
  const uint64_t hash = program.hash();
  const std::vector<uint32_t> identity = identity_of(program, section);
  for (Entry& entry : entries_[{hash, section, variant.harness}]) {
    if (entry.identity != identity) continue;
    const auto start = std::chrono::steady_clock::now();
    MOTE_TRY_ASSIGN(gpu::ComputePipeline created, specialise(device_, program, section, hash, variant, entry.spirv));
    stats_.pipeline_ms += ms_since(start);
    ++stats_.pipelines;
    return &entry.pipelines.emplace(variant, std::move(created)).first->second;
  }
  MOTE_TRY_ASSIGN(Built built, build(device_, program, section, variant, options_));
  return insert(std::move(built));
}

size_t KernelCache::size() const {
  size_t n = 0;
  for (const auto& [key, bucket] : entries_) n += bucket.size();
  return n;
}

}  // namespace mote::vm_kernels
