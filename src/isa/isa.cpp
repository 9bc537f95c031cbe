#include "mote/isa.hpp"

namespace mote::isa {

std::optional<Op> op_from_mnemonic(std::string_view mnemonic) {
  for (const OpInfo& info : all_ops())
    if (info.mnemonic == mnemonic) return info.op;
  return std::nullopt;
}

std::optional<Builtin> builtin_from_name(std::string_view name) {
  for (const BuiltinInfo& info : all_builtins())
    if (info.name == name) return info.builtin;
  return std::nullopt;
}

}  // namespace mote::isa
