// Cooked effects that load: every preset's round trip (the same effect, the same bytes, the same
// particles as the JSON path, frame by frame), the version 1 upgrade, and the file loader.
#include <gtest/gtest.h>

#include <limits>

#include <filesystem>
#include <fstream>

#include "cook/cooked_test_support.hpp"
#include "mote/mfx.hpp"
#include "mote/simulation.hpp"

namespace mote {
namespace {

using test::compile_document;

void expect_same_effect(const CompiledEffect& a, const CompiledEffect& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(save_mfx(a.program), save_mfx(b.program));
  EXPECT_EQ(a.emitter_defaults, b.emitter_defaults);
  ASSERT_EQ(a.globals.size(), b.globals.size());
  for (size_t i = 0; i < a.globals.size(); ++i) {
    EXPECT_EQ(a.globals[i].name, b.globals[i].name);
    EXPECT_EQ(a.globals[i].values, b.globals[i].values);
  }
  EXPECT_EQ(a.emission.rate, b.emission.rate);
  EXPECT_EQ(a.emission.prewarm_seconds, b.emission.prewarm_seconds);
  EXPECT_EQ(a.emission.capacity_hint, b.emission.capacity_hint);
  EXPECT_EQ(a.emission.cull, b.emission.cull);
  EXPECT_EQ(a.emission.max_catchup_seconds, b.emission.max_catchup_seconds);
  ASSERT_EQ(a.emission.bursts.size(), b.emission.bursts.size());
  for (size_t i = 0; i < a.emission.bursts.size(); ++i) {
    EXPECT_EQ(a.emission.bursts[i].time, b.emission.bursts[i].time);
    EXPECT_EQ(a.emission.bursts[i].count, b.emission.bursts[i].count);
    EXPECT_EQ(a.emission.bursts[i].cycles, b.emission.bursts[i].cycles);
    EXPECT_EQ(a.emission.bursts[i].interval, b.emission.bursts[i].interval);
  }
  const RenderSettings& r = a.render;
  const RenderSettings& s = b.render;
  EXPECT_EQ(r.texture, s.texture);
  EXPECT_EQ(r.projection, s.projection);
  EXPECT_EQ(r.blend, s.blend);
  EXPECT_EQ(r.flipbook_columns, s.flipbook_columns);
  EXPECT_EQ(r.flipbook_rows, s.flipbook_rows);
  EXPECT_EQ(r.flipbook_blend, s.flipbook_blend);
  EXPECT_EQ(r.soft, s.soft);
  EXPECT_EQ(r.lit, s.lit);
  EXPECT_EQ(r.mesh, s.mesh);
  EXPECT_EQ(r.position_field, s.position_field);
  EXPECT_EQ(r.size_field, s.size_field);
  EXPECT_EQ(r.color_field, s.color_field);
  EXPECT_EQ(r.velocity_field, s.velocity_field);
  EXPECT_EQ(r.rotation_field, s.rotation_field);
  EXPECT_EQ(r.frame_field, s.frame_field);
  EXPECT_EQ(r.ribbon.id_field, s.ribbon.id_field);
  EXPECT_EQ(r.ribbon.serial_field, s.ribbon.serial_field);
  EXPECT_EQ(r.ribbon.uv_mode, s.ribbon.uv_mode);
  EXPECT_EQ(r.ribbon.uv_tile_length, s.ribbon.uv_tile_length);
  EXPECT_EQ(r.ribbon.facing, s.ribbon.facing);
  EXPECT_EQ(r.ribbon.normal_field, s.ribbon.normal_field);
  EXPECT_EQ(r.ribbon.subdivisions, s.ribbon.subdivisions);
  EXPECT_EQ(r.light.enabled, s.light.enabled);
  EXPECT_EQ(r.light.color, s.light.color);
  EXPECT_EQ(r.light.intensity, s.light.intensity);
  EXPECT_EQ(r.light.use_particle_color, s.light.use_particle_color);
  EXPECT_EQ(r.light.radius, s.light.radius);
  EXPECT_EQ(r.light.radius_from_size, s.light.radius_from_size);
}

TEST(CookedEffect, EveryPresetRoundTrips) {
  const auto presets = test::preset_documents();
  ASSERT_GE(presets.size(), 8u);
  for (const auto& path : presets) {
    SCOPED_TRACE(path.filename().string());
    const CompiledEffect effect = compile_document(path);
    const std::vector<uint8_t> bytes = save_cooked_effect(effect);
    ASSERT_TRUE(is_cooked_effect(bytes));
    Result<CompiledEffect> loaded = load_cooked_effect(bytes);
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    expect_same_effect(effect, *loaded);
    EXPECT_TRUE(loaded->source_path.empty());
    EXPECT_EQ(save_cooked_effect(*loaded), bytes) << "saving the loaded effect changed the bytes";
  }
}

// The runtime's contract: a cooked effect simulates to the same particles as its document.
TEST(CookedEffect, SimulatesToTheSameParticlesAsTheDocument) {
  for (const char* name : {"fire.json", "explosion.json", "fountain.json", "snow.json"}) {
    SCOPED_TRACE(name);
    const CompiledEffect effect = compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "effects" / name);
    Result<CompiledEffect> cooked = load_cooked_effect(save_cooked_effect(effect));
    ASSERT_TRUE(cooked.ok()) << cooked.error().to_string();
    SimulationOptions options;
    options.emitter.seed = 11;
    Result<Simulation> from_json = Simulation::create(effect, options);
    Result<Simulation> from_cooked = Simulation::create(*cooked, options);
    ASSERT_TRUE(from_json.ok() && from_cooked.ok());
    uint32_t alive = 0;
    for (int frame = 0; frame < 90; ++frame) {
      ASSERT_TRUE(from_json->step().ok());
      ASSERT_TRUE(from_cooked->step().ok());
      ASSERT_EQ(from_json->alive_slots(), from_cooked->alive_slots()) << "frame " << frame;
      ASSERT_EQ(from_json->pool(), from_cooked->pool()) << "frame " << frame;
      alive = std::max(alive, from_json->alive_count());
    }
    EXPECT_GT(alive, 0u) << "nothing lived: the comparison proves nothing";
  }
}

// Version 1 is version 2 (version 3 without CULL, itself version 4 without KERN, itself version 5
// without RIBN) without GLOB: it loads with a zero preview per global import.
TEST(CookedEffect, UpgradesVersion1) {
  const CompiledEffect effect = compile_document(std::filesystem::path(MOTE_SOURCE_DIR) /
                                                 "tests/graph/golden/fountain.json");
  ASSERT_FALSE(effect.program.global_imports.empty()) << "the test needs an effect with global imports";
  std::vector<uint8_t> bytes = save_cooked_effect(effect);
  test::erase_chunk(bytes, "KERN");
  test::erase_chunk(bytes, "LITE");
  test::erase_chunk(bytes, "RIBN");
  test::erase_chunk(bytes, "CULL");
  test::erase_chunk(bytes, "GLOB");
  test::put_u32(bytes, 4, 1);
  test::reseal(bytes);
  Result<CompiledEffect> loaded = load_cooked_effect(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  ASSERT_EQ(loaded->globals.size(), effect.program.global_imports.size());
  for (size_t i = 0; i < loaded->globals.size(); ++i) {
    EXPECT_EQ(loaded->globals[i].name, effect.program.global_imports[i].name);
    EXPECT_EQ(loaded->globals[i].values, std::vector<float>(effect.program.global_imports[i].width, 0.0f));
  }
  EXPECT_EQ(save_mfx(loaded->program), save_mfx(effect.program));
  EXPECT_EQ(loaded->emitter_defaults, effect.emitter_defaults);
  // Saved again, it is a current file that loads to the same effect.
  const std::vector<uint8_t> upgraded = save_cooked_effect(*loaded);
  EXPECT_EQ(test::get_u32(upgraded, 4), kCookedEffectVersion);
  EXPECT_TRUE(load_cooked_effect(upgraded).ok());
  // A version 2 file without GLOB is not a version 1 file.
  test::put_u32(bytes, 4, 2);
  test::reseal(bytes);
  Result<CompiledEffect> refused = load_cooked_effect(bytes);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("GLOB"), std::string::npos) << refused.error().to_string();
}

TEST(CookedEffect, CullingRoundTripsAndVersion2LoadsWithoutIt) {
  CompiledEffect effect = compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "tests/graph/golden/fountain.json");
  effect.emission.cull = true;
  effect.emission.max_catchup_seconds = 0.25f;
  std::vector<uint8_t> bytes = save_cooked_effect(effect);
  Result<CompiledEffect> loaded = load_cooked_effect(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_TRUE(loaded->emission.cull);
  EXPECT_EQ(loaded->emission.max_catchup_seconds, 0.25f);
  // Version 2 had no CULL (nor KERN, nor RIBN): such a file loads with the defaults.
  test::erase_chunk(bytes, "KERN");
  test::erase_chunk(bytes, "LITE");
  test::erase_chunk(bytes, "RIBN");
  test::erase_chunk(bytes, "CULL");
  test::put_u32(bytes, 4, 2);
  test::reseal(bytes);
  Result<CompiledEffect> old = load_cooked_effect(bytes);
  ASSERT_TRUE(old.ok()) << old.error().to_string();
  EXPECT_FALSE(old->emission.cull);
  EXPECT_EQ(old->emission.max_catchup_seconds, EmissionSettings{}.max_catchup_seconds);
}

// RIBN (version 5) keeps the ribbon settings; a version 4 file (no RIBN) loads with the defaults,
// and settings outside the document's ranges are refused at the chunk's tag.
TEST(CookedEffect, RibbonSettingsRoundTripAndVersion4LoadsWithout) {
  CompiledEffect effect = compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "tests/graph/golden/fountain.json");
  effect.render.projection = "ribbon";
  effect.render.ribbon = {.id_field = "age",
                          .serial_field = "lifetime",
                          .uv_mode = "tiled",
                          .uv_tile_length = 0.25f,
                          .facing = "normal",
                          .normal_field = "velocity",
                          .subdivisions = 3};
  std::vector<uint8_t> bytes = save_cooked_effect(effect);
  Result<CompiledEffect> loaded = load_cooked_effect(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  expect_same_effect(effect, *loaded);

  effect.render.ribbon.subdivisions = 9;
  Result<CompiledEffect> refused = load_cooked_effect(save_cooked_effect(effect));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "RIBN") << refused.error().to_string();
  effect.render.ribbon.subdivisions = 3;
  effect.render.ribbon.normal_field.clear();
  refused = load_cooked_effect(save_cooked_effect(effect));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "RIBN") << refused.error().to_string();

  const CompiledEffect plain = compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "effects/fire.json");
  std::vector<uint8_t> v4 = save_cooked_effect(plain);
  test::erase_chunk(v4, "LITE");
  test::erase_chunk(v4, "RIBN");
  test::put_u32(v4, 4, 4);
  test::reseal(v4);
  Result<CompiledEffect> old = load_cooked_effect(v4);
  ASSERT_TRUE(old.ok()) << old.error().to_string();
  expect_same_effect(plain, *old);
  // A version 5 file without RIBN is refused.
  test::put_u32(v4, 4, 5);
  test::reseal(v4);
  EXPECT_FALSE(load_cooked_effect(v4).ok());
}

