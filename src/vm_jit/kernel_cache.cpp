#include "vm_jit/kernel_cache.hpp"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "shared/vm_limits.h"
#include "vm/record_window.hpp"
#include "vm_jit/glsl_translator.hpp"

namespace mote::vm_jit {
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

Result<const gpu::ComputePipeline*> KernelCache::kernel(const Program& program, Section section, const Variant& variant) {
  const uint32_t record_words = variant.record_words;
  if (record_words == 0 || record_words > shader::kVmMaxRecordWords)
    return make_error(ErrorCode::kInvalidArgument, "record stride " + std::to_string(record_words) + " out of range");
  const bool frame = variant.harness == KernelHarness::kFrameSimulate;
  const uint64_t hash = program.hash();
  std::vector<uint32_t> identity = identity_of(program, section);
  std::list<Entry>& bucket = entries_[{hash, section, variant.harness}];
  auto found = bucket.begin();
  while (found != bucket.end() && found->identity != identity) ++found;
  if (found == bucket.end()) {
    char name[80];
    std::snprintf(name, sizeof(name), "vm_jit/%016" PRIx64 "/%s%s", hash, section_name(section), frame ? "/frame" : "");
    auto start = std::chrono::steady_clock::now();
    MOTE_TRY_ASSIGN(std::string glsl, translate_to_glsl(program, section, variant.harness));
    stats_.translate_ms += ms_since(start);
    start = std::chrono::steady_clock::now();
    MOTE_TRY_ASSIGN(std::vector<uint32_t> spirv, compiler_.compile_compute(glsl, name, options_));
    stats_.compile_ms += ms_since(start);
    ++stats_.translations;
    Entry entry;
    entry.identity = std::move(identity);
    entry.spirv = std::move(spirv);
    found = bucket.insert(bucket.end(), std::move(entry));
  }
  Entry& entry = *found;
  auto pipeline = entry.pipelines.find(variant);
  if (pipeline != entry.pipelines.end()) {
    ++stats_.hits;
    return &pipeline->second;
  }
  char name[112];
  std::snprintf(name, sizeof(name), "vm_jit/%016" PRIx64 "/%s%s/stride%u%s%s", hash, section_name(section),
                frame ? "/frame" : "", record_words, variant.trace ? "/trace" : "", variant.window ? "" : "/direct");
  const RecordWindow staged = variant.window ? record_window(program, section, record_words) : RecordWindow{};
  const gpu::SpecializationConstant spec[] = {{kSpecTrace, variant.trace && !frame ? 1u : 0u},
                                              {kSpecRecordWords, record_words},
                                              {kSpecWindowFirstChunk, staged.first_chunk},
                                              {kSpecWindowChunks, staged.chunks},
                                              {kSpecWindowDirtyMask, staged.dirty_mask}};
  const auto start = std::chrono::steady_clock::now();
  MOTE_TRY_ASSIGN(gpu::ComputePipeline created, gpu::ComputePipeline::create_from_spirv(device_, name, entry.spirv, spec));
  stats_.pipeline_ms += ms_since(start);
  ++stats_.pipelines;
  return &entry.pipelines.emplace(variant, std::move(created)).first->second;
}

size_t KernelCache::size() const {
  size_t n = 0;
  for (const auto& [key, bucket] : entries_) n += bucket.size();
  return n;
}

}  // namespace mote::vm_jit
