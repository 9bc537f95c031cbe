// Files a tool reads and writes around Mote: whole-file reads and writes, an effect document
// compiled from its path, a program loaded from `.mfx` or `.masm`.
//
// Free functions with no shared state: safe from any thread. Errors are values
// (mote/result.hpp). Read and write errors are kNotFound (no such file) or kIo (anything else the
// operating system refused, or a file over the size limit), with the path in `where`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mote/effect.hpp"
#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote {

// Files over `max_bytes` are refused: untrusted input must not make a tool allocate without bound.
inline constexpr size_t kDefaultMaxFileBytes = size_t(1) << 30;
Result<std::vector<uint8_t>> read_binary_file(const std::filesystem::path& path,
                                              size_t max_bytes = kDefaultMaxFileBytes);
Result<std::string> read_text_file(const std::filesystem::path& path, size_t max_bytes = kDefaultMaxFileBytes);
// Create or replace `path`.
Status write_binary_file(const std::filesystem::path& path, std::span<const uint8_t> bytes);
Status write_text_file(const std::filesystem::path& path, std::string_view text);

// Reads an effect document and compiles it (compile_effect): read errors as above, compile
// errors as compile_effect gives them (a JSON pointer in `where`; the caller names the file).
// In the tools library (mote::tools), with the compiler; a program linking the runtime alone
// loads cooked effects instead (mote/cooked_effect.hpp).
Result<CompiledEffect> compile_effect_file(const std::filesystem::path& path);

// A program file: `.masm` text is assembled (errors kParse at "line N"), anything else is read as
// `.mfx` (kFormat at "offset 0x..", kUnsupported for an unknown version). Not verified: call
// verify_program() before running it.
Result<Program> load_program_file(const std::filesystem::path& path);

}  // namespace mote
