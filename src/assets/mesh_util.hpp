// Helpers shared by the procedural shapes and the glTF loader (not part of the assets API).
#pragma once

#include <cstdint>
#include <vector>

#include "assets/mesh.hpp"

namespace mote::assets {

// Sets bounds_min/bounds_max to the vertices' box (both 0 for an empty mesh).
void compute_bounds(Mesh& mesh);

// Sets the normal of every vertex with needs_normal set to the normalised sum of its
// triangles' cross products (so each face weighs by its area); +Y where that sum is zero.
void fill_area_weighted_normals(std::vector<MeshVertex>& vertices, const std::vector<uint32_t>& indices,
                                const std::vector<bool>& needs_normal);

}  // namespace mote::assets
