// `mote simulate EFFECT.json|EFFECT.mfx|EFFECT.masm --frames N --dt S --seed K [--json]
//  [--dump FRAME] [--executor reference|batch] [--gpu | --compare]`: runs the reference simulation
// (include/mote/simulation.hpp) and prints, per frame, alive, spawned, killed, dropped and the
// bounds of the position field; --dump FRAME prints that frame's records as JSON (field name ->
// one value or array per live particle, in alive-list order).
//
// --gpu prints the same report from the GPU frame (src/runtime_frame/, runtime::ParticleSystem):
// counts from read_stats, age from the emitter state, bounds from a pool readback every frame.
// --compare runs the GPU frame and the reference (or --executor batch) side by side and prints
// per frame both counts and their differences, then the largest deviation per particle field
// over every live particle of every frame, matched by birth serial (the serial_word option).
// It exits 1 when a count differs or a GPU particle has no reference twin. The GPU frame has no
// pre-warm yet: --gpu skips it (with a note), --compare runs both without it. The effect's
// declared bursts are scheduled by the GPU tick itself (nothing is queued with burst()). --dump
// is reference-only.
//
// An effect document (.json) brings its own emission settings. A bare program (.mfx, .masm)
// has none: --rate, --capacity, --prewarm give them, --field NAME=V[,V...] sets emitter fields
// (otherwise 0) and --global NAME=V[,V...] global fields (for .json, over the previews).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "core/file.hpp"
#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "mote/mfx.hpp"
#include "mote/simulation.hpp"
#include "mote/verifier.hpp"
#include "gpu/device.hpp"
#include "runtime/frame/particle_system.hpp"

