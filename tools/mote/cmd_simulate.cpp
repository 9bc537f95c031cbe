// `mote simulate EFFECT.json|EFFECT.mfx|EFFECT.masm --frames N --dt S --seed K [--json]
//  [--dump FRAME] [--executor reference|batch]`: runs the reference simulation
// (include/mote/simulation.hpp) and prints, per frame, alive, spawned, killed, dropped and the
// bounds of the position field; --dump FRAME prints that frame's records as JSON (field name ->
// one value or array per live particle, in alive-list order).
//
// An effect document (.json) brings its own emission settings. A bare program (.mfx, .masm)
// has none: --rate, --capacity, --prewarm give them, --field NAME=V[,V...] sets emitter fields
// (otherwise 0) and --global NAME=V[,V...] global fields (for .json, over the previews).
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
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
      std::printf("frame %u alive %u spawned %u killed %u dropped %u", r->frame, r->alive, r->spawned, r->killed,
                  r->dropped);
      if (r->has_bounds)
        std::printf(" bounds [%g %g %g]..[%g %g %g]", r->bounds_min[0], r->bounds_min[1], r->bounds_min[2],
                    r->bounds_max[0], r->bounds_max[1], r->bounds_max[2]);
      std::printf("\n");
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
  cmd->callback([o, &exit_code] { exit_code = run(*o); });
}

}  // namespace mote::cli
