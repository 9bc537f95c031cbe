// The VM's GPU benchmark (vm_bench.hpp), shared by bench/vm_gpu and `mote bench`.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/profiler.hpp"
#include "gpu/transfer.hpp"
#include "copy_roofline.hpp"
#include "vm_bench.hpp"
#include "shared/vm_limits.h"
#include "update_program.hpp"
#include "vm/depth_sampling.hpp"
#include "vm/vector_field_sampling.hpp"
#include "vm_gpu/gpu_executor.hpp"
#include "vm_gpu/record_window.hpp"
#include "vm_gpu/kernels/glsl_translator.hpp"
#include "vm_gpu/kernels/kernel_cache.hpp"

namespace mote::bench {
namespace {

// Bytes one particle's run must move through DRAM: the 32-byte sectors of its record that the
// program reads (LOAD_FIELD) and writes (STORE_FIELD), plus its 4-byte kill flag.
uint32_t sector_bytes_per_particle(const Program& p) {
  std::set<uint32_t> read, written;
  for (const Instruction& ins : p.update) {
    const uint32_t op = ins.words[0] & 0xFFu, lanes = (ins.words[0] >> 8) & 7u;
    for (uint32_t k = 0; k < lanes; ++k) {
      if (op == uint32_t(isa::Op::LOAD_FIELD)) read.insert((ins.words[1] + k) / 8);
      if (op == uint32_t(isa::Op::STORE_FIELD)) written.insert((ins.words[1] + k) / 8);
    }
  }
  return uint32_t(read.size() + written.size()) * 32 + 4;
}

// One executor as the benchmark runs it: its pipeline, its own program image and parameters,
// and how it binds them.
struct Runner {
  std::string label;
  const gpu::ComputePipeline* pipeline = nullptr;
  std::optional<gpu::ComputePipeline> owned;  // interpreters; compiled kernels live in the cache
  GpuInterpreter which = GpuInterpreter::kFast;
  bool compiled = false;
  bool touch = false;       // the memory-only reference: moves the bytes, leaves the records as they are
  gpu::Buffer records_out;  // touch-full-out: where it stores
  GpuProgramImage image;
  gpu::Buffer program_buffer, params_buffer;
  std::vector<double> ms;
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

Result<VmBenchResult> run_vm_bench(gpu::Device& device, const VmBenchOptions& options,
                                   const std::function<void(const std::string&)>& print) {
  auto emit = [&](const std::string& line) {
    if (print) print(line);
  };
  VmBenchResult result;
  Program program = make_update_program();
  const std::vector<Instruction> body = program.update;
  for (uint32_t k = 1; k < options.body_repeats; ++k)
    program.update.insert(program.update.end(), body.begin(), body.end());
  constexpr uint32_t kRecordWords = 32;

  RunInput input;
  input.program = &program;
  input.section = Section::kUpdate;
  input.count = options.particles;
  input.record_words = kRecordWords;
  input.emitter.dt = 1.0f / 60.0f;

  auto records = gpu::Buffer::create(device, {.size = VkDeviceSize(options.particles) * kRecordWords * 4,
                                              .name = "bench.records"});
  auto killed = gpu::Buffer::create(device, {.size = VkDeviceSize(options.particles) * 4, .name = "bench.killed"});
  auto op_counts = gpu::Buffer::create(device, {.size = 256 * 4, .name = "bench.op_counts"});
  auto trace = gpu::Buffer::create(device, {.size = 4, .name = "bench.trace"});
  auto wide_registers = gpu::Buffer::create(device, {.size = VkDeviceSize(shader::kVmWideLaunchLanes) *
                                                             shader::kVmMaxRegisters * 4,
                                                     .name = "bench.wide_registers"});
  // No vector fields: the runs' field table (bindings 10 and 11) holds empty slots.
  const VectorFieldTable no_fields = vector_field_table({});
  auto field_headers = gpu::Buffer::create(device, {.size = sizeof(no_fields.headers), .name = "bench.field_headers"});
  auto field_values = gpu::Buffer::create(device, {.size = 16, .name = "bench.field_values"});
  // No collision depth: binding 12 holds a view with no image, so SAMPLE_DEPTH misses.
  const std::vector<uint32_t> no_depth = depth_buffer_words(nullptr);
  auto depth = gpu::Buffer::create(device, {.size = no_depth.size() * 4, .name = "bench.depth"});
  for (auto* r : {&records, &killed, &op_counts, &trace, &wide_registers, &field_headers, &field_values, &depth})
    if (!r->ok()) return (r->error());
  MOTE_TRY(gpu::upload(device, *field_headers,
                       std::span(reinterpret_cast<const uint8_t*>(no_fields.headers.data()),
                                 sizeof(no_fields.headers))));
  MOTE_TRY(gpu::upload_span<float>(device, *field_values, std::vector<float>(4, 0.0f)));
  MOTE_TRY(gpu::upload_span<uint32_t>(device, *depth, no_depth));

  // Particles of every age, in chunks so the staging buffer stays small.
  const uint32_t chunk = 1u << 20;
  std::vector<uint32_t> block(size_t(chunk) * kRecordWords, 0);
  for (uint32_t first = 0; first < options.particles; first += chunk) {
    const uint32_t n = std::min(chunk, options.particles - first);
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t i = first + j;
      uint32_t* r = &block[size_t(j) * kRecordWords];
      auto f = [](float x) { return std::bit_cast<uint32_t>(x); };
      r[kPositionWord + 0] = f(float(i % 97));
      r[kPositionWord + 1] = f(1.0f);
      r[kPositionWord + 2] = f(-float(i % 13));
      r[kVelocityWord + 0] = f(0.5f);
      r[kVelocityWord + 1] = f(3.0f);
      r[kVelocityWord + 2] = f(-0.25f);
      r[kAgeWord] = f(float(i % 1000) * 0.003f);
      r[kLifeWord] = f(2.0f + float(i % 3));
    }
    auto status = gpu::upload(device, *records,
                              std::span(reinterpret_cast<const uint8_t*>(block.data()), size_t(n) * kRecordWords * 4),
                              VkDeviceSize(first) * kRecordWords * 4);
    if (!status.ok()) return (status.error());
  }

