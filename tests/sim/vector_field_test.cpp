// The .mvf vector field (mote/vector_field.hpp): strict loading (sizes, box, values refused at
// their byte offsets), the encoder's round trip, and trilinear sampling as its closed form says.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "mote/vector_field.hpp"
#include "sim/vector_field_table.hpp"

namespace {

using mote::VectorField;

// v(p) = A p + b on the grid points of a 3 x 4 x 5 grid over [-1, 2] x [0, 3] x [-2, 2]: a linear
// field, which trilinear interpolation reproduces everywhere inside the box.
std::array<float, 3> linear(const std::array<float, 3>& p) {
  return {0.5f * p[0] - 2.0f * p[1] + 1.0f, 3.0f * p[2] + 0.25f, -p[0] + p[1] - p[2]};
}
VectorField linear_field() {
  VectorField f;
  f.size = {3, 4, 5};
  f.box_min = {-1.0f, 0.0f, -2.0f};
  f.box_max = {2.0f, 3.0f, 2.0f};
  for (uint32_t z = 0; z < 5; ++z)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 3; ++x) {
        const std::array<float, 3> p = {-1.0f + 1.5f * float(x), 0.0f + 1.0f * float(y), -2.0f + 1.0f * float(z)};
        for (float c : linear(p)) f.vectors.push_back(c);
      }
  return f;
}

std::vector<uint8_t> bytes_of(const VectorField& f) {
  auto encoded = mote::encode_vector_field(f);
  EXPECT_TRUE(encoded.ok()) << encoded.error().to_string();
  return encoded.ok() ? *encoded : std::vector<uint8_t>{};
}

void put_f32(std::vector<uint8_t>& b, size_t at, float v) {
  const uint32_t u = std::bit_cast<uint32_t>(v);
  for (int k = 0; k < 4; ++k) b[at + k] = uint8_t(u >> (8 * k));
}
void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t u) {
  for (int k = 0; k < 4; ++k) b[at + k] = uint8_t(u >> (8 * k));
}

std::string refusal(const std::vector<uint8_t>& b) {
  auto r = mote::load_vector_field(b);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.error().code, mote::ErrorCode::kFormat);
  return r.error().where;
}

TEST(VectorField, LoadsWhatItEncodesAndSamplesALinearFieldExactly) {
  const VectorField f = linear_field();
  const std::vector<uint8_t> b = bytes_of(f);
  ASSERT_EQ(b.size(), mote::kVectorFieldHeaderBytes + 3u * 4 * 5 * 12);
  auto back = mote::load_vector_field(b);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->size, f.size);
  EXPECT_EQ(back->vectors, f.vectors);
  for (const std::array<float, 3>& p : {std::array<float, 3>{0.3f, 1.7f, -0.4f},
                                        {-1.0f, 0.0f, -2.0f},
                                        {2.0f, 3.0f, 2.0f},
                                        {1.99f, 0.01f, 1.5f},
                                        {0.5f, 2.5f, 0.0f}}) {
    const auto got = mote::sample_vector_field(*back, p);
    const auto want = linear(p);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[c], want[c], 1e-5f) << p[0] << " " << p[1] << " " << p[2];
  }
  // Outside the box the field is its value at the nearest point of the box; NaN reads as box_min.
  const auto far = mote::sample_vector_field(*back, {10.0f, -5.0f, 0.5f});
  const auto edge = linear({2.0f, 0.0f, 0.5f});
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(far[c], edge[c], 1e-5f);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto at_nan = mote::sample_vector_field(*back, {nan, nan, nan});
  const auto corner = linear({-1.0f, 0.0f, -2.0f});
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(at_nan[c], corner[c], 1e-5f);
}

