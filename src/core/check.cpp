#include "core/check.hpp"

namespace mote::detail {
void check_failed(const char* condition, const char* file, int line, const char* message) {
  std::fprintf(stderr, "mote: check failed: %s (%s) at %s:%d\n", condition, message, file, line);
  std::fflush(stderr);
  std::abort();
}
}  // namespace mote::detail
