// SAMPLE_DEPTH on the CPU executors (docs/design/depth_collision.md): hits behind the surface seen
// through the particle's texel, with the surface's normal and how deep the particle lies behind
// it; misses above the surface, too deep, out of view, behind the camera, for NaN and without a
// depth; the run refuses a depth of the wrong size, check_depth_image a bad image.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "mote/vm.hpp"
#include "support/depth_test_image.hpp"
#include "vm_test_support.hpp"

namespace mote::test {
namespace {

using isa::Op;

constexpr uint32_t kWords = 9;  // header, p 3, thickness 1, out 4

Program depth_program() {
  Program p;
  p.register_count = 16;
  p.particle_fields = {{"p", 3}, {"t", 1}, {"out", 4}};
  p.update = {make_ins(Op::LOAD_FIELD, 3, 0, raw(1)), make_ins(Op::LOAD_FIELD, 1, 4, raw(4)),
              make_ins(Op::SAMPLE_DEPTH, 4, 8, reg(0), reg(4)), make_ins(Op::STORE_FIELD, 4, 0, raw(5), reg(8))};
  return p;
}

struct Probe {
  float p[3];
  float thickness;
};

RunInput probe_input(const Program& p, const std::vector<Probe>& probes, const DepthImage* depth) {
  RunInput in;
  in.program = &p;
  in.section = Section::kUpdate;
  in.count = uint32_t(probes.size());
  in.records.assign(probes.size() * kWords, 0);
  for (size_t i = 0; i < probes.size(); ++i) {
    for (size_t k = 0; k < 3; ++k) in.records[i * kWords + 1 + k] = f2u(probes[i].p[k]);
    in.records[i * kWords + 4] = f2u(probes[i].thickness);
  }
  in.depth = depth;
  return in;
}

std::array<float, 4> result_of(const RunOutput& out, size_t i) {
  return {u2f(out.records[i * kWords + 5]), u2f(out.records[i * kWords + 6]), u2f(out.records[i * kWords + 7]),
          u2f(out.records[i * kWords + 8])};
}

TEST(VmDepth, HitsBehindTheSurfaceWithItsNormalAndDepth) {
  const DepthImage depth = draw_depth_test_scene({.width = 256, .height = 192});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Program program = depth_program();
  // The box's top face (y = 2), its front face (z = 1), the ground (y = 0), then the misses.
  const std::vector<Probe> probes = {{{0.0f, 1.98f, -0.3f}, 0.5f},  {{0.0f, 1.0f, 0.97f}, 0.5f},
                                     {{3.0f, -0.05f, 3.0f}, 0.5f},  {{0.0f, 2.1f, -0.3f}, 0.5f},
                                     {{3.0f, -0.05f, 3.0f}, 0.01f}, {{3.0f, -0.05f, 3.0f}, -1.0f},
                                     {{0.0f, 6.0f, 20.0f}, 100.0f}, {{40.0f, 0.0f, 0.0f}, 100.0f},
                                     {{nan, 1.98f, -0.3f}, 0.5f},   {{0.0f, 1.98f, -0.3f}, nan}};
  const RunInput in = probe_input(program, probes, &depth);
  const std::array<float, 3> normals[3] = {{0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}, {0.0f, 1.0f, 0.0f}};
  // How deep each hit lies behind its face's plane.
  const float depths[3] = {0.02f, 0.03f, 0.05f};
  std::unique_ptr<Executor> executors[] = {make_reference_executor(), make_batch_executor()};
  for (const auto& executor : executors) {
    const auto out = executor->run(in);
    ASSERT_TRUE(out.ok()) << out.error().to_string();
    for (size_t i = 0; i < 3; ++i) {
      const auto r = result_of(*out, i);
      for (size_t k = 0; k < 3; ++k) EXPECT_NEAR(r[k], normals[i][k], 2e-3f) << executor->name() << " hit " << i;
      EXPECT_NEAR(r[3], depths[i], 2e-3f) << executor->name() << " hit " << i;
    }
    for (size_t i = 3; i < probes.size(); ++i) {
      const auto r = result_of(*out, i);
      for (size_t k = 0; k < 4; ++k) EXPECT_EQ(f2u(r[k]), 0u) << executor->name() << " miss " << i << " lane " << k;
    }
    // Without a depth nothing hits.
    const auto none = executor->run(probe_input(program, probes, nullptr));
    ASSERT_TRUE(none.ok()) << none.error().to_string();
    for (size_t i = 0; i < probes.size(); ++i)
      for (size_t k = 0; k < 4; ++k) EXPECT_EQ(f2u(result_of(*none, i)[k]), 0u) << executor->name() << " no depth";
  }
}

TEST(VmDepth, DegenerateCamerasAndEmptyTexelsNeverHit) {
  const Program program = depth_program();
  const std::vector<Probe> probes = {{{0.0f, 1.98f, -0.3f}, 0.5f}, {{3.0f, -0.05f, 3.0f}, 0.5f}};
  DepthImage depth = draw_depth_test_scene({});
  // A zero matrix projects nothing in front of the camera; an inverse of zeros reconstructs no
  // point; nothing drawn (depth 0 everywhere) is no surface.
  DepthImage zero_view = depth;
  zero_view.view_proj.fill(0.0f);
  DepthImage zero_inverse = depth;
  zero_inverse.inv_view_proj.fill(0.0f);
  DepthImage empty = depth;
  std::fill(empty.depths.begin(), empty.depths.end(), 0.0f);
  DepthImage huge = depth;
  huge.view_proj.fill(3e38f);
  for (const DepthImage* d : {&zero_view, &zero_inverse, &empty, &huge}) {
    std::unique_ptr<Executor> executors[] = {make_reference_executor(), make_batch_executor()};
    for (const auto& executor : executors) {
      const auto out = executor->run(probe_input(program, probes, d));
      ASSERT_TRUE(out.ok()) << out.error().to_string();
      for (size_t i = 0; i < probes.size(); ++i)
        for (size_t k = 0; k < 4; ++k) EXPECT_EQ(f2u(result_of(*out, i)[k]), 0u) << executor->name();
    }
  }
}

TEST(VmDepth, RunsRefuseADepthOfTheWrongSize) {
  const Program program = depth_program();
  DepthImage depth = draw_depth_test_scene({});
  depth.depths.pop_back();
  std::unique_ptr<Executor> executors[] = {make_reference_executor(), make_batch_executor()};
  for (const auto& executor : executors) {
    const auto out = executor->run(probe_input(program, {{{0.0f, 0.0f, 0.0f}, 1.0f}}, &depth));
    ASSERT_FALSE(out.ok());
    EXPECT_EQ(out.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(out.error().where, "depth");
  }
  DepthImage zero{};
  const auto out = make_reference_executor()->run(probe_input(program, {{{0.0f, 0.0f, 0.0f}, 1.0f}}, &zero));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().where, "depth");
}

TEST(VmDepth, CheckDepthImageNamesWhatIsWrong) {
  const DepthImage good = draw_depth_test_scene({});
  EXPECT_TRUE(check_depth_image(good).ok());
  auto where = [](const DepthImage& d) {
    const Status s = check_depth_image(d);
    return s.ok() ? std::string("ok") : s.error().where;
  };
  DepthImage d = good;
  d.width = 0;
  EXPECT_EQ(where(d), "width");
  d = good;
  d.height = kMaxDepthImageSize + 1;
  EXPECT_EQ(where(d), "height");
  d = good;
  d.depths.push_back(0.5f);
  EXPECT_EQ(where(d), "depths");
  d = good;
  d.depths[7] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(where(d), "depths[7]");
  d = good;
  d.depths[9] = 1.5f;
  EXPECT_EQ(where(d), "depths[9]");
  d = good;
  d.view_proj[3] = std::numeric_limits<float>::infinity();
  EXPECT_EQ(where(d), "view_proj[3]");
  d = good;
  d.inv_view_proj[15] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(where(d), "inv_view_proj[15]");
}

}  // namespace
}  // namespace mote::test
