// What a public Fog holds (include/mote/volumes.hpp, src/api/fog.cpp), for the public particle
// renderer to fog its sprites with (ParticleRenderer::set_fog).
#pragma once

#include <set>

#include <glm/glm.hpp>

#include "gpu/device.hpp"
#include "media/froxel_fog.hpp"
#include "media/noise_bake.hpp"
#include "media/tile_atlas.hpp"
#include "media/volume_table.hpp"
#include "mote/volumes.hpp"

namespace mote {

struct Fog::State {
  gpu::Device* device = nullptr;
  FogDesc desc;
  media::TileAtlas3D atlas;
  media::NoiseBake bake;
  media::VolumeTable table;
  std::set<uint32_t> host_tiles;  // slots add_noise_texture handed out
  glm::dvec3 wind{0.0};
  media::FroxelFog froxels;
};

}  // namespace mote
