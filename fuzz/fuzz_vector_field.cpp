// libFuzzer harness: the .mvf vector field decoder (load_vector_field, mote/vector_field.hpp). A
// field that loads encodes back to the same bytes, and samples finite values anywhere.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_check.hpp"
#include "mote/vector_field.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  mote::Result<mote::VectorField> field = mote::load_vector_field(bytes);
  if (!field.ok()) return 0;
  mote::Result<std::vector<uint8_t>> again = mote::encode_vector_field(*field);
  FUZZ_REQUIRE(again.ok(), "a loaded field encodes");
  FUZZ_REQUIRE(std::equal(again->begin(), again->end(), bytes.begin(), bytes.end()), "the encoding is the file");
  for (const std::array<float, 3>& p : {field->box_min, field->box_max, std::array<float, 3>{0.0f, 0.0f, 0.0f},
                                        std::array<float, 3>{1e30f, -1e30f, NAN}}) {
    const std::array<float, 3> v = mote::sample_vector_field(*field, p);
    for (float c : v) FUZZ_REQUIRE(std::isfinite(c), "a sample is finite");
  }
  return 0;
}
