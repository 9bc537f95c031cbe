// Test side of the transform table: local poses, their matrices, and the CPU composition the
// GPU hierarchy pass is checked against (shared by the table's tests and the frame's).
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "runtime/transforms/transform_table.hpp"

namespace mote::test {

struct Pose {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};

inline glm::mat4 local_matrix(const Pose& p) {
  return glm::translate(glm::mat4(1.0f), p.position) * glm::mat4_cast(p.rotation) *
         glm::scale(glm::mat4(1.0f), p.scale);
}

// The poses given to a table, row by row, and their composition on the CPU.
class PoseBook {
 public:
  // Sets the row's local pose in the table and remembers it.
  bool set(runtime::TransformTable& table, uint32_t row, const Pose& pose) {
    poses_.resize(std::max<size_t>(poses_.size(), row + 1));
    poses_[row] = pose;
    return table.set_local(row, pose.position, pose.rotation, pose.scale).ok();
  }
  const Pose& pose(uint32_t row) const { return poses_[row]; }
  glm::mat4 world(const runtime::TransformTable& table, uint32_t row) const {
    const uint32_t p = table.parent(row);
    const glm::mat4 local = local_matrix(poses_[row]);
    return p == runtime::kNoParent ? local : world(table, p) * local;
  }

 private:
  std::vector<Pose> poses_;
};

}  // namespace mote::test
