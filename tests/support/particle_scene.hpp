// Particle scenes built by hand for the particle renderer tests: the CPU reference renderer's
// (tests/render/reference_renderer_test.cpp) and the compute draw path's on the device
// (tests/render/compute_path_test.cpp). One camera, one RenderView, one draw record and one pool
// layout, so both renderers are held to the same inputs.
//
// Header-only and free of GPU dependencies (glm and the shared C++/GLSL headers only):
// test_render_reference links only mote_render_reference.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "shared/frame.h"
#include "shared/particle_render.h"

// Everything here is in mote::test::particle_scene, so a test takes it all with one
// `using namespace test::particle_scene;`.
namespace mote::test::particle_scene {

// The tests' pool layout: kRecordWords words a slot, word 0 the header (row | generation).
inline constexpr uint32_t kRecordWords = 24;
inline constexpr uint32_t kPositionWord = 1;  // 3 words
inline constexpr uint32_t kSizeWord = 4;
inline constexpr uint32_t kColorWord = 5;      // 4 words
inline constexpr uint32_t kVelocityWord = 9;   // 3 words
inline constexpr uint32_t kRotationWord = 12;  // 1 or 4 words
inline constexpr uint32_t kUvRectWord = 16;    // 4 words
inline constexpr uint32_t kFrameWord = 20;
inline constexpr uint32_t kAgeWord = 21;
inline constexpr uint32_t kLifetimeWord = 22;

// A perspective camera; the default looks down -Z from the origin with a 90° vertical field of
// view onto a 64×64 image.
struct Camera {
  glm::vec3 eye{0.0f};
  glm::vec3 target{0.0f, 0.0f, -1.0f};
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  float fov_y = glm::half_pi<float>();
  float near_plane = 0.1f;
  uint32_t width = 64, height = 64;

  // The projection's focal scale (1 / tan(fov_y / 2)) and the image's aspect ratio.
  float f() const { return 1.0f / std::tan(0.5f * fov_y); }
  float aspect() const { return float(width) / float(height); }
};

// The view as src/render/render_view.cpp builds it: render_perspective (reversed Z, infinite far)
// with y flipped, a right-handed lookAt view, camera vectors from the view's inverse, far clip
// 1000.
//
// Both tests rely on upright images under Vulkan's y-down NDC with a positive-height viewport:
// view +Y must land at clip -Y. render_perspective does not flip y itself (projection[1][1] is
// +f), so `-abs` here is exactly render_view.cpp's unconditional negation; written with `-abs`
// the tests' images stay upright even if render_perspective ever starts flipping on its own.
inline shader::RenderView make_view(const Camera& c) {
  shader::RenderView v{};
  v.view = glm::lookAt(c.eye, c.target, c.up);
  v.projection = shader::render_perspective(c.fov_y, c.aspect(), c.near_plane);
  v.projection[1][1] = -std::abs(v.projection[1][1]);
  v.view_projection = v.projection * v.view;
  v.inverse_view_projection = glm::inverse(v.view_projection);
  v.sun_view_projection = glm::mat4(1.0f);
  const glm::mat4 camera = glm::inverse(v.view);
  v.camera_right = glm::vec4(glm::vec3(camera[0]), 0.0f);
  v.camera_up = glm::vec4(glm::vec3(camera[1]), 0.0f);
  v.camera_forward = glm::vec4(-glm::vec3(camera[2]), 0.0f);
  v.camera_position = glm::vec4(glm::vec3(camera[3]), 1.0f);
  v.viewport = glm::vec4(float(c.width), float(c.height), 1.0f / float(c.width), 1.0f / float(c.height));
  v.clip = glm::vec4(c.near_plane, 1000.0f, 1.0f, 0.0f);
  return v;
}

// A live draw record (generation 1) with position, size and colour bound at the pool layout's
// words; everything else at its default (one flipbook cell, the whole atlas, white tint).
inline shader::ParticleDrawRecord quad_record(uint32_t projection, uint32_t extra_flags = 0) {
  shader::ParticleDrawRecord r{};
  r.position_word = kPositionWord;
  r.size_word = kSizeWord;
  r.color_word = kColorWord;
  r.flags = shader::kDrawFlagLive | projection | extra_flags;
  r.generation = 1;
  r.flipbook_columns = 1;
  r.flipbook_rows = 1;
  r.size_scale = 1.0f;
  r.atlas_rect = glm::vec4(0.0f, 0.0f, 1.0f, 1.0f);
  r.tint = glm::vec4(1.0f);
  return r;
}

// One particle's values, written at the pool layout's words by append_particle.
struct TestParticle {
  glm::vec3 position{0.0f};
  float size = 1.0f;
  glm::vec4 color{1.0f};
  glm::vec3 velocity{0.0f};
  glm::vec4 rotation{0.0f};  // word 12 is the roll for a 1-word rotation
  glm::vec4 uv_rect{0.0f, 0.0f, 1.0f, 1.0f};
  float frame = 0.0f, age = 0.0f, lifetime = 1.0f;
  uint32_t row = 0, generation = 1;
};

// Appends one slot of kRecordWords words to `pool` (unused words 0) holding `p`;
// returns the slot. The caller lists the slot as alive (or not).
inline uint32_t append_particle(std::vector<uint32_t>& pool, const TestParticle& p) {
  const uint32_t slot = uint32_t(pool.size() / kRecordWords);
  pool.resize(pool.size() + kRecordWords, 0u);
  uint32_t* w = &pool[size_t(slot) * kRecordWords];
  w[0] = p.row | (p.generation << shader::kFrameHeaderRowBits);
  auto put = [&](uint32_t word, float value) { w[word] = std::bit_cast<uint32_t>(value); };
  for (int i = 0; i < 3; ++i) put(kPositionWord + uint32_t(i), p.position[i]);
  put(kSizeWord, p.size);
  for (int i = 0; i < 4; ++i) put(kColorWord + uint32_t(i), p.color[i]);
  for (int i = 0; i < 3; ++i) put(kVelocityWord + uint32_t(i), p.velocity[i]);
  for (int i = 0; i < 4; ++i) put(kRotationWord + uint32_t(i), p.rotation[i]);
  for (int i = 0; i < 4; ++i) put(kUvRectWord + uint32_t(i), p.uv_rect[i]);
  put(kFrameWord, p.frame);
  put(kAgeWord, p.age);
  put(kLifetimeWord, p.lifetime);
  return slot;
}

}  // namespace mote::test::particle_scene