TEST(VectorField, WrongSizesAndNonFiniteValuesAreRefusedAtTheirOffsets) {
  const std::vector<uint8_t> good = bytes_of(linear_field());
  EXPECT_EQ(refusal({}), "offset 0");
  EXPECT_EQ(refusal(std::vector<uint8_t>(good.begin(), good.begin() + 39)), "offset 39");
  std::vector<uint8_t> b = good;
  b[3] = '2';
  EXPECT_EQ(refusal(b), "offset 0");  // magic
  b = good;
  put_u32(b, 8, 1);  // size[1] = 1: no cell
  EXPECT_EQ(refusal(b), "offset 8");
  b = good;
  put_u32(b, 12, 257);
  EXPECT_EQ(refusal(b), "offset 12");
  b = good;
  put_u32(b, 4, 256), put_u32(b, 8, 256), put_u32(b, 12, 256);  // 2^24 points: too many
  EXPECT_EQ(refusal(b), "offset 4");
  b = good;
  put_f32(b, 20, std::numeric_limits<float>::infinity());  // box_min[1]
  EXPECT_EQ(refusal(b), "offset 20");
  b = good;
  put_f32(b, 36, -2.0f);  // box_max[2] == box_min[2]... below it
  EXPECT_EQ(refusal(b), "offset 36");
  b = good;
  b.pop_back();  // one byte short of the grid's vectors
  EXPECT_EQ(refusal(b), std::string("offset ") + std::to_string(good.size() - 1));
  b = good;
  b.push_back(0);  // trailing bytes
  EXPECT_EQ(refusal(b), std::string("offset ") + std::to_string(good.size()));
  b = good;
  put_f32(b, 40 + 4 * 17, std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(refusal(b), "offset 108");
  b = good;
  put_f32(b, 40 + 4 * 59, 2e6f);  // the last component, beyond 1e6
  EXPECT_EQ(refusal(b), std::string("offset ") + std::to_string(40 + 4 * 59));
}

TEST(VectorField, TheEncoderRefusesWhatTheLoaderWould) {
  VectorField f = linear_field();
  f.vectors.pop_back();
  auto short_grid = mote::encode_vector_field(f);
  ASSERT_FALSE(short_grid.ok());
  EXPECT_EQ(short_grid.error().where, "vectors");
  f = linear_field();
  f.box_max[0] = f.box_min[0];
  auto flat = mote::encode_vector_field(f);
  ASSERT_FALSE(flat.ok());
  EXPECT_EQ(flat.error().code, mote::ErrorCode::kInvalidArgument);
  EXPECT_EQ(flat.error().where, "box_max[0]");
  f = linear_field();
  f.vectors[5] = std::numeric_limits<float>::infinity();
  auto inf = mote::encode_vector_field(f);
  ASSERT_FALSE(inf.ok());
  EXPECT_EQ(inf.error().where, "vectors[5]");
}

}  // namespace

// The field table the executors will read (src/sim/vector_field_table.hpp): each slot samples
// bit for bit as its field alone does (the shared coordinates and blend of
// shaders/shared/vm_vector_field.h over the packed vectors), an empty slot or one past the table
// reads 0, grid points read their vectors exactly, and bad input is refused with its place.
TEST(VectorFieldTable, SlotsSampleBitForBitAsTheirFieldsAlone) {
  const VectorField a = linear_field();
  VectorField b = linear_field();
  b.size = {3, 2, 2};
  b.box_min = {-4.0f, 1.0f, 0.0f};
  b.box_max = {4.0f, 4.5f, 0.25f};
  b.vectors.resize(3 * 2 * 2 * 3);
  for (size_t i = 0; i < b.vectors.size(); ++i) b.vectors[i] = float(i) * 0.37f - 2.0f;
  const VectorField* slots[] = {&a, nullptr, &b};
  auto table = mote::pack_vector_fields(slots);
  ASSERT_TRUE(table.ok()) << table.error().to_string();
  EXPECT_EQ(table->values.size(), a.vectors.size() + b.vectors.size());
  uint32_t state = 12345;
  auto next = [&](float lo, float hi) {
    state = state * 1664525u + 1013904223u;
    return lo + (hi - lo) * float(state >> 8) / 16777216.0f;
  };
  for (int i = 0; i < 500; ++i) {
    const std::array<float, 3> p{next(-8, 8), next(-2, 6), next(-3, 3)};
    for (uint32_t slot : {0u, 2u}) {
      const auto got = mote::sample_vector_field_table(*table, slot, p);
      const auto want = mote::sample_vector_field(slot == 0 ? a : b, p);
      for (int c = 0; c < 3; ++c) EXPECT_EQ(std::bit_cast<uint32_t>(got[c]), std::bit_cast<uint32_t>(want[c]));
    }
    for (uint32_t slot : {1u, 3u, 7u})
      for (float v : mote::sample_vector_field_table(*table, slot, p)) EXPECT_EQ(v, 0.0f);
  }
  // A grid point reads its own vector exactly (weights 1 and 0).
  const auto at = mote::sample_vector_field(b, {0.0f, 4.5f, 0.0f});  // grid point (1, 1, 0)
  const size_t k = ((0 * 2 + 1) * 3 + 1) * 3;
  for (int c = 0; c < 3; ++c) EXPECT_EQ(at[c], b.vectors[k + size_t(c)]);

  const VectorField* too_many[] = {&a, &a, &a, &a, &a};
  auto refused = mote::pack_vector_fields(too_many);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "fields");
  VectorField bad = a;
  bad.vectors[4] = std::numeric_limits<float>::infinity();
  const VectorField* with_bad[] = {&a, &bad};
  auto refused_bad = mote::pack_vector_fields(with_bad);
  ASSERT_FALSE(refused_bad.ok());
  EXPECT_EQ(refused_bad.error().where, "fields[1].vectors[4]");
}