  // The benchmark checks what it times: the first kCheck particles, advanced by the reference
  // executor as many times as the GPU advanced them, must match at the end.
  constexpr uint32_t kCheck = 4096;
  const uint32_t check_count = std::min(kCheck, options.particles);
  auto first_block = gpu::readback_as<uint32_t>(device, *records, size_t(check_count) * kRecordWords);
  if (!first_block.ok()) return (first_block.error());
  RunInput sample = input;
  sample.count = check_count;
  sample.records = std::move(*first_block);

  const uint32_t bytes_per_particle = sector_bytes_per_particle(program);
  const RecordWindow window = record_window(program, Section::kUpdate, kRecordWords);
  emit(fmt::format("{{\"bench\":\"vm_gpu\",\"device\":\"{}\",\"particles\":{},\"record_bytes\":{},\"instructions\":{},"
                   "\"registers\":{},\"moved_bytes_per_particle\":{},\"window_chunks\":{},\"window_dirty_mask\":{}}}\n",
                   device.description().name, options.particles, kRecordWords * 4, program.update.size(),
                   program.register_count, bytes_per_particle, window.chunks, window.dirty_mask));

  // The executors. Compiled kernels are translated, compiled and specialised once, as a runtime
  // would when an effect is loaded; the compile cost is reported, not timed.
  vm_kernels::KernelCache kernels(device);
  std::vector<std::unique_ptr<Runner>> runners;
  for (const char* label :
       {"fast", "fast-unfolded", "fast-instrumented", "fast-direct", "fast-ops", "wide", "wide-direct", "compiled",
        "compiled-direct", "touch", "touch-full", "touch-coalesced", "touch-full-coalesced", "touch-full-out"}) {
    if (("," + options.executors + ",").find("," + std::string(label) + ",") == std::string::npos) continue;
    auto run = std::make_unique<Runner>();
    run->label = label;
    const std::string name = label;
    const bool staged = name.find("-direct") == std::string::npos;
    run->compiled = name.rfind("compiled", 0) == 0;
    run->which = name.rfind("wide", 0) == 0 ? GpuInterpreter::kWide : GpuInterpreter::kFast;
    run->touch = name.rfind("touch", 0) == 0;
    if (run->touch) {
      const char* shader = name.find("coalesced") != std::string::npos ? "bench/record_window_touch_coalesced"
                           : name.find("-out") != std::string::npos    ? "bench/record_window_touch_out"
                                                                       : "bench/record_window_touch";
      auto made = gpu::ComputePipeline::create(device, shader);
      if (!made.ok()) return (made.error());
      run->owned = std::move(*made);
      run->pipeline = &*run->owned;
    } else if (run->compiled) {
      auto kernel = kernels.kernel(program, Section::kUpdate, {.record_words = kRecordWords, .window = staged});
      if (!kernel.ok()) return (kernel.error());
      run->pipeline = *kernel;
      const vm_kernels::KernelCacheStats& st = kernels.stats();
      emit(fmt::format("{{\"executor\":\"{}\",\"translate_ms\":{:.2f},\"compile_ms\":{:.2f},\"pipeline_ms\":{:.2f}}}\n",
                       label, st.translate_ms, st.compile_ms, st.pipeline_ms));
    } else {
      GpuInterpreterSpecialization spec = gpu_interpreter_specialization(program, Section::kUpdate, kRecordWords,
                                                                         staged, name.ends_with("-ops"));
      // "-instrumented": with the per-opcode counts and the trace compiled in, as the executor
      // builds it for the parity suite (the counters stay off: flags is 0).
      spec.instrumented = name.find("-instrumented") != std::string::npos;
      auto made = create_gpu_interpreter(device, run->which, spec);
      if (!made.ok()) return (made.error());
      run->owned = std::move(*made);
      run->pipeline = &*run->owned;
    }
    if (auto stats = run->pipeline->statistics(); stats.ok())
      for (const auto& st : *stats)
        emit(fmt::format("{{\"executor\":\"{}\",\"statistic\":\"{}\",\"value\":\"{}\"}}\n", label, st.name, st.value));
    // An interpreter's image goes with its pipeline: the uninstrumented fast builds run the
    // section with its moves folded (src/vm_gpu/fast_fold.hpp), as the executor does when it does not
    // count opcodes; "fast-unfolded" keeps every instruction, for the comparison.
    std::optional<GpuInterpreterSpecialization> image_spec;
    if (!run->compiled && !run->touch) {
      image_spec = gpu_interpreter_specialization(program, Section::kUpdate, kRecordWords, staged,
                                                  name.ends_with("-ops"));
      image_spec->instrumented = name.find("-instrumented") != std::string::npos ||
                                 name.find("-unfolded") != std::string::npos;
    }
    run->image = make_gpu_program_image(input, kRecordWords, run->which, device.limits(),
                                        image_spec ? &*image_spec : nullptr);
    // --interpreter-groups: fewer workgroups than blocks, each walking several (grid stride).
    if (options.interpreter_groups > 0 && run->which == GpuInterpreter::kFast && !run->compiled && !run->touch) {
      run->image.groups = std::min(run->image.groups, options.interpreter_groups);
      run->image.params.launch_lanes = run->image.groups * shader::kVmWorkgroupSize;
    }
    // --print-code: the words the interpreter reads (the section after the host's rewrite and
    // fold, its immediates and its constant vectors, 4 words each), for a look at what runs.
    if (options.print_code && !run->compiled && !run->touch) {
      const shader::VmRunParams& pr = run->image.params;
      const std::vector<uint32_t>& w = run->image.words;
      const std::span<const uint32_t> code(w.data() + pr.code_offset, size_t(pr.code_length) * 4);
      const uint32_t imm_count = w[run->image.immediates_offset];
      const std::span<const uint32_t> imm(w.data() + run->image.immediates_offset + 4, imm_count);
      const std::span<const uint32_t> vectors(w.data() + run->image.immediates_offset + kConstantVectorsViewOffset / 4,
                                              size_t(shader::kVmFastMaxConstantVectors) * 4);
      emit(fmt::format("{{\"executor\":\"{}\",\"code\":[{}],\"immediates\":[{}],\"constant_vectors\":[{}],"
                       "\"registers_to_clear\":{}}}\n",
                       label, fmt::join(code, ","), fmt::join(imm, ","), fmt::join(vectors, ","), pr.register_count));
    }
    if (name == "touch-full-out") {
      auto out = gpu::Buffer::create(device, {.size = VkDeviceSize(options.particles) * kRecordWords * 4,
                                              .name = "bench.records_out"});
      if (!out.ok()) return (out.error());
      run->records_out = std::move(*out);
    }
    if (name.rfind("touch-full", 0) == 0) {  // the whole record read and written: its full_record_rw_gbps is the figure
      run->image.params.window_first_chunk = 0;
      run->image.params.window_chunks = kRecordWords / 4;
      run->image.params.window_dirty_mask = (1u << (kRecordWords / 4)) - 1u;
    }
    auto program_buffer = gpu::Buffer::create(device, {.size = run->image.words.size() * 4,
                                                       .usage = kProgramBufferUsage,
                                                       .name = "bench.program"});
    auto params_buffer = gpu::Buffer::create(device, {.size = sizeof(shader::VmRunParams),
                                                      .usage = kParamsBufferUsage,
                                                      .name = "bench.params"});
    if (!program_buffer.ok()) return (program_buffer.error());
    if (!params_buffer.ok()) return (params_buffer.error());
    run->program_buffer = std::move(*program_buffer);
    run->params_buffer = std::move(*params_buffer);
    auto status = gpu::upload_span<uint32_t>(device, run->program_buffer, run->image.words);
    if (status.ok())
      status = gpu::upload(device, run->params_buffer,
                           std::span(reinterpret_cast<const uint8_t*>(&run->image.params), sizeof(run->image.params)));
    if (!status.ok()) return (status.error());
    runners.push_back(std::move(run));
  }
  if (runners.empty()) return make_error(ErrorCode::kInvalidArgument, "no executor selected");

