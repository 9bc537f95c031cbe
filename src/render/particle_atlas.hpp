// The particle renderer's texture atlas on the device: every effect texture asked for so far,
// packed with the soft disc and white (assets/atlas.hpp), its RGBA8 sRGB image and the bilinear
// sampler the particle shaders read it with. Asked for textures by (key, path); rebuilt whole when
// a key it does not hold arrives, so a batch asked for at once packs exactly as one
// assets::build_atlas call over it. A missing or corrupt file is not an error: its entry is the
// soft disc and warnings() says why.
#pragma once

#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assets/atlas.hpp"
#include "gpu/device.hpp"
#include "gpu/image.hpp"
#include "gpu/sampler.hpp"
#include "mote/result.hpp"

namespace mote::render {

class ParticleAtlas {
 public:
  // The built-ins only (submit and wait: a set-up path).
  static Result<ParticleAtlas> create(gpu::Device& device);
  ParticleAtlas() = default;
  ParticleAtlas(ParticleAtlas&&) noexcept = default;
  ParticleAtlas& operator=(ParticleAtlas&&) noexcept = default;

  // Adds the requests whose keys it lacks (the first of a repeated key wins) and, when there is
  // one, rebuilds the atlas and uploads a new image (submit and wait). Returns whether it rebuilt:
  // the entries' rects have then moved. The previous image stays alive until frame_recorded()
  // was called `frames_in_flight` more times (frames a host recorded may still read it), then
  // until the device's own submissions so far have completed.
  // Errors: kUnsupported when the textures do not fit in kMaxAtlasSize² (the atlas is unchanged).
  Result<bool> add(std::span<const assets::AtlasRequest> requests);

  const assets::Atlas& atlas() const { return atlas_; }
  // The entry for `key` ("" = the soft disc), or nullptr when it was never added.
  const assets::AtlasEntry* find(std::string_view key) const { return atlas_.find(key); }
  VkImageView view() const { return image_.view(); }       // SHADER_READ_ONLY_OPTIMAL
  VkSampler sampler() const { return sampler_.handle(); }  // linear, clamp to edge
  // A frame that reads the atlas was recorded: retired images older than `frames_in_flight` such
  // frames are let go.
  void frame_recorded(uint32_t frames_in_flight);
  // One line per texture that fell back to the soft disc, in the order they were added.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  Status build();

  gpu::Device* device_ = nullptr;
  std::vector<assets::AtlasRequest> requests_;
  assets::Atlas atlas_;
  gpu::Image image_;
  struct Retired {
    gpu::Image image;
    uint64_t frame = 0;  // frames_ when it was replaced
  };
  std::deque<Retired> retired_;
  uint64_t frames_ = 0;
  gpu::Sampler sampler_;
  std::vector<std::string> warnings_;
};

}  // namespace mote::render
