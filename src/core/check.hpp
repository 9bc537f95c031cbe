// Programmer-error checks that stay on in every build (not assert): a broken invariant inside
// Mote aborts with the condition and location. Never used for untrusted input, which gets an
// Error value instead.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace mote::detail {
[[noreturn]] void check_failed(const char* condition, const char* file, int line, const char* message);
}  // namespace mote::detail

#define MOTE_CHECK(cond, msg)                                         \
  do {                                                                \
    if (!(cond)) [[unlikely]]                                         \
      ::mote::detail::check_failed(#cond, __FILE__, __LINE__, (msg)); \
  } while (0)