  auto record = [&](gpu::ComputeRecorder& rec, Runner& r) {
    rec.bind(*r.pipeline);
    const gpu::Buffer& pb = r.program_buffer;
    if (r.touch && r.records_out.valid())
      rec.buffers({{1, &*records}, {2, &*killed}, {3, &r.records_out}, {4, &r.params_buffer}});
    else if (r.touch) rec.buffers({{1, &*records}, {2, &*killed}, {4, &r.params_buffer}});
    else {
      // The interpreters' and the compiled kernel's common bindings, then each one's own.
      std::vector<gpu::BufferBinding> bindings{
          {0, &pb},     {1, &*records},        {2, &*killed},        {3, &*op_counts}, {4, &r.params_buffer},
          {6, &*trace}, {10, &*field_headers}, {11, &*field_values}, {12, &*depth}};
      if (r.which == GpuInterpreter::kWide && !r.compiled) {
        bindings.push_back({5, &*wide_registers});
        bindings.push_back(code_view(r.image, pb));
        bindings.push_back(shapes_view(r.image, pb));
      } else if (!r.compiled) {
        bindings.push_back(code_view(r.image, pb));
        bindings.push_back(immediates_view(r.image, pb));
      }
      rec.buffers(std::span<const gpu::BufferBinding>(bindings));
    }
    rec.dispatch(r.image.groups);
  };
  uint32_t updates = 0;  // how many times the records were advanced
  // One round: every executor once, each between timestamps.
  auto run_rounds = [&](uint32_t rounds, gpu::GpuProfiler& profiler) -> Result<std::vector<gpu::PassTime>> {
    MOTE_TRY(device.submit_and_wait([&](VkCommandBuffer cmd) {
      profiler.reset(cmd);
      gpu::ComputeRecorder rec(device, cmd);
      for (uint32_t round = 0; round < rounds; ++round)
        for (auto& r : runners) {
          gpu::compute_to_compute(cmd);
          profiler.begin(cmd, r->label);
          record(rec, *r);
          profiler.end(cmd);
        }
    }));
    for (const auto& r : runners)
      if (!r->touch) updates += rounds;
    return profiler.resolve();
  };

