// Errors are values at Mote's API boundary: every fallible public function returns
// mote::Result<T> (or mote::Status), never throws across the boundary and never aborts on bad
// input. An Error says what went wrong and where (a JSON pointer, a section and instruction
// index, a file offset) so a tool can point at the cause.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace mote {

enum class ErrorCode : uint32_t {
  kInvalidArgument = 1,  // a caller passed something the contract forbids
  kParse,                // text or JSON could not be read
  kFormat,               // a binary file is malformed (magic, sizes, checksum)
  kVerify,               // a program failed verification
  kUnsupported,          // a version, feature or device capability we do not have
  kNotFound,             // a file, name or device that does not exist
  kIo,                   // the operating system refused a read or write
  kVulkan,               // a Vulkan call failed
  kOutOfMemory,          // host or device memory exhausted
  kInternal,             // a bug in Mote: please report
};

const char* error_code_name(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  // Where the problem is, in the input's own terms: "/nodes/3/inputs/a", "update[12]",
  // "offset 0x40". Empty when the error has no location.
  std::string where;

  // "verify error at update[12]: register r7 read before written"
  std::string to_string() const;
};

Error make_error(ErrorCode code, std::string message, std::string where = {});

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<1>(v_); }
  Error&& take_error() { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

// Result for operations that produce nothing but can fail.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}  // NOLINT: implicit by design
  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *error_; }
  Error&& take_error() { return std::move(*error_); }

 private:
  std::optional<Error> error_;
};

inline Status ok_status() { return {}; }

}  // namespace mote

#define MOTE_CONCAT_INNER(a, b) a##b
#define MOTE_CONCAT(a, b) MOTE_CONCAT_INNER(a, b)

// MOTE_TRY(expr): evaluate a Status/Result; on error return it from the enclosing function.
#define MOTE_TRY(expr)                                                \
  do {                                                                \
    auto&& mote_try_result_ = (expr);                                 \
    if (!mote_try_result_.ok()) return mote_try_result_.take_error(); \
  } while (0)

// MOTE_TRY_ASSIGN(lhs, expr): lhs = value of a Result, or return its error.
#define MOTE_TRY_ASSIGN(lhs, expr) MOTE_TRY_ASSIGN_IMPL(MOTE_CONCAT(mote_try_, __LINE__), lhs, expr)
#define MOTE_TRY_ASSIGN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                         \
  if (!tmp.ok()) return tmp.take_error();    \
  lhs = std::move(tmp).value()
