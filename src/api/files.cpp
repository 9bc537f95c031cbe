// mote/files.hpp over src/core/file.hpp, assemble and load_mfx (compile_effect_file is in
// compile_effect_file.cpp, with the tools).
#include "mote/files.hpp"

#include "core/alloc_guard.hpp"
#include "core/file.hpp"
#include "mote/assembly.hpp"
#include "mote/mfx.hpp"

namespace mote {

Result<std::vector<uint8_t>> read_binary_file(const std::filesystem::path& path, size_t max_bytes) {
  return core::guard_allocation("read_binary_file", [&] { return read_file_bytes(path.string(), max_bytes); });
}

Result<std::string> read_text_file(const std::filesystem::path& path, size_t max_bytes) {
  return core::guard_allocation("read_text_file", [&] { return read_file_text(path.string(), max_bytes); });
}

Status write_binary_file(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  return write_file_bytes(path.string(), bytes);
}

Status write_text_file(const std::filesystem::path& path, std::string_view text) {
  return write_file_bytes(path.string(), std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

Result<Program> load_program_file(const std::filesystem::path& path) {
  // By the name's ending, not path::extension(): a file called ".masm" is text too.
  if (path.string().ends_with(".masm")) {
    MOTE_TRY_ASSIGN(const std::string text, read_text_file(path));
    return assemble(text);
  }
  MOTE_TRY_ASSIGN(const std::vector<uint8_t> bytes, read_binary_file(path));
  return load_mfx(bytes);
}

}  // namespace mote
