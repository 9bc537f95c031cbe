// bench/vm_gpu: the GPU executors on the benchmark UPDATE program (bench/update_program.hpp,
// 25 instructions) over N particles with a 32-word (128-byte) record — the VM issue's target of
// >= 50% of the copy roofline for 16M particles: the two interpreters (fast, wide) and the
// program compiled to its own kernel (compiled, src/vm_jit/). GPU timestamps around each
// dispatch; median of the repeats after a warm-up; the copy roofline measured in the same run
// (of_roofline = moved GB/s / the copy's GB/s). One JSON object per line.
//
//   vm_gpu [--particles N] [--repeats R] [--executors fast,wide,compiled] [--body-repeats K]
//          [--roofline-mib M] [--device SEL]
// --body-repeats K runs the program's UPDATE body K times over: the slope against K is the
// per-instruction cost, the intercept the per-particle cost. --roofline-mib 0 skips the copy.
// (--interpreter fast|wide|both, the older spelling, still works.)
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/profiler.hpp"
#include "gpu/transfer.hpp"
#include "copy_roofline.hpp"
#include "shared/vm_limits.h"
#include "update_program.hpp"
#include "vm/gpu_executor.hpp"
#include "vm_jit/glsl_translator.hpp"
#include "vm_jit/kernel_cache.hpp"

using namespace mote;

namespace {

struct Options {
  uint32_t particles = 16u << 20;
  uint32_t repeats = 10;
  std::string executors = "fast,wide,compiled";
  std::string device;
  uint32_t body_repeats = 1;  // the UPDATE body repeated: separates per-instruction from per-particle cost
  uint64_t roofline_mib = 1024;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        fmt::print(stderr, "vm_gpu: {} needs a value\n", a);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--particles") o.particles = uint32_t(std::strtoul(next().c_str(), nullptr, 10));
    else if (a == "--repeats") o.repeats = std::max(1u, uint32_t(std::strtoul(next().c_str(), nullptr, 10)));
    else if (a == "--executors") o.executors = next();
    else if (a == "--interpreter") {
      const std::string v = next();
      o.executors = v == "both" ? "fast,wide" : v;
    } else if (a == "--roofline-mib") o.roofline_mib = std::strtoull(next().c_str(), nullptr, 10);
    else if (a == "--device") o.device = next();
    else if (a == "--body-repeats") o.body_repeats = std::max(1u, uint32_t(std::strtoul(next().c_str(), nullptr, 10)));
    else {
      fmt::print(stderr, "usage: vm_gpu [--particles N] [--repeats R] [--executors fast,wide,compiled] [--body-repeats K] "
                         "[--roofline-mib M] [--device SEL]\n");
      std::exit(2);
    }
  }
  return o;
}

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

