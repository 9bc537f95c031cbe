#include "mote/result.hpp"

#include "core/error_text.hpp"

namespace mote {

const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid argument";
    case ErrorCode::kParse: return "parse error";
    case ErrorCode::kFormat: return "format error";
    case ErrorCode::kVerify: return "verify error";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kNotFound: return "not found";
    case ErrorCode::kIo: return "i/o error";
    case ErrorCode::kVulkan: return "vulkan error";
    case ErrorCode::kOutOfMemory: return "out of memory";
    case ErrorCode::kInternal: return "internal error";
  }
  return "error";
}

std::string Error::to_string() const {
  std::string s = error_code_name(code);
  if (!where.empty()) {
    s += " at ";
    s += where;
  }
  s += ": ";
  s += message;
  return s;
}

// Messages and locations often carry input (a key, a token, a path): printable and bounded.
Error make_error(ErrorCode code, std::string message, std::string where) {
  return Error{code, core::printable_text(message, core::kMaxErrorMessageBytes),
               core::printable_text(where, core::kMaxErrorWhereBytes)};
}

}  // namespace mote
