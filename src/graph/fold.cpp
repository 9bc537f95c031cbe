// Constant folding: one pure opcode on constant sources, through the ISA table's own evaluation
// (src/isa/evaluate.hpp, the one the reference executor computes those rows with), so a folded
// value is bit for bit what the reference executor would compute at run time.
#include "builder.hpp"
#include "isa/evaluate.hpp"

namespace mote::graph {

std::optional<std::array<float, 4>> fold_op(isa::Op op, uint32_t lanes, const std::array<float, 4>& a4,
                                            const std::array<float, 4>& b4, const std::array<float, 4>& c4,
                                            uint32_t raw2) {
  using shader::vec4;
  const vec4 a(a4[0], a4[1], a4[2], a4[3]);
  const vec4 b(b4[0], b4[1], b4[2], b4[3]);
  const vec4 c(c4[0], c4[1], c4[2], c4[3]);
  const std::optional<vec4> r = isa::evaluate_pure(op, a, b, c, raw2);
  if (!r) return std::nullopt;
  const isa::OpInfo& info = isa::op_info(op);
  const uint32_t written = info.dst == isa::DstRule::kDstScalar ? 1u : lanes;
  std::array<float, 4> out{0.0f, 0.0f, 0.0f, 0.0f};
  for (uint32_t k = 0; k < written && k < 4; ++k) out[k] = (*r)[int(k)];
  return out;
}

}  // namespace mote::graph
