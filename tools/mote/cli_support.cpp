#include "cli_support.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace mote::cli {

int exit_status_for(const Error& error) {
  switch (error.code) {
    case ErrorCode::kVulkan:
    case ErrorCode::kOutOfMemory:
    case ErrorCode::kInternal: return kExitSystem;
    default: return kExitRefused;
  }
}

int report_error(std::string_view verb, std::string_view file, const Error& error, int status) {
  std::string line = "mote " + std::string(verb) + ": ";
  if (!file.empty()) line += std::string(file) + ": ";
  if (!error.where.empty() && error.where != file) line += error.where + ": ";
  line += error.message;
  std::fprintf(stderr, "%s\n", line.c_str());
  return status >= 0 ? status : exit_status_for(error);
}

int usage_error(std::string_view verb, std::string_view message) {
  std::fprintf(stderr, "mote %.*s: %.*s (see mote %.*s --help)\n", int(verb.size()), verb.data(), int(message.size()),
               message.data(), int(verb.size()), verb.data());
  return kExitUsage;
}

ProgressBar::ProgressBar(std::string label, uint64_t total)
    : label_(std::move(label)),
      total_(total),
      shown_(total > 0 && isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(uint64_t done, std::string_view note) {
  if (!shown_ || finished_) return;
  constexpr int kWidth = 30;
  const int filled = total_ ? int(kWidth * std::min(done, total_) / total_) : kWidth;
  std::string bar(size_t(filled), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r%s [%s] %llu/%llu %.*s\033[K", label_.c_str(), bar.c_str(), (unsigned long long)done,
               (unsigned long long)total_, int(note.size()), note.data());
  std::fflush(stderr);
  if (done >= total_) finish();  // the work is done: the line is cleared for what follows
}

void ProgressBar::finish() {
  if (!shown_ || finished_) return;
  finished_ = true;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

std::string find_on_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view dirs(path);
  while (!dirs.empty()) {
    const size_t colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    dirs = colon == std::string_view::npos ? std::string_view{} : dirs.substr(colon + 1);
    if (dir.empty()) continue;
    const std::filesystem::path candidate = std::filesystem::path(dir) / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && access(candidate.c_str(), X_OK) == 0)
      return candidate.string();
  }
  return {};
}

Result<int> run_program(const std::vector<std::string>& argv) {
  if (argv.empty()) return make_error(ErrorCode::kInvalidArgument, "no program to run");
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0].c_str(), nullptr, nullptr, args.data(), environ);
  if (spawned != 0) return make_error(ErrorCode::kIo, std::string("cannot start: ") + std::strerror(spawned), argv[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return make_error(ErrorCode::kIo, std::string("waitpid: ") + std::strerror(errno), argv[0]);
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 128;
}

}  // namespace mote::cli
