// The soft disc and the texture atlas: placement, padding, contents, dedupe, fallback, growth.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "assets/atlas.hpp"
#include "assets_test_util.hpp"

namespace {

using mote::assets::Atlas;
using mote::assets::AtlasEntry;
using mote::assets::AtlasRequest;
using mote::assets::ImageRgba8;
using mote::assets::kAtlasPadding;
using mote::test::pattern_image;
using mote::test::TempDir;

TEST(SoftDisc, CentreOpaqueCornersClearMonotoneFalloff) {
  const ImageRgba8 disc = mote::assets::make_soft_disc();
  const uint32_t n = mote::assets::kSoftDiscSize;
  ASSERT_EQ(disc.width, n);
  ASSERT_EQ(disc.height, n);
  ASSERT_EQ(disc.pixels.size(), size_t(n) * n * 4);
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) {
      const uint8_t* p = disc.at(x, y);
      ASSERT_EQ(p[0], 255);
      ASSERT_EQ(p[1], 255);
      ASSERT_EQ(p[2], 255);
      // Symmetric in both axes and the diagonal.
      ASSERT_EQ(p[3], disc.at(n - 1 - x, y)[3]);
      ASSERT_EQ(p[3], disc.at(x, n - 1 - y)[3]);
      ASSERT_EQ(p[3], disc.at(y, x)[3]);
      // Zero at and beyond the inscribed circle.
      const double d = std::hypot(x + 0.5 - n / 2.0, y + 0.5 - n / 2.0);
      if (d >= n / 2.0) {
        ASSERT_EQ(p[3], 0) << x << "," << y;
      }
    }
  for (uint32_t cx : {n / 2 - 1, n / 2})
    for (uint32_t cy : {n / 2 - 1, n / 2}) EXPECT_EQ(disc.at(cx, cy)[3], 255);
  for (auto [x, y] : {std::pair{0u, 0u}, {n - 1, 0u}, {0u, n - 1}, {n - 1, n - 1}}) EXPECT_EQ(disc.at(x, y)[3], 0);
  // Non-increasing from the centre outwards along the middle row and the diagonal, and it
  // actually falls (not a constant).
  for (uint32_t x = n / 2; x + 1 < n; ++x) EXPECT_GE(disc.at(x, n / 2)[3], disc.at(x + 1, n / 2)[3]) << x;
  for (uint32_t i = n / 2; i + 1 < n; ++i) EXPECT_GE(disc.at(i, i)[3], disc.at(i + 1, i + 1)[3]) << i;
  EXPECT_GT(disc.at(n / 2 + n / 4, n / 2)[3], 0);
  EXPECT_LT(disc.at(n / 2 + n / 4, n / 2)[3], 255);

  // Any size keeps the rule; an odd size has an exact centre texel.
  const ImageRgba8 odd = mote::assets::make_soft_disc(9);
  EXPECT_EQ(odd.at(4, 4)[3], 255);
  EXPECT_EQ(odd.at(0, 0)[3], 0);
  EXPECT_EQ(mote::assets::make_soft_disc(1).at(0, 0)[3], 255);
}

// The padded texel rect of an entry, from its UV rect.
struct TexelRect {
  uint32_t x, y, w, h;
};
TexelRect texel_rect(const Atlas& atlas, const AtlasEntry& e) {
  const float side = float(atlas.image.width);
  return {uint32_t(std::lround(e.rect.x * side)), uint32_t(std::lround(e.rect.y * side)),
          uint32_t(std::lround(e.rect.z * side)), uint32_t(std::lround(e.rect.w * side))};
}

// Every texel of the entry's padded rect equals the source texel clamped to the source's edges:
// inside that is the image itself, in the padding it is the replicated border.
void expect_entry_matches(const Atlas& atlas, const AtlasEntry& e, const ImageRgba8& source) {
  const TexelRect r = texel_rect(atlas, e);
  ASSERT_EQ(r.w, source.width) << e.key;
  ASSERT_EQ(r.h, source.height) << e.key;
  ASSERT_GE(r.x, kAtlasPadding);
  ASSERT_GE(r.y, kAtlasPadding);
  const int p = int(kAtlasPadding);
  for (int y = -p; y < int(r.h) + p; ++y)
    for (int x = -p; x < int(r.w) + p; ++x) {
      const uint32_t sx = uint32_t(std::clamp(x, 0, int(source.width) - 1));
      const uint32_t sy = uint32_t(std::clamp(y, 0, int(source.height) - 1));
      const uint8_t* got = atlas.image.at(uint32_t(int(r.x) + x), uint32_t(int(r.y) + y));
      const uint8_t* want = source.at(sx, sy);
      ASSERT_TRUE(std::equal(got, got + 4, want)) << e.key << " texel " << x << "," << y;
    }
}

bool is_power_of_two(uint32_t v) { return v && !(v & (v - 1)); }

