// How particles are drawn: the draw path and, on the raster path, how transparency is composited.
// Shared by the particle renderer (mote/particle_renderer.hpp) and the scene renderer
// (mote/scene.hpp). docs/design/render.md compares the paths and measures each one's error.
#pragma once

namespace mote {

enum class DrawPath {
  kRaster,   // instanced quads in a rendering scope of their own over the host's images
  kCompute,  // screen tiles, each tile's particles sorted front to back and blended in a compute pass
};

// The raster path's compositing.
enum class Transparency {
  kOit,     // weighted blended order-independent transparency (WBOIT): one pass, no sort, the cheapest
  kSorted,  // a GPU depth sort of the sprites, then premultiplied "over" back to front
  // volume-based order-independent transparency (AVBOIT): each emitter's measured box marks the
  // depth it occupies, the sprites' extinction is splatted into a volume at the froxel resolution
  // there, and the draw weights every fragment (and attenuates every additive one) by the
  // transmittance in front of it; no sort
  kAvboit,
};

}  // namespace mote