  double roofline_gbps = 0.0;
  auto measure_roofline = [&](const char* when) -> Status {
    if (options.roofline_mib == 0) return {};
    MOTE_TRY_ASSIGN(CopyRoofline roofline, measure_copy_roofline(device, options.roofline_mib << 20, 10));
    roofline_gbps = std::max(roofline_gbps, roofline.gbps);
    emit(fmt::format(
        "{{\"roofline\":\"copy\",\"when\":\"{}\",\"bytes_each_way\":{},\"median_ms\":{:.4f},\"gbps\":{:.1f}}}\n", when,
        roofline.bytes, roofline.median_ms, roofline.gbps));
    return {};
  };
  // The copy is checked by reading its whole destination back: the GPU idles for that long, its
  // clocks drop, and the first kernels after it ran 4x slow on the H200 (2026-11-30). So the
  // "before" copy comes first and the warm-up runs right before the timed rounds.
  if (auto st = measure_roofline("before"); !st.ok()) return (st.error());

  // Warm-up: rounds until the GPU has spent --warmup-ms in them (clocks up, caches and TLBs warm).
  const uint32_t kWarmRounds = 4;
  auto warm_profiler = gpu::GpuProfiler::create(device, kWarmRounds * uint32_t(runners.size()));
  if (!warm_profiler.ok()) return (warm_profiler.error());
  double warmed_ms = 0.0;
  uint32_t warm_batches = 0;
  while (warmed_ms < options.warmup_ms && warm_batches < 1000) {
    auto times = run_rounds(kWarmRounds, *warm_profiler);
    if (!times.ok()) return (times.error());
    for (const auto& t : *times) warmed_ms += t.ms;
    ++warm_batches;
  }
  emit(fmt::format("{{\"warmup_gpu_ms\":{:.1f},\"warmup_rounds\":{}}}\n", warmed_ms, warm_batches * kWarmRounds));

