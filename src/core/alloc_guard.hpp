// Memory exhaustion as an error value at the API boundary (docs/design/reliability.md, "Memory").
// Mote's own limits refuse what an untrusted input asks for before allocating it, but a size
// within every limit can still exceed the machine: std::bad_alloc (and std::length_error, a size
// past max_size) must not cross a public function, nor abort a tool. Each public entry point that
// allocates in proportion to its input runs its body through guard_allocation.
#pragma once

#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "mote/result.hpp"

namespace mote::core {

// `body()` (a Result or a Status), or kOutOfMemory "out of memory in <what>" when it threw
// std::bad_alloc or std::length_error. The error is built after the stack has unwound, when the
// failed allocation's memory is no longer wanted.
template <typename Body>
auto guard_allocation(std::string_view what, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  return make_error(ErrorCode::kOutOfMemory, "out of memory in " + std::string(what));
}

}  // namespace mote::core
