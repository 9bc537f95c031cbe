// The GPU hierarchy pass against a CPU composition in glm: chains, trees, reparenting, a parent
// animated frame by frame, and the channels (POSITION, DIRECTION, UP, ORIENTATION) with mirrors.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "runtime/transforms/transform_table.hpp"
#include "support/gpu_fixture.hpp"
#include "support/transform_poses.hpp"

namespace mote::runtime {
namespace {

using test::GpuTest;

using test::local_matrix;
using test::Pose;

Pose random_pose(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), s(0.5f, 2.0f);
  Pose p;
  p.position = {u(rng) * 3, u(rng) * 3, u(rng) * 3};
  p.rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
  p.scale = {s(rng), s(rng), s(rng)};
  return p;
}

class TransformTableTest : public GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    auto t = TransformTable::create(device(), 64);
    ASSERT_TRUE(t.ok()) << t.error().to_string();
    table_ = std::move(t).value();
  }
  void TearDown() override {
    table_ = TransformTable();  // its buffers and pipeline go before the device does
    GpuTest::TearDown();
  }
  uint32_t add(uint32_t parent, const Pose& pose) {
    auto row = table_.add_row(parent);
    EXPECT_TRUE(row.ok());
    set(*row, pose);
    return *row;
  }
  void set(uint32_t row, const Pose& pose) { EXPECT_TRUE(poses_.set(table_, row, pose)); }
  glm::mat4 cpu_world(uint32_t row) const { return poses_.world(table_, row); }
  void run() {
    ASSERT_TRUE(table_.upload().ok());
    ASSERT_TRUE(device()
                    .submit_and_wait([&](VkCommandBuffer cmd) {
                      table_.record(cmd);
                      gpu::compute_to_transfer(cmd);
                    })
                    .ok());
    auto w = gpu::readback_as<glm::mat4>(device(), table_.worlds(), table_.capacity());
    auto c = gpu::readback_as<shader::TransformChannels>(device(), table_.channels(), table_.capacity());
    ASSERT_TRUE(w.ok() && c.ok());
    worlds_ = std::move(w).value();
    channels_ = std::move(c).value();
  }
  void expect_world(uint32_t row, float tolerance = 1e-5f) {
    const glm::mat4 expected = cpu_world(row);
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) {
        // Relative to the magnitudes involved: a chain of scales up to 2 grows the entries.
        const float scale = std::max(1.0f, std::abs(expected[c][r]));
        EXPECT_NEAR(worlds_[row][c][r], expected[c][r], tolerance * scale)
            << "row " << row << " [" << c << "][" << r << "]";
      }
  }

  TransformTable table_;
  test::PoseBook poses_;
  std::vector<glm::mat4> worlds_;
  std::vector<shader::TransformChannels> channels_;
};

TEST_F(TransformTableTest, ChainOfFiveMatchesCpuComposition) {
  std::mt19937 rng(1);
  uint32_t parent = kNoParent;
  std::vector<uint32_t> rows;
  for (int i = 0; i < 5; ++i) rows.push_back(parent = add(parent, random_pose(rng)));
  run();
  EXPECT_EQ(table_.level_count(), 5u);
  for (uint32_t r : rows) expect_world(r);
}

TEST_F(TransformTableTest, TreeWithBranchesAddedOutOfOrder) {
  std::mt19937 rng(2);
  const uint32_t root = add(kNoParent, random_pose(rng));
  const uint32_t other_root = add(kNoParent, random_pose(rng));
  std::vector<uint32_t> rows{root, other_root};
  for (int i = 0; i < 30; ++i) {
    const uint32_t parent = rows[rng() % rows.size()];
    rows.push_back(add(parent, random_pose(rng)));
  }
  // A leaf moved under a later row: its depth changes without its row number changing.
  ASSERT_TRUE(table_.set_parent(rows[2], rows.back()).ok() || table_.parent(rows[2]) != kNoParent);
  run();
  for (uint32_t r : rows) expect_world(r);
}

TEST_F(TransformTableTest, ReparentingAndRemovalRebuildTheLevels) {
  std::mt19937 rng(3);
  const uint32_t a = add(kNoParent, random_pose(rng));
  const uint32_t b = add(kNoParent, random_pose(rng));
  const uint32_t c = add(a, random_pose(rng));
  const uint32_t d = add(c, random_pose(rng));
  run();
  for (uint32_t r : {a, b, c, d}) expect_world(r);
  const uint64_t version = table_.topology_version();
  ASSERT_TRUE(table_.set_parent(c, b).ok());
  EXPECT_GT(table_.topology_version(), version);
  EXPECT_FALSE(table_.set_parent(b, d).ok());  // d is below b now: a cycle
  EXPECT_FALSE(table_.set_parent(b, b).ok());
  EXPECT_FALSE(table_.remove_row(c).ok());  // still has d
  run();
  for (uint32_t r : {a, b, c, d}) expect_world(r);
  ASSERT_TRUE(table_.set_parent(d, kNoParent).ok());
  ASSERT_TRUE(table_.remove_row(c).ok());
  EXPECT_FALSE(table_.set_local(c, {}, {}, {}).ok());
  const uint32_t e = add(d, random_pose(rng));  // reuses c's row
  EXPECT_EQ(e, c);
  run();
  for (uint32_t r : {a, b, d, e}) expect_world(r);
}

