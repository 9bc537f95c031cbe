// compile_effect_file (mote/files.hpp): in the tools library (mote::tools), beside the effect
// compiler it calls, so the runtime library carries no compiler (src/api/CMakeLists.txt).
#include "mote/files.hpp"

#include "core/alloc_guard.hpp"

namespace mote {

Result<CompiledEffect> compile_effect_file(const std::filesystem::path& path) {
  return core::guard_allocation("compile_effect_file", [&]() -> Result<CompiledEffect> {
    MOTE_TRY_ASSIGN(const std::string text, read_text_file(path));
    MOTE_TRY_ASSIGN(CompiledEffect effect, compile_effect(text));
    effect.source_path = path.string();
    return effect;
  });
}

}  // namespace mote
