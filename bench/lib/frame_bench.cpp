// The runtime frame's benchmark (frame_bench.hpp), shared by bench/runtime_frame and `mote bench`.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "copy_roofline.hpp"
#include "frame_bench.hpp"
#include "gpu/device.hpp"
#include "gpu/profiler.hpp"
#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "mote/isa.hpp"
#include "runtime/frame/particle_system.hpp"
#include "shared/frame.h"
#include "vm_gpu/kernels/kernel_cache.hpp"

namespace mote::bench {

const Scenario kScenarios[9] = {
    {1, "1M_1_emitter", 1000000, 1, false},
    {2, "16M_1_emitter", 16000000, 1, false},
    {3, "1M_10k_emitters", 1000000, 10000, false},
    {4, "16M_100k_emitters", 16000000, 100000, false},
    {5, "burst_1M_newborns", 1000000, 1, true},
    {6, "16M_one_burst_in_slot_order", 16000000, 1, true, true},
    {7, "16M_1000_programs", 16000000, 1000, false, false, 1000},
    {8, "16M_100k_emitters_100_programs", 16000000, 100000, false, false, 100},
    {9, "idle_16M_capacity", 16000000, 100, false, false, 2, true},
};

namespace {

// Ballistic particles (programs/integrate_gravity.masm's UPDATE) whose life is an emitter field.
constexpr const char* kProgram = R"(
.registers 17
.particle position 3
.particle velocity 3
.particle age 1
.particle life 1
.emitter life 1
.emitter rate 1
.const 0.0 -9.81 0.0 0.4        ; c[0]: gravity xyz, c[3]: drag coefficient k (1/s)

.init
  LOAD_BUILTIN r0.xyz, EMITTER_POSITION
  RAND r3.xyz, #0
  ADD r0.xyz, r0.xyz, r3.xyz
  STORE_FIELD @position, r0.xyz
  LOAD_BUILTIN r6.xyz, EMITTER_DIRECTION
  MUL r6.xyz, r6.xyz, 4.0
  ADD r6.xyz, r6.xyz, r3.xyz
  STORE_FIELD @velocity, r6.xyz
  STORE_FIELD @age, 0.0
  LOAD_BUILTIN r9.x, emitter:life
  STORE_FIELD @life, r9.x

.update
  LOAD_FIELD r0.xyz, @position
  LOAD_FIELD r3.xyz, @velocity
  LOAD_BUILTIN r6.x, DT
  LOAD_CONST r8.xyzw, c[0]
  MUL r12.xyz, r3.xyz, r8.w
  SUB r12.xyz, r8.xyz, r12.xyz
  FMA r3.xyz, r12.xyz, r6.x, r3.xyz
  FMA r0.xyz, r3.xyz, r6.x, r0.xyz
  STORE_FIELD @position, r0.xyz
  STORE_FIELD @velocity, r3.xyz
  LOAD_FIELD r7.x, @age
  ADD r7.x, r7.x, r6.x
  STORE_FIELD @age, r7.x
  LOAD_FIELD r15.x, @life
  CMP r16.x, r7.x, r15.x, GT
  KILL r16.x
)";

// kProgram with `extra` more float fields after `life`, each advanced by dt in UPDATE.
std::string program_text(uint32_t extra) {
  std::string text = kProgram;
  if (extra == 0) return text;
  std::string fields, update;
  for (uint32_t k = 0; k < extra; ++k) {
    fields += ".particle extra" + std::to_string(k) + " 1\n";
    update += "  LOAD_FIELD r17.x, @extra" + std::to_string(k) + "\n  ADD r17.x, r17.x, r6.x\n  STORE_FIELD @extra" +
              std::to_string(k) + ", r17.x\n";
  }
  auto insert_before = [&](const std::string& at, const std::string& what) { text.insert(text.find(at), what); };
  insert_before(".emitter life 1", fields);
  insert_before("  LOAD_FIELD r15.x, @life", update);
  text.replace(text.find(".registers 17"), 13, ".registers 18");
  return text;
}

constexpr float kDt = 1.0f / 60.0f;
constexpr float kLife = 0.5f;
constexpr float kBurstLife = 0.05f;   // burst particles die in a few frames: the pool drains between repeats
constexpr float kLongLife = 1000.0f;  // scenario 6: nobody dies while it is measured
const char* const kPasses[] = {"reset",  "tick",     "scan",    "emit_args", "emit",
                               "bucket", "simulate", "compact", "finish",    "bounds"};

// Program `variant` of the benchmark's effect: its drag coefficient differs in the last digits, so
// every variant is a program of its own (its own placement, kernel and bucket) doing the same work.
CompiledEffect program_variant(const CompiledEffect& base, uint32_t variant) {
  CompiledEffect e = base;
  if (variant == 0 || e.program.constants.size() < 4) return e;
  e.program.constants[3] = std::bit_cast<uint32_t>(0.4f + 1e-6f * float(variant));  // c[0].w
  return e;
}

// Frames a particle spends in the alive lists: its birth frame, then one UPDATE per frame until
// age > life (the UPDATE's own f32 accumulation and comparison).
uint32_t frames_alive(float life, float dt) {
  float age = 0.0f;
  uint32_t n = 1;
  for (;;) {
    age = age + dt;
    if (age > life) return n;
    ++n;
  }
}

// The 32-byte sectors of a record that UPDATE reads (header included) and writes.
void record_sectors(const Program& p, uint32_t& read, uint32_t& written) {
  std::set<uint32_t> r{0u}, w;  // sector 0: simulate reads the header
  for (const Instruction& ins : p.update) {
    const uint32_t op = ins.words[0] & 0xFFu, lanes = (ins.words[0] >> 8) & 7u;
    for (uint32_t k = 0; k < lanes; ++k) {
      if (op == uint32_t(isa::Op::LOAD_FIELD)) r.insert((ins.words[1] + k) / 8);
      if (op == uint32_t(isa::Op::STORE_FIELD)) w.insert((ins.words[1] + k) / 8);
    }
  }
  read = uint32_t(r.size());
  written = uint32_t(w.size());
}

template <typename T>
T median(std::vector<T> v) {
  if (v.empty()) return T{};
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double gbps(double bytes, double ms) { return ms > 0.0 ? bytes / (ms * 1e-3) / 1e9 : 0.0; }

struct FrameSample {
  std::map<std::string, double> pass_ms;
  double frame_ms = 0.0;  // sum of the passes (each includes the barrier after it)
  double host_ms = 0.0;   // execute(): recording + submission on the CPU
  runtime::FrameStats stats;
};

}  // namespace

Result<CompiledEffect> frame_bench_effect(uint32_t extra_fields) {
  MOTE_TRY_ASSIGN(Program program, assemble(program_text(extra_fields)));
  CompiledEffect effect;
  effect.name = "bench_runtime_frame";
  effect.program = std::move(program);
  return effect;
}

Result<CompiledEffect> frame_bench_depth_effect() {
  std::string text = kProgram;
  const std::string moved = "  FMA r0.xyz, r3.xyz, r6.x, r0.xyz\n";
  text.insert(text.find(moved) + moved.size(),
              "  SAMPLE_DEPTH r17.xyzw, r0.xyz, 0.5\n"  // n, depth behind the surface (0, 0: no hit)
              "  FMA r0.xyz, r17.xyz, r17.w, r0.xyz\n"  // onto the surface
              "  DOT r21.x, r3.xyz, r17.xyz\n"          // v.n
              "  MIN r21.x, r21.x, 0.0\n"               // only into the surface
              "  MUL r21.x, r21.x, -1.5\n"              // -(1 + restitution) v.n
              "  FMA r3.xyz, r17.xyz, r21.x, r3.xyz\n");
  text.replace(text.find(".registers 17"), 13, ".registers 24");
  MOTE_TRY_ASSIGN(Program program, assemble(text));
  CompiledEffect effect;
  effect.name = "bench_depth_collision";
  effect.program = std::move(program);
  return effect;
}

Result<FrameResult> run_frame_scenario(gpu::Device& device, const FrameBenchOptions& opt, const Scenario& sc,
                                       const CompiledEffect& base, double roofline_gbps) {
  const auto t_setup = std::chrono::steady_clock::now();
  const uint32_t cap = std::min(opt.max_particles, kFrameMaxCapacity);
  // Steady: 1/16 headroom over the target (at least 1/32 under a cap, the 2^24 limit included).
  // Burst: the pool holds exactly the burst.
  uint32_t capacity = 0;
  uint64_t target = 0;
  if (sc.burst) {
    capacity = uint32_t(std::min<uint64_t>(sc.target, cap));
    target = capacity;
  } else {
    capacity = uint32_t(std::min<uint64_t>(std::min<uint64_t>(sc.target + sc.target / 16, cap), kFrameMaxCapacity));
    target = std::min<uint64_t>(sc.target, uint64_t(capacity) - capacity / 32);
  }
  const float life = sc.long_lived ? kLongLife : sc.burst ? kBurstLife : kLife;
  const uint32_t n = frames_alive(life, kDt);
  const float rate = sc.burst ? 0.0f : float(double(target) / (double(sc.emitters) * n * kDt));

  if (sc.idle) capacity = uint32_t(std::min<uint64_t>(sc.target, kFrameMaxCapacity));
  auto created = runtime::ParticleSystem::create(device, {.capacity = capacity,
                                                          .record_words = opt.record_words,
                                                          .max_emitters = sc.emitters,
                                                          .compiled_simulate = !opt.interpreted});
  if (!created.ok()) return created.error();
  runtime::ParticleSystem& system = *created;
  if (opt.collision_depth) MOTE_TRY(system.set_collision_depth(*opt.collision_depth));

  CompiledEffect effect = base;
  const float emitter_rate = sc.idle ? 0.0f : rate;
  effect.emitter_defaults = {std::bit_cast<uint32_t>(life), std::bit_cast<uint32_t>(emitter_rate)};
  effect.emission.rate = emitter_rate;
  effect.emission.capacity_hint = capacity;
  std::vector<EmitterDesc> emitters(sc.emitters);
  const uint32_t side = uint32_t(std::ceil(std::sqrt(double(sc.emitters))));
  for (uint32_t i = 0; i < sc.emitters; ++i) {
    emitters[i].seed = 0x9E3779B9u * (i + 1);
    emitters[i].position[0] = float(i % side) * 4.0f;
    emitters[i].position[2] = float(i / side) * 4.0f;
    // Rates spread over [0.5, 1.5) x the mean (the mean kept): emitters with equal rates would
    // spawn in lockstep (every accumulator starts at 0), and the alive count would pulse.
    if (sc.emitters > 1 && !sc.burst && !sc.idle)
      emitters[i].fields = {{"rate", {float(rate * (0.5 + (i + 0.5) / sc.emitters))}}};
  }
  const auto t_add = std::chrono::steady_clock::now();
  // Emitter i runs program i % programs: each program's emitters added together.
  std::vector<uint32_t> all_rows;
  for (uint32_t p = 0; p < sc.programs; ++p) {
    std::vector<EmitterDesc> mine;
    for (uint32_t i = p; i < sc.emitters; i += sc.programs) mine.push_back(emitters[i]);
    if (mine.empty()) continue;
    auto added = system.add_emitters(program_variant(effect, p), mine);
    if (!added.ok()) return added.error();
    all_rows.insert(all_rows.end(), added->begin(), added->end());
  }
  const std::vector<uint32_t>* rows = &all_rows;
  const double add_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_add).count();

