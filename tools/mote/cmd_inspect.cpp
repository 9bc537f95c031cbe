// `mote inspect FILE [--json]`: describes any Mote file — a cooked effect (.mfe), a program
// (.mfx, or .masm text), an effect document or a scene file (JSON) — after loading it as strictly
// as its user would (a program is verified). Exit 1 when the file is refused.
#include <CLI/CLI.hpp>
#include <bit>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/assembly.hpp"
#include "mote/cooked_effect.hpp"
#include "mote/effect.hpp"
#include "mote/files.hpp"
#include "mote/mfx.hpp"
#include "mote/scene.hpp"
#include "mote/verifier.hpp"

namespace mote::cli {
namespace {

using nlohmann::json;

template <typename Decl>
json fields_json(const std::vector<Decl>& fields) {
  json out = json::array();
  for (const Decl& f : fields) out.push_back({{"name", f.name}, {"width", f.width}});
  return out;
}

json program_json(const Program& p) {
  return {{"particle_fields", fields_json(p.particle_fields)},
          {"emitter_fields", fields_json(p.emitter_fields)},
          {"global_imports", fields_json(p.global_imports)},
          {"constants", p.constants.size() / 4},
          {"init_instructions", p.init.size()},
          {"update_instructions", p.update.size()},
          {"record_words", p.particle_record_words()}};
}

json effect_json(const CompiledEffect& e) {
  json bursts = json::array();
  for (const Burst& b : e.emission.bursts)
    bursts.push_back({{"time", b.time}, {"count", b.count}, {"cycles", b.cycles}, {"interval", b.interval}});
  json defaults = json::array();
  for (uint32_t w : e.emitter_defaults) defaults.push_back(std::bit_cast<float>(w));
  json globals = json::object();
  for (const GlobalPreview& g : e.globals) globals[g.name] = g.values;
  const RenderSettings& r = e.render;
  json kernels = json::array();
  for (const CookedKernel& k : e.kernels)
    kernels.push_back({{"stage", k.stage == KernelStage::kEmit ? "emit" : "simulate"},
                       {"spirv_words", k.spirv.size()}});
  return {{"name", e.name},
          {"program", program_json(e.program)},
          {"emitter_defaults", defaults},
          {"global_previews", globals},
          {"emission",
           {{"rate", e.emission.rate},
            {"prewarm", e.emission.prewarm_seconds},
            {"capacity", e.emission.capacity_hint},
            {"bursts", bursts}}},
          {"render",
           {{"texture", r.texture},
            {"projection", r.projection},
            {"blend", r.blend},
            {"mesh", r.mesh},
            {"flipbook", {{"columns", r.flipbook_columns}, {"rows", r.flipbook_rows}, {"blend", r.flipbook_blend}}},
            {"soft", r.soft},
            {"lit", r.lit}}},
          {"kernels", kernels}};
}

std::string widths(const json& fields) {
  std::string out;
  for (const json& f : fields)
    out += (out.empty() ? "" : ", ") + f["name"].get<std::string>() + "[" + std::to_string(f["width"].get<int>()) + "]";
  return out.empty() ? "none" : out;
}

void print_text(const json& d) {
  std::printf("%s: %s\n", d["file"].get<std::string>().c_str(), d["kind"].get<std::string>().c_str());
  if (d.contains("version")) std::printf("  version            %d\n", d["version"].get<int>());
  if (d.contains("scene")) {
    const json& s = d["scene"];
    std::printf("  name               %s\n  output             %dx%d, %d frames at %g fps\n  emitters           %d\n",
                s["name"].get<std::string>().c_str(), s["width"].get<int>(), s["height"].get<int>(),
                s["frames"].get<int>(), s["fps"].get<double>(), s["emitters"].get<int>());
    return;
  }
  const json& e = d.contains("effect") ? d["effect"] : json::object();
  const json& p = d.contains("effect") ? e["program"] : d["program"];
  if (d.contains("effect")) std::printf("  name               %s\n", e["name"].get<std::string>().c_str());
  if (d.contains("modules"))
    for (auto it = d["modules"].begin(); it != d["modules"].end(); ++it) {
      std::string names;
      for (const json& n : it.value()) names += (names.empty() ? "" : ", ") + n.get<std::string>();
      std::printf("  %-18s %s\n", ("modules " + it.key()).c_str(), names.c_str());
    }
  std::printf("  particle fields    %s (%d words a record)\n", widths(p["particle_fields"]).c_str(),
              p["record_words"].get<int>());
  std::printf("  emitter fields     %s\n  global imports     %s\n", widths(p["emitter_fields"]).c_str(),
              widths(p["global_imports"]).c_str());
  std::printf("  code               %d init + %d update instructions, %d constants\n",
              p["init_instructions"].get<int>(), p["update_instructions"].get<int>(), p["constants"].get<int>());
  if (!d.contains("effect")) return;
  const json& m = e["emission"];
  const json& r = e["render"];
  std::printf("  emission           %g/s, %zu bursts, prewarm %g s, capacity %d\n", m["rate"].get<double>(),
              m["bursts"].size(), m["prewarm"].get<double>(), m["capacity"].get<int>());
  std::printf("  render             %s, %s blend, texture '%s'%s%s\n", r["projection"].get<std::string>().c_str(),
              r["blend"].get<std::string>().c_str(), r["texture"].get<std::string>().c_str(),
              r["soft"].get<bool>() ? ", soft" : "", r["lit"].get<bool>() ? ", lit" : "");
  std::string kernels;
  for (const json& k : e["kernels"])
    kernels += (kernels.empty() ? "" : ", ") + k["stage"].get<std::string>() + " (" +
               std::to_string(k["spirv_words"].get<size_t>() * 4) + " bytes of SPIR-V)";
  std::printf("  kernels            %s\n", kernels.empty() ? "none (compiled where the effect runs)" : kernels.c_str());
}

// Tells a scene file (a top-level object with "emitters") from an effect document without building
// the document: a SAX pass that keeps no values and stops past kMaxNesting levels, so a hostile file
// costs a scan, never a deep tree. The strict readers that follow check everything else.
class SceneKeyScan : public nlohmann::json_sax<json> {
 public:
  static constexpr int kMaxNesting = 256;
  bool has_emitters() const { return has_emitters_; }

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return ++depth_ <= kMaxNesting; }
  bool end_object() override { return --depth_ >= 0; }
  bool start_array(std::size_t) override { return ++depth_ <= kMaxNesting; }
  bool end_array() override { return --depth_ >= 0; }
  bool key(string_t& k) override {
    if (depth_ == 1 && k == "emitters") has_emitters_ = true;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  int depth_ = 0;
  bool has_emitters_ = false;
};

Result<json> describe_json_file(const std::string& path, const std::string& text, const std::string& asset_root) {
  SceneKeyScan scan;
  // A malformed or too deeply nested text is no scene: the effect compiler reports where it fails.
  const bool scanned = json::sax_parse(text, &scan, json::input_format_t::json, /*strict=*/true);
  if (scanned && scan.has_emitters()) {
    MOTE_TRY_ASSIGN(const Scene scene, Scene::load_file(path, {.asset_root = asset_root}));
    const SceneOutput o = scene.output();
    return json{{"kind", "scene file"},
                {"scene",
                 {{"name", scene.name()},
                  {"width", o.width},
                  {"height", o.height},
                  {"frames", o.frames},
                  {"fps", o.fps},
                  {"emitters", scene.emitter_count()}}}};
  }
  MOTE_TRY_ASSIGN(const CompiledEffect effect, compile_effect(text));
  json out = {{"kind", "effect document"}, {"effect", effect_json(effect)}};
  // A module document (docs/design/modules.md) also lists its stacks; it compiled, so the text is
  // sound JSON within the compiler's nesting limit and the shape is checked.
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_object() && doc.contains("modules") && doc["modules"].is_object()) {
    json stages = json::object();
    for (const char* stage : {"spawn", "initialize", "update", "render"}) {
      if (!doc["modules"].contains(stage)) continue;
      stages[stage] = json::array();
      for (const json& in : doc["modules"][stage]) stages[stage].push_back(in["module"]);
    }
    out["modules"] = stages;
  }
  return out;
}

// `asset_root`: what a scene's emitters name must stay inside it ("" = the current directory), as
// for render (docs/design/reliability.md, Asset paths).
Result<json> describe(const std::string& path, const std::string& asset_root) {
  if (path.ends_with(".json")) {
    MOTE_TRY_ASSIGN(const std::string text, read_text_file(path));
    return describe_json_file(path, text, asset_root);
  }
  if (path.ends_with(".masm")) {
    MOTE_TRY_ASSIGN(const Program program, load_program_file(path));
    MOTE_TRY(verify_program(program));
    return json{{"kind", "program (text assembly)"}, {"program", program_json(program)}};
  }
  MOTE_TRY_ASSIGN(const std::vector<uint8_t> bytes, read_binary_file(path));
  if (is_cooked_effect(bytes)) {
    MOTE_TRY_ASSIGN(const CompiledEffect effect, load_cooked_effect(bytes));
    return json{{"kind", "cooked effect"},
                {"version", bytes[4] | bytes[5] << 8},
                {"bytes", bytes.size()},
                {"effect", effect_json(effect)}};
  }
  if (bytes.size() >= 4 && std::equal(kMfxMagic.begin(), kMfxMagic.end(), bytes.begin())) {
    MOTE_TRY_ASSIGN(const Program program, load_mfx(bytes));
    MOTE_TRY(verify_program(program));
    return json{{"kind", "program (.mfx)"},
                {"version", bytes.size() >= 8 ? bytes[4] | bytes[5] << 8 : 0},
                {"bytes", bytes.size()},
                {"program", program_json(program)}};
  }
  return make_error(ErrorCode::kFormat, "not a Mote file (a cooked effect, .mfx, .masm, an effect or scene .json)",
                    "offset 0x0");
}

}  // namespace

void add_inspect_command(CLI::App& app, int& exit_code) {
  struct Options {
    std::string file;
    std::string asset_root;
    bool json_output = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("inspect", "Describe any Mote file: cooked effect, program, effect or scene");
  cmd->add_option("file", o->file, "FILE (.mfe, .mfx, .masm, .json)")->required();
  cmd->add_flag("--json", o->json_output, "print one JSON document");
  cmd->add_option("--asset-root", o->asset_root,
                  "a scene: the folder every file it and its effects name must stay inside (default: the current "
                  "directory)");
  cmd->callback([o, &exit_code] {
    Result<json> d = describe(o->file, o->asset_root);
    if (!d) {
      exit_code = report_error("inspect", o->file, d.error());
      return;
    }
    (*d)["file"] = o->file;
    if (o->json_output) std::printf("%s\n", d->dump(2).c_str());
    else print_text(*d);
    exit_code = kExitOk;
  });
}

}  // namespace mote::cli
