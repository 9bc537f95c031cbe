// ParticleSystem::set_vector_field on the GPU frame (docs/design/vector_field.md, "In the frame"),
// lavapipe with validation on: a vector_field node in INIT and in UPDATE reads the field given to
// its slot, bit for bit what sample_vector_field computes at the particle's position; an empty
// slot (the stand-in table) reads 0, a cleared one reads 0 again, and a replaced field is read
// from the next frame on. Refusals name the slot or the field's member.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "mote/effect.hpp"
#include "mote/vector_field.hpp"
#include "runtime/frame/particle_system.hpp"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::ParticleSystem;

constexpr uint32_t kCount = 64;
constexpr uint32_t kRecordWords = 16;

// kCount particles at random positions in [-3, 3]^3 (partly outside the fields' boxes), living for
// ever; INIT stores slot 1's field at the birth position in `born`, every UPDATE slot 1's field at
// the current position in `now` and slot 0's in `other`, and moves the particle by +0.25 in x.
const char* kEffect = R"({"name": "sampler", "vector_fields": ["unused", "flow"],
  "particle_fields": [{"name": "position", "width": 3}, {"name": "born", "width": 3}, {"name": "now", "width": 3},
                      {"name": "other", "width": 3}],
  "emission": {"bursts": [{"time": 0, "count": 64}], "capacity": 64},
  "init": {"nodes": [
    {"id": "r", "type": "random_range", "inputs": {"min": [-3, -3, -3], "max": [3, 3, 3]}},
    {"id": "f", "type": "vector_field", "params": {"field": "flow"}, "inputs": {"position": "r"}},
    {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "r"}},
    {"id": "sb", "type": "set_field", "params": {"field": "born"}, "inputs": {"value": "f"}}]},
  "update": {"nodes": [
    {"id": "p", "type": "get_field", "params": {"field": "position"}},
    {"id": "f", "type": "vector_field", "params": {"field": "flow"}, "inputs": {"position": "p"}},
    {"id": "g", "type": "vector_field", "params": {"field": "unused"}, "inputs": {"position": "p"}},
    {"id": "m", "type": "add", "inputs": {"a": "p", "b": [0.25, 0, 0]}},
    {"id": "sn", "type": "set_field", "params": {"field": "now"}, "inputs": {"value": "f"}},
    {"id": "so", "type": "set_field", "params": {"field": "other"}, "inputs": {"value": "g"}},
    {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "m"}}]}})";

// A field that is not linear (its corners hashed), so a wrong corner, weight or slot shows.
VectorField hashed_field(std::array<uint32_t, 3> size, float half, uint32_t seed) {
  VectorField f{.size = size, .box_min = {-half, -half * 0.5f, -half}, .box_max = {half, half, half * 0.75f}};
  uint32_t h = seed;
  f.vectors.resize(size_t(size[0]) * size[1] * size[2] * 3);
  for (float& v : f.vectors) {
    h = h * 1664525u + 1013904223u;
    v = float(int32_t(h >> 8) % 2001 - 1000) / 125.0f;
  }
  return f;
}

struct Sample {
  std::array<float, 3> position, born, now, other;
};

std::vector<Sample> read_samples(ParticleSystem& system) {
  std::vector<Sample> out;
  auto pool = system.read_pool();
  auto alive = system.read_alive_slots();
  EXPECT_TRUE(pool.ok() && alive.ok());
  if (!pool.ok() || !alive.ok()) return out;
  for (uint32_t slot : alive.value()) {
    const uint32_t* r = pool.value().data() + size_t(slot) * kRecordWords;
    auto f3 = [&](uint32_t w) {
      return std::array<float, 3>{std::bit_cast<float>(r[w]), std::bit_cast<float>(r[w + 1]),
                                  std::bit_cast<float>(r[w + 2])};
    };
    out.push_back({f3(1), f3(4), f3(7), f3(10)});
  }
  return out;
}

class VectorFieldFrameTest : public test::GpuTest {};

TEST_F(VectorFieldFrameTest, NodesReadTheFieldOfTheirSlotBitForBit) {
  auto effect = compile_effect(kEffect);
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  auto created = ParticleSystem::create(device(),
                                        {.capacity = kCount, .record_words = kRecordWords, .max_emitters = 1});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  const VectorField flow = hashed_field({5, 4, 6}, 2.0f, 7);
  const VectorField other = hashed_field({3, 3, 2}, 2.5f, 11);
  ASSERT_TRUE(system.set_vector_field(1, flow).ok());
  ASSERT_TRUE(system.add_emitter(*effect, {.seed = 5}).ok());
  const float dt = 1.0f / 60.0f;

  // Frame 1: the burst's INIT; frame 2: their first UPDATE, slot 0 still empty (reads 0).
  ASSERT_TRUE(system.execute(dt).ok());
  ASSERT_TRUE(system.execute(dt).ok());
  std::vector<Sample> s = read_samples(system);
  ASSERT_EQ(s.size(), kCount);
  for (const Sample& p : s) {
    const std::array<float, 3> before = {p.position[0] - 0.25f, p.position[1], p.position[2]};
    EXPECT_EQ(p.born, sample_vector_field(flow, before));
    EXPECT_EQ(p.now, sample_vector_field(flow, before));
    EXPECT_EQ(p.other, (std::array<float, 3>{0.0f, 0.0f, 0.0f}));
  }

  // Slot 0 given a field, slot 1 cleared: read from the next frame on.
  ASSERT_TRUE(system.set_vector_field(0, other).ok());
  ASSERT_TRUE(system.set_vector_field(1, std::nullopt).ok());
  ASSERT_TRUE(system.execute(dt).ok());
  s = read_samples(system);
  ASSERT_EQ(s.size(), kCount);
  uint32_t nonzero = 0;
  for (const Sample& p : s) {
    const std::array<float, 3> before = {p.position[0] - 0.25f, p.position[1], p.position[2]};
    EXPECT_EQ(p.now, (std::array<float, 3>{0.0f, 0.0f, 0.0f}));
    EXPECT_EQ(p.other, sample_vector_field(other, before));
    nonzero += p.other[0] != 0.0f;
  }
  EXPECT_GT(nonzero, kCount / 2) << "the field reads 0 almost everywhere: the comparison says little";
}

TEST_F(VectorFieldFrameTest, RefusesABadSlotOrField) {
  auto created = ParticleSystem::create(device(), {.capacity = 16, .record_words = 8, .max_emitters = 1});
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleSystem system = std::move(created).value();
  VectorField field = hashed_field({2, 2, 2}, 1.0f, 3);
  const Status slot = system.set_vector_field(kMaxVectorFieldSlots, field);
  ASSERT_FALSE(slot.ok());
  EXPECT_EQ(slot.error().where, "slot");
  field.vectors[7] = std::nanf("");
  const Status value = system.set_vector_field(0, field);
  ASSERT_FALSE(value.ok());
  EXPECT_EQ(value.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(value.error().where, "field.vectors[7]");
  EXPECT_EQ(system.vector_fields().field(0), nullptr) << "a refused field changes nothing";
}

}  // namespace
}  // namespace mote
