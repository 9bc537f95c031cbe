// mote: the command-line tool. Thin over the library: each subcommand lives in its own file.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <new>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"mote — GPU particle effects and participating media on Vulkan"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mote 0.1.0");
  int exit_code = 0;
  mote::cli::add_info_command(app, exit_code);
  mote::cli::add_selftest_command(app, exit_code);
  mote::cli::add_asm_commands(app, exit_code);
  mote::cli::add_run_program_command(app, exit_code);
  mote::cli::add_simulate_command(app, exit_code);
  mote::cli::add_compile_command(app, exit_code);
  mote::cli::add_render_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const std::bad_alloc&) {
    // The library answers exhaustion with kOutOfMemory; this catches what a verb allocates itself.
    std::fputs("mote: out of memory\n", stderr);
    return 1;
  }
  return exit_code;
}
