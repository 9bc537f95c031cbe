// Constant interning: every vector a LOAD_CONST reads goes into the vec4 pool once. Scalars
// never need the pool (they are immediates); vectors are deduplicated by their bit patterns,
// found inside any vec4 already placed (a vec2 that is the tail of an earlier vec3 costs
// nothing), and packed first-fit into the free tail of earlier vec4s.
#include <bit>

#include "passes.hpp"

namespace mote::graph {

namespace {

inline constexpr uint32_t kMaxPoolVec4 = 4096;

struct Pool {
  std::vector<uint32_t> words;  // multiple of 4
  std::vector<uint8_t> used;    // per vec4: how many leading words hold data

  std::optional<uint32_t> find(const std::vector<uint32_t>& bits) const {
    const uint32_t n = uint32_t(bits.size());
    for (uint32_t v = 0; v < used.size(); ++v)
      for (uint32_t off = 0; off + n <= used[v]; ++off) {
        bool same = true;
        for (uint32_t i = 0; i < n && same; ++i) same = words[4 * v + off + i] == bits[i];
        if (same) return 4 * v + off;
      }
    return std::nullopt;
  }

  uint32_t place(const std::vector<uint32_t>& bits) {
    const uint32_t n = uint32_t(bits.size());
    uint32_t v = 0;
    while (v < used.size() && used[v] + n > 4) ++v;
    if (v == used.size()) {
      used.push_back(0);
      words.resize(words.size() + 4, 0u);
    }
    const uint32_t index = 4 * v + used[v];
    for (uint32_t i = 0; i < n; ++i) words[index + i] = bits[i];
    used[v] = uint8_t(used[v] + n);
    return index;
  }
};

}  // namespace

Result<std::vector<uint32_t>> intern_constants(std::span<IrFunction* const> functions) {
  Pool pool;
  for (IrFunction* fn : functions) {
    for (IrInst& ins : fn->code) {
      if (ins.pending != Pending::kConst) continue;
      const auto& cv = fn->const_vectors[ins.src[0].word];
      std::vector<uint32_t> bits;
      for (uint32_t i = 0; i < cv.width; ++i) bits.push_back(std::bit_cast<uint32_t>(cv.v[i]));
      auto at = pool.find(bits);
      const uint32_t index = at ? *at : pool.place(bits);
      if (pool.used.size() > kMaxPoolVec4)
        return make_error(ErrorCode::kInvalidArgument, "the effect needs more than 4096 vec4 constants", "/");
      ins.src[0].word = index;
      ins.pending = Pending::kNone;
    }
  }
  return std::move(pool.words);
}

}  // namespace mote::graph