  if (Status built = system.wait_for_kernels(); !built.ok()) return built.error();
  auto profiler = gpu::GpuProfiler::create(device, 16);
  if (!profiler.ok()) return profiler.error();

  auto run_frames = [&](uint32_t count) -> Status {
    for (uint32_t f = 0; f < count; ++f) MOTE_TRY(system.execute(kDt));
    return device.wait_idle();
  };
  auto measure = [&](FrameSample& s) -> Status {
    system.set_profiler(&*profiler);
    const auto t0 = std::chrono::steady_clock::now();
    Status st = system.execute(kDt);
    s.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    system.set_profiler(nullptr);
    MOTE_TRY(st);
    MOTE_TRY(device.wait_idle());
    MOTE_TRY_ASSIGN(auto times, profiler->resolve());
    for (const gpu::PassTime& t : times) {
      s.pass_ms[t.name] += t.ms;
      s.frame_ms += t.ms;
    }
    MOTE_TRY_ASSIGN(s.stats, system.read_stats());
    return ok_status();
  };

  std::vector<FrameSample> samples(opt.frames);
  bool pool_ok = true;
  const uint32_t burst_count = uint32_t(target);
  // Warm-up: a particle's life, plus the slowest emitter's first spawn when it spawns less than
  // once a frame (capped: small --max-particles runs with many emitters).
  uint32_t warmup = 0;
  if (sc.idle) {
    if (Status st = run_frames(4); !st.ok()) return st.error();
  } else if (!sc.burst) {
    const double slowest_per_frame = rate * kDt * (sc.emitters > 1 ? 0.5 : 1.0);
    warmup = n + 4 + uint32_t(std::min(240.0, std::ceil(1.0 / slowest_per_frame)));
    if (Status st = run_frames(warmup); !st.ok()) return st.error();
  }
  if (sc.long_lived) {
    // One burst fills the pool from the fresh free list (slots in order); two frames later the
    // alive list is that order, compacted only by the survivors' appends.
    if (Status st = system.burst((*rows)[0], burst_count); !st.ok()) return st.error();
    if (Status st = run_frames(3); !st.ok()) return st.error();
  }
  const double setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_setup).count();
  // The clocks up before the measured frames (bench/lib/copy_roofline.hpp: the warm-up frames are
  // short and far apart next to the setup's uploads).
  if (opt.roofline_mib > 0)
    if (Status st = bench::warm_gpu(device, 300.0); !st.ok()) return st.error();
  for (FrameSample& s : samples) {
    if (sc.burst && !sc.long_lived) {
      if (Status st = system.burst((*rows)[0], burst_count); !st.ok()) return st.error();
    }
    if (Status st = measure(s); !st.ok()) return st.error();
    pool_ok = pool_ok && s.stats.alive + s.stats.free_count == capacity;
    if (sc.burst && !sc.long_lived) {  // drain: the burst dies within n frames
      if (Status st = run_frames(n + 1); !st.ok()) return st.error();
    }
  }

  // How ordered the alive list (what the next simulate walks) is: the share of entries whose
  // record lies within 4 KiB (32 records) after the previous entry's, and the share that
  // continue a run of ascending neighbouring slots (|step| <= 4).
  double near_share = 0.0, step_share = 0.0;
  if (auto list = system.read_alive_slots(); list.ok() && list->size() > 1) {
    size_t near = 0, step = 0;
    for (size_t i = 1; i < list->size(); ++i) {
      const int64_t d = int64_t((*list)[i]) - int64_t((*list)[i - 1]);
      near += (d >= -32 && d <= 32) ? 1 : 0;
      step += (d >= -4 && d <= 4) ? 1 : 0;
    }
    near_share = double(near) / double(list->size() - 1);
    step_share = double(step) / double(list->size() - 1);
  }

  // Bytes per pass from each frame's own counters, then medians.
  uint32_t read_sectors = 0, written_sectors = 0;
  record_sectors(effect.program, read_sectors, written_sectors);
  const double record_bytes = opt.record_words * 4.0;
  const double rows_n = sc.emitters;
  std::map<std::string, std::vector<double>> ms, bytes;
  std::vector<double> frame_ms, host_ms, frame_bytes;
  std::vector<uint32_t> alive, prev, newborns, killed, dropped;
  for (const FrameSample& s : samples) {
    const runtime::FrameStats& k = s.stats;
    const double walked = k.previous_alive, dead = k.killed, survivors = walked - dead - k.orphaned;
    std::map<std::string, double> b;
    b["reset"] = 0.0;
    b["tick"] = rows_n * (8.0 + 2.0 * sizeof(shader::FrameEmitterState) + 4.0);
    b["scan"] = rows_n * 8.0;
    b["emit_args"] = 0.0;
    b["emit"] = double(k.newborns) * (4.0 + record_bytes + 4.0);
    // simulate: the list entry, the sectors UPDATE reads; the sectors a survivor stores; a dead
    // record zeroed. compact: the entry read again and written to this frame's list or the free
    // list.
    b["simulate"] = walked * (4.0 + 32.0 * read_sectors) + survivors * 32.0 * written_sectors +
                    (dead + k.orphaned) * record_bytes;
    b["compact"] = walked * 8.0;
    b["finish"] = 0.0;
    // bucket: the entry and its record's header sector, the entry's program written and read
    // again by the scatter with the entry, the coherence entry written; simulate then reads the
    // coherence entry too. bounds: per newborn (simulate folds the survivors from the record it
    // holds) the entry and the record's drawn sectors.
    const bool bucketed = sc.programs > 1;
    b["bucket"] = bucketed ? walked * (4.0 + 32.0 + 4.0 + 8.0 + 4.0) : 0.0;
    if (bucketed) b["simulate"] += walked * 4.0;
    b["bounds"] = double(k.newborns) * (4.0 + 32.0 * read_sectors);
    double total = 0.0;
    for (const char* p : kPasses) {
      auto it = s.pass_ms.find(p);
      ms[p].push_back(it == s.pass_ms.end() ? 0.0 : it->second);
      bytes[p].push_back(b[p]);
      total += b[p];
    }
    frame_ms.push_back(s.frame_ms);
    host_ms.push_back(s.host_ms);
    frame_bytes.push_back(total);
    alive.push_back(k.alive);
    prev.push_back(k.previous_alive);
    newborns.push_back(k.newborns);
    killed.push_back(k.killed);
    dropped.push_back(k.dropped);
  }
  std::string passes, moved, rates;
  for (const char* p : kPasses) {
    const double m = median(ms[p]), by = median(bytes[p]);
    passes += fmt::format("{}\"{}\":{:.4f}", passes.empty() ? "" : ",", p, m);
    moved += fmt::format("{}\"{}\":{:.0f}", moved.empty() ? "" : ",", p, by);
    rates += fmt::format("{}\"{}\":{:.1f}", rates.empty() ? "" : ",", p, gbps(by, m));
  }
  const double fm = median(frame_ms), fb = median(frame_bytes);
  FrameResult result;
  result.json = fmt::format(
      "{{\"bench\":\"runtime_frame\",\"scenario\":{},\"name\":\"{}\",\"capacity\":{},\"emitters\":{},"
      "\"target\":{},\"rate_per_emitter\":{:.3f},\"frames_alive\":{},\"warmup_frames\":{},\"frames\":{},"
      "\"alive\":{},\"alive_min\":{},\"alive_max\":{},\"previous_alive\":{},\"newborns\":{},\"killed\":{},"
      "\"dropped\":{},\"pool_ok\":{},"
      "\"pass_ms\":{{{}}},\"frame_ms\":{:.4f},\"host_submit_ms\":{:.4f},"
      "\"bytes\":{{{}}},\"frame_bytes\":{:.0f},\"gbps\":{{{}}},\"frame_gbps\":{:.1f},"
      "\"record_sectors_read\":{},\"record_sectors_written\":{},\"add_emitters_s\":{:.3f},\"setup_s\":{:.3f},"
      "\"simulate\":\"{}\",\"simulate_of_roofline\":{:.4f},\"frame_of_roofline\":{:.4f},"
      "\"alive_list_within_32_slots\":{:.4f},\"alive_list_within_4_slots\":{:.4f}}}\n",
      sc.id, sc.name, capacity, sc.emitters, target, rate, n, warmup, opt.frames, median(alive),
      *std::min_element(alive.begin(), alive.end()), *std::max_element(alive.begin(), alive.end()), median(prev),
      median(newborns), median(killed), median(dropped), pool_ok ? "true" : "false", passes, fm, median(host_ms), moved,
      fb, rates, gbps(fb, fm), read_sectors, written_sectors, add_s, setup_s,
      opt.interpreted ? "interpreted" : "compiled",
      roofline_gbps > 0.0 ? gbps(median(bytes["simulate"]), median(ms["simulate"])) / roofline_gbps : 0.0,
      roofline_gbps > 0.0 ? gbps(fb, fm) / roofline_gbps : 0.0, near_share, step_share);
  result.frame_ms = fm;
  result.simulate_ms = median(ms["simulate"]);
  result.frame_gbps = gbps(fb, fm);
  result.simulate_gbps = gbps(median(bytes["simulate"]), result.simulate_ms);
  result.frame_of_roofline = roofline_gbps > 0.0 ? result.frame_gbps / roofline_gbps : 0.0;
  result.simulate_of_roofline = roofline_gbps > 0.0 ? result.simulate_gbps / roofline_gbps : 0.0;
  result.alive = median(alive);
  result.capacity = capacity;
  result.pool_ok = pool_ok;
  return result;
}

