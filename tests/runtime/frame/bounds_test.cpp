// Measured bounds per emitter on lavapipe (validation on): for every projection mode — the quad
// modes with and without stretch, the box and sphere meshes — every alive particle's drawn corners,
// seen from cameras all around, lie inside its emitter's published box (checked on the CPU with
// the renderer's own corner functions, shared/particle_render.h, against the records read back);
// an emitter with nothing alive reads the empty sentinel; a removed row's box goes empty and a
// reused row starts from its new emitter's particles alone; a glTF mesh's box is unknown.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "mote/assembly.hpp"
#include "runtime/frame/particle_system.hpp"
#include "shared/particle_render.h"
#include "support/gpu_fixture.hpp"

namespace mote {
namespace {

using runtime::ParticleSystem;
using shader::vec2;
using shader::vec3;
using shader::vec4;

constexpr float kDt = 1.0f / 60.0f;
constexpr uint32_t kRecordWords = 16;

// Particles scattered over an 8 m cube above their emitter, flying at up to 6 m/s each way (so
// stretched sprites grow up to ~11x long), sized 0 .. 3 m, turned by a random quaternion
// (the renderer normalises it), living 0.5 s.
constexpr const char* kScatter = R"(
.registers 16
.particle position 3
.particle velocity 3
.particle size 1
.particle rotation 4
.particle age 1
.emitter rate 1

.init
  LOAD_BUILTIN r0.xyz, EMITTER_POSITION
  RAND r1.xyz, #0
  FMA r0.xyz, r1.xyz, 8, r0.xyz
  STORE_FIELD @position, r0.xyz
  RAND r2.xyz, #1
  FMA r2.xyz, r2.xyz, 12, -6
  STORE_FIELD @velocity, r2.xyz
  RAND r3.x, #2
  MUL r3.x, r3.x, 3
  STORE_FIELD @size, r3.x
  RAND r4.xyzw, #3
  SUB r4.xyzw, r4.xyzw, 0.5
  STORE_FIELD @rotation, r4.xyzw
  STORE_FIELD @age, 0.0

.update
  LOAD_BUILTIN r0.x, DT
  LOAD_FIELD r1.xyz, @position
  LOAD_FIELD r2.xyz, @velocity
  FMA r1.xyz, r2.xyz, r0.xxx, r1.xyz
  STORE_FIELD @position, r1.xyz
  LOAD_FIELD r5.x, @age
  ADD r5.x, r5.x, r0.x
  STORE_FIELD @age, r5.x
  MOV r6.x, 0.5
  CMP r7.x, r5.x, r6.x, GE
  KILL r7.x
)";

CompiledEffect scatter_effect(const std::string& projection, const std::string& mesh, float rate) {
  Result<Program> p = assemble(kScatter);
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
  CompiledEffect e;
  e.name = "scatter_" + projection + mesh;
  e.program = std::move(p).value();
  e.emitter_defaults = {std::bit_cast<uint32_t>(rate)};
  e.emission.rate = rate;
  e.emission.capacity_hint = 1024;
  e.render.projection = projection;
  e.render.mesh = mesh;
  return e;
}

float word(const std::vector<uint32_t>& pool, uint32_t slot, uint32_t w) {
  return std::bit_cast<float>(pool[size_t(slot) * kRecordWords + w]);
}

// The world points a particle's drawn shape reaches, from one camera: a quad's four corners, the
// box's eight, or points on the sphere.
std::vector<vec3> drawn_points(uint32_t mode, const std::string& mesh, vec3 p, vec3 v, float size, vec4 stored,
                               vec3 eye, vec3 forward) {
  const vec3 up_hint = std::abs(forward.y) < 0.99f ? vec3(0, 1, 0) : vec3(1, 0, 0);
  const vec3 right = glm::normalize(glm::cross(forward, up_hint));
  const vec3 up = glm::cross(right, forward);
  const vec4 q = shader::particle_orientation(4, stored);
  std::vector<vec3> points;
  if (mode == shader::kProjectionMesh) {
    if (mesh == "box") {
      for (int c = 0; c < 8; ++c) {
        const vec3 corner((c & 1) ? 0.5f : -0.5f, (c & 2) ? 0.5f : -0.5f, (c & 4) ? 0.5f : -0.5f);
        points.push_back(p + shader::particle_quat_rotate(q, corner * size));
      }
    } else {
      for (int k = 0; k < 26; ++k) {
        const vec3 d(float(k % 3) - 1.0f, float((k / 3) % 3) - 1.0f, float(k / 9) - 1.0f + (k == 13 ? 1.0f : 0.0f));
        points.push_back(p + shader::particle_quat_rotate(q, glm::normalize(d) * (0.5f * size)));
      }
    }
    return points;
  }
  const shader::mat3 frame = shader::particle_frame(mode, p, v, eye, right, up, forward);
  const float stretch = shader::particle_stretch(mode, v, forward);
  for (const vec2 corner : {vec2(-0.5f, -0.5f), vec2(0.5f, -0.5f), vec2(0.5f, 0.5f), vec2(-0.5f, 0.5f)})
    points.push_back(p + shader::particle_corner_offset(frame, q, corner, size, stretch));
  return points;
}

// The box the frame should publish for one particle: its sphere (bounds_fold.glsl's reach), as
// the CPU computes it, so the published box can be checked for being tight, not just large enough.
struct CpuBox {
  vec3 lo{INFINITY}, hi{-INFINITY};
  void add(uint32_t mode, const std::string& mesh, vec3 p, vec3 v, float size) {
    const float reach = mode != shader::kProjectionMesh ? 0.5f : mesh == "box" ? 0.8660254f : 0.5f;
    const float stretch = 1.0f + (mode == shader::kProjectionStretched ? glm::length(v) : 0.0f);
    const float quad = mode == shader::kProjectionMesh ? 1.0f : std::sqrt(1.0f + stretch * stretch);
    const float radius = std::abs(size) * reach * quad * 1.0001f;
    lo = glm::min(lo, p - vec3(radius));
    hi = glm::max(hi, p + vec3(radius));
  }
};

// The parameters: compiled simulate (the kernels fold the survivors from their staged window) or
// the interpreter (from its register file); the survivors folded by simulate, or the whole list
// by the bounds pass.
struct BoundsMode {
  bool compiled;
  bool in_simulate;
};

class BoundsTest : public test::GpuTest, public ::testing::WithParamInterface<BoundsMode> {
 protected:
  ParticleSystem make_system() {
    auto s = ParticleSystem::create(device(), {.capacity = 4096,
                                               .record_words = kRecordWords,
                                               .max_emitters = 16,
                                               .compiled_simulate = GetParam().compiled,
                                               .bounds_in_simulate_max_rows = GetParam().in_simulate ? 16u : 0u});
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
    return s.ok() ? std::move(s).value() : ParticleSystem{};
  }
  std::vector<shader::FrameEmitterBounds> bounds(ParticleSystem& s) {
    Result<std::vector<shader::FrameEmitterBounds>> b = s.read_emitter_bounds();
    EXPECT_TRUE(b.ok());
    return b.ok() ? b.value() : std::vector<shader::FrameEmitterBounds>{};
  }
};

bool is_empty(const shader::FrameEmitterBounds& b) {
  const uint32_t plus = std::bit_cast<uint32_t>(INFINITY), minus = std::bit_cast<uint32_t>(-INFINITY);
  return std::bit_cast<uint32_t>(b.bounds_min.x) == plus && std::bit_cast<uint32_t>(b.bounds_max.x) == minus &&
         std::bit_cast<uint32_t>(b.bounds_min.z) == plus && std::bit_cast<uint32_t>(b.bounds_max.z) == minus;
}

TEST_P(BoundsTest, EveryDrawnCornerInEveryModeLiesInsideItsEmittersBox) {
  ParticleSystem system = make_system();
  struct Mode {
    std::string projection, mesh;
    uint32_t mode;
  };
  const std::vector<Mode> modes = {{"billboard", "", shader::kProjectionBillboard},
                                   {"stretched", "", shader::kProjectionStretched},
                                   {"vertical", "", shader::kProjectionVertical},
                                   {"horizontal", "", shader::kProjectionHorizontal},
                                   {"facing_world", "", shader::kProjectionFacingWorld},
                                   {"mesh", "box", shader::kProjectionMesh},
                                   {"mesh", "sphere", shader::kProjectionMesh}};
  std::vector<uint32_t> rows;
  std::vector<CompiledEffect> effects;
  for (size_t m = 0; m < modes.size(); ++m)
    effects.push_back(scatter_effect(modes[m].projection, modes[m].mesh, 240.0f));
  for (size_t m = 0; m < modes.size(); ++m) {
    Result<uint32_t> row = system.add_emitter(effects[m],
                                              {.seed = uint32_t(m + 1), .position = {20.0f * float(m), 0, 0}});
    ASSERT_TRUE(row.ok()) << row.error().to_string();
    rows.push_back(row.value());
  }
  const uint32_t position_word = effects[0].program.particle_field_offset("position").value();
  const uint32_t velocity_word = effects[0].program.particle_field_offset("velocity").value();
  const uint32_t size_word = effects[0].program.particle_field_offset("size").value();
  const uint32_t rotation_word = effects[0].program.particle_field_offset("rotation").value();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<vec3> views;
  for (int k = 0; k < 12; ++k) views.push_back(glm::normalize(vec3(unit(rng), unit(rng), unit(rng))));
  views.push_back(vec3(0, -1, 0));  // straight down
  views.push_back(vec3(0, 0, -1));
  size_t checked = 0;
  for (int frame = 0; frame < 24; ++frame) {
    ASSERT_TRUE(system.execute(kDt).ok());
    if (frame % 6 != 5) continue;
    Result<std::vector<uint32_t>> alive = system.read_alive_slots();
    Result<std::vector<uint32_t>> pool = system.read_pool();
    ASSERT_TRUE(alive.ok() && pool.ok());
    const std::vector<shader::FrameEmitterBounds> box = bounds(system);
    std::vector<uint32_t> count(16, 0);
    std::vector<CpuBox> expected(16);
    for (uint32_t slot : alive.value()) {
      const uint32_t row = pool.value()[size_t(slot) * kRecordWords] & shader::kFrameHeaderRowMask;
      ASSERT_LT(row, modes.size());
      ++count[row];
      const shader::FrameEmitterBounds& b = box[row];
      const vec3 p(word(pool.value(), slot, position_word), word(pool.value(), slot, position_word + 1),
                   word(pool.value(), slot, position_word + 2));
      const vec3 v(word(pool.value(), slot, velocity_word), word(pool.value(), slot, velocity_word + 1),
                   word(pool.value(), slot, velocity_word + 2));
      const float size = word(pool.value(), slot, size_word);
      const vec4 q(word(pool.value(), slot, rotation_word), word(pool.value(), slot, rotation_word + 1),
                   word(pool.value(), slot, rotation_word + 2), word(pool.value(), slot, rotation_word + 3));
      expected[row].add(modes[row].mode, modes[row].mesh, p, v, size);
      for (const vec3& forward : views) {
        const vec3 eye = p - forward * 30.0f;
        for (const vec3& c : drawn_points(modes[row].mode, modes[row].mesh, p, v, size, q, eye, forward)) {
          for (int k = 0; k < 3; ++k) {
            ASSERT_GE(c[k], b.bounds_min[k]) << modes[row].projection << modes[row].mesh << " axis " << k;
            ASSERT_LE(c[k], b.bounds_max[k]) << modes[row].projection << modes[row].mesh << " axis " << k;
          }
          ++checked;
        }
      }
    }
    for (size_t m = 0; m < modes.size(); ++m) {
      EXPECT_EQ(box[rows[m]].alive, count[rows[m]]) << modes[m].projection << modes[m].mesh;
      EXPECT_GT(count[rows[m]], 0u);
      // Tight enough to cull by: the box spans the scattered cube plus the largest reach.
      EXPECT_LT(box[rows[m]].bounds_max.x - box[rows[m]].bounds_min.x, 8.0f + 2.0f * 1.5f * 13.0f);
      // And exactly the union of the particles' spheres, newborns (the bounds pass) and survivors
      // (simulate) alike: one missing from the fold would leave the box short of it.
      for (int k = 0; k < 3; ++k) {
        const float tolerance = 1e-4f * (1.0f + std::abs(expected[rows[m]].hi[k]) + std::abs(expected[rows[m]].lo[k]));
        EXPECT_NEAR(box[rows[m]].bounds_min[k], expected[rows[m]].lo[k], tolerance) << modes[m].projection << k;
        EXPECT_NEAR(box[rows[m]].bounds_max[k], expected[rows[m]].hi[k], tolerance) << modes[m].projection << k;
      }
    }
  }
  EXPECT_GT(checked, 10000u);
}

TEST_P(BoundsTest, EmptyRowsReadTheSentinelAndAReusedRowStartsClean) {
  ParticleSystem system = make_system();
  const CompiledEffect busy = scatter_effect("billboard", "", 600.0f);
  const CompiledEffect still = scatter_effect("billboard", "", 0.0f);
  Result<uint32_t> far = system.add_emitter(busy, {.seed = 1, .position = {1000.0f, 0, 0}});
  Result<uint32_t> quiet = system.add_emitter(still, {.seed = 2});
  ASSERT_TRUE(far.ok() && quiet.ok());
  for (int f = 0; f < 10; ++f) ASSERT_TRUE(system.execute(kDt).ok());
  std::vector<shader::FrameEmitterBounds> b = bounds(system);
  EXPECT_GT(b[far.value()].alive, 0u);
  EXPECT_GE(b[far.value()].bounds_min.x, 990.0f);
  EXPECT_TRUE(is_empty(b[quiet.value()]));
  EXPECT_EQ(b[quiet.value()].alive, 0u);
  // Removed: the next frame frees its particles and publishes the row empty.
  ASSERT_TRUE(system.remove_emitter(far.value()).ok());
  ASSERT_TRUE(system.execute(kDt).ok());
  b = bounds(system);
  EXPECT_TRUE(is_empty(b[far.value()]));
  EXPECT_EQ(b[far.value()].alive, 0u);
  // Reused by an emitter near the origin: its box holds its own particles only.
  Result<uint32_t> near = system.add_emitter(busy, {.seed = 3, .position = {0, 0, 0}});
  ASSERT_TRUE(near.ok());
  EXPECT_EQ(near.value(), far.value());
  for (int f = 0; f < 3; ++f) ASSERT_TRUE(system.execute(kDt).ok());
  b = bounds(system);
  EXPECT_GT(b[near.value()].alive, 0u);
  EXPECT_LT(b[near.value()].bounds_max.x, 50.0f);
  EXPECT_EQ(b[near.value()].generation, system.generation(near.value()));
}

TEST_P(BoundsTest, AShapeTheFrameCannotMeasureIsUnknownNotWrong) {
  ParticleSystem system = make_system();
  const CompiledEffect gltf = scatter_effect("mesh", "models/rock.gltf", 600.0f);
  Result<uint32_t> row = system.add_emitter(gltf, {.seed = 1});
  ASSERT_TRUE(row.ok());
  for (int f = 0; f < 3; ++f) ASSERT_TRUE(system.execute(kDt).ok());
  const std::vector<shader::FrameEmitterBounds> b = bounds(system);
  EXPECT_GT(b[row.value()].alive, 0u);
  EXPECT_EQ(b[row.value()].bounds_min.x, -INFINITY);
  EXPECT_EQ(b[row.value()].bounds_max.y, INFINITY);
}

INSTANTIATE_TEST_SUITE_P(Fold, BoundsTest,
                         ::testing::Values(BoundsMode{true, true}, BoundsMode{false, true}, BoundsMode{true, false},
                                           BoundsMode{false, false}),
                         [](const ::testing::TestParamInfo<BoundsMode>& param) {
                           return std::string(param.param.compiled ? "Compiled" : "Interpreted") +
                                  (param.param.in_simulate ? "InSimulate" : "InBoundsPass");
                         });

}  // namespace
}  // namespace mote
