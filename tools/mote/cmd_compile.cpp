// `mote compile EFFECT.json -o EFFECT.mfx [--disasm]`: an effect document to a program file.
// Errors are `error at /pointer: message` on stderr and exit status 1, never a signal.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "mote/assembly.hpp"
#include "mote/effect.hpp"
#include "mote/files.hpp"
#include "mote/mfx.hpp"

namespace mote::cli {
namespace {

int run_compile(const std::string& input, const std::string& output, bool disasm) {
  Result<std::string> text = read_text_file(input);
  if (!text) {
    std::fprintf(stderr, "%s\n", text.error().to_string().c_str());
    return 1;
  }
  Result<CompiledEffect> effect = compile_effect(*text);
  if (!effect) {
    const Error& e = effect.error();
    std::fprintf(stderr, "%s: error at %s: %s\n", input.c_str(), e.where.empty() ? "/" : e.where.c_str(),
                 e.message.c_str());
    return 1;
  }
  if (!output.empty()) {
    if (Status s = write_binary_file(output, save_mfx(effect->program)); !s) {
      std::fprintf(stderr, "%s\n", s.error().to_string().c_str());
      return 1;
    }
  }
  if (disasm) std::fputs(disassemble(effect->program).c_str(), stdout);
  return 0;
}

}  // namespace

void add_compile_command(CLI::App& app, int& exit_code) {
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  auto disasm = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("compile", "Compile an effect document (JSON) to .mfx");
  cmd->add_option("input", *input, "the effect document")->required();
  cmd->add_option("-o,--output", *output, "the .mfx file to write");
  cmd->add_flag("--disasm", *disasm, "print the compiled program as assembly");
  cmd->callback([&exit_code, input, output, disasm] { exit_code = run_compile(*input, *output, *disasm); });
}

}  // namespace mote::cli
