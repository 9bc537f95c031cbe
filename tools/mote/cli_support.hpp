// What every `mote` verb shares: the exit statuses, the one error style, the progress bar, and
// running another program (ffmpeg) from an argument vector.
//
// Exit statuses (docs/design/cli.md):
//   0  done
//   1  the input was refused or a check failed (a malformed file, an effect that does not
//      compile, a program that does not verify, a comparison that differs)
//   2  usage: an unknown verb or option, a missing argument, a value out of its range
//   3  the machine could not do it: no usable Vulkan device, a Vulkan failure, memory, or an
//      output that cannot be written
// Errors go to stderr as `mote VERB: FILE: where: what` (FILE and where when there are any).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mote/result.hpp"

namespace mote::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRefused = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitSystem = 3;

// The status an error leads to: kVulkan, kOutOfMemory and kInternal are the machine's (3); the
// rest are the input's (1). A verb passes 3 itself for a device it cannot create or an output it
// cannot write.
int exit_status_for(const Error& error);

// Prints `mote VERB: FILE: where: what` and returns exit_status_for(error) (or `status` when given).
int report_error(std::string_view verb, std::string_view file, const Error& error, int status = -1);
// Prints `mote VERB: message` for a usage problem CLI11 cannot see and returns 2.
int usage_error(std::string_view verb, std::string_view message);

// A one-line progress bar on stderr, drawn only when stdout and stderr are terminals and there is
// a total (a pipeline reading stdout sees no control characters and the same lines as before).
class ProgressBar {
 public:
  ProgressBar(std::string label, uint64_t total);
  ~ProgressBar();
  void update(uint64_t done, std::string_view note = {});
  void finish();
  bool shown() const { return shown_; }

 private:
  std::string label_;
  uint64_t total_ = 0;
  bool shown_ = false;
  bool finished_ = false;
};

// The first executable file called `name` in the directories of $PATH ("" when there is none).
std::string find_on_path(std::string_view name);
// Runs `argv[0]` (a path) with `argv` as its arguments — never through a shell — and waits.
// Returns its exit status (128 + the signal when one ended it); kIo when it cannot start.
Result<int> run_program(const std::vector<std::string>& argv);

}  // namespace mote::cli
