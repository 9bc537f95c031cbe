// The procedural shapes: counts, unit normals, outward counter-clockwise winding, bounds, closure.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <tuple>

#include "assets/mesh.hpp"
#include "mesh_checks.hpp"

namespace {

using mote::assets::Mesh;
using mote::test::normal_of;
using mote::test::position_of;

TEST(Plane, FacesUp) {
  const Mesh m = mote::assets::make_plane();
  ASSERT_EQ(m.vertices.size(), 4u);
  ASSERT_EQ(m.indices.size(), 6u);
  mote::test::expect_valid_mesh(m);
  for (size_t t = 0; t < m.indices.size(); t += 3) {
    const glm::vec3 n = mote::test::face_normal(m, t);
    EXPECT_GT(n.y, 0.0f) << "triangle " << t / 3 << " must be counter-clockwise seen from +Y";
    EXPECT_NEAR(glm::length(glm::cross(n, glm::vec3(0, 1, 0))), 0.0f, 1e-6f);
  }
  for (const auto& v : m.vertices) {
    EXPECT_EQ(normal_of(v), glm::vec3(0, 1, 0));
    EXPECT_EQ(v.position[1], 0.0f);
  }
  EXPECT_EQ(m.bounds_min, glm::vec3(-0.5f, 0.0f, -0.5f));
  EXPECT_EQ(m.bounds_max, glm::vec3(0.5f, 0.0f, 0.5f));
  // Total area 1.
  float area = 0;
  for (size_t t = 0; t < m.indices.size(); t += 3) area += 0.5f * glm::length(mote::test::face_normal(m, t));
  EXPECT_FLOAT_EQ(area, 1.0f);
}

TEST(Box, TwelveOutwardTrianglesWithFlatUnitNormals) {
  const Mesh m = mote::assets::make_box();
  ASSERT_EQ(m.vertices.size(), 24u);
  ASSERT_EQ(m.indices.size(), 36u);  // 12 triangles
  mote::test::expect_valid_mesh(m);
  std::map<std::tuple<float, float, float>, int> faces;  // outward normal -> triangles
  for (size_t t = 0; t < m.indices.size(); t += 3) {
    const glm::vec3 face = mote::test::face_normal(m, t);
    const glm::vec3 unit = glm::normalize(face);
    // Winding agrees with every corner's normal, and the face lies on the side it faces.
    for (int k = 0; k < 3; ++k) {
      const auto& v = m.vertices[m.indices[t + size_t(k)]];
      EXPECT_NEAR(glm::dot(unit, normal_of(v)), 1.0f, 1e-6f) << "triangle " << t / 3;
      EXPECT_NEAR(glm::dot(position_of(v), unit), 0.5f, 1e-6f) << "triangle " << t / 3;
    }
    EXPECT_NEAR(glm::length(face), 1.0f, 1e-6f);  // each triangle is half of a unit face
    ++faces[{unit.x, unit.y, unit.z}];
  }
  ASSERT_EQ(faces.size(), 6u);
  for (const auto& [n, count] : faces) EXPECT_EQ(count, 2);
  EXPECT_EQ(m.bounds_min, glm::vec3(-0.5f));
  EXPECT_EQ(m.bounds_max, glm::vec3(0.5f));
  mote::test::expect_closed_and_consistently_oriented(m);
}

TEST(Sphere, NormalsPointAwayFromTheCentreAndTheSurfaceIsClosed) {
  for (uint32_t segments : {4u, 5u, 16u, 32u, 33u}) {
    SCOPED_TRACE(segments);
    const Mesh m = mote::assets::make_sphere(segments);
    const uint32_t rings = segments / 2;
    EXPECT_EQ(m.vertices.size(), size_t(rings + 1) * (segments + 1));
    EXPECT_EQ(m.indices.size(), size_t(segments) * (rings - 1) * 6);
    mote::test::expect_valid_mesh(m);
    for (const auto& v : m.vertices) {
      const glm::vec3 p = position_of(v);
      EXPECT_NEAR(glm::length(p), 0.5f, 1e-6f);
      EXPECT_NEAR(glm::dot(glm::normalize(p), normal_of(v)), 1.0f, 1e-5f);
    }
    for (size_t t = 0; t < m.indices.size(); t += 3) {
      const glm::vec3 face = mote::test::face_normal(m, t);
      ASSERT_GT(glm::length(face), 0.0f) << "degenerate triangle " << t / 3;
      const glm::vec3 centroid = (position_of(m.vertices[m.indices[t]]) + position_of(m.vertices[m.indices[t + 1]]) +
                                  position_of(m.vertices[m.indices[t + 2]])) /
                                 3.0f;
      EXPECT_GT(glm::dot(face, centroid), 0.0f) << "triangle " << t / 3 << " faces inwards";
    }
    EXPECT_NEAR(m.bounds_max.y, 0.5f, 1e-6f);
    EXPECT_NEAR(m.bounds_min.y, -0.5f, 1e-6f);
    EXPECT_NEAR(m.bounds_max.x, 0.5f, 1e-6f);
    mote::test::expect_closed_and_consistently_oriented(m);
  }
}

TEST(Sphere, SegmentsAreClamped) {
  const Mesh low = mote::assets::make_sphere(0);
  EXPECT_EQ(low.vertices.size(), mote::assets::make_sphere(mote::assets::kMinSphereSegments).vertices.size());
  mote::test::expect_closed_and_consistently_oriented(low);
  const Mesh high = mote::assets::make_sphere(1u << 30);
  const uint32_t s = mote::assets::kMaxSphereSegments;
  EXPECT_EQ(high.vertices.size(), size_t(s / 2 + 1) * (s + 1));
  EXPECT_LE(high.vertices.size(), mote::assets::kMaxMeshVertices);
  EXPECT_LE(high.indices.size(), mote::assets::kMaxMeshIndices);
}

}  // namespace
