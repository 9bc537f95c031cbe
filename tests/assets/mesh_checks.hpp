// Mesh invariants shared by the procedural-shape and glTF tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "assets/mesh.hpp"

namespace mote::test {

inline glm::vec3 position_of(const assets::MeshVertex& v) { return {v.position[0], v.position[1], v.position[2]}; }
inline glm::vec3 normal_of(const assets::MeshVertex& v) { return {v.normal[0], v.normal[1], v.normal[2]}; }

// cross(b - a, c - a) of the triangle starting at indices[t]: along the front face's normal,
// twice the triangle's area long.
inline glm::vec3 face_normal(const assets::Mesh& m, size_t t) {
  const glm::vec3 a = position_of(m.vertices[m.indices[t]]);
  const glm::vec3 b = position_of(m.vertices[m.indices[t + 1]]);
  const glm::vec3 c = position_of(m.vertices[m.indices[t + 2]]);
  return glm::cross(b - a, c - a);
}

// Triangle list, indices in range, finite attributes, unit normals, bounds equal to the vertices' box.
inline void expect_valid_mesh(const assets::Mesh& m) {
  ASSERT_FALSE(m.vertices.empty());
  ASSERT_EQ(m.indices.size() % 3, 0u);
  for (uint32_t i : m.indices) ASSERT_LT(i, m.vertices.size());
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const auto& v : m.vertices) {
    const glm::vec3 p = position_of(v), n = normal_of(v);
    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
    ASSERT_TRUE(std::isfinite(v.uv[0]) && std::isfinite(v.uv[1]));
    ASSERT_NEAR(glm::length(n), 1.0f, 1e-5f);
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  EXPECT_EQ(m.bounds_min, lo);
  EXPECT_EQ(m.bounds_max, hi);
}

// With coincident positions welded, every directed edge appears exactly once and so does its
// reverse: the surface is closed and every triangle winds the same way as its neighbours.
inline void expect_closed_and_consistently_oriented(const assets::Mesh& m) {
  std::map<std::tuple<long, long, long>, uint32_t> ids;
  std::vector<uint32_t> weld(m.vertices.size());
  for (size_t i = 0; i < m.vertices.size(); ++i) {
    const glm::vec3 p = position_of(m.vertices[i]);
    const auto key = std::make_tuple(std::lround(p.x * 1e4f), std::lround(p.y * 1e4f), std::lround(p.z * 1e4f));
    weld[i] = ids.emplace(key, uint32_t(ids.size())).first->second;
  }
  std::map<std::pair<uint32_t, uint32_t>, int> edges;
  for (size_t t = 0; t < m.indices.size(); t += 3) {
    const uint32_t a = weld[m.indices[t]], b = weld[m.indices[t + 1]], c = weld[m.indices[t + 2]];
    ASSERT_TRUE(a != b && b != c && c != a) << "triangle " << t / 3 << " collapses when welded";
    ++edges[{a, b}];
    ++edges[{b, c}];
    ++edges[{c, a}];
  }
  for (const auto& [e, count] : edges) {
    ASSERT_EQ(count, 1) << "directed edge " << e.first << "->" << e.second << " used twice";
    auto reverse = edges.find({e.second, e.first});
    ASSERT_NE(reverse, edges.end()) << "edge " << e.first << "->" << e.second << " has no neighbour";
  }
}

}  // namespace mote::test