// LITE (version 6) keeps the particle-light settings; a version 5 file (no LITE) loads with the
// defaults (no light); settings outside the document's ranges — a negative radius, a NaN or
// infinite intensity — are refused at the chunk's tag.
TEST(CookedEffect, LightSettingsRoundTripAndVersion5LoadsWithout) {
  CompiledEffect effect = compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "effects/fire.json");
  effect.render.light = {.enabled = true,
                         .color = {1.0f, 0.4f, 0.1f},
                         .intensity = 3.5f,
                         .use_particle_color = false,
                         .radius = 2.5f,
                         .radius_from_size = 6.0f};
  std::vector<uint8_t> bytes = save_cooked_effect(effect);
  Result<CompiledEffect> loaded = load_cooked_effect(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  expect_same_effect(effect, *loaded);
  // Out of range: refused by the check, at the chunk's tag.
  for (const float bad : {-1.0f, 0.0f, 2e4f}) {
    CompiledEffect broken = effect;
    broken.render.light.radius = bad;
    Result<CompiledEffect> refused = load_cooked_effect(save_cooked_effect(broken));
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_EQ(refused.error().where, "LITE") << refused.error().to_string();
  }
  CompiledEffect dim = effect;
  dim.render.light.intensity = -2.0f;
  Result<CompiledEffect> refused = load_cooked_effect(save_cooked_effect(dim));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().where, "LITE") << refused.error().to_string();
  // Not finite: refused as the number is read (a format error at its offset).
  for (const float bad : {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
    CompiledEffect broken = effect;
    broken.render.light.intensity = bad;
    refused = load_cooked_effect(save_cooked_effect(broken));
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_EQ(refused.error().code, ErrorCode::kFormat) << refused.error().to_string();
  }

  const CompiledEffect plain = compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "effects/fire.json");
  std::vector<uint8_t> v5 = save_cooked_effect(effect);
  test::erase_chunk(v5, "LITE");
  test::put_u32(v5, 4, 5);
  test::reseal(v5);
  Result<CompiledEffect> old = load_cooked_effect(v5);
  ASSERT_TRUE(old.ok()) << old.error().to_string();
  EXPECT_FALSE(old->render.light.enabled);
  expect_same_effect(plain, *old);
  // A version 6 file without LITE is refused.
  test::put_u32(v5, 4, 6);
  test::reseal(v5);
  EXPECT_FALSE(load_cooked_effect(v5).ok());
}

TEST(CookedEffect, FileLoaderSetsTheSourcePath) {
  const CompiledEffect effect = compile_document(std::filesystem::path(MOTE_SOURCE_DIR) / "effects/fire.json");
  const auto dir = std::filesystem::temp_directory_path() / ("mote_cook_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "fire.mfe";
  const std::vector<uint8_t> bytes = save_cooked_effect(effect);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  Result<CompiledEffect> loaded = load_cooked_effect_file(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_EQ(loaded->source_path, path.string());
  Result<CompiledEffect> missing = load_cooked_effect_file(dir / "missing.mfe");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mote