namespace mote::cli {
namespace {

using nlohmann::json;

struct Options {
  std::string input;
  uint32_t frames = 60;
  float dt = 1.0f / 60.0f;
  uint32_t seed = 0;
  bool json_output = false;
  int64_t dump = -1;
  std::string executor = "reference";
  float rate = 0.0f;
  uint32_t capacity = 0;
  float prewarm = 0.0f;
  bool no_prewarm = false;
  std::vector<std::string> fields;
  std::vector<std::string> globals;
  bool gpu = false;
  bool compare = false;
};

int fail(const std::string& message) {
  std::fprintf(stderr, "simulate: %s\n", message.c_str());
  return 1;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Result<CompiledEffect> load_effect(const Options& o) {
  if (ends_with(o.input, ".json")) {
    MOTE_TRY_ASSIGN(std::string text, read_file_text(o.input));
    MOTE_TRY_ASSIGN(CompiledEffect effect, compile_effect(text));
    if (o.capacity) effect.emission.capacity_hint = o.capacity;
    return effect;
  }
  CompiledEffect effect;
  if (ends_with(o.input, ".masm")) {
    MOTE_TRY_ASSIGN(std::string text, read_file_text(o.input));
    MOTE_TRY_ASSIGN(effect.program, assemble(text));
  } else {
    MOTE_TRY_ASSIGN(std::vector<uint8_t> bytes, read_file_bytes(o.input));
    MOTE_TRY_ASSIGN(effect.program, load_mfx(bytes));
  }
  MOTE_TRY(verify_program(effect.program, {}));
  effect.name = o.input;
  effect.emission.rate = o.rate;
  effect.emission.prewarm_seconds = o.prewarm;
  if (o.capacity) effect.emission.capacity_hint = o.capacity;
  return effect;
}

// "name=1,2,3" -> FieldValue.
Result<FieldValue> parse_assignment(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return make_error(ErrorCode::kInvalidArgument, "expected NAME=V[,V...], got '" + text + "'");
  FieldValue v;
  v.name = text.substr(0, eq);
  size_t start = eq + 1;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    char* end = nullptr;
    const float f = std::strtof(item.c_str(), &end);
    if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(f))
      return make_error(ErrorCode::kInvalidArgument, "'" + item + "' in '" + text + "' is not a finite number");
    v.values.push_back(f);
    start = comma + 1;
  }
  if (v.values.size() > 4) return make_error(ErrorCode::kInvalidArgument, "more than 4 values in '" + text + "'");
  return v;
}

json number(float f) { return std::isfinite(f) ? json(f) : json(nullptr); }

json report_json(const FrameReport& r) {
  json j = {{"frame", r.frame}, {"age", r.emitter_age}, {"alive", r.alive}, {"spawned", r.spawned},
            {"killed", r.killed}, {"dropped", r.dropped}};
  if (r.has_bounds) {
    j["bounds"] = {{"min", {number(r.bounds_min[0]), number(r.bounds_min[1]), number(r.bounds_min[2])}},
                   {"max", {number(r.bounds_max[0]), number(r.bounds_max[1]), number(r.bounds_max[2])}}};
  } else {
    j["bounds"] = nullptr;
  }
  return j;
}

Result<json> dump_json(const Simulation& sim, uint32_t frame) {
  json particles = json::object();
  for (const FieldDecl& f : sim.effect().program.particle_fields) {
    MOTE_TRY_ASSIGN(std::vector<float> values, sim.field(f.name));
    json column = json::array();
    for (size_t i = 0; i < values.size(); i += f.width) {
      if (f.width == 1) {
        column.push_back(number(values[i]));
      } else {
        json v = json::array();
        for (uint32_t c = 0; c < f.width; ++c) v.push_back(number(values[i + c]));
        column.push_back(std::move(v));
      }
    }
    particles[f.name] = std::move(column);
  }
  json slots = json::array();
  for (uint32_t s : sim.alive_slots()) slots.push_back(s);
  return json{{"frame", frame}, {"alive", sim.alive_count()}, {"slots", slots}, {"fields", particles}};
}


// ---- the GPU frame (--gpu, --compare) ----

// A GPU ParticleSystem with one emitter, stepped frame by frame. The GPU tick fires the effect's
// declared bursts (EmissionSettings::bursts) on the emitter's own clock; queueing them here too
// would fire each twice.
struct GpuRun {
  std::unique_ptr<gpu::Device> device;
  runtime::ParticleSystem system;
  uint32_t row = 0;
  uint32_t stride = 0;
  uint32_t serial_word = 0;  // 0 = none
  std::optional<uint32_t> position_offset;
  uint32_t frame = 0;
  const CompiledEffect* effect = nullptr;
  // Last frame's readbacks (when bounds or records were asked for).
  std::vector<uint32_t> pool;
  std::vector<uint32_t> alive;
};

std::optional<uint32_t> position_offset(const CompiledEffect& effect) {
  const std::string pos = effect.render.position_field.empty() ? std::string("position") : effect.render.position_field;
  for (const FieldDecl& f : effect.program.particle_fields)
    if (f.name == pos && f.width >= 3) return effect.program.particle_field_offset(pos);
  return std::nullopt;
}

Result<std::unique_ptr<GpuRun>> start_gpu(const CompiledEffect& effect, const SimulationOptions& so, bool serial) {
  auto run = std::make_unique<GpuRun>();
  run->effect = &effect;
  MOTE_TRY_ASSIGN(run->device, gpu::Device::create(gpu::DeviceOptions{}));
  const uint32_t own = std::max(effect.program.particle_record_words(), 2u);
  run->stride = serial ? own + 1 : own;
  run->serial_word = serial ? own : 0;
  MOTE_TRY_ASSIGN(run->system, runtime::ParticleSystem::create(
                                   *run->device, {.capacity = effect.emission.capacity_hint,
                                                  .record_words = run->stride,
                                                  .max_emitters = 1,
                                                  .serial_word = run->serial_word}));
  runtime::EmitterOptions eo;
  eo.seed = so.seed;
  eo.emitter_fields = so.emitter_fields;
  eo.globals = so.globals;
  MOTE_TRY_ASSIGN(run->row, run->system.add_emitter(effect, eo));
  run->position_offset = position_offset(effect);
  return run;
}

// One GPU frame and its report; `records` also keeps the pool and alive list for matching.
Result<FrameReport> step_gpu(GpuRun& g, float dt, bool records) {
  MOTE_TRY(g.system.execute(dt));
  MOTE_TRY_ASSIGN(runtime::FrameStats stats, g.system.read_stats());
  MOTE_TRY_ASSIGN(std::vector<shader::FrameEmitterState> states, g.system.read_emitter_states());
  FrameReport r;
  r.frame = g.frame++;
  if (g.row >= states.size()) return make_error(ErrorCode::kInternal, "the emitter's state row was not read back");
  r.emitter_age = states[g.row].age;
  r.alive = stats.alive;
  r.spawned = stats.newborns;
  r.killed = stats.killed;
  r.dropped = stats.dropped;
  if (records || (g.position_offset && stats.alive)) {
    MOTE_TRY_ASSIGN(g.pool, g.system.read_pool());
    MOTE_TRY_ASSIGN(g.alive, g.system.read_alive_slots());
  }
  if (g.position_offset && !g.alive.empty() && stats.alive) {
    float lo[3], hi[3];
    for (int c = 0; c < 3; ++c) {
      lo[c] = std::numeric_limits<float>::infinity();
      hi[c] = -std::numeric_limits<float>::infinity();
    }
    for (uint32_t s : g.alive) {
      const uint32_t* p = g.pool.data() + size_t(s) * g.stride + *g.position_offset;
      for (int c = 0; c < 3; ++c) {
        const float v = std::bit_cast<float>(p[c]);
        if (std::isnan(v)) continue;
        lo[c] = std::min(lo[c], v);
        hi[c] = std::max(hi[c], v);
      }
    }
    r.has_bounds = true;
    for (int c = 0; c < 3; ++c) {
      r.bounds_min[c] = lo[c];
      r.bounds_max[c] = hi[c];
    }
  }
  return r;
}

void print_report(const FrameReport& r) {
  std::printf("frame %u alive %u spawned %u killed %u dropped %u", r.frame, r.alive, r.spawned, r.killed, r.dropped);
  if (r.has_bounds)
    std::printf(" bounds [%g %g %g]..[%g %g %g]", r.bounds_min[0], r.bounds_min[1], r.bounds_min[2], r.bounds_max[0],
                r.bounds_max[1], r.bounds_max[2]);
  std::printf("\n");
}

int run_gpu(const Options& o, const CompiledEffect& effect, const SimulationOptions& so) {
  if (effect.emission.prewarm_seconds > 0.0f && so.prewarm)
    std::fprintf(stderr, "simulate: note: the GPU frame has no pre-warm yet; frame 0 starts from an empty pool\n");
  Result<std::unique_ptr<GpuRun>> started = start_gpu(effect, so, false);
  if (!started) return fail(o.input + ": gpu: " + started.error().to_string());
  GpuRun& g = **started;
  json frames = json::array();
  for (uint32_t f = 0; f < o.frames; ++f) {
    Result<FrameReport> r = step_gpu(g, o.dt, false);
    if (!r) return fail(o.input + ": gpu frame " + std::to_string(f) + ": " + r.error().to_string());
    if (o.json_output) {
      frames.push_back(report_json(*r));
    } else {
      print_report(*r);
    }
  }
  if (o.json_output) {
    json out = {{"effect", effect.name}, {"executor", "gpu"}, {"capacity", g.system.capacity()}, {"frames", frames}};
    std::printf("%s\n", out.dump(2).c_str());
  }
  return 0;
}

struct Deviation {
  double abs = 0.0;
  double rel = 0.0;  // |d| / (1 + |ref|)
  bool nan_mismatch = false;
};

int run_compare(const Options& o, const CompiledEffect& effect, SimulationOptions so) {
  if (effect.emission.prewarm_seconds > 0.0f && so.prewarm)
    std::fprintf(stderr, "simulate: note: the GPU frame has no pre-warm yet; both sides run without it\n");
  so.prewarm = false;
  Result<std::unique_ptr<GpuRun>> started = start_gpu(effect, so, true);
  if (!started) return fail(o.input + ": gpu: " + started.error().to_string());
  GpuRun& g = **started;
  so.capacity = g.system.capacity();
  so.record_words = g.stride;
  so.emitter_row = g.row;
  so.emitter_generation = g.system.generation(g.row);
  Result<Simulation> created = Simulation::create(effect, so);
  if (!created) return fail(o.input + ": " + created.error().to_string());
  Simulation sim = std::move(created).value();

  const Program& program = effect.program;
  const uint32_t own = program.particle_record_words();
  std::vector<Deviation> dev(program.particle_fields.size());
  std::map<uint32_t, uint32_t> ref_serial;  // reference slot -> birth serial
  uint32_t born = 0;
  uint32_t differing_frames = 0;
  uint64_t unmatched = 0, compared = 0, header_mismatches = 0;
  json frames = json::array();
  for (uint32_t f = 0; f < o.frames; ++f) {
    Result<FrameReport> gr = step_gpu(g, o.dt, true);
    if (!gr) return fail(o.input + ": gpu frame " + std::to_string(f) + ": " + gr.error().to_string());
    Result<FrameReport> rr = sim.step();
    if (!rr) return fail(o.input + ": frame " + std::to_string(f) + ": " + rr.error().to_string());
    const FrameReport& a = *gr;
    const FrameReport& b = *rr;
    const int64_t d_alive = int64_t(a.alive) - b.alive, d_spawned = int64_t(a.spawned) - b.spawned,
                  d_killed = int64_t(a.killed) - b.killed, d_dropped = int64_t(a.dropped) - b.dropped;
    const bool differs = d_alive || d_spawned || d_killed || d_dropped;
    differing_frames += differs;

    const std::vector<uint32_t>& ref_alive = sim.alive_slots();
    for (uint32_t i = 0; i < b.spawned && i < ref_alive.size(); ++i) ref_serial[ref_alive[i]] = born + i;
    born += b.spawned;
    std::map<uint32_t, uint32_t> ref_by_serial;
    for (uint32_t slot : ref_alive) {
      auto it = ref_serial.find(slot);
      if (it != ref_serial.end()) ref_by_serial[it->second] = slot;
    }
    const std::vector<uint32_t>& ref_pool = sim.pool();
    for (uint32_t slot : g.alive) {
      const uint32_t* got = g.pool.data() + size_t(slot) * g.stride;
      auto it = ref_by_serial.find(got[g.serial_word]);
      if (it == ref_by_serial.end()) {
        ++unmatched;
        continue;
      }
      const uint32_t* want = ref_pool.data() + size_t(it->second) * g.stride;
      header_mismatches += got[0] != want[0];
      uint32_t w = 1;
      for (size_t fi = 0; fi < program.particle_fields.size(); ++fi) {
        for (uint32_t c = 0; c < program.particle_fields[fi].width && w < own; ++c, ++w) {
          const float x = std::bit_cast<float>(got[w]);
          const float y = std::bit_cast<float>(want[w]);
          if (std::isnan(x) || std::isnan(y)) {
            if (std::isnan(x) != std::isnan(y)) dev[fi].nan_mismatch = true;
            continue;
          }
          const double d = std::abs(double(x) - double(y));
          dev[fi].abs = std::max(dev[fi].abs, d);
          dev[fi].rel = std::max(dev[fi].rel, d / (1.0 + std::abs(double(y))));
        }
      }
      ++compared;
    }

    if (o.json_output) {
      frames.push_back({{"frame", f},
                        {"gpu", report_json(a)},
                        {"reference", report_json(b)},
                        {"count_differences",
                         {{"alive", d_alive}, {"spawned", d_spawned}, {"killed", d_killed}, {"dropped", d_dropped}}}});
    } else {
      std::printf("frame %u gpu alive %u spawned %u killed %u dropped %u | reference alive %u spawned %u killed %u "
                  "dropped %u | differences alive %lld spawned %lld killed %lld dropped %lld%s\n",
                  f, a.alive, a.spawned, a.killed, a.dropped, b.alive, b.spawned, b.killed, b.dropped,
                  (long long)d_alive, (long long)d_spawned, (long long)d_killed, (long long)d_dropped,
                  differs ? " MISMATCH" : "");
    }
  }
  if (o.json_output) {
    json fields = json::object();
    for (size_t fi = 0; fi < dev.size(); ++fi)
      fields[program.particle_fields[fi].name] = {
          {"abs", dev[fi].abs}, {"relative", dev[fi].rel}, {"nan_mismatch", dev[fi].nan_mismatch}};
    json out = {{"effect", effect.name},
                {"capacity", g.system.capacity()},
                {"frames", frames},
                {"frames_with_count_differences", differing_frames},
                {"records_compared", compared},
                {"unmatched", unmatched},
                {"header_mismatches", header_mismatches},
                {"max_deviation", fields}};
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    std::printf("count differences: %u frames of %u\n", differing_frames, o.frames);
    std::printf("records compared: %llu (matched by birth serial), unmatched %llu, header mismatches %llu\n",
                (unsigned long long)compared, (unsigned long long)unmatched, (unsigned long long)header_mismatches);
    std::printf("largest deviation per field (|gpu - reference|, and / (1 + |reference|)):\n");
    for (size_t fi = 0; fi < dev.size(); ++fi)
      std::printf("  %-20s %.3g  relative %.3g%s\n", program.particle_fields[fi].name.c_str(), dev[fi].abs,
                  dev[fi].rel, dev[fi].nan_mismatch ? "  NaN on one side only" : "");
  }
  if (differing_frames || unmatched || header_mismatches)
    return fail(o.input + ": the GPU frame and the reference differ (" + std::to_string(differing_frames) +
                " frames with count differences, " + std::to_string(unmatched) + " unmatched particles, " +
                std::to_string(header_mismatches) + " header mismatches)");
  return 0;
}

int run(const Options& o) {
  Result<CompiledEffect> effect = load_effect(o);
  if (!effect) return fail(o.input + ": " + effect.error().to_string());
  SimulationOptions so;
  so.dt = o.dt;
  so.seed = o.seed;
  so.prewarm = !o.no_prewarm;
  if (o.executor == "batch") {
    so.executor = SimulationExecutor::kBatch;
  } else if (o.executor != "reference") {
    return fail("unknown executor '" + o.executor + "' (reference, batch)");
  }
  for (const std::string& s : o.fields) {
    Result<FieldValue> v = parse_assignment(s);
    if (!v) return fail("--field: " + v.error().to_string());
    so.emitter_fields.push_back(*v);
  }
  for (const std::string& s : o.globals) {
    Result<FieldValue> v = parse_assignment(s);
    if (!v) return fail("--global: " + v.error().to_string());
    so.globals.push_back(*v);
  }
  if ((o.gpu || o.compare) && o.dump >= 0) return fail("--dump is reference-only (not with --gpu or --compare)");
  if (o.compare) return run_compare(o, *effect, so);
  if (o.gpu) return run_gpu(o, *effect, so);
  Result<Simulation> created = Simulation::create(*effect, so);
  if (!created) return fail(o.input + ": " + created.error().to_string());
  Simulation sim = std::move(created).value();

  json frames = json::array();
  json dump = nullptr;
  for (uint32_t f = 0; f < o.frames; ++f) {
    Result<FrameReport> r = sim.step();
    if (!r) return fail(o.input + ": frame " + std::to_string(f) + ": " + r.error().to_string());
    if (o.json_output) {
      frames.push_back(report_json(*r));
    } else {
      print_report(*r);
    }
    if (int64_t(f) == o.dump) {
      Result<json> d = dump_json(sim, f);
      if (!d) return fail(d.error().to_string());
      dump = std::move(d).value();
      if (!o.json_output) std::printf("%s\n", dump.dump(2).c_str());
    }
  }
  if (o.dump >= int64_t(o.frames)) return fail("--dump " + std::to_string(o.dump) + " is past the last frame");
  if (o.json_output) {
    json out = {{"effect", effect->name}, {"capacity", sim.capacity()}, {"frames", frames}};
    if (sim.warmup().ticks) {
      out["prewarm"] = {{"ticks", sim.warmup().ticks}, {"tick_seconds", sim.warmup().tick_seconds},
                        {"alive", sim.warmup_report().alive}};
    }
    if (!dump.is_null()) out["dump"] = dump;
    std::printf("%s\n", out.dump(2).c_str());
  }
  return 0;
}

}  // namespace

