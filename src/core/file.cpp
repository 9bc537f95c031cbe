#include "core/file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace mote {
namespace {
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

Error io_error(const std::string& what, const std::string& path) {
  return make_error(errno == ENOENT ? ErrorCode::kNotFound : ErrorCode::kIo, what + ": " + std::strerror(errno), path);
}
}  // namespace

Result<std::vector<uint8_t>> read_file_bytes(const std::string& path, size_t max_bytes) {
  FilePtr f(std::fopen(path.c_str(), "rb"));
  if (!f) return io_error("cannot open", path);
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  for (;;) {
    size_t n = std::fread(chunk, 1, sizeof(chunk), f.get());
    if (n == 0) break;
    if (bytes.size() + n > max_bytes)
      return make_error(ErrorCode::kIo, "file larger than " + std::to_string(max_bytes) + " bytes", path);
    bytes.insert(bytes.end(), chunk, chunk + n);
  }
  if (std::ferror(f.get())) return io_error("cannot read", path);
  return bytes;
}

Result<std::string> read_file_text(const std::string& path, size_t max_bytes) {
  MOTE_TRY_ASSIGN(auto bytes, read_file_bytes(path, max_bytes));
  return std::string(bytes.begin(), bytes.end());
}

Status write_file_bytes(const std::string& path, std::span<const uint8_t> bytes) {
  FilePtr f(std::fopen(path.c_str(), "wb"));
  if (!f) return io_error("cannot create", path);
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size())
    return io_error("cannot write", path);
  if (std::fflush(f.get()) != 0) return io_error("cannot write", path);
  return {};
}

Status write_file_text(const std::string& path, const std::string& text) {
  return write_file_bytes(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

}  // namespace mote
