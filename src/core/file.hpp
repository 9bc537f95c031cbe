// Whole-file reads and writes with errors as values.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "mote/result.hpp"

namespace mote {

// Refuses files larger than max_bytes (untrusted input must not make us allocate without bound).
Result<std::vector<uint8_t>> read_file_bytes(const std::string& path, size_t max_bytes = size_t(1) << 30);
Result<std::string> read_file_text(const std::string& path, size_t max_bytes = size_t(1) << 30);
Status write_file_bytes(const std::string& path, std::span<const uint8_t> bytes);
Status write_file_text(const std::string& path, const std::string& text);

}  // namespace mote
