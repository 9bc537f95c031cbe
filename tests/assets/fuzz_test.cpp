// Deterministic in-suite mutation fuzzers for the two decoders of untrusted files: decode_image
// over mutated PNGs and decode_gltf over mutated .glb and .gltf files. A mutant either decodes to
// something well-formed or is refused with a message and a `where` naming the file; it never
// crashes (run them under -DMOTE_SANITIZE=ON to have ASan/UBSan check every read).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "assets/image.hpp"
#include "assets/mesh.hpp"
#include "assets_test_util.hpp"
#include "gltf_builder.hpp"

namespace {

using mote::test::xorshift;

// Interesting values for size and offset fields.
constexpr uint32_t kInteresting[] = {0,      1,       3,     4,     0x7f,       0x80,        0xff,        0x100,
                                     0xffff, 0x10000, 16384, 16385, 0x7fffffff, 0x80000000u, 0xfffffffcu, 0xffffffffu};

// One random edit of `bytes`; `big_endian` picks how 32-bit fields are written.
void mutate(std::vector<uint8_t>& bytes, uint32_t& seed, bool big_endian, size_t hot_begin, size_t hot_end) {
  if (bytes.empty()) {
    bytes.push_back(uint8_t(xorshift(seed)));
    return;
  }
  // Half of the edits land in the "hot" range (the header fields), the rest anywhere.
  const bool hot = (xorshift(seed) & 1) && hot_end > hot_begin && hot_end <= bytes.size();
  const size_t at = hot ? hot_begin + xorshift(seed) % (hot_end - hot_begin) : xorshift(seed) % bytes.size();
  switch (xorshift(seed) % 8) {
    case 0: bytes[at] ^= uint8_t(1u << (xorshift(seed) % 8)); break;
    case 1: bytes[at] = uint8_t(xorshift(seed)); break;
    case 2: bytes[at] = uint8_t(kInteresting[xorshift(seed) % std::size(kInteresting)]); break;
    case 3: {
      if (at + 4 > bytes.size()) break;
      const uint32_t v = xorshift(seed) % 4 == 0 ? xorshift(seed)
                                                 : kInteresting[xorshift(seed) % std::size(kInteresting)];
      for (int i = 0; i < 4; ++i) bytes[at + size_t(i)] = uint8_t(big_endian ? v >> (24 - 8 * i) : v >> (8 * i));
      break;
    }
    case 4: bytes.resize(at); break;  // truncate
    case 5: {                         // delete a short run
      const size_t n = std::min<size_t>(bytes.size() - at, 1 + xorshift(seed) % 16);
      bytes.erase(bytes.begin() + std::ptrdiff_t(at), bytes.begin() + std::ptrdiff_t(at + n));
      break;
    }
    case 6: {  // duplicate a short run
      const size_t n = std::min<size_t>(bytes.size() - at, 1 + xorshift(seed) % 16);
      std::vector<uint8_t> run(bytes.begin() + std::ptrdiff_t(at), bytes.begin() + std::ptrdiff_t(at + n));
      bytes.insert(bytes.begin() + std::ptrdiff_t(xorshift(seed) % bytes.size()), run.begin(), run.end());
      break;
    }
    default: {  // zero a short run
      const size_t n = std::min<size_t>(bytes.size() - at, 1 + xorshift(seed) % 8);
      std::fill_n(bytes.begin() + std::ptrdiff_t(at), n, uint8_t(0));
    }
  }
}

TEST(Fuzz, DecodeImageOnMutatedPngs) {
  std::vector<std::vector<uint8_t>> seeds;
  for (auto [w, h] : {std::pair{16u, 16u}, {5u, 3u}, {1u, 40u}}) {
    auto png = mote::assets::encode_png(mote::test::pattern_image(w, h, uint8_t(w)));
    ASSERT_TRUE(png.ok());
    seeds.push_back(png.value());
  }
  uint32_t seed = 0xC0FFEEu;
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 5000; ++iter) {
    std::vector<uint8_t> bytes = seeds[xorshift(seed) % seeds.size()];
    const int edits = 1 + int(xorshift(seed) % 4);
    for (int e = 0; e < edits; ++e) mutate(bytes, seed, /*big_endian=*/true, 8, 33);  // signature + IHDR
    auto r = mote::assets::decode_image(bytes, "fuzz.png");
    if (r.ok()) {
      ++accepted;
      ASSERT_GE(r->width, 1u);
      ASSERT_GE(r->height, 1u);
      ASSERT_LE(r->width, mote::assets::kMaxImageDimension);
      ASSERT_LE(r->height, mote::assets::kMaxImageDimension);
      ASSERT_EQ(r->pixels.size(), size_t(r->width) * r->height * 4);
    } else {
      ++rejected;
      ASSERT_EQ(r.error().code, mote::ErrorCode::kFormat) << "iteration " << iter << ": " << r.error().to_string();
      ASSERT_EQ(r.error().where, "fuzz.png") << "iteration " << iter;
      ASSERT_FALSE(r.error().message.empty());
    }
  }
  // Both outcomes are exercised (stb checks no CRC, so many damaged IDATs still decode).
  EXPECT_GT(rejected, 500);
  EXPECT_GT(accepted, 50);
}

