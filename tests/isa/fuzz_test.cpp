// Deterministic mutation fuzzing of the untrusted-input paths: load_mfx, assemble and
// verify_program. Seeded, so a failure reproduces; MOTE_FUZZ_ITERATIONS scales the run.
// Properties: nothing crashes, every failure is an Error with a message, and whatever loads
// (or assembles) and verifies also round-trips through disassemble/assemble and save/load.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/hash.hpp"
#include "mote/assembly.hpp"
#include "mote/mfx.hpp"
#include "mote/verifier.hpp"
#include "test_support.hpp"

namespace mote {
namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {  // splitmix64
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t below(uint64_t n) { return n == 0 ? 0 : uint32_t(next() % n); }
  bool chance(uint32_t one_in) { return below(one_in) == 0; }

 private:
  uint64_t s_;
};

int iterations() {
  if (const char* env = std::getenv("MOTE_FUZZ_ITERATIONS")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return 20000;  // keeps the whole test_isa binary well under a minute in Debug
}

constexpr uint32_t kBoundaries[] = {0,          1,          2,           3,           4,           7,
                                    8,          15,         16,          255,         256,         0x7F,
                                    0xFFFF,     0x10000,    0x7FFFFFFF,  0x80000000u, 0xFFFFFFFFu, 0xFFFFFFFEu,
                                    0x7fc00000, 0x3f800000, 0x0001E4FFu, 4096,        4097,        1024};

uint32_t boundary(Rng& rng) { return kBoundaries[rng.below(std::size(kBoundaries))]; }

void mutate_bytes(std::vector<uint8_t>& d, Rng& rng, const std::vector<std::vector<uint8_t>>& corpus) {
  const uint32_t rounds = 1 + rng.below(4);
  for (uint32_t r = 0; r < rounds; ++r) {
    switch (rng.below(8)) {
      case 0:  // bit flip
        if (!d.empty()) d[rng.below(d.size())] ^= uint8_t(1u << rng.below(8));
        break;
      case 1:  // random byte
        if (!d.empty()) d[rng.below(d.size())] = uint8_t(rng.next());
        break;
      case 2: {  // insert bytes
        const uint32_t n = 1 + rng.below(8);
        const size_t at = rng.below(d.size() + 1);
        for (uint32_t k = 0; k < n; ++k) d.insert(d.begin() + std::ptrdiff_t(at), uint8_t(rng.next()));
        break;
      }
      case 3: {  // delete a range
        if (d.empty()) break;
        const size_t at = rng.below(d.size());
        const size_t n = std::min<size_t>(1 + rng.below(16), d.size() - at);
        d.erase(d.begin() + std::ptrdiff_t(at), d.begin() + std::ptrdiff_t(at + n));
        break;
      }
      case 4:  // truncate
        d.resize(rng.below(d.size() + 1));
        break;
      case 5: {  // splice a chunk of another input over or into this one
        const std::vector<uint8_t>& other = corpus[rng.below(corpus.size())];
        if (other.empty()) break;
        const size_t from = rng.below(other.size());
        const size_t n = std::min<size_t>(1 + rng.below(64), other.size() - from);
        const size_t at = rng.below(d.size() + 1);
        if (rng.chance(2)) {
          d.insert(d.begin() + std::ptrdiff_t(at), other.begin() + std::ptrdiff_t(from),
                   other.begin() + std::ptrdiff_t(from + n));
        } else {
          for (size_t k = 0; k < n && at + k < d.size(); ++k) d[at + k] = other[from + k];
        }
        break;
      }
      default: {  // an aligned u32 set to a boundary value (sizes, counts, offsets)
        if (d.size() < 4) break;
        const size_t at = (rng.below(d.size() - 3)) & ~size_t(3);
        const uint32_t v = boundary(rng);
        for (int k = 0; k < 4; ++k) d[at + size_t(k)] = uint8_t(v >> (8 * k));
        break;
      }
    }
  }
}

void expect_error_well_formed(const Error& e) { EXPECT_FALSE(e.message.empty()) << e.to_string(); }

bool names_are_identifiers(const Program& p) {
  for (const auto& f : p.particle_fields)
    if (!isa::is_identifier(f.name)) return false;
  for (const auto& f : p.emitter_fields)
    if (!isa::is_identifier(f.name)) return false;
  for (const auto& g : p.global_imports)
    if (!isa::is_identifier(g.name)) return false;
  return true;
}

// The round-trip property; returns false (after recording the failure) so loops can stop.
bool round_trips(const Program& p, const char* context) {
  const std::string text = disassemble(p);
  Result<Program> back = assemble(text);
  if (!back.ok()) {
    ADD_FAILURE() << context << ": disassembly does not assemble: " << back.error().to_string() << "\n" << text;
    return false;
  }
  if (!(*back == p)) {
    ADD_FAILURE() << context << ": assemble(disassemble(p)) != p\n" << text;
    return false;
  }
  const std::vector<uint8_t> bytes = save_mfx(p);
  if (save_mfx(*back) != bytes) {
    ADD_FAILURE() << context << ": .mfx bytes differ after the text round trip";
    return false;
  }
  Result<Program> loaded = load_mfx(bytes);
  if (!loaded.ok() || !(*loaded == p)) {
    ADD_FAILURE() << context << ": load_mfx(save_mfx(p)) != p";
    return false;
  }
  return true;
}

std::vector<Program> example_corpus() {
  std::vector<Program> out;
  for (const auto& [name, text] : test::example_programs()) {
    Result<Program> p = assemble(text);
    if (p.ok()) out.push_back(std::move(*p));
  }
  return out;
}

TEST(Fuzz, LoadMfx) {
  std::vector<std::vector<uint8_t>> corpus;
  for (const Program& p : example_corpus()) corpus.push_back(save_mfx(p));
  ASSERT_FALSE(corpus.empty());
  Rng rng(0x6d66785f6c6f6164ull);
  int loaded = 0, verified = 0;
  const int n = iterations();
  for (int i = 0; i < n; ++i) {
    std::vector<uint8_t> d = corpus[rng.below(corpus.size())];
    mutate_bytes(d, rng, corpus);
    // Mostly repair the checksum so mutations reach the section parsers.
    if (d.size() >= 16 && !rng.chance(8)) {
      const uint32_t crc = crc32(std::span<const uint8_t>(d).subspan(16));
      for (int k = 0; k < 4; ++k) d[12 + size_t(k)] = uint8_t(crc >> (8 * k));
    }
    Result<Program> p = load_mfx(d);
    if (!p.ok()) {
      expect_error_well_formed(p.error());
      EXPECT_TRUE(p.error().code == ErrorCode::kFormat || p.error().code == ErrorCode::kUnsupported);
      EXPECT_EQ(p.error().where.rfind("offset 0x", 0), 0u) << p.error().to_string();
      continue;
    }
    ++loaded;
    Result<Program> again = load_mfx(save_mfx(*p));
    ASSERT_TRUE(again.ok() && *again == *p) << "iteration " << i;
    (void)disassemble(*p);  // must not crash on unverified programs
    Status s = verify_program(*p);
    if (!s.ok()) {
      expect_error_well_formed(s.error());
      continue;
    }
    ++verified;
    if (!round_trips(*p, "load_mfx")) FAIL() << "iteration " << i;
  }
  std::printf("[fuzz load_mfx] %d iterations, %d loaded, %d verified\n", n, loaded, verified);
}

TEST(Fuzz, Assemble) {
  const auto examples = test::example_programs();
  std::vector<std::vector<uint8_t>> corpus;
  for (const auto& [name, text] : examples) corpus.emplace_back(text.begin(), text.end());
  ASSERT_FALSE(corpus.empty());
  static const char* const kTokens[] = {"r0",
                                        "r255.xyzw",
                                        "r7.w",
                                        ".x",
                                        ", ",
                                        "@",
                                        "@position",
                                        "@0",
                                        "c[4]",
                                        "c[4095]",
                                        "#1",
                                        "#",
                                        "1e39",
                                        "-0",
                                        "nan",
                                        "f32:0x",
                                        "0x",
                                        "\n",
                                        "; ",
                                        ".init",
                                        ".update",
                                        ".word",
                                        "GT",
                                        "emitter:",
                                        "emitter@65535",
                                        "global:#1",
                                        "global@0",
                                        "DOT.3",
                                        ".const",
                                        "1.5",
                                        "STORE_FIELD.5",
                                        "KILL",
                                        ".registers 300",
                                        "\t",
                                        ",",
                                        "4294967296",
                                        "r1.xyzwx",
                                        "DT"};
  Rng rng(0x6d61736d5f747874ull);
  int assembled = 0, verified = 0;
  const int n = iterations();
  for (int i = 0; i < n; ++i) {
    std::vector<uint8_t> d = corpus[rng.below(corpus.size())];
    if (rng.chance(2)) {
      mutate_bytes(d, rng, corpus);
    } else {  // token-level: lands on the grammar's interesting edges more often
      const uint32_t rounds = 1 + rng.below(3);
      for (uint32_t r = 0; r < rounds; ++r) {
        const std::string_view tok = kTokens[rng.below(std::size(kTokens))];
        const size_t at = rng.below(d.size() + 1);
        if (rng.chance(2) && at < d.size()) {
          size_t end = at;
          while (end < d.size() && d[end] != ' ' && d[end] != '\n' && d[end] != ',') ++end;
          d.erase(d.begin() + std::ptrdiff_t(at), d.begin() + std::ptrdiff_t(end));
        }
        d.insert(d.begin() + std::ptrdiff_t(at), tok.begin(), tok.end());
      }
    }
    const std::string text(d.begin(), d.end());
    Result<Program> p = assemble(text);
    if (!p.ok()) {
      expect_error_well_formed(p.error());
      EXPECT_EQ(p.error().code, ErrorCode::kParse);
      EXPECT_EQ(p.error().where.rfind("line ", 0), 0u) << p.error().to_string();
      continue;
    }
    ++assembled;
    // The assembler only accepts identifier names, so even unverified programs round-trip.
    if (!round_trips(*p, "assemble")) FAIL() << "iteration " << i << "\n" << text;
    Status s = verify_program(*p);
    if (!s.ok()) {
      expect_error_well_formed(s.error());
      continue;
    }
    ++verified;
  }
  std::printf("[fuzz assemble] %d iterations, %d assembled, %d verified\n", n, assembled, verified);
}

void mutate_program(Program& p, Rng& rng, const std::vector<Program>& corpus) {
  const uint32_t rounds = 1 + rng.below(3);
  for (uint32_t r = 0; r < rounds; ++r) {
    std::vector<Instruction>& code = rng.chance(2) ? p.init : p.update;
    const uint32_t what = rng.below(12);
    if (what < 7 && !code.empty()) {
      Instruction& inst = code[rng.below(code.size())];
      uint32_t& word = inst.words[rng.below(4)];
      switch (what) {
        case 0: word ^= 1u << rng.below(32); break;
        case 1: word = boundary(rng); break;
        case 2: word = uint32_t(rng.next()); break;
        case 3: inst.words[0] = (inst.words[0] & ~0xFFu) | rng.below(56); break;                // opcode
        case 4: inst.words[0] = (inst.words[0] & ~0x700u) | (rng.below(8) << 8); break;         // lanes
        case 5: inst.words[0] ^= 1u << (16 + rng.below(6)); break;                              // a source kind
        default: inst.words[0] = (inst.words[0] & 0x00FFFFFFu) | (rng.below(32) << 24); break;  // dst
      }
      continue;
    }
    switch (what) {
      case 7: p.register_count = rng.chance(2) ? boundary(rng) : p.register_count + rng.below(5) - 2; break;
      case 8:
        if (!p.particle_fields.empty()) {
          FieldDecl& f = p.particle_fields[rng.below(p.particle_fields.size())];
          if (rng.chance(2)) f.width = rng.below(6);
          else f.name = rng.chance(2) ? "" : p.particle_fields[0].name;
        }
        break;
      case 9:
        if (!code.empty()) {
          const size_t at = rng.below(code.size());
          if (rng.chance(2)) code.erase(code.begin() + std::ptrdiff_t(at));
          else code.insert(code.begin() + std::ptrdiff_t(at), code[rng.below(code.size())]);
        }
        break;
      case 10: {  // splice an instruction from another program
        const Program& other = corpus[rng.below(corpus.size())];
        const auto& src = rng.chance(2) ? other.init : other.update;
        if (!src.empty())
          code.insert(code.begin() + std::ptrdiff_t(rng.below(code.size() + 1)), src[rng.below(src.size())]);
        break;
      }
      default:
        if (rng.chance(2)) p.constants.resize(rng.below(p.constants.size() + 6));
        else if (!p.global_imports.empty()) p.global_imports.pop_back();
        else p.emitter_fields.clear();
        break;
    }
  }
}

TEST(Fuzz, VerifyMutatedPrograms) {
  const std::vector<Program> corpus = example_corpus();
  ASSERT_FALSE(corpus.empty());
  Rng rng(0x7665726966795f70ull);
  int verified = 0;
  const int n = iterations() * 2;
  for (int i = 0; i < n; ++i) {
    // Through the file format, as a real loaded-but-hostile program would arrive.
    Result<Program> loaded = load_mfx(save_mfx(corpus[rng.below(corpus.size())]));
    ASSERT_TRUE(loaded.ok());
    Program p = std::move(*loaded);
    mutate_program(p, rng, corpus);
    Status s = verify_program(p);
    if (s.ok()) ++verified;
    else expect_error_well_formed(s.error());
    // Malformed instructions print as `.word`, so any program with identifier names round-trips;
    // verified programs always have identifier names.
    if (s.ok()) {
      EXPECT_TRUE(names_are_identifiers(p));
    }
    if (names_are_identifiers(p) && !round_trips(p, "verify")) FAIL() << "iteration " << i;
  }
  std::printf("[fuzz verify] %d iterations, %d verified\n", n, verified);
}

}  // namespace
}  // namespace mote