void add_simulate_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("simulate", "Run the reference simulation of an effect and report every frame");
  cmd->add_option("effect", o->input, "EFFECT.json, or a program (.mfx, .masm)")->required();
  cmd->add_option("--frames", o->frames, "frames to simulate")->capture_default_str();
  cmd->add_option("--dt", o->dt, "seconds per frame")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--seed", o->seed, "random seed")->capture_default_str();
  cmd->add_flag("--json", o->json_output, "print one JSON document");
  cmd->add_option("--dump", o->dump, "print this frame's particle records as JSON");
  cmd->add_option("--executor", o->executor, "reference | batch")->capture_default_str();
  cmd->add_option("--rate", o->rate, "programs: particles per second");
  cmd->add_option("--capacity", o->capacity, "particles at most (default: the effect's capacity, 1024)");
  cmd->add_option("--prewarm", o->prewarm, "programs: seconds simulated before frame 0");
  cmd->add_flag("--no-prewarm", o->no_prewarm, "skip the effect's pre-warm");
  cmd->add_option("--field", o->fields, "emitter field NAME=V[,V...] (repeatable)");
  cmd->add_option("--global", o->globals, "global field NAME=V[,V...] (repeatable)");
  cmd->add_flag("--gpu", o->gpu, "run the GPU frame (runtime::ParticleSystem) instead of the reference");
  cmd->add_flag("--compare", o->compare,
                "run the GPU frame and the reference side by side: count differences per frame, then the "
                "largest deviation per particle field (exit 1 when counts differ)");
  cmd->callback([o, &exit_code] { exit_code = run(*o); });
}

}  // namespace mote::cli
