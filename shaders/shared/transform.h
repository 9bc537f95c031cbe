// Layouts of the transforms table and its GPU hierarchy pass (src/runtime/transforms/transform_table.hpp,
// shaders/runtime/transforms/compose.comp), shared by C++ and GLSL. See docs/design/runtime_passes.md
// ("Transforms table") and docs/design/runtime_frame.md ("Emitters at transform rows", "Field
// bindings").
#ifndef MOTE_SHADERS_SHARED_TRANSFORM_H
#define MOTE_SHADERS_SHARED_TRANSFORM_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

MOTE_CONSTANT(uint, kTransformRoot, 0xFFFFFFFFu);  // TransformLocal::parent of a root row
MOTE_CONSTANT(uint, kTransformWorkgroupSize, 64u);

// One row's pose relative to its parent: world = parent_world * T(position) * R(rotation) * S(scale).
struct TransformLocal {
  vec4 position;  // xyz; w unused
  vec4 rotation;  // unit quaternion (x, y, z, w)
  vec4 scale;     // xyz; w unused
  uint parent;    // a row, or kTransformRoot
  uint pad0;
  uint pad1;
  uint pad2;
};
MOTE_ASSERT_SIZE(TransformLocal, 64);
MOTE_ASSERT_OFFSET(TransformLocal, position, 0);
MOTE_ASSERT_OFFSET(TransformLocal, rotation, 16);
MOTE_ASSERT_OFFSET(TransformLocal, scale, 32);
MOTE_ASSERT_OFFSET(TransformLocal, parent, 48);

// What a field binding reads from a row (DIRECTION and UP as the emitter's builtins: the world +Z
// and +Y axes, normalised; docs/design/runtime_passes.md, "Transforms table").
struct TransformChannels {
  vec4 position;     // xyz: the world translation
  vec4 direction;    // xyz: world +Z, normalised
  vec4 up;           // xyz: world +Y, normalised
  vec4 orientation;  // quaternion (x, y, z, w): the rotation with scale (and a mirror in x) divided out
};
MOTE_ASSERT_SIZE(TransformChannels, 64);
MOTE_ASSERT_OFFSET(TransformChannels, position, 0);
MOTE_ASSERT_OFFSET(TransformChannels, direction, 16);
MOTE_ASSERT_OFFSET(TransformChannels, up, 32);
MOTE_ASSERT_OFFSET(TransformChannels, orientation, 48);

// Push constants of runtime/transforms/compose: one depth level, order[first, first + count).
struct TransformLevelParams {
  uint first;
  uint count;
  uint pad0;
  uint pad1;
};
MOTE_ASSERT_SIZE(TransformLevelParams, 16);
MOTE_ASSERT_OFFSET(TransformLevelParams, first, 0);
MOTE_ASSERT_OFFSET(TransformLevelParams, count, 4);

MOTE_SHARED_END
#endif
