// `mote simulate EFFECT.json|EFFECT.mfx|EFFECT.masm --frames N --dt S --seed K [--json]
//  [--dump FRAME] [--executor reference|batch] [--gpu | --compare]`: runs the reference simulation
// (include/mote/simulation.hpp) and prints, per frame, alive, spawned, killed, dropped and the
// bounds of the position field; --dump FRAME prints that frame's records as JSON (field name ->
// one value or array per live particle, in alive-list order).
//
// --gpu prints the same report from the GPU frame (mote::GpuSimulation, mote/compare.hpp): counts
// from the counters, age from the emitter state, bounds from the live records every frame.
// --compare runs the GPU frame and the reference (or --executor batch) side by side
// (mote::ReferenceComparison) and prints per frame both counts and their differences, then the
// largest deviation per particle field over every live particle of every frame, matched by birth
// serial. It exits 1 when a count differs or a GPU particle has no reference twin. The GPU frame has no
// pre-warm yet: --gpu skips it (with a note), --compare runs both without it. The effect's
// declared bursts are scheduled by the GPU tick itself (nothing is queued with burst()). --dump
// is reference-only.
//
// An effect document (.json) brings its own emission settings. A bare program (.mfx, .masm)
// has none: --rate, --capacity, --prewarm give them, --field NAME=V[,V...] sets emitter fields
// (otherwise 0) and --global NAME=V[,V...] global fields (for .json, over the previews).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/compare.hpp"
#include "mote/cooked_effect.hpp"
#include "mote/effect.hpp"
#include "mote/files.hpp"
#include "mote/simulation.hpp"
#include "mote/verifier.hpp"

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
  std::fprintf(stderr, "mote simulate: %s\n", message.c_str());
  return kExitRefused;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Result<CompiledEffect> load_effect(const Options& o) {
  if (ends_with(o.input, ".mfe")) {
    MOTE_TRY_ASSIGN(CompiledEffect effect, load_cooked_effect_file(o.input));
    if (o.capacity) effect.emission.capacity_hint = o.capacity;
    return effect;
  }
  if (ends_with(o.input, ".json")) {
    MOTE_TRY_ASSIGN(CompiledEffect effect, compile_effect_file(o.input));
    if (o.capacity) effect.emission.capacity_hint = o.capacity;
    return effect;
  }
  CompiledEffect effect;
  MOTE_TRY_ASSIGN(effect.program, load_program_file(o.input));
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
  json j = {{"frame", r.frame},     {"age", r.emitter_age}, {"alive", r.alive},
            {"spawned", r.spawned}, {"killed", r.killed},   {"dropped", r.dropped}};
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

GpuSimulationOptions gpu_options(const SimulationOptions& so, bool compare) {
  GpuSimulationOptions g;
  g.dt = so.dt;
  g.emitter = so.emitter;
  g.birth_serials = compare;
  g.keep_records = compare;
  g.prewarm = so.prewarm && !compare;  // the comparison runs both sides without it
  return g;
}

// The Context and the GPU frame on it (the Context declared first: destroyed last).
struct GpuRun {
  std::unique_ptr<Context> context;
  std::unique_ptr<GpuSimulation> simulation;
};

Result<GpuRun> start_gpu(const CompiledEffect& effect, const SimulationOptions& so, bool compare) {
  GpuRun run;
  MOTE_TRY_ASSIGN(run.context, Context::create());
  MOTE_TRY_ASSIGN(run.simulation, GpuSimulation::create(*run.context, effect, gpu_options(so, compare)));
  return run;
}

void print_report(const FrameReport& r) {
  std::printf("frame %u alive %u spawned %u killed %u dropped %u", r.frame, r.alive, r.spawned, r.killed, r.dropped);
  if (r.has_bounds)
    std::printf(" bounds [%g %g %g]..[%g %g %g]", r.bounds_min[0], r.bounds_min[1], r.bounds_min[2], r.bounds_max[0],
                r.bounds_max[1], r.bounds_max[2]);
  std::printf("\n");
}

int run_gpu(const Options& o, const CompiledEffect& effect, const SimulationOptions& so) {
  Result<GpuRun> started = start_gpu(effect, so, false);
  if (!started) return report_error("simulate", o.input, started.error(), kExitSystem);
  GpuSimulation& g = *started->simulation;
  json frames = json::array();
  // With --json the report comes at the end: a terminal shows how far it is meanwhile.
  ProgressBar progress("simulating", o.json_output ? o.frames : 0);
  for (uint32_t f = 0; f < o.frames; ++f) {
    progress.update(f + 1);
    Result<FrameReport> r = g.step();
    if (!r) return report_error("simulate", o.input, r.error(), kExitSystem);
    if (o.json_output) {
      frames.push_back(report_json(*r));
    } else {
      print_report(*r);
    }
  }
  if (o.json_output) {
    json out = {{"effect", effect.name}, {"executor", "gpu"}, {"capacity", g.capacity()}, {"frames", frames}};
    std::printf("%s\n", out.dump(2).c_str());
  }
  return 0;
}

void print_comparison(const FrameComparison& c, bool json_output, json& frames) {
  const FrameReport& a = c.gpu;
  const FrameReport& b = c.reference;
  const CountDifferences& d = c.differences;
  if (json_output) {
    frames.push_back({{"frame", c.frame},
                      {"gpu", report_json(a)},
                      {"reference", report_json(b)},
                      {"count_differences",
                       {{"alive", d.alive}, {"spawned", d.spawned}, {"killed", d.killed}, {"dropped", d.dropped}}}});
  } else {
    std::printf("frame %u gpu alive %u spawned %u killed %u dropped %u | reference alive %u spawned %u killed %u "
                "dropped %u | differences alive %lld spawned %lld killed %lld dropped %lld%s\n",
                c.frame, a.alive, a.spawned, a.killed, a.dropped, b.alive, b.spawned, b.killed, b.dropped,
                (long long)d.alive, (long long)d.spawned, (long long)d.killed, (long long)d.dropped,
                d.any() ? " MISMATCH" : "");
  }
}

void print_summary(const ComparisonSummary& s, const std::string& effect, uint32_t capacity, bool json_output,
                   json frames) {
  if (json_output) {
    json fields = json::object();
    for (const FieldDeviation& d : s.max_deviation)
      fields[d.field] = {{"abs", d.abs}, {"relative", d.relative}, {"nan_mismatch", d.nan_mismatch}};
    json out = {{"effect", effect},
                {"capacity", capacity},
                {"frames", std::move(frames)},
                {"frames_with_count_differences", s.frames_with_count_differences},
                {"records_compared", s.records_compared},
                {"unmatched", s.unmatched},
                {"header_mismatches", s.header_mismatches},
                {"max_deviation", fields}};
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    std::printf("count differences: %u frames of %u\n", s.frames_with_count_differences, s.frames);
    std::printf("records compared: %llu (matched by birth serial), unmatched %llu, header mismatches %llu\n",
                (unsigned long long)s.records_compared, (unsigned long long)s.unmatched,
                (unsigned long long)s.header_mismatches);
    std::printf("largest deviation per field (|gpu - reference|, and / (1 + |reference|)):\n");
    for (const FieldDeviation& d : s.max_deviation)
      std::printf("  %-20s %.3g  relative %.3g%s\n", d.field.c_str(), d.abs, d.relative,
                  d.nan_mismatch ? "  NaN on one side only" : "");
  }
}

int run_compare(const Options& o, const CompiledEffect& effect, const SimulationOptions& so) {
  if (effect.emission.prewarm_seconds > 0.0f && so.prewarm)
    std::fprintf(stderr,
                 "mote simulate: note: the comparison runs both sides without the pre-warm (their random streams "
                 "differ)\n");
  Result<GpuRun> started = start_gpu(effect, so, true);
  if (!started) return report_error("simulate", o.input, started.error(), kExitSystem);
  std::unique_ptr<Context> context = std::move(started->context);  // outlives the comparison
  Result<std::unique_ptr<ReferenceComparison>> created = ReferenceComparison::create(std::move(started->simulation),
                                                                                     so.executor);
  if (!created) return report_error("simulate", o.input, created.error());
  ReferenceComparison& comparison = **created;

  json frames = json::array();
  // With --json the report comes at the end: a terminal shows how far it is meanwhile.
  ProgressBar progress("simulating", o.json_output ? o.frames : 0);
  for (uint32_t f = 0; f < o.frames; ++f) {
    progress.update(f + 1);
    Result<FrameComparison> c = comparison.step();
    if (!c) return report_error("simulate", o.input, c.error(), kExitSystem);
    print_comparison(*c, o.json_output, frames);
  }
  const ComparisonSummary& s = comparison.summary();
  print_summary(s, effect.name, comparison.gpu().capacity(), o.json_output, std::move(frames));
  if (!s.agrees())
    return fail(o.input + ": the GPU frame and the reference differ (" +
                std::to_string(s.frames_with_count_differences) + " frames with count differences, " +
                std::to_string(s.unmatched) + " unmatched particles, " + std::to_string(s.header_mismatches) +
                " header mismatches)");
  return 0;
}

int run(const Options& o) {
  SimulationOptions so;
  so.dt = o.dt;
  so.emitter.seed = o.seed;
  so.prewarm = !o.no_prewarm;
  if (o.executor == "batch") {
    so.executor = SimulationExecutor::kBatch;
  } else if (o.executor != "reference") {
    return usage_error("simulate", "unknown executor '" + o.executor + "' (reference, batch)");
  }
  for (const std::string& s : o.fields) {
    Result<FieldValue> v = parse_assignment(s);
    if (!v) return usage_error("simulate", "--field: " + v.error().message);
    so.emitter.fields.push_back(*v);
  }
  for (const std::string& s : o.globals) {
    Result<FieldValue> v = parse_assignment(s);
    if (!v) return usage_error("simulate", "--global: " + v.error().message);
    so.emitter.globals.push_back(*v);
  }
  if (o.dump >= int64_t(o.frames))
    return usage_error("simulate", "--dump " + std::to_string(o.dump) + " is past the last frame");
  if ((o.gpu || o.compare) && o.dump >= 0)
    return usage_error("simulate", "--dump is reference-only (not with --gpu or --compare)");
  if (o.gpu && o.compare) return usage_error("simulate", "--gpu and --compare exclude each other");
  Result<CompiledEffect> effect = load_effect(o);
  if (!effect) return report_error("simulate", o.input, effect.error());
  if (o.compare) return run_compare(o, *effect, so);
  if (o.gpu) return run_gpu(o, *effect, so);
  Result<Simulation> created = Simulation::create(*effect, so);
  if (!created) return report_error("simulate", o.input, created.error());
  Simulation sim = std::move(created).value();

  json frames = json::array();
  json dump = nullptr;
  // With --json the report comes at the end: a terminal shows how far it is meanwhile.
  ProgressBar progress("simulating", o.json_output ? o.frames : 0);
  for (uint32_t f = 0; f < o.frames; ++f) {
    progress.update(f + 1);
    Result<FrameReport> r = sim.step();
    if (!r) return report_error("simulate", o.input, r.error());
    if (o.json_output) {
      frames.push_back(report_json(*r));
    } else {
      print_report(*r);
    }
    if (int64_t(f) == o.dump) {
      Result<json> d = dump_json(sim, f);
      if (!d) return report_error("simulate", o.input, d.error());
      dump = std::move(d).value();
      if (!o.json_output) std::printf("%s\n", dump.dump(2).c_str());
    }
  }
  if (o.json_output) {
    json out = {{"effect", effect->name}, {"capacity", sim.capacity()}, {"frames", frames}};
    if (sim.warmup().ticks) {
      out["prewarm"] = {{"ticks", sim.warmup().ticks},
                        {"tick_seconds", sim.warmup().tick_seconds},
                        {"alive", sim.warmup_report().alive}};
    }
    if (!dump.is_null()) out["dump"] = dump;
    std::printf("%s\n", out.dump(2).c_str());
  }
  return 0;
}

// A finite number in [lo, hi] (hi_open: below hi): CLI11's Range and PositiveNumber let NaN
// through, since every comparison with it is false.
CLI::Validator finite_in(double lo, double hi, bool lo_open = false) {
  return CLI::Validator(
      [lo, hi, lo_open](std::string& text) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        const bool above_lo = lo_open ? v > lo : v >= lo;
        if (text.empty() || *end != '\0' || !std::isfinite(v) || !above_lo || !(v <= hi))
          return "must be a finite number in " + std::string(lo_open ? "(" : "[") + std::to_string(lo) + ", " +
                 std::to_string(hi) + "], got " + text.substr(0, 32);
        return {};
      },
      "FINITE");
}

}  // namespace

void add_simulate_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("simulate", "Run the reference simulation of an effect and report every frame");
  cmd->add_option("effect", o->input, "EFFECT.json, a cooked EFFECT.mfe, or a program (.mfx, .masm)")->required();
  cmd->add_option("--frames", o->frames, "frames to simulate")->capture_default_str();
  cmd->add_option("--dt", o->dt, "seconds per frame")->capture_default_str()->check(finite_in(0.0, 60.0, true));
  cmd->add_option("--seed", o->seed, "random seed")->capture_default_str();
  cmd->add_flag("--json", o->json_output, "print one JSON document");
  cmd->add_option("--dump", o->dump, "print this frame's particle records as JSON");
  cmd->add_option("--executor", o->executor, "reference | batch")->capture_default_str();
  // The effect document's own ranges for rate and prewarm (docs/design/effects.md).
  cmd->add_option("--rate", o->rate, "programs: particles per second")->check(finite_in(0.0, 1e9));
  cmd->add_option("--capacity", o->capacity, "particles at most (default: the effect's capacity, 1024)");
  cmd->add_option("--prewarm", o->prewarm, "programs: seconds simulated before frame 0")->check(finite_in(0.0, 600.0));
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
