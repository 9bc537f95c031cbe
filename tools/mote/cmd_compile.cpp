// `mote compile EFFECT.json -o OUT [--disasm] [--expand] [--no-kernels]`: an effect document to
// the file a program ships.
// OUT ending in `.mfx` gets the program alone (mote/mfx.hpp); anything else, `.mfe` by custom, the
// cooked effect (mote/cooked_effect.hpp): the program with its defaults, emission and render
// settings, what mote::runtime loads without the compiler. A cooked effect's relative texture and
// mesh paths are rewritten to resolve from OUT's folder as they did from the document's. The cooked
// effect carries its kernels' SPIR-V (compile_effect_kernels) unless --no-kernels: a program
// linking the runtime alone then runs compiled simulate without a GLSL compiler.
// Errors: `mote compile: FILE: /json/pointer: message`, exit 1 (exit 3 when OUT cannot be written).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/assembly.hpp"
#include "mote/cooked_effect.hpp"
#include "mote/effect.hpp"
#include "mote/files.hpp"
#include "mote/mfx.hpp"

namespace mote::cli {
namespace {

namespace fs = std::filesystem;

// A relative asset path of the document, relative to the output's folder instead.
std::string relocate(const std::string& asset, const fs::path& document, const fs::path& output) {
  if (asset.empty() || fs::path(asset).is_absolute()) return asset;
  // Mesh projections also take the built-in shapes by name.
  if (asset == "box" || asset == "sphere") return asset;
  const fs::path from = fs::absolute(document).parent_path() / asset;
  const fs::path to_dir = fs::absolute(output).parent_path();
  return from.lexically_normal().lexically_relative(to_dir.lexically_normal()).string();
}

// The plain node-graph document a module document expands to (docs/design/modules.md), printed.
int print_expansion(const std::string& input) {
  Result<std::string> text = read_text_file(input);
  if (!text) return report_error("compile", input, text.error());
  Result<std::string> expanded = expand_effect_document(*text);
  if (!expanded) return report_error("compile", input, expanded.error());
  std::fputs(expanded->c_str(), stdout);
  return kExitOk;
}

int run_compile(const std::string& input, const std::string& output, bool disasm, bool expand, bool kernels) {
  if (expand) {
    if (int status = print_expansion(input); status != kExitOk) return status;
  }
  Result<CompiledEffect> effect = compile_effect_file(input);
  if (!effect) {
    Error e = effect.take_error();
    if (e.where.empty() || e.where == input) e.where = "/";
    return report_error("compile", input, e);
  }
  if (!output.empty()) {
    std::vector<uint8_t> bytes;
    if (output.ends_with(".mfx")) {
      bytes = save_mfx(effect->program);
    } else {
      effect->render.texture = relocate(effect->render.texture, input, output);
      effect->render.mesh = relocate(effect->render.mesh, input, output);
      if (kernels) {
        if (Status s = compile_effect_kernels(*effect); !s) return report_error("compile", input, s.error());
      }
      bytes = save_cooked_effect(*effect);
    }
    if (Status s = write_binary_file(output, bytes); !s) return report_error("compile", output, s.error(), kExitSystem);
  }
  if (disasm) std::fputs(disassemble(effect->program).c_str(), stdout);
  return kExitOk;
}

}  // namespace

void add_compile_command(CLI::App& app, int& exit_code) {
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  auto disasm = std::make_shared<bool>(false);
  auto expand = std::make_shared<bool>(false);
  auto no_kernels = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("compile", "Compile an effect document (JSON) to a cooked effect (.mfe) or a "
                                                "program (.mfx)");
  cmd->add_option("input", *input, "the effect document")->required();
  cmd->add_option("-o,--output", *output, "the file to write: X.mfe (cooked effect) or X.mfx (the program alone)");
  cmd->add_flag("--disasm", *disasm, "print the compiled program as assembly");
  cmd->add_flag("--expand", *expand, "print the node-graph document a module document expands to");
  cmd->add_flag("--no-kernels", *no_kernels, "leave the kernels' SPIR-V out of a cooked effect");
  cmd->callback([&exit_code, input, output, disasm, expand, no_kernels] {
    exit_code = run_compile(*input, *output, *disasm, *expand, !*no_kernels);
  });
}

}  // namespace mote::cli