TEST(Atlas, PacksTexturesWithoutOverlapAndWithReplicatedPadding) {
  TempDir dir;
  std::vector<ImageRgba8> sources;
  std::vector<AtlasRequest> requests;
  const std::pair<uint32_t, uint32_t> sizes[] = {{32, 32}, {17, 5}, {1, 1}, {64, 9}, {3, 40}, {50, 50}, {8, 8}};
  for (size_t i = 0; i < std::size(sizes); ++i) {
    sources.push_back(pattern_image(sizes[i].first, sizes[i].second, uint8_t(i + 1)));
    const std::string name = "t" + std::to_string(i) + ".png";
    ASSERT_TRUE(mote::assets::write_png(dir / name, sources.back()).ok());
    requests.push_back({"textures/" + name, dir / name});
  }
  auto built = mote::assets::build_atlas(requests);
  ASSERT_TRUE(built.ok()) << built.error().to_string();
  const Atlas& atlas = built.value();
  EXPECT_EQ(atlas.image.width, 256u);
  EXPECT_EQ(atlas.image.height, 256u);
  ASSERT_EQ(atlas.image.pixels.size(), 256u * 256 * 4);
  ASSERT_EQ(atlas.entries.size(), 2 + std::size(sizes));
  EXPECT_EQ(atlas.entries[0].key, mote::assets::kSoftDiscKey);
  EXPECT_EQ(atlas.entries[1].key, mote::assets::kWhiteKey);

  // Built-ins and every texture: contents and padding.
  expect_entry_matches(atlas, atlas.entries[0], mote::assets::make_soft_disc());
  ImageRgba8 white;
  white.width = white.height = 1;
  white.pixels = {255, 255, 255, 255};
  expect_entry_matches(atlas, atlas.entries[1], white);
  for (size_t i = 0; i < sources.size(); ++i) {
    const AtlasEntry& e = atlas.entries[2 + i];
    EXPECT_EQ(e.key, requests[i].key) << "request order";
    EXPECT_FALSE(e.fallback);
    EXPECT_TRUE(e.problem.empty());
    EXPECT_EQ(e.width, sources[i].width);
    EXPECT_EQ(e.height, sources[i].height);
    expect_entry_matches(atlas, e, sources[i]);
  }

  // Padded rects lie inside the atlas and are pairwise disjoint.
  std::vector<TexelRect> padded;
  for (const AtlasEntry& e : atlas.entries) {
    const TexelRect r = texel_rect(atlas, e);
    padded.push_back({r.x - kAtlasPadding, r.y - kAtlasPadding, r.w + 2 * kAtlasPadding, r.h + 2 * kAtlasPadding});
    EXPECT_LE(padded.back().x + padded.back().w, atlas.image.width) << e.key;
    EXPECT_LE(padded.back().y + padded.back().h, atlas.image.height) << e.key;
  }
  for (size_t i = 0; i < padded.size(); ++i)
    for (size_t j = i + 1; j < padded.size(); ++j) {
      const TexelRect& a = padded[i];
      const TexelRect& b = padded[j];
      const bool disjoint = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      EXPECT_TRUE(disjoint) << atlas.entries[i].key << " overlaps " << atlas.entries[j].key;
    }
}

TEST(Atlas, FindByKey) {
  TempDir dir;
  ASSERT_TRUE(mote::assets::write_png(dir / "a.png", pattern_image(4, 4, 1)).ok());
  auto atlas = mote::assets::build_atlas({{"a.png", dir / "a.png"}});
  ASSERT_TRUE(atlas.ok());
  EXPECT_EQ(atlas->find(""), &atlas->entries[0]);
  EXPECT_EQ(atlas->find(mote::assets::kSoftDiscKey), &atlas->entries[0]);
  EXPECT_EQ(atlas->find(mote::assets::kWhiteKey), &atlas->entries[1]);
  EXPECT_EQ(atlas->find("a.png"), &atlas->entries[2]);
  EXPECT_EQ(atlas->find("b.png"), nullptr);
}

TEST(Atlas, NoRequestsGivesTheBuiltIns) {
  auto atlas = mote::assets::build_atlas({});
  ASSERT_TRUE(atlas.ok());
  EXPECT_EQ(atlas->image.width, 256u);
  ASSERT_EQ(atlas->entries.size(), 2u);
  expect_entry_matches(atlas.value(), atlas->entries[0], mote::assets::make_soft_disc());
}

TEST(Atlas, DeduplicatesByKey) {
  TempDir dir;
  ASSERT_TRUE(mote::assets::write_png(dir / "a.png", pattern_image(6, 6, 1)).ok());
  ASSERT_TRUE(mote::assets::write_png(dir / "b.png", pattern_image(7, 7, 2)).ok());
  // The same key twice (even with another path: the first wins), and the built-in keys.
  auto atlas = mote::assets::build_atlas({{"a", dir / "a.png"},
                                          {"b", dir / "b.png"},
                                          {"a", dir / "b.png"},
                                          {mote::assets::kWhiteKey, dir / "a.png"},
                                          {"", dir / "a.png"},
                                          {"b", dir / "b.png"}});
  ASSERT_TRUE(atlas.ok());
  ASSERT_EQ(atlas->entries.size(), 4u);
  EXPECT_EQ(atlas->entries[2].key, "a");
  EXPECT_EQ(atlas->entries[3].key, "b");
  expect_entry_matches(atlas.value(), atlas->entries[2], pattern_image(6, 6, 1));
  std::map<std::string, int> keys;
  for (const AtlasEntry& e : atlas->entries) ++keys[e.key];
  for (const auto& [key, count] : keys) EXPECT_EQ(count, 1) << key;
}

