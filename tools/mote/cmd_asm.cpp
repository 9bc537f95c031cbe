// `mote asm`, `mote disasm`, `mote verify`: the program file tools. Every failure is an exit
// status and a message on stderr (`mote VERB: FILE: where: what`), never a signal: the inputs are
// untrusted files.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/assembly.hpp"
#include "mote/files.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"

namespace mote::cli {
namespace {

int run_asm(const std::string& input, const std::string& output) {
  Result<std::string> text = read_text_file(input);
  if (!text) return report_error("asm", input, text.error());
  Result<Program> program = assemble(*text);
  if (!program) return report_error("asm", input, program.error());
  if (Status s = verify_program(*program); !s) return report_error("asm", input, s.error());
  if (Status s = write_binary_file(output, save_mfx(*program)); !s)
    return report_error("asm", output, s.error(), kExitSystem);
  return kExitOk;
}

Result<Program> load(const std::string& input) {
  MOTE_TRY_ASSIGN(const std::vector<uint8_t> bytes, read_binary_file(input));
  return load_mfx(bytes);
}

int run_disasm(const std::string& input) {
  Result<Program> program = load(input);
  if (!program) return report_error("disasm", input, program.error());
  const std::string text = disassemble(*program);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitOk;
}

int run_verify(const std::string& input) {
  Result<Program> program = load(input);
  if (!program) return report_error("verify", input, program.error());
  if (Status s = verify_program(*program); !s) return report_error("verify", input, s.error());
  std::printf("ok\n");
  return kExitOk;
}

}  // namespace

void add_asm_commands(CLI::App& app, int& exit_code) {
  // CLI11 keeps references to these strings until parsing is done: they live with the app.
  auto asm_input = std::make_shared<std::string>();
  auto asm_output = std::make_shared<std::string>();
  CLI::App* asm_cmd = app.add_subcommand("asm", "Assemble a .masm file, verify it and write .mfx");
  asm_cmd->add_option("input", *asm_input, "the .masm file")->required();
  asm_cmd->add_option("-o,--output", *asm_output, "the .mfx file to write")->required();
  asm_cmd->callback([&exit_code, asm_input, asm_output] { exit_code = run_asm(*asm_input, *asm_output); });

  auto disasm_input = std::make_shared<std::string>();
  CLI::App* disasm_cmd = app.add_subcommand("disasm", "Print an .mfx file as assembly");
  disasm_cmd->add_option("input", *disasm_input, "the .mfx file")->required();
  disasm_cmd->callback([&exit_code, disasm_input] { exit_code = run_disasm(*disasm_input); });

  auto verify_input = std::make_shared<std::string>();
  CLI::App* verify_cmd = app.add_subcommand("verify", "Load and verify an .mfx file (prints ok)");
  verify_cmd->add_option("input", *verify_input, "the .mfx file")->required();
  verify_cmd->callback([&exit_code, verify_input] { exit_code = run_verify(*verify_input); });
}

}  // namespace mote::cli
