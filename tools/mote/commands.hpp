// Each `mote` subcommand registers itself on the CLI11 app; the callback stores the process
// exit status in `exit_code` (cli_support.hpp: 0 done, 1 refused, 2 usage, 3 the machine's).
#pragma once

namespace CLI {
class App;
}

namespace mote::cli {
void add_info_command(CLI::App& app, int& exit_code);
void add_selftest_command(CLI::App& app, int& exit_code);
void add_asm_commands(CLI::App& app, int& exit_code);  // asm, disasm, verify
void add_run_program_command(CLI::App& app, int& exit_code);
void add_simulate_command(CLI::App& app, int& exit_code);
void add_compile_command(CLI::App& app, int& exit_code);  // effect document -> cooked effect or .mfx
void add_inspect_command(CLI::App& app, int& exit_code);  // any Mote file described
void add_presets_command(CLI::App& app, int& exit_code);  // the presets, a line each
void add_render_command(CLI::App& app, int& exit_code);   // scene file -> PNG frames, GIF
void add_preview_command(CLI::App& app, int& exit_code);  // one effect on a default stage -> PNG frames, GIF
void add_bench_command(CLI::App& app, int& exit_code);    // the benchmarks
void add_bake_command(CLI::App& app, int& exit_code);     // flipbook textures from 3-D noise
void add_edit_command(CLI::App& app, int& exit_code);     // the browser editor on 127.0.0.1
}  // namespace mote::cli
