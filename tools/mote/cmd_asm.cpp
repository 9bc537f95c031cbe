// `mote asm`, `mote disasm`, `mote verify`: the program file tools. Every failure is an exit
// status and a message on stderr, never a signal: the inputs are untrusted files.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.hpp"
#include "mote/assembly.hpp"
#include "mote/files.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"

namespace mote::cli {
namespace {

int fail(const Error& error) {
  std::fprintf(stderr, "%s\n", error.to_string().c_str());
  return 1;
}

// Errors from a file get the file name in front so a build log points at it.
int fail(const std::string& path, const Error& error) {
  std::fprintf(stderr, "%s: %s\n", path.c_str(), error.to_string().c_str());
  return 1;
}

int run_asm(const std::string& input, const std::string& output) {
  Result<std::string> text = read_text_file(input);
  if (!text) return fail(text.error());
  Result<Program> program = assemble(*text);
  if (!program) return fail(input, program.error());
  if (Status s = verify_program(*program); !s) return fail(input, s.error());
  if (Status s = write_binary_file(output, save_mfx(*program)); !s) return fail(s.error());
  return 0;
}

// Read errors already name the path; format errors get it in front.
Result<Program> load(const std::string& input) {
  Result<std::vector<uint8_t>> bytes = read_binary_file(input);
  if (!bytes) return bytes.take_error();
  Result<Program> program = load_mfx(*bytes);
  if (!program) {
    Error e = program.take_error();
    e.message = input + ": " + e.message;
    return e;
  }
  return program;
}

int run_disasm(const std::string& input) {
  Result<Program> program = load(input);
  if (!program) return fail(program.error());
  const std::string text = disassemble(*program);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

int run_verify(const std::string& input) {
  Result<Program> program = load(input);
  if (!program) return fail(program.error());
  if (Status s = verify_program(*program); !s) return fail(input, s.error());
  std::printf("ok\n");
  return 0;
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
