// The procedural unit shapes. Front faces are counter-clockwise seen from outside: for a triangle
// (a, b, c), cross(b - a, c - a) points along the outward normal.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include "assets/mesh.hpp"
#include "assets/mesh_util.hpp"

namespace mote::assets {
namespace {

MeshVertex vertex(glm::vec3 p, glm::vec3 n, glm::vec2 uv) {
  return MeshVertex{{p.x, p.y, p.z}, {n.x, n.y, n.z}, {uv.x, uv.y}};
}

// One face of the unit box: the quad at 0.5 * n spanned by u and v, where cross(u, v) = n.
void add_box_face(Mesh& mesh, glm::vec3 n, glm::vec3 u, glm::vec3 v) {
  const uint32_t base = uint32_t(mesh.vertices.size());
  const glm::vec3 c = 0.5f * n;
  mesh.vertices.push_back(vertex(c - 0.5f * u - 0.5f * v, n, {0.0f, 1.0f}));
  mesh.vertices.push_back(vertex(c + 0.5f * u - 0.5f * v, n, {1.0f, 1.0f}));
  mesh.vertices.push_back(vertex(c + 0.5f * u + 0.5f * v, n, {1.0f, 0.0f}));
  mesh.vertices.push_back(vertex(c - 0.5f * u + 0.5f * v, n, {0.0f, 0.0f}));
  for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) mesh.indices.push_back(base + i);
}

}  // namespace

void compute_bounds(Mesh& mesh) {
  if (mesh.vertices.empty()) {
    mesh.bounds_min = mesh.bounds_max = glm::vec3(0.0f);
    return;
  }
  glm::vec3 lo(mesh.vertices[0].position[0], mesh.vertices[0].position[1], mesh.vertices[0].position[2]);
  glm::vec3 hi = lo;
  for (const MeshVertex& v : mesh.vertices) {
    const glm::vec3 p(v.position[0], v.position[1], v.position[2]);
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  mesh.bounds_min = lo;
  mesh.bounds_max = hi;
}

void fill_area_weighted_normals(std::vector<MeshVertex>& vertices, const std::vector<uint32_t>& indices,
                                const std::vector<bool>& needs_normal) {
  std::vector<glm::dvec3> sums(vertices.size(), glm::dvec3(0.0));
  auto pos = [&](uint32_t i) {
    return glm::dvec3(vertices[i].position[0], vertices[i].position[1], vertices[i].position[2]);
  };
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    const uint32_t a = indices[t], b = indices[t + 1], c = indices[t + 2];
    const glm::dvec3 face = glm::cross(pos(b) - pos(a), pos(c) - pos(a));
    sums[a] += face;
    sums[b] += face;
    sums[c] += face;
  }
  for (size_t v = 0; v < vertices.size(); ++v) {
    if (!needs_normal[v]) continue;
    const double len = glm::length(sums[v]);
    const glm::vec3 n = (len > 0.0 && std::isfinite(len)) ? glm::vec3(sums[v] / len) : glm::vec3(0.0f, 1.0f, 0.0f);
    std::memcpy(vertices[v].normal, &n, sizeof(float) * 3);
  }
}

Mesh make_plane() {
  Mesh mesh;
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  // u along +X, v along +Z; seen from +Y, (-x,-z) -> (-x,+z) -> (+x,+z) turns counter-clockwise.
  mesh.vertices = {vertex({-0.5f, 0.0f, -0.5f}, up, {0.0f, 0.0f}), vertex({-0.5f, 0.0f, 0.5f}, up, {0.0f, 1.0f}),
                   vertex({0.5f, 0.0f, 0.5f}, up, {1.0f, 1.0f}), vertex({0.5f, 0.0f, -0.5f}, up, {1.0f, 0.0f})};
  mesh.indices = {0, 1, 2, 0, 2, 3};
  compute_bounds(mesh);
  return mesh;
}

Mesh make_box() {
  Mesh mesh;
  mesh.vertices.reserve(24);
  mesh.indices.reserve(36);
  const glm::vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  add_box_face(mesh, x, -z, y);   // cross(-z, y) = +x
  add_box_face(mesh, -x, z, y);   // cross(z, y) = -x
  add_box_face(mesh, y, x, -z);   // cross(x, -z) = +y
  add_box_face(mesh, -y, x, z);   // cross(x, z) = -y
  add_box_face(mesh, z, x, y);    // cross(x, y) = +z
  add_box_face(mesh, -z, -x, y);  // cross(-x, y) = -z
  compute_bounds(mesh);
  return mesh;
}

Mesh make_sphere(uint32_t segments) {
  segments = std::clamp(segments, kMinSphereSegments, kMaxSphereSegments);
  const uint32_t rings = segments / 2;
  Mesh mesh;
  // A (rings + 1) x (segments + 1) grid: the seam column is doubled so UVs wrap cleanly; the pole
  // rows repeat the pole with the column's u.
  mesh.vertices.reserve(size_t(rings + 1) * (segments + 1));
  for (uint32_t i = 0; i <= rings; ++i) {
    const double theta = std::numbers::pi * double(i) / double(rings);  // 0 at +Y, pi at -Y
    for (uint32_t j = 0; j <= segments; ++j) {
      const double phi = 2.0 * std::numbers::pi * double(j) / double(segments);
      glm::vec3 n(float(std::sin(theta) * std::cos(phi)), float(std::cos(theta)),
                  float(std::sin(theta) * std::sin(phi)));
      if (i == 0 || i == rings) n = glm::vec3(0.0f, i == 0 ? 1.0f : -1.0f, 0.0f);  // exact poles
      n = glm::normalize(n);
      mesh.vertices.push_back(vertex(0.5f * n, n, {float(j) / float(segments), float(i) / float(rings)}));
    }
  }
  const uint32_t row = segments + 1;
  mesh.indices.reserve(size_t(segments) * (rings - 1) * 6);
  for (uint32_t i = 0; i < rings; ++i)
    for (uint32_t j = 0; j < segments; ++j) {
      // a-d on ring i, b-c on ring i + 1. Moving down the rings and round in +phi, (a, c, b) and
      // (a, d, c) wind counter-clockwise seen from outside. The pole rings drop the triangle that
      // would have two corners on the pole.
      const uint32_t a = i * row + j, d = a + 1, b = a + row, c = b + 1;
      if (i != rings - 1) mesh.indices.insert(mesh.indices.end(), {a, c, b});
      if (i != 0) mesh.indices.insert(mesh.indices.end(), {a, d, c});
    }
  compute_bounds(mesh);
  return mesh;
}

}  // namespace mote::assets
