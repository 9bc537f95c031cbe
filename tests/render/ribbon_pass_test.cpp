// The ribbon build (src/render/ribbon_pass.cpp) on the device with validation, checked on the CPU
// from what it wrote: strips follow birth order whatever the alive list's order, ribbons of one
// emitter split by their id field and never joined across emitters, what is not a ribbon point
// (another projection, a stale generation) sorted out, deaths in the middle of a strip only
// shortening it, the piece list and the u modes; and the shared corner functions
// (shaders/shared/ribbon.h): ends exact, neighbouring pieces meeting bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "render/ribbon_pass.hpp"
#include "shared/ribbon.h"
#include "support/gpu_fixture.hpp"
#include "support/particle_scene.hpp"

namespace mote::render {
namespace {

using namespace test::particle_scene;  // the pool layout, quad_record, append_particle

constexpr uint32_t kAliveCountWord = 2;
constexpr uint32_t kSerialWord = 23;  // past the layout's fields (particle_scene.hpp)
constexpr uint32_t kIdWord = 20;      // the frame word, unused by ribbons
constexpr uint32_t kNoRow = 0xFFFFFFFFu;

struct RibbonParticle {
  glm::vec3 position{0.0f};
  float width = 0.1f;
  float serial = 0.0f;
  float id = 0.0f;
  uint32_t row = 0, generation = 1;
};

struct Build {
  std::vector<shader::RibbonPoint> points;
  std::vector<uint32_t> pieces;
  std::vector<uint32_t> counts;
};

class RibbonPassTest : public test::GpuTest {
 protected:
  std::vector<shader::ParticleDrawRecord> records;
  std::vector<shader::RibbonRecord> ribbons;
  std::vector<uint32_t> pool;
  std::vector<uint32_t> alive;

  // Row `row` as a ribbon row (id from kIdWord when `id_field`) or, with `ribbon` false, a sprite row.
  void set_row(uint32_t row, bool ribbon, bool id_field = false, uint32_t uv_mode = shader::kRibbonUvStretched,
               uint32_t subdivisions = 1, float tile_length = 1.0f) {
    records.resize(std::max<size_t>(records.size(), row + 1));
    ribbons.resize(records.size());
    records[row] = quad_record(ribbon ? shader::kProjectionRibbon : shader::kProjectionBillboard);
    ribbons[row] = {};
    if (!ribbon) return;
    ribbons[row].flags = shader::kRibbonFlagLive | (id_field ? shader::kRibbonFlagIdField : 0u);
    ribbons[row].serial_word = kSerialWord;
    ribbons[row].id_word = id_field ? kIdWord : 0u;
    ribbons[row].uv_mode = uv_mode;
    ribbons[row].subdivisions = subdivisions;
    ribbons[row].tile_length = tile_length;
  }

  uint32_t add(const RibbonParticle& p) {
    TestParticle t;
    t.position = p.position;
    t.size = p.width;
    t.row = p.row;
    t.generation = p.generation;
    const uint32_t slot = append_particle(pool, t);
    pool[size_t(slot) * kRecordWords + kSerialWord] = std::bit_cast<uint32_t>(p.serial);
    pool[size_t(slot) * kRecordWords + kIdWord] = std::bit_cast<uint32_t>(p.id);
    alive.push_back(slot);
    return slot;
  }

  gpu::Buffer buffer(const void* data, size_t bytes, const char* name) {
    const VkDeviceSize size = std::max<VkDeviceSize>(bytes, 16);
    auto created = gpu::Buffer::create(*device_, {.size = size, .name = name});
    EXPECT_TRUE(created.ok()) << created.error().to_string();
    std::vector<uint8_t> in(size, 0);
    if (bytes) std::memcpy(in.data(), data, bytes);
    EXPECT_TRUE(gpu::upload(*device_, created.value(), in).ok());
    return std::move(created).value();
  }