void expect_well_formed_or_refused(const mote::Result<mote::assets::Mesh>& r, const std::string& name, int iter,
                                   int& accepted, int& rejected) {
  if (r.ok()) {
    ++accepted;
    const auto& m = r.value();
    ASSERT_FALSE(m.indices.empty()) << iter;
    ASSERT_EQ(m.indices.size() % 3, 0u) << iter;
    ASSERT_LE(m.vertices.size(), mote::assets::kMaxMeshVertices);
    for (uint32_t i : m.indices) ASSERT_LT(i, m.vertices.size()) << iter;
    for (const auto& v : m.vertices) {
      for (float f : v.position) ASSERT_TRUE(std::isfinite(f)) << iter;
      for (float f : v.uv) ASSERT_TRUE(std::isfinite(f)) << iter;
      const float len = std::sqrt(v.normal[0] * v.normal[0] + v.normal[1] * v.normal[1] + v.normal[2] * v.normal[2]);
      ASSERT_NEAR(len, 1.0f, 1e-4f) << iter;
    }
  } else {
    ++rejected;
    ASSERT_NE(r.error().code, mote::ErrorCode::kInternal) << iter << ": " << r.error().to_string();
    ASSERT_FALSE(r.error().message.empty()) << iter;
    ASSERT_EQ(r.error().where.rfind(name, 0), 0u) << iter << ": where = " << r.error().where;
  }
}

TEST(Fuzz, DecodeGltfOnMutatedGlb) {
  mote::test::TempDir dir;  // base_dir: empty, so a mutated external URI finds nothing
  const std::vector<uint8_t> glb = mote::test::reference_scene().to_glb();
  uint32_t json_length;
  std::memcpy(&json_length, glb.data() + 12, 4);
  uint32_t seed = 0xBADC0DEu;
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    std::vector<uint8_t> bytes = glb;
    const int edits = 1 + int(xorshift(seed) % 3);
    // Hot range alternates between the container header and the BIN chunk (its header + data).
    const bool header = xorshift(seed) & 1;
    const size_t hot_begin = header ? 0 : 20 + json_length, hot_end = header ? 20 : glb.size();
    for (int e = 0; e < edits; ++e) mutate(bytes, seed, /*big_endian=*/false, hot_begin, hot_end);
    auto r = mote::assets::decode_gltf(bytes, dir.path(), "fuzz.glb");
    expect_well_formed_or_refused(r, "fuzz.glb", iter, accepted, rejected);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(rejected, 500);
  EXPECT_GT(accepted, 50);
}

TEST(Fuzz, DecodeGltfOnMutatedJson) {
  // Two seeds: the buffer as a data URI, and as fuzz.bin beside the file (so that most edits land
  // in the JSON structure rather than in base64).
  mote::test::TempDir dir;
  const mote::test::GltfBuilder scene = mote::test::reference_scene();
  mote::test::write_bytes(dir / "fuzz.bin", scene.bin());
  const std::string texts[] = {scene.to_gltf_embedded(), scene.to_gltf_external("fuzz.bin")};
  const char* tokens[] = {"0",        "-1",     "1",          "3",
                          "7",        "65535",  "4294967295", "18446744073709551615",
                          "1e300",    "-1e300", "[",          "]",
                          "{",        "}",      ",",          "null",
                          "true",     "\"x\"",  "[0,0,0]",    "\"POSITION\"",
                          "\"VEC2\"", "5121",   "5126",       "[1,2]"};
  uint32_t seed = 0x5EED1234u;
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    std::string d = texts[xorshift(seed) % 2];
    const int edits = 1 + int(xorshift(seed) % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t at = xorshift(seed) % d.size();
      switch (xorshift(seed) % 4) {
        case 0: d.erase(at, 1 + xorshift(seed) % 8); break;
        case 1: d.insert(at, tokens[xorshift(seed) % std::size(tokens)]); break;
        case 2: d[at] = char(32 + xorshift(seed) % 95); break;
        default: {  // replace the value after a colon: keeps the JSON valid more often
          const size_t colon = d.find(':', at);
          if (colon == std::string::npos) break;
          const size_t end = d.find_first_of(",}\n", colon);
          if (end == std::string::npos) break;
          d.replace(colon + 1, end - colon - 1, tokens[xorshift(seed) % std::size(tokens)]);
        }
      }
      if (d.empty()) d = "{";
    }
    auto r = mote::assets::decode_gltf(mote::test::to_bytes(d), dir.path(), "fuzz.gltf");
    expect_well_formed_or_refused(r, "fuzz.gltf", iter, accepted, rejected);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(rejected, 500);
  EXPECT_GT(accepted, 50);
}

}  // namespace