Result<std::string> run_prewarm_scenario(gpu::Device& device, const FrameBenchOptions& opt, const CompiledEffect& base,
                                         uint64_t particles, float prewarm_seconds) {
  const uint32_t target = uint32_t(std::min<uint64_t>(particles, opt.max_particles));
  const uint32_t capacity = std::min(kFrameMaxCapacity, target + target / 8);
  const float rate = float(double(target) / kLife);
  auto created = runtime::ParticleSystem::create(device, {.capacity = capacity,
                                                          .record_words = opt.record_words,
                                                          .max_emitters = 1,
                                                          .compiled_simulate = !opt.interpreted});
  if (!created.ok()) return created.error();
  runtime::ParticleSystem& system = *created;
  CompiledEffect effect = base;
  effect.emitter_defaults = {std::bit_cast<uint32_t>(kLife), std::bit_cast<uint32_t>(rate)};
  effect.emission.rate = rate;
  effect.emission.capacity_hint = capacity;
  effect.emission.prewarm_seconds = prewarm_seconds;
  auto profiler = gpu::GpuProfiler::create(device, 16);
  if (!profiler.ok()) return profiler.error();
  std::vector<double> prewarm_ms, frame_ms;
  std::vector<uint32_t> migrated;
  for (uint32_t f = 0; f < std::max(1u, opt.frames); ++f) {
    auto row = system.add_emitter(effect, {.seed = 11 + f});
    if (!row.ok()) return row.error();
    system.set_profiler(&*profiler);
    Status st = system.execute(kDt);
    system.set_profiler(nullptr);
    if (!st.ok()) return st.error();
    if (Status waited = device.wait_idle(); !waited.ok()) return waited.error();
    auto times = profiler->resolve();
    if (!times.ok()) return times.error();
    double total = 0.0, warm = 0.0;
    for (const gpu::PassTime& t : *times) {
      total += t.ms;
      if (t.name == "prewarm") warm += t.ms;
    }
    prewarm_ms.push_back(warm);
    frame_ms.push_back(total);
    auto stats = system.read_stats();
    if (!stats.ok()) return stats.error();
    migrated.push_back(stats->prewarmed);
    // Empty again for the next repeat: the emitter's particles die as orphans.
    if (Status removed = system.remove_emitter(*row); !removed.ok()) return removed.error();
    for (int k = 0; k < 2; ++k)
      if (Status ran = system.execute(kDt); !ran.ok()) return ran.error();
  }
  return fmt::format("{{\"bench\":\"runtime_frame\",\"name\":\"prewarm\",\"particles\":{},\"prewarm_seconds\":{:.3f},"
                     "\"capacity\":{},\"migrated\":{},\"prewarm_ms\":{:.4f},\"frame_ms\":{:.4f},\"repeats\":{}}}\n",
                     target, prewarm_seconds, capacity, median(migrated), median(prewarm_ms), median(frame_ms),
                     prewarm_ms.size());
}

}  // namespace mote::bench
