// The GPU self-check behind `mote selftest`: a saxpy over a poisoned output buffer, verified
// element by element against the same arithmetic on the CPU, timed with GPU timestamps.
#pragma once

#include <cstdint>

#include "gpu/device.hpp"

namespace mote::gpu {

struct SelftestReport {
  uint32_t elements = 0;
  uint32_t mismatches = 0;
  uint32_t first_mismatch = 0;  // valid when mismatches > 0
  double gpu_ms = 0.0;
};

Result<SelftestReport> run_selftest(Device& device, uint32_t elements = 1u << 20);

}  // namespace mote::gpu
