// Where an emitter stands and what it sets: the one placement type of every runtime that places
// an emitter — the GPU particle system (mote/particles.hpp), the reference simulation
// (mote/simulation.hpp) and the GPU-versus-reference comparison (mote/compare.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "mote/effect.hpp"

namespace mote {

// A transform row of a particle system's hierarchy: parent-relative position, rotation
// (quaternion x, y, z, w) and scale, composed on the GPU every frame, parents before children.
struct TransformId {
  uint32_t row = UINT32_MAX;
  bool valid() const { return row != UINT32_MAX; }
};

// The deepest a hierarchy may be: a root is level 1, its children level 2. The GPU composes one
// level per pass, each behind a barrier, so depth is what a frame pays for: add_transform (and a
// scene file's "parent") refuses a row that would sit deeper.
inline constexpr uint32_t kMaxTransformLevels = 64;

struct EmitterDesc {
  uint32_t seed = 0;
  // When valid, the emitter stands at that row's world pose and position / rotation are ignored.
  // Only a particle system has transforms: the reference simulation refuses a valid one.
  TransformId transform;
  std::array<float, 3> position{0.0f, 0.0f, 0.0f};
  std::array<float, 4> rotation{0.0f, 0.0f, 0.0f, 1.0f};  // quaternion xyzw
  std::vector<FieldValue> fields;                         // overrides of the effect's emitter-field defaults
  std::vector<FieldValue> globals;                        // overrides of the effect's global previews
};

}  // namespace mote