  auto profiler = gpu::GpuProfiler::create(device, options.repeats * uint32_t(runners.size()));
  if (!profiler.ok()) return (profiler.error());
  auto times = run_rounds(options.repeats, *profiler);
  if (!times.ok()) return (times.error());
  for (size_t i = 0; i < times->size(); ++i) runners[i % runners.size()]->ms.push_back((*times)[i].ms);
  if (auto st = measure_roofline("after"); !st.ok()) return (st.error());

  for (auto& r : runners) {
    const double median = median_of(r->ms);
    const double best = *std::min_element(r->ms.begin(), r->ms.end());
    const double gbps = double(options.particles) * bytes_per_particle / (median * 1e-3) / 1e9;
    const double stride_gbps = double(options.particles) * (2.0 * kRecordWords * 4) / (median * 1e-3) / 1e9;
    std::string all;
    for (double t : r->ms) all += (all.empty() ? "" : ",") + fmt::format("{:.4f}", t);
    result.rows.push_back({r->label, median, best, gbps, roofline_gbps > 0.0 ? gbps / roofline_gbps : 0.0});
    emit(fmt::format("{{\"executor\":\"{}\",\"median_ms\":{:.4f},\"best_ms\":{:.4f},\"particles_per_ms\":{:.0f},"
                     "\"moved_gbps\":{:.1f},\"of_roofline\":{:.4f},\"full_record_rw_gbps\":{:.1f},\"ms\":[{}]}}\n",
                     r->label, median, best, double(options.particles) / median, gbps,
                     roofline_gbps > 0.0 ? gbps / roofline_gbps : 0.0, stride_gbps, all));
  }

  // The check: the reference advanced the sample as many times as the GPU advanced the records.
  auto reference = make_reference_executor();
  for (uint32_t u = 0; u < updates; ++u) {
    auto step = reference->run(sample);
    if (!step.ok()) return (step.error());
    sample.records = std::move(step->records);
  }
  auto got = gpu::readback_as<uint32_t>(device, *records, sample.records.size());
  if (!got.ok()) return (got.error());
  for (size_t w = 0; w < sample.records.size(); ++w) {
    const float g = std::bit_cast<float>((*got)[w]), e = std::bit_cast<float>(sample.records[w]);
    if (!(std::fabs(g - e) <= 1e-3f + 1e-3f * std::fabs(e))) {
      emit(fmt::format(
          "{{\"check\":\"failed\",\"updates\":{},\"particle\":{},\"word\":{},\"gpu\":{},\"reference\":{}}}\n", updates,
          w / kRecordWords, w % kRecordWords, g, e));
      return make_error(ErrorCode::kInternal, "the GPU's records differ from the reference executor's");
    }
  }
  emit(fmt::format("{{\"check\":\"passed\",\"updates\":{},\"particles_checked\":{}}}\n", updates, check_count));
  return result;
}

}  // namespace mote::bench