TEST(Atlas, MissingAndCorruptTexturesFallBackToTheSoftDisc) {
  TempDir dir;
  ASSERT_TRUE(mote::assets::write_png(dir / "good.png", pattern_image(10, 10, 1)).ok());
  mote::test::write_text(dir / "corrupt.png", "\x89PNG\r\n\x1a\n this is not really a png");
  auto built = mote::assets::build_atlas({{"missing.png", dir / "missing.png"},
                                          {"good.png", dir / "good.png"},
                                          {"corrupt.png", dir / "corrupt.png"}});
  ASSERT_TRUE(built.ok()) << built.error().to_string();
  const Atlas& atlas = built.value();
  ASSERT_EQ(atlas.entries.size(), 5u);

  const AtlasEntry& missing = atlas.entries[2];
  EXPECT_EQ(missing.key, "missing.png");
  EXPECT_TRUE(missing.fallback);
  EXPECT_NE(missing.problem.find("not found"), std::string::npos) << missing.problem;
  EXPECT_NE(missing.problem.find("missing.png"), std::string::npos) << missing.problem;
  EXPECT_EQ(missing.rect, atlas.entries[0].rect);
  EXPECT_EQ(missing.width, mote::assets::kSoftDiscSize);

  const AtlasEntry& corrupt = atlas.entries[4];
  EXPECT_EQ(corrupt.key, "corrupt.png");
  EXPECT_TRUE(corrupt.fallback);
  EXPECT_NE(corrupt.problem.find("format"), std::string::npos) << corrupt.problem;
  EXPECT_EQ(corrupt.rect, atlas.entries[0].rect);

  const AtlasEntry& good = atlas.entries[3];
  EXPECT_FALSE(good.fallback);
  EXPECT_TRUE(good.problem.empty());
  expect_entry_matches(atlas, good, pattern_image(10, 10, 1));
  EXPECT_EQ(atlas.find("missing.png"), &missing);
}

TEST(Atlas, GrowsByPowersOfTwo) {
  TempDir dir;
  auto side_for = [&](std::vector<std::pair<uint32_t, uint32_t>> sizes) -> uint32_t {
    std::vector<AtlasRequest> requests;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const std::string name = "g" + std::to_string(i) + "_" + std::to_string(sizes[i].first) + ".png";
      EXPECT_TRUE(mote::assets::write_png(dir / name, pattern_image(sizes[i].first, sizes[i].second, uint8_t(i))).ok());
      requests.push_back({name, dir / name});
    }
    auto atlas = mote::assets::build_atlas(requests);
    EXPECT_TRUE(atlas.ok()) << atlas.error().to_string();
    if (!atlas.ok()) return 0;
    EXPECT_EQ(atlas->image.width, atlas->image.height);
    EXPECT_TRUE(is_power_of_two(atlas->image.width));
    for (size_t i = 0; i < sizes.size(); ++i)
      expect_entry_matches(atlas.value(), atlas->entries[2 + i],
                           pattern_image(sizes[i].first, sizes[i].second, uint8_t(i)));
    return atlas->image.width;
  };
  EXPECT_EQ(side_for({{200, 100}}), 256u);
  EXPECT_EQ(side_for({{300, 10}}), 512u);  // one rect wider than 256 with its padding
  EXPECT_EQ(side_for({{253, 10}}), 512u);  // 253 + 4 = 257
  EXPECT_EQ(side_for({{252, 10}}), 256u);  // 252 + 4 = 256: a full row of its own
  // Five 204 x 204 padded squares: their area fits 512^2 but only 2 x 2 of them do.
  EXPECT_EQ(side_for({{200, 200}, {200, 200}, {200, 200}, {200, 200}, {200, 200}}), 1024u);
  EXPECT_EQ(side_for({{700, 600}}), 1024u);
}

TEST(Atlas, RefusesWhatCannotFit) {
  TempDir dir;
  ImageRgba8 wide;
  wide.width = mote::assets::kMaxAtlasSize - 2 * kAtlasPadding + 1;  // one texel too many with padding
  wide.height = 1;
  wide.pixels.assign(size_t(wide.width) * 4, 7);
  ASSERT_TRUE(mote::assets::write_png(dir / "wide.png", wide).ok());
  auto r = mote::assets::build_atlas({{"wide.png", dir / "wide.png"}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, mote::ErrorCode::kUnsupported);
  EXPECT_EQ(r.error().where, "wide.png");

  // Exactly the limit with padding fits (in the largest atlas).
  wide.width -= 1;
  wide.pixels.resize(size_t(wide.width) * 4);
  ASSERT_TRUE(mote::assets::write_png(dir / "wide2.png", wide).ok());
  auto ok = mote::assets::build_atlas({{"wide2.png", dir / "wide2.png"}});
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_EQ(ok->image.width, mote::assets::kMaxAtlasSize);
}

}  // namespace
