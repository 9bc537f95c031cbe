// The lit particles' light model on the CPU (shaders/shared/particle_lighting.h): the irradiance
// volume's projection and evaluation against closed forms — one light gives
// E max(0, 1/4 + cos / 2), the hemisphere ambient's luma is exact, chroma has no direction, a
// light behind subtracts before the clamp — the bent normal and the back-face transmission.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <glm/glm.hpp>
#include <glm/gtc/constants.hpp>

#include "shared/particle_lighting.h"

namespace mote::shader {
namespace {

glm::vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  return glm::normalize(glm::vec3(n(rng), n(rng), n(rng)));
}

glm::vec3 evaluate(const IrradianceSh& sh, glm::vec3 normal) {
  return irradiance_sh_evaluate(sh.luma, sh.chroma, normal);
}

void expect_near(glm::vec3 got, glm::vec3 expected, float tolerance) {
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[c], expected[c], tolerance) << "channel " << c;
}

TEST(IrradianceSh, OneLightGivesTheClampedCosineQuarterPlusHalf) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int i = 0; i < 200; ++i) {
    const glm::vec3 e(3.0f * unit(rng), 3.0f * unit(rng), 3.0f * unit(rng));
    const glm::vec3 l = random_unit(rng);
    const glm::vec3 n = random_unit(rng);
    const IrradianceSh sh = irradiance_sh_light(e, l);
    expect_near(evaluate(sh, n), e * std::max(0.0f, 0.25f + 0.5f * glm::dot(n, l)), 1e-5f);
  }
  // Facing the light 3/4 of it, sideways 1/4, away none (clamped, not -1/4).
  const IrradianceSh sh = irradiance_sh_light(glm::vec3(1.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  EXPECT_NEAR(evaluate(sh, {0, 1, 0}).g, 0.75f, 1e-6f);
  EXPECT_NEAR(evaluate(sh, {1, 0, 0}).g, 0.25f, 1e-6f);
  EXPECT_EQ(evaluate(sh, {0, -1, 0}).g, 0.0f);
}

TEST(IrradianceSh, TheHemisphereAmbientIsExactInLuma) {
  const glm::vec3 sky(0.6f), ground(0.2f);
  const IrradianceSh sh = irradiance_sh_ambient(sky, ground);
  std::mt19937 rng(11);
  for (int i = 0; i < 100; ++i) {
    const glm::vec3 n = random_unit(rng);
    expect_near(evaluate(sh, n), glm::mix(ground, sky, 0.5f * n.y + 0.5f), 1e-5f);
  }
  // Coloured: the luma follows the normal, the colour is the mean's.
  const IrradianceSh tinted = irradiance_sh_ambient({0.8f, 0.4f, 0.2f}, {0.0f, 0.0f, 0.0f});
  const glm::vec3 up = evaluate(tinted, {0, 1, 0});
  expect_near(up, glm::vec3(0.8f, 0.4f, 0.2f), 1e-5f);
  expect_near(evaluate(tinted, {0, -1, 0}), glm::vec3(0.0f), 1e-6f);
}

TEST(IrradianceSh, ChromaHasNoDirectionAndALightBehindSubtractsBeforeTheClamp) {
  // A red light from +x and a blue one from -x: both sides take the same mix of colour, each
  // side's brightness its own light's 3/4 less the other's 1/4.
  const IrradianceSh sh = irradiance_sh_add(irradiance_sh_light({1.0f, 0.0f, 0.0f}, {1, 0, 0}),
                                            irradiance_sh_light({0.0f, 0.0f, 1.0f}, {-1, 0, 0}));
  const glm::vec3 right = evaluate(sh, {1, 0, 0});
  const glm::vec3 left = evaluate(sh, {-1, 0, 0});
  EXPECT_NEAR(right.r / right.b, left.r / left.b, 1e-5f);
  EXPECT_NEAR(right.r, right.b, 1e-5f) << "equal luma lights: an even mix";
  // Luma of each light 1/4; facing one: 3/4 x 1/4 - 1/4 x 1/4 = 1/8 of luma, in the mean's colour.
  EXPECT_NEAR(lighting_luma(right), 0.125f, 1e-5f);
  // A stronger light behind clamps the front to black (SH L1 cannot keep two lights apart).
  const IrradianceSh behind = irradiance_sh_add(irradiance_sh_light(glm::vec3(1.0f), {0, 0, 1}),
                                                irradiance_sh_light(glm::vec3(4.0f), {0, 0, -1}));
  EXPECT_EQ(evaluate(behind, {0, 0, 1}), glm::vec3(0.0f));
  EXPECT_EQ(evaluate(irradiance_sh_zero(), {0, 1, 0}), glm::vec3(0.0f));
}

TEST(LitNormal, FacesTheEyeAndBendsOutTowardTheCorners) {
  const glm::vec3 right(1, 0, 0), up(0, 1, 0);
  const glm::vec3 face = particle_lit_face(right, up, {0.0f, 0.0f, 5.0f});
  EXPECT_EQ(face, glm::vec3(0, 0, 1));
  EXPECT_EQ(particle_lit_face(right, up, {0.0f, 0.0f, -5.0f}), glm::vec3(0, 0, -1)) << "turned to the eye";
  EXPECT_EQ(particle_lit_normal(face, right, up, {0.0f, 0.0f}), face);
  const float pi = glm::pi<float>();
  const glm::vec3 edge = particle_lit_normal(face, right, up, {0.5f, 0.0f});
  EXPECT_NEAR(std::acos(glm::dot(edge, face)), pi / 4.0f, 1e-5f);
  EXPECT_GT(edge.x, 0.0f);
  const glm::vec3 corner = particle_lit_normal(face, right, up, {-0.5f, 0.5f});
  EXPECT_NEAR(std::acos(glm::dot(corner, face)), std::atan(std::sqrt(2.0f)), 1e-5f);
  EXPECT_LT(corner.x, 0.0f);
  EXPECT_GT(corner.y, 0.0f);
}

TEST(LitColor, IsAlbedoOverPiWithTheBackPassedOnByOneMinusAlpha) {
  const float pi = glm::pi<float>();
  const glm::vec3 front(pi, 0.0f, 0.0f), back(0.0f, 0.0f, 2.0f * pi);
  const glm::vec4 albedo(0.5f, 0.5f, 0.5f, 0.8f);
  // Fragment alpha 0.8 x 0.5 (texel) x 1 (fade) = 0.4: 60% of the back comes through.
  const glm::vec4 lit = particle_lit_color(albedo, 0.5f, 1.0f, front, back);
  EXPECT_NEAR(lit.r, 0.5f, 1e-6f);
  EXPECT_NEAR(lit.b, 0.5f * 2.0f * 0.6f, 1e-6f);
  EXPECT_EQ(lit.a, 0.8f) << "alpha is the colour's, premultiplied later";
  // Opaque: nothing through; a faded fragment is thinner and lets more through.
  EXPECT_EQ(particle_lit_color(glm::vec4(0.5f, 0.5f, 0.5f, 1.0f), 1.0f, 1.0f, front, back).b, 0.0f);
  EXPECT_NEAR(particle_lit_color(glm::vec4(0.5f, 0.5f, 0.5f, 1.0f), 1.0f, 0.25f, front, back).b, 0.75f, 1e-6f);
}

}  // namespace
}  // namespace mote::shader