TEST_F(TransformTableTest, AnimatedParentMovesItsChildEveryFrame) {
  Pose parent_pose;
  const uint32_t parent = add(kNoParent, parent_pose);
  Pose child_pose;
  child_pose.position = {0.0f, 0.0f, 2.0f};
  const uint32_t child = add(parent, child_pose);
  for (int frame = 0; frame < 8; ++frame) {
    parent_pose.position = {float(frame), 0.5f * float(frame), 0.0f};
    parent_pose.rotation = glm::angleAxis(0.3f * float(frame), glm::vec3(0.0f, 1.0f, 0.0f));
    set(parent, parent_pose);
    run();
    expect_world(child);
    const glm::vec3 expected = parent_pose.position + parent_pose.rotation * glm::vec3(0.0f, 0.0f, 2.0f);
    EXPECT_NEAR(channels_[child].position.x, expected.x, 1e-5f);
    EXPECT_NEAR(channels_[child].position.y, expected.y, 1e-5f);
    EXPECT_NEAR(channels_[child].position.z, expected.z, 1e-5f);
  }
}

TEST_F(TransformTableTest, ChannelsOfAScaledRotatedRow) {
  Pose p;
  p.position = {1.0f, 2.0f, 3.0f};
  p.rotation = glm::normalize(glm::quat(0.9f, 0.2f, -0.3f, 0.1f));
  p.scale = {2.0f, 3.0f, 0.5f};
  const uint32_t row = add(kNoParent, p);
  run();
  const auto& c = channels_[row];
  const glm::vec3 dir = p.rotation * glm::vec3(0, 0, 1), up = p.rotation * glm::vec3(0, 1, 0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(c.position[i], p.position[i], 1e-5f);
    EXPECT_NEAR(c.direction[i], dir[i], 1e-5f);
    EXPECT_NEAR(c.up[i], up[i], 1e-5f);
  }
  const glm::quat q(c.orientation.w, c.orientation.x, c.orientation.y, c.orientation.z);
  EXPECT_NEAR(std::abs(glm::dot(q, p.rotation)), 1.0f, 1e-5f);  // q and -q are the same turn
}

TEST_F(TransformTableTest, MirroredScaleGivesTheUnmirroredRotation) {
  Pose p;
  p.rotation = glm::normalize(glm::quat(0.7f, -0.1f, 0.5f, 0.3f));
  p.scale = {-2.0f, 1.5f, 1.0f};  // a mirror in x: negative determinant
  const uint32_t root = add(kNoParent, p);
  Pose mirrored_child;
  mirrored_child.rotation = glm::angleAxis(0.4f, glm::vec3(1.0f, 0.0f, 0.0f));
  mirrored_child.scale = {1.0f, 1.0f, -1.0f};  // a mirror in z below a mirror in x: det > 0 again
  const uint32_t child = add(root, mirrored_child);
  run();
  expect_world(child);
  const auto& o = channels_[root].orientation;
  const glm::quat q(o.w, o.x, o.y, o.z);
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-5f);
  EXPECT_NEAR(std::abs(glm::dot(q, p.rotation)), 1.0f, 1e-5f);
  // The child's world is sheared (a rotation under a non-uniform scale): its orientation turns +Z
  // onto the world's +Z exactly and +Y onto the world's +Y made orthogonal to it.
  const glm::mat4 w = cpu_world(child);
  const auto& oc = channels_[child].orientation;
  const glm::quat qc(oc.w, oc.x, oc.y, oc.z);
  EXPECT_NEAR(glm::length(qc), 1.0f, 1e-5f);
  const glm::vec3 z = glm::normalize(glm::vec3(w[2]));
  const glm::vec3 y = glm::normalize(glm::vec3(w[1]) - glm::dot(glm::vec3(w[1]), z) * z);
  const glm::vec3 qz = qc * glm::vec3(0, 0, 1), qy = qc * glm::vec3(0, 1, 0);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(qz[i], z[i], 1e-5f);
    EXPECT_NEAR(qy[i], y[i], 1e-5f);
  }
}

TEST_F(TransformTableTest, FullTableIsAnError) {
  for (uint32_t i = 0; i < table_.capacity(); ++i) ASSERT_TRUE(table_.add_row().ok());
  EXPECT_FALSE(table_.add_row().ok());
  EXPECT_FALSE(table_.add_row(9999).ok());
}

}  // namespace
}  // namespace mote::runtime
