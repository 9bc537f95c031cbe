// load_cooked_effect_file: the file's bytes through the pure decoder.
#include "core/file.hpp"
#include "mote/cooked_effect.hpp"
#include "mote/files.hpp"

namespace mote {

Result<CompiledEffect> load_cooked_effect_file(const std::filesystem::path& path) {
  MOTE_TRY_ASSIGN(const std::vector<uint8_t> bytes, read_file_bytes(path.string(), kDefaultMaxFileBytes));
  MOTE_TRY_ASSIGN(CompiledEffect effect, load_cooked_effect(bytes));
  effect.source_path = path.string();
  return effect;
}

}  // namespace mote
