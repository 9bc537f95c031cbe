#version 460
// The hierarchy pass, one depth level per dispatch: each row of the level composes its world
// matrix from its parent's (written by the previous level's dispatch, behind a barrier) and its
// local pose, then writes the channels a field binding reads (docs/design/runtime_passes.md,
// "Transforms table"; docs/design/runtime_frame.md, "Field bindings").
#include "shared/transform.h"

layout(local_size_x = kTransformWorkgroupSize) in;
layout(push_constant) uniform Push { TransformLevelParams params; };
layout(std430, binding = 0) readonly buffer Locals { TransformLocal locals[]; };
layout(std430, binding = 1) readonly buffer Order { uint order[]; };
layout(std430, binding = 2) buffer Worlds { mat4 worlds[]; };
layout(std430, binding = 3) writeonly buffer Channels { TransformChannels channels[]; };

mat3 quat_to_mat3(vec4 q) {
  const float x = q.x, y = q.y, z = q.z, w = q.w;
  return mat3(vec3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)),
              vec3(2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x)),
              vec3(2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)));
}

// Shoemake's matrix-to-quaternion (the branch on the largest diagonal term keeps the square root
// away from zero), for a proper rotation with columns x, y, z; as glm::quat_cast.
vec4 quat_from_basis(vec3 x, vec3 y, vec3 z) {
  const float trace = x.x + y.y + z.z;
  vec4 q;
  if (trace > 0.0) {
    const float s = sqrt(trace + 1.0) * 2.0;
    q = vec4((y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s, 0.25 * s);
  } else if (x.x > y.y && x.x > z.z) {
    const float s = sqrt(1.0 + x.x - y.y - z.z) * 2.0;
    q = vec4(0.25 * s, (y.x + x.y) / s, (z.x + x.z) / s, (y.z - z.y) / s);
  } else if (y.y > z.z) {
    const float s = sqrt(1.0 + y.y - x.x - z.z) * 2.0;
    q = vec4((y.x + x.y) / s, 0.25 * s, (z.y + y.z) / s, (z.x - x.z) / s);
  } else {
    const float s = sqrt(1.0 + z.z - x.x - y.y) * 2.0;
    q = vec4((z.x + x.z) / s, (z.y + y.z) / s, 0.25 * s, (x.y - y.x) / s);
  }
  return normalize(q);
}

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= params.count) return;
  const uint row = order[params.first + i];
  const TransformLocal l = locals[row];

  const mat3 r = quat_to_mat3(l.rotation);
  mat4 local_matrix = mat4(vec4(r[0] * l.scale.x, 0.0), vec4(r[1] * l.scale.y, 0.0), vec4(r[2] * l.scale.z, 0.0),
                           vec4(l.position.xyz, 1.0));
  const mat4 world = l.parent == kTransformRoot ? local_matrix : worlds[l.parent] * local_matrix;
  worlds[row] = world;

  const vec3 y = world[1].xyz, z = world[2].xyz;
  // Divide the scale out by orthonormalising, keeping +Z exact (DIRECTION) and +Y as close as it
  // can be. x is rebuilt as y cross z, so a mirrored transform (negative determinant) loses its
  // mirror from the x axis: no quaternion is a reflection (docs/design/runtime_passes.md).
  const vec3 zn = normalize(z);
  const vec3 xn = normalize(cross(y, zn));
  const vec3 yn = cross(zn, xn);
  TransformChannels c;
  c.position = vec4(world[3].xyz, 1.0);
  c.direction = vec4(zn, 0.0);
  c.up = vec4(normalize(y), 0.0);
  c.orientation = quat_from_basis(xn, yn, zn);
  channels[row] = c;
}
