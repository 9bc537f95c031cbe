#include "vm_gpu/record_window.hpp"

#include <algorithm>
#include <vector>

#include "mote/isa.hpp"
#include "shared/isa_encoding.h"
#include "shared/vm_limits.h"

namespace mote {

RecordWindow record_window(const Program& program, Section section, uint32_t record_words) {
  RecordWindow window;
  if (record_words == 0 || record_words % 4 != 0) return window;
  uint32_t lowest = UINT32_MAX, highest = 0;
  std::vector<uint32_t> stored;
  for (const Instruction& ins : program.code(section)) {
    const uint32_t op = shader::vm_op(ins.words[0]);
    if (op != uint32_t(isa::Op::LOAD_FIELD) && op != uint32_t(isa::Op::STORE_FIELD)) continue;
    const uint32_t lanes = std::clamp(shader::vm_lanes(ins.words[0]), 1u, 4u);
    for (uint32_t k = 0; k < lanes; ++k) {
      // The word as the shaders compute it (a 32-bit sum, then the clamp), so the window holds
      // exactly the words they can touch.
      const uint32_t word = std::min(uint32_t(ins.words[1] + k), record_words - 1);
      lowest = std::min(lowest, word);
      highest = std::max(highest, word);
      if (op == uint32_t(isa::Op::STORE_FIELD)) stored.push_back(word);
    }
  }
  if (lowest == UINT32_MAX) return window;
  const uint32_t first = lowest / 4, last = highest / 4;
  if (last - first + 1 > shader::kVmMaxWindowChunks) return window;
  window.first_chunk = first;
  window.chunks = last - first + 1;
  for (uint32_t word : stored) window.dirty_mask |= 1u << (word / 4 - first);
  return window;
}

}  // namespace mote