int fail(const Error& e) {
  fmt::print(stderr, "vm_gpu: {}\n", e.to_string());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  auto created = gpu::Device::create({.device_selector = opt.device});
  if (!created.ok()) return fail(created.error());
  gpu::Device& device = **created;
  Program program = bench::make_update_program();
  const std::vector<Instruction> body = program.update;
  for (uint32_t k = 1; k < opt.body_repeats; ++k) program.update.insert(program.update.end(), body.begin(), body.end());
  constexpr uint32_t kRecordWords = 32;

  RunInput input;
  input.program = &program;
  input.section = Section::kUpdate;
  input.count = opt.particles;
  input.record_words = kRecordWords;
  input.emitter.dt = 1.0f / 60.0f;

  auto records = gpu::Buffer::create(device, {.size = VkDeviceSize(opt.particles) * kRecordWords * 4, .name = "bench.records"});
  auto killed = gpu::Buffer::create(device, {.size = VkDeviceSize(opt.particles) * 4, .name = "bench.killed"});
  auto op_counts = gpu::Buffer::create(device, {.size = 256 * 4, .name = "bench.op_counts"});
  auto trace = gpu::Buffer::create(device, {.size = 4, .name = "bench.trace"});
  auto params_buffer = gpu::Buffer::create(device, {.size = sizeof(shader::VmRunParams), .name = "bench.params"});
  auto wide_registers = gpu::Buffer::create(
      device, {.size = VkDeviceSize(shader::kVmWideLaunchLanes) * shader::kVmMaxRegisters * 4, .name = "bench.wide_registers"});
  auto profiler = gpu::GpuProfiler::create(device, opt.repeats + 1);
  for (auto* r : {&records, &killed, &op_counts, &trace, &params_buffer, &wide_registers})
    if (!r->ok()) return fail(r->error());
  if (!profiler.ok()) return fail(profiler.error());

  // Particles of every age, in chunks so the staging buffer stays small.
  const uint32_t chunk = 1u << 20;
  std::vector<uint32_t> block(size_t(chunk) * kRecordWords, 0);
  for (uint32_t first = 0; first < opt.particles; first += chunk) {
    const uint32_t n = std::min(chunk, opt.particles - first);
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t i = first + j;
      uint32_t* r = &block[size_t(j) * kRecordWords];
      auto f = [](float x) { return std::bit_cast<uint32_t>(x); };
      r[bench::kPositionWord + 0] = f(float(i % 97));
      r[bench::kPositionWord + 1] = f(1.0f);
      r[bench::kPositionWord + 2] = f(-float(i % 13));
      r[bench::kVelocityWord + 0] = f(0.5f);
      r[bench::kVelocityWord + 1] = f(3.0f);
      r[bench::kVelocityWord + 2] = f(-0.25f);
      r[bench::kAgeWord] = f(float(i % 1000) * 0.003f);
      r[bench::kLifeWord] = f(2.0f + float(i % 3));
    }
    auto status = gpu::upload(device, *records, std::span(reinterpret_cast<const uint8_t*>(block.data()), size_t(n) * kRecordWords * 4),
                              VkDeviceSize(first) * kRecordWords * 4);
    if (!status.ok()) return fail(status.error());
  }

  // The benchmark checks what it times: the first kCheck particles are advanced by the reference
  // executor alongside, and the GPU's records must match after every interpreter's runs.
  constexpr uint32_t kCheck = 4096;
  const uint32_t check_count = std::min(kCheck, opt.particles);
  auto first_block = gpu::readback_as<uint32_t>(device, *records, size_t(check_count) * kRecordWords);
  if (!first_block.ok()) return fail(first_block.error());
  RunInput sample = input;
  sample.count = check_count;
  sample.records = std::move(*first_block);
  auto reference = make_reference_executor();

  const uint32_t bytes_per_particle = sector_bytes_per_particle(program);
  fmt::print("{{\"bench\":\"vm_gpu\",\"device\":\"{}\",\"particles\":{},\"record_bytes\":{},\"instructions\":{},"
             "\"registers\":{},\"moved_bytes_per_particle\":{}}}\n",
             device.description().name, opt.particles, kRecordWords * 4, program.update.size(), program.register_count,
             bytes_per_particle);

  // The roofline of this run, before the VM runs (its buffers are freed before they start).
  double roofline_gbps = 0.0;
  if (opt.roofline_mib > 0) {
    auto roofline = bench::measure_copy_roofline(device, opt.roofline_mib << 20, opt.repeats);
    if (!roofline.ok()) return fail(roofline.error());
    roofline_gbps = roofline->gbps;
    fmt::print("{{\"roofline\":\"copy\",\"bytes_each_way\":{},\"median_ms\":{:.4f},\"gbps\":{:.1f}}}\n", roofline->bytes,
               roofline->median_ms, roofline->gbps);
  }

  // The compiled kernel: translated, compiled and specialised once, as a runtime would when an
  // effect is loaded; the compile cost is reported, not timed with the dispatches.
  vm_jit::KernelCache kernels(device);

  for (const char* label : {"fast", "wide", "compiled"}) {
    if (("," + opt.executors + ",").find("," + std::string(label) + ",") == std::string::npos) continue;
    const bool compiled = std::string(label) == "compiled";
    const GpuInterpreter which = std::string(label) == "wide" ? GpuInterpreter::kWide : GpuInterpreter::kFast;
    std::optional<gpu::ComputePipeline> interpreter;
    const gpu::ComputePipeline* pipeline = nullptr;
    if (compiled) {
      auto kernel = kernels.kernel(program, Section::kUpdate, kRecordWords);
      if (!kernel.ok()) return fail(kernel.error());
      pipeline = *kernel;
      const vm_jit::KernelCacheStats& st = kernels.stats();
      auto glsl = vm_jit::translate_to_glsl(program, Section::kUpdate);
      fmt::print("{{\"executor\":\"compiled\",\"translate_ms\":{:.2f},\"compile_ms\":{:.2f},\"pipeline_ms\":{:.2f},"
                 "\"glsl_bytes\":{}}}\n",
                 st.translate_ms, st.compile_ms, st.pipeline_ms, glsl.ok() ? glsl->size() : 0);
    } else {
      auto made = gpu::ComputePipeline::create(device, gpu_interpreter_shader(which));
      if (!made.ok()) return fail(made.error());
      interpreter = std::move(*made);
      pipeline = &*interpreter;
    }
    if (auto stats = pipeline->statistics(); stats.ok())
      for (const auto& st : *stats)
        fmt::print("{{\"executor\":\"{}\",\"statistic\":\"{}\",\"value\":\"{}\"}}\n", label, st.name, st.value);
    GpuProgramImage image = make_gpu_program_image(input, kRecordWords, which, device.limits());
    auto program_buffer =
        gpu::Buffer::create(device, {.size = image.words.size() * 4, .usage = kProgramBufferUsage, .name = "bench.program"});
    if (!program_buffer.ok()) return fail(program_buffer.error());
    auto status = gpu::upload_span<uint32_t>(device, *program_buffer, image.words);
    if (status.ok())
      status = gpu::upload(device, *params_buffer,
                           std::span(reinterpret_cast<const uint8_t*>(&image.params), sizeof(image.params)));
    if (!status.ok()) return fail(status.error());

    status = device.submit_and_wait([&](VkCommandBuffer cmd) {
      profiler->reset(cmd);
      gpu::ComputeRecorder rec(device, cmd);
      rec.bind(*pipeline);
      if (compiled)
        rec.buffers({{0, &*program_buffer}, {1, &*records}, {2, &*killed}, {3, &*op_counts}, {4, &*params_buffer},
                     {6, &*trace}});
      else if (which == GpuInterpreter::kWide)
        rec.buffers({{0, &*program_buffer}, {1, &*records}, {2, &*killed}, {3, &*op_counts}, {4, &*params_buffer},
                     {5, &*wide_registers}, {6, &*trace}, code_view(image, *program_buffer),
                     shapes_view(image, *program_buffer)});
      else
        rec.buffers({{0, &*program_buffer}, {1, &*records}, {2, &*killed}, {3, &*op_counts}, {4, &*params_buffer},
                     {6, &*trace}, code_view(image, *program_buffer), shapes_view(image, *program_buffer)});
      for (uint32_t r = 0; r <= opt.repeats; ++r) {
        if (r > 0) gpu::compute_to_compute(cmd);
        profiler->begin(cmd, r == 0 ? "warmup" : "update");
        rec.dispatch(image.groups);
        profiler->end(cmd);
      }
    });
    if (!status.ok()) return fail(status.error());
    auto times = profiler->resolve();
    if (!times.ok()) return fail(times.error());
    for (uint32_t r = 0; r <= opt.repeats; ++r) {
      auto step = reference->run(sample);
      if (!step.ok()) return fail(step.error());
      sample.records = std::move(step->records);
    }
    auto got = gpu::readback_as<uint32_t>(device, *records, sample.records.size());
    if (!got.ok()) return fail(got.error());
    for (size_t w = 0; w < sample.records.size(); ++w) {
      const float g = std::bit_cast<float>((*got)[w]), e = std::bit_cast<float>(sample.records[w]);
      if (!(std::fabs(g - e) <= 1e-3f + 1e-3f * std::fabs(e))) {
        fmt::print(stderr, "vm_gpu: {} executor disagrees with the reference at particle {} word {}: {} vs {}\n", label,
                   w / kRecordWords, w % kRecordWords, g, e);
        return 1;
      }
    }
    std::vector<double> ms;
    for (size_t i = 1; i < times->size(); ++i) ms.push_back((*times)[i].ms);
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const double gbps = double(opt.particles) * bytes_per_particle / (median * 1e-3) / 1e9;
    const double stride_gbps = double(opt.particles) * (2.0 * kRecordWords * 4) / (median * 1e-3) / 1e9;
    fmt::print("{{\"executor\":\"{}\",\"median_ms\":{:.4f},\"best_ms\":{:.4f},\"particles_per_ms\":{:.0f},"
               "\"moved_gbps\":{:.1f},\"of_roofline\":{:.4f},\"full_record_rw_gbps\":{:.1f}}}\n",
               label, median, ms.front(), double(opt.particles) / median, gbps,
               roofline_gbps > 0.0 ? gbps / roofline_gbps : 0.0, stride_gbps);
  }
  return 0;
}