  // Runs the build over the pool and alive list (`frames` times, as a renderer does each frame).
  Build build(uint32_t frames = 1) {
    const uint32_t capacity = std::max<uint32_t>(uint32_t(pool.size() / kRecordWords), 1u);
    auto created = RibbonPass::create(*device_, {.capacity = capacity, .max_rows = uint32_t(records.size())});
    EXPECT_TRUE(created.ok()) << created.error().to_string();
    if (!created.ok()) return {};
    const RibbonPass& pass = created.value();
    std::vector<uint32_t> padded_pool = pool;
    padded_pool.resize(std::max<size_t>(pool.size(), size_t(capacity) * kRecordWords), 0u);
    std::vector<uint32_t> padded_alive = alive;
    padded_alive.resize(std::max<size_t>(alive.size(), capacity), 0xFFFFFFFFu);  // past the count: poison
    std::vector<uint32_t> counters(4, 0xFFFFFFFFu);
    counters[kAliveCountWord] = uint32_t(alive.size());
    gpu::Buffer pool_buffer = buffer(padded_pool.data(), padded_pool.size() * 4, "test.pool");
    gpu::Buffer alive_buffer = buffer(padded_alive.data(), padded_alive.size() * 4, "test.alive");
    gpu::Buffer counters_buffer = buffer(counters.data(), counters.size() * 4, "test.counters");
    gpu::Buffer records_buffer = buffer(records.data(), records.size() * sizeof(shader::ParticleDrawRecord),
                                        "test.records");
    gpu::Buffer ribbons_buffer = buffer(ribbons.data(), ribbons.size() * sizeof(shader::RibbonRecord), "test.ribbons");
    ParticleInputs in;
    in.pool = &pool_buffer;
    in.record_words = kRecordWords;
    in.capacity = capacity;
    in.alive = &alive_buffer;
    in.counters = &counters_buffer;
    in.alive_count_word = kAliveCountWord;
    in.records = &records_buffer;
    in.record_count = uint32_t(records.size());
    const bool id_sort = std::any_of(ribbons.begin(), ribbons.end(), [](const shader::RibbonRecord& r) {
      return r.flags & shader::kRibbonFlagIdField;
    });
    for (uint32_t f = 0; f < frames; ++f) {
      Status recorded = ok_status();
      const Status done = device_->submit_and_wait([&](VkCommandBuffer cmd) {
        recorded = pass.record(cmd, in, ribbons_buffer, id_sort);
      });
      EXPECT_TRUE(done.ok()) << done.error().to_string();
      EXPECT_TRUE(recorded.ok()) << recorded.error().to_string();
    }
    Build out;
    out.counts = gpu::readback_as<uint32_t>(*device_, pass.counts(), shader::kRibbonCountWords).value();
    out.points = gpu::readback_as<shader::RibbonPoint>(*device_, pass.points(), alive.size()).value();
    out.pieces = gpu::readback_as<uint32_t>(*device_, pass.pieces(), out.counts[shader::kRibbonCountPieces]).value();
    return out;
  }
};

// The strips the build's links make: runs of points joined by kRibbonPointNext, as slot lists.
std::vector<std::vector<uint32_t>> strips_of(const Build& b) {
  std::vector<std::vector<uint32_t>> strips;
  bool open = false;
  for (const shader::RibbonPoint& p : b.points) {
    if (p.row == kNoRow) continue;
    if (!open) strips.push_back({});
    strips.back().push_back(p.slot);
    open = (p.flags & shader::kRibbonPointNext) != 0;
  }
  return strips;
}

TEST_F(RibbonPassTest, StripsFollowBirthOrderWhateverTheAliveOrder) {
  set_row(0, true);                     // one ribbon per emitter
  set_row(1, true, /*id_field=*/true);  // ribbons by id
  set_row(2, false);                    // sprites: not ribbon points
  std::mt19937 rng(7);
  std::vector<uint32_t> row0, row1_a, row1_b;
  std::vector<float> serials(40);
  std::iota(serials.begin(), serials.end(), 0.0f);
  std::shuffle(serials.begin(), serials.end(), rng);
  // Serial order is not slot order: a slot's serial is shuffled, and the alive list is too.
  std::vector<std::pair<float, uint32_t>> by_serial0, by_serial_a, by_serial_b;
  for (uint32_t i = 0; i < 40; ++i) {
    const float s = serials[i];
    const uint32_t which = i % 4;
    RibbonParticle p{.position = {float(i), 0.0f, -5.0f}, .serial = s};
    if (which == 0 || which == 3) {
      by_serial0.push_back({s, add(p)});
    } else if (which == 1) {
      p.row = 1;
      p.id = 3.0f;
      by_serial_a.push_back({s, add(p)});
    } else {
      p.row = 1;
      p.id = 1.0f;
      by_serial_b.push_back({s, add(p)});
    }
  }
  add({.position = {0, 1, -5}, .serial = 100.0f, .row = 2});                   // a sprite
  add({.position = {0, 2, -5}, .serial = 101.0f, .row = 0, .generation = 2});  // stale generation
  std::shuffle(alive.begin(), alive.end(), rng);
  const Build b = build(2);  // a second frame over the same buffers builds the same

  const auto slots = [](std::vector<std::pair<float, uint32_t>> v) {
    std::sort(v.begin(), v.end());
    std::vector<uint32_t> out;
    for (const auto& [s, slot] : v) out.push_back(slot);
    return out;
  };
  // (row, id, serial): row 0's strip, then row 1's id 1 strip before its id 3 strip.
  const std::vector<std::vector<uint32_t>> expected = {slots(by_serial0), slots(by_serial_b), slots(by_serial_a)};
  EXPECT_EQ(strips_of(b), expected);
  ASSERT_EQ(b.points.size(), alive.size());
  EXPECT_EQ(b.points[40].row, kNoRow);  // the sprite and the stale particle sort last
  EXPECT_EQ(b.points[41].row, kNoRow);
  EXPECT_EQ(b.counts[shader::kRibbonCountPoints], 42u);
  EXPECT_EQ(b.counts[shader::kRibbonCountSegments], 40u - 3u);
  EXPECT_EQ(b.counts[shader::kRibbonCountPieces], 40u - 3u);
  EXPECT_EQ(b.counts[shader::kRibbonCountDrawOffset / 4], 6u);
  EXPECT_EQ(b.counts[shader::kRibbonCountDrawOffset / 4 + 1], 40u - 3u);
  // Every segment starts at a point with a next, and prev flags mirror them.
  for (size_t i = 0; i < 40; ++i) {
    const bool next = b.points[i].flags & shader::kRibbonPointNext;
    const bool prev = b.points[i].flags & shader::kRibbonPointPrev;
    EXPECT_EQ(prev, i > 0 && (b.points[i - 1].flags & shader::kRibbonPointNext)) << i;
    EXPECT_EQ(next, i + 1 < 40 && (b.points[i + 1].flags & shader::kRibbonPointPrev)) << i;
    EXPECT_EQ(b.points[i].flags & shader::kRibbonPointValid, shader::kRibbonPointValid);
  }
}

TEST_F(RibbonPassTest, DeathsInTheMiddleShortenTheStripAndNeverJump) {
  set_row(0, true);
  // A strip along +x, born in order; the alive list keeps survivors as the frame would.
  std::vector<uint32_t> slots;
  for (uint32_t i = 0; i < 12; ++i) slots.push_back(add({.position = {float(i), 0.0f, -5.0f}, .serial = float(i)}));
  const Build whole = build();
  ASSERT_EQ(strips_of(whole).size(), 1u);
  EXPECT_EQ(strips_of(whole)[0], slots);

  // Points 3, 4 and 9 die (off the alive list, their records zeroed as simulate does).
  for (uint32_t dead : {3u, 4u, 9u}) {
    alive.erase(std::find(alive.begin(), alive.end(), slots[dead]));
    std::fill_n(pool.begin() + size_t(slots[dead]) * kRecordWords, kRecordWords, 0u);
  }
  std::reverse(alive.begin(), alive.end());
  const Build after = build();
  const std::vector<uint32_t> survivors = {slots[0], slots[1], slots[2],  slots[5], slots[6],
                                           slots[7], slots[8], slots[10], slots[11]};
  ASSERT_EQ(strips_of(after).size(), 1u);
  EXPECT_EQ(strips_of(after)[0], survivors);
  // Each segment joins consecutive survivors: along +x, never backwards (no crossing).
  for (uint32_t piece : after.pieces) {
    const uint32_t i = piece >> shader::kRibbonPieceShift;
    ASSERT_LT(i + 1, after.points.size());
    EXPECT_LT(after.points[i].position_width.x, after.points[i + 1].position_width.x);
  }
  EXPECT_EQ(after.counts[shader::kRibbonCountSegments], survivors.size() - 1);
}

TEST_F(RibbonPassTest, PiecesAndUvModes) {
  set_row(0, true, false, shader::kRibbonUvStretched, 3);
  set_row(1, true, false, shader::kRibbonUvTiled, 1, 0.5f);
  for (uint32_t i = 0; i < 5; ++i) add({.position = {float(i), 0.0f, -5.0f}, .serial = float(i)});
  // Row 1: spacing 0.25 m, so u = distance from the newest / 0.5 m.
  for (uint32_t i = 0; i < 3; ++i) add({.position = {0.0f, 0.25f * float(i), -5.0f}, .serial = float(i), .row = 1});
  const Build b = build();
  ASSERT_EQ(b.points.size(), 8u);
  // Row 0: 4 segments × 3 pieces, in order; u from 1 (oldest) to 0 (newest) by distance.
  ASSERT_EQ(b.counts[shader::kRibbonCountPieces], 4u * 3u + 2u);
  for (uint32_t s = 0; s < 4; ++s)
    for (uint32_t k = 0; k < 3; ++k) EXPECT_EQ(b.pieces[s * 3 + k], (s << shader::kRibbonPieceShift) | k);
  for (uint32_t i = 0; i < 5; ++i) EXPECT_NEAR(b.points[i].normal_u.w, 1.0f - float(i) / 4.0f, 1e-6f) << i;
  EXPECT_EQ(b.pieces[12], 5u << shader::kRibbonPieceShift);
  EXPECT_EQ(b.pieces[13], 6u << shader::kRibbonPieceShift);
  EXPECT_NEAR(b.points[5].normal_u.w, 1.0f, 1e-3f);  // 0.5 m from the newest
  EXPECT_NEAR(b.points[6].normal_u.w, 0.5f, 1e-3f);
  EXPECT_EQ(b.points[7].normal_u.w, 0.0f);
  EXPECT_EQ(b.points[0].position_width.w, 0.1f);  // the width is the size channel
}

TEST_F(RibbonPassTest, AnEmptyFrameBuildsNothing) {
  set_row(0, true);
  add({.position = {0, 0, -5}});
  alive.clear();
  const Build b = build();
  EXPECT_EQ(b.counts[shader::kRibbonCountPieces], 0u);
  EXPECT_EQ(b.counts[shader::kRibbonCountSegments], 0u);
  EXPECT_EQ(b.counts[shader::kRibbonCountDrawOffset / 4], 6u);
  EXPECT_EQ(b.counts[shader::kRibbonCountDrawOffset / 4 + 1], 0u);
}

// The corner functions (shared C++/GLSL): a piece's ends are the points themselves, two pieces
// meet at a point bit for bit (one segment's end is the next one's start), the width lies across
// the direction and the way to the eye, and subdividing bends through the points.
TEST(RibbonCorners, EndsAreExactAndNeighboursMeet) {
  const glm::vec3 p[5] = {{0, 0, -5}, {1, 0.3f, -5}, {2, -0.2f, -5.5f}, {3, 0.4f, -5}, {4, 0, -4}};
  const glm::vec3 eye(0.0f), right(1, 0, 0), none(0.0f);
  for (uint32_t n : {1u, 3u, 8u}) {
    for (uint32_t c = 0; c < 2; ++c) {
      // Segment p1 → p2 at its end and p2 → p3 at its start: the same corner exactly.
      const glm::vec3 end = shader::ribbon_corner(p[0], p[1], p[2], p[3], 0.2f, 0.3f, none, none, false, n - 1, n,
                                                  2 + c, eye, right);
      const glm::vec3 start = shader::ribbon_corner(p[1], p[2], p[3], p[4], 0.3f, 0.1f, none, none, false, 0, n, c, eye,
                                                    right);
      EXPECT_EQ(end, start) << n << " " << c;
      // Across the direction, half the width either side of the point itself.
      EXPECT_NEAR(glm::distance(start, p[2]), 0.15f, 1e-5f);
    }
    // Consecutive pieces of one segment share their corners too.
    for (uint32_t k = 0; k + 1 < n; ++k)
      EXPECT_EQ(shader::ribbon_corner(p[0], p[1], p[2], p[3], 0.2f, 0.3f, none, none, false, k, n, 3, eye, right),
                shader::ribbon_corner(p[0], p[1], p[2], p[3], 0.2f, 0.3f, none, none, false, k + 1, n, 1, eye, right));
  }
  // Facing "normal": the width lies along direction × normal (here world z × ... = y).
  const glm::vec3 up_normal(0, 0, 1);
  const glm::vec3 a = shader::ribbon_corner(glm::vec3(-1, 0, 0), glm::vec3(0), glm::vec3(1, 0, 0), glm::vec3(2, 0, 0),
                                            1.0f, 1.0f, up_normal, up_normal, true, 0, 1, 1, eye, right);
  EXPECT_NEAR(std::abs(a.y), 0.5f, 1e-6f);
  EXPECT_NEAR(a.x, 0.0f, 1e-6f);
  // A curve through the points: the middle of a subdivided piece leaves the chord.
  const glm::vec3 mid = shader::ribbon_blend(shader::ribbon_curve_weights(0.5f), p[0], p[1], p[2], p[3]);
  const glm::vec3 chord = 0.5f * (p[1] + p[2]);
  EXPECT_GT(glm::distance(mid, chord), 1e-3f);
}

}  // namespace
}  // namespace mote::render
