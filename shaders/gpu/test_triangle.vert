#version 460
// A triangle from gl_VertexIndex alone (empty vertex layout), placed by push constants: the
// graphics pipeline self-test (tests/gpu/graphics_test.cpp).
layout(push_constant) uniform Push {
  vec4 corners[3];  // clip-space xy, z, w=1
  vec4 color;
} push;
layout(location = 0) out vec4 v_color;
void main() {
  gl_Position = push.corners[gl_VertexIndex];
  v_color = push.color;
}
