// mote edit [EFFECT] [--port N]: the browser editor (docs/design/editor.md). Serves the folder it
// is started in on http://127.0.0.1:PORT/ (edit/edit_server.hpp) until interrupted; EFFECT, a
// file inside that folder, is opened first.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "cli_support.hpp"
#include "commands.hpp"
#include "edit/edit_server.hpp"

namespace mote::cli {
namespace {

namespace fs = std::filesystem;

struct EditArgs {
  std::string effect;
  int port = 8765;
  std::string device;
  std::string editor_dir;  // "" = installed beside mote (share/mote/editor), else the build's
};

fs::path default_editor_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "mote" / "editor";
    if (fs::is_regular_file(installed / "index.html", ec)) return installed;
  }
  return MOTE_EDITOR_DIR;
}

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) { g_interrupted.store(true); }

int run(const EditArgs& a) {
  std::error_code ec;
  const fs::path root = fs::current_path(ec);
  if (ec) return report_error("edit", ".", make_error(ErrorCode::kIo, "no current folder: " + ec.message()));
  std::string initial;
  if (!a.effect.empty()) {
    const fs::path full = fs::weakly_canonical(fs::absolute(a.effect, ec), ec);
    const fs::path relative = full.lexically_relative(fs::canonical(root, ec));
    if (ec || relative.empty() || *relative.begin() == "..")
      return usage_error("edit", "EFFECT must be a file inside the folder mote edit is started in (" + root.string() +
                                     "), not '" + a.effect + "'");
    if (!fs::is_regular_file(full, ec))
      return report_error("edit", a.effect, make_error(ErrorCode::kNotFound, "no such file"));
    initial = relative.generic_string();
  }
  Result<std::unique_ptr<EditServer>> server =
      EditServer::create({.root = root,
                          .editor_dir = a.editor_dir.empty() ? default_editor_dir() : fs::path(a.editor_dir),
                          .initial = initial,
                          .device = a.device,
                          .port = a.port});
  if (!server) return report_error("edit", "", server.error(), kExitSystem);
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  // The signal handler only sets the flag; stopping the server is not for a handler to do.
  std::thread watcher([&server] {
    while (!g_interrupted.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    (*server)->stop();
  });
  std::printf("mote edit: serving %s on http://127.0.0.1:%d/ (Ctrl-C stops)\n", root.string().c_str(),
              (*server)->port());
  std::fflush(stdout);
  const Status served = (*server)->run();
  g_interrupted.store(true);
  watcher.join();
  if (!served) return report_error("edit", "", served.error(), kExitSystem);
  return kExitOk;
}

}  // namespace

void add_edit_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<EditArgs>();
  CLI::App* cmd = app.add_subcommand("edit",
                                     "Edit effects in the browser: serves the current folder's documents, the module "
                                     "stack and graph, live compile errors and the engine's preview on 127.0.0.1");
  cmd->add_option("effect", args->effect, "EFFECT.json to open first (inside the current folder)");
  cmd->add_option("--port", args->port, "the port on 127.0.0.1 (0: any free one)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  cmd->add_option("--device", args->device, "device index or name substring for the preview (see mote info)");
  cmd->add_option("--editor-dir", args->editor_dir,
                  "the built editor page (index.html, app.js; default: installed beside mote, else the build's)");
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace mote::cli
