// `mote presets [--dir DIR] [--json]`: the effect presets, one line each (name, emission, render),
// each compiled as it is listed, so a preset that no longer compiles shows here (exit 1). The
// folder: --dir, else $MOTE_PRESETS_DIR, else the installed share/mote/effects beside this
// program, else the source tree's effects/ this program was built from.
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/files.hpp"

namespace mote::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path presets_dir(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("MOTE_PRESETS_DIR"); env != nullptr && *env != 0) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "mote" / "effects";
    if (fs::is_directory(installed, ec)) return installed;
  }
  return MOTE_SOURCE_EFFECTS_DIR;
}

int run_presets(const std::string& dir_option, bool json_output) {
  const fs::path dir = presets_dir(dir_option);
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  if (ec)
    return report_error("presets", dir.string(), make_error(ErrorCode::kNotFound, "cannot list: " + ec.message()));
  std::sort(files.begin(), files.end());
  json list = json::array();
  int status = kExitOk;
  for (const fs::path& file : files) {
    Result<CompiledEffect> effect = compile_effect_file(file);
    if (!effect) {
      status = report_error("presets", file.string(), effect.error());
      continue;
    }
    const EmissionSettings& e = effect->emission;
    const RenderSettings& r = effect->render;
    uint32_t burst_particles = 0;
    for (const Burst& b : e.bursts) burst_particles += b.count;
    if (json_output) {
      list.push_back({{"name", effect->name},
                      {"file", file.string()},
                      {"rate", e.rate},
                      {"bursts", e.bursts.size()},
                      {"capacity", e.capacity_hint},
                      {"prewarm", e.prewarm_seconds},
                      {"projection", r.projection},
                      {"blend", r.blend},
                      {"lit", r.lit},
                      {"particle_fields", effect->program.particle_fields.size()},
                      {"instructions", effect->program.init.size() + effect->program.update.size()}});
    } else {
      std::string emission = e.rate > 0 ? std::to_string(int(e.rate)) + "/s" : "no rate";
      if (!e.bursts.empty())
        emission += ", " + std::to_string(e.bursts.size()) + " burst" + (e.bursts.size() > 1 ? "s" : "") + " (" +
                    std::to_string(burst_particles) + ")";
      std::printf("%-16s %-28s capacity %-6u %s, %s%s  (%s)\n", effect->name.c_str(), emission.c_str(), e.capacity_hint,
                  r.projection.c_str(), r.blend.c_str(), r.lit ? ", lit" : "", file.filename().string().c_str());
    }
  }
  if (json_output) std::printf("%s\n", json{{"dir", dir.string()}, {"presets", list}}.dump(2).c_str());
  return status;
}

}  // namespace

void add_presets_command(CLI::App& app, int& exit_code) {
  struct Options {
    std::string dir;
    bool json_output = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("presets", "List the effect presets, one line each");
  cmd->add_option("--dir", o->dir, "the presets folder (default: $MOTE_PRESETS_DIR, the installed presets, effects/)");
  cmd->add_flag("--json", o->json_output, "print one JSON document");
  cmd->callback([o, &exit_code] { exit_code = run_presets(o->dir, o->json_output); });
}

}  // namespace mote::cli
