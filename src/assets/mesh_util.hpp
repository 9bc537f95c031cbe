// Helpers shared by the procedural shapes and the glTF loader (not part of the assets API).
#pragma once

#include "assets/mesh.hpp"

namespace mote::assets {

// Sets bounds_min/bounds_max to the vertices' box (both 0 for an empty mesh).
void compute_bounds(Mesh& mesh);

}  // namespace mote::assets
