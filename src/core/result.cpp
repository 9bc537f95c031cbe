#include "mote/result.hpp"

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

Error make_error(ErrorCode code, std::string message, std::string where) {
  return Error{code, std::move(message), std::move(where)};
}

}  // namespace mote
