// How particles are drawn: the draw path and, on the raster path, how transparency is composited.
// Shared by the particle renderer (mote/particle_renderer.hpp) and the scene renderer
// (mote/scene.hpp). docs/design/render.md compares the paths and measures each one's error.
#pragma once

namespace mote {

enum class DrawPath {
  kRaster,   // instanced quads in a rendering scope of their own over the host's images
  kCompute,  // screen tiles, each tile's particles sorted front to back and blended in a compute pass
};

// The raster path's compositing: weighted blended order-independent transparency (one pass, no
// sort), or a GPU depth sort then premultiplied "over" back to front.
enum class Transparency { kOit, kSorted };

}  // namespace mote
