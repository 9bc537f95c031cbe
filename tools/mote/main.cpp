// mote: the command-line tool. Thin over the library: each subcommand lives in its own file.
// Exit statuses and the error style are cli_support.hpp's (docs/design/cli.md).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "commands.hpp"
#include "mote/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"mote — GPU particle effects on Vulkan"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("mote ") + mote::kVersionString);
  app.footer(
      "Exit status: 0 done, 1 input refused or check failed, 2 usage, 3 no device or output (docs/design/cli.md)");
  // CLI11's own parse errors in the one error style: `mote VERB: what (see mote VERB --help)`.
  app.failure_message([](const CLI::App* main_app, const CLI::Error& e) {
    const std::vector<CLI::App*> verbs = main_app->get_subcommands();
    const std::string verb = verbs.empty() ? "" : " " + verbs.front()->get_name();
    return "mote" + verb + ": " + e.what() + " (see mote" + verb + " --help)\n";
  });
  int exit_code = 0;
  mote::cli::add_info_command(app, exit_code);
  mote::cli::add_selftest_command(app, exit_code);
  mote::cli::add_asm_commands(app, exit_code);
  mote::cli::add_run_program_command(app, exit_code);
  mote::cli::add_simulate_command(app, exit_code);
  mote::cli::add_compile_command(app, exit_code);
  mote::cli::add_inspect_command(app, exit_code);
  mote::cli::add_presets_command(app, exit_code);
  mote::cli::add_render_command(app, exit_code);
  mote::cli::add_preview_command(app, exit_code);
  mote::cli::add_bench_command(app, exit_code);
  mote::cli::add_bake_command(app, exit_code);
  mote::cli::add_edit_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? mote::cli::kExitOk : mote::cli::kExitUsage;
  } catch (const std::bad_alloc&) {
    // The library answers exhaustion with kOutOfMemory; this catches what a verb allocates itself.
    std::fputs("mote: out of memory\n", stderr);
    return mote::cli::kExitRefused;
  }
  return exit_code;
}
