#include "render/particle_atlas.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "gpu/transfer.hpp"

namespace mote::render {

Result<ParticleAtlas> ParticleAtlas::create(gpu::Device& device) {
  ParticleAtlas a;
  a.device_ = &device;
  MOTE_TRY_ASSIGN(a.sampler_, gpu::Sampler::create(device, {.filter = VK_FILTER_LINEAR, .name = "mote.render.linear"}));
  MOTE_TRY(a.build());
  return a;
}

Result<bool> ParticleAtlas::add(std::span<const assets::AtlasRequest> requests) {
  if (!device_) return make_error(ErrorCode::kInvalidArgument, "particle atlas used before create()");
  const size_t before = requests_.size();
  for (const assets::AtlasRequest& r : requests) {
    const bool known = std::any_of(requests_.begin(), requests_.end(),
                                   [&](const assets::AtlasRequest& k) { return k.key == r.key; });
    if (!known && !atlas_.find(r.key)) requests_.push_back(r);
  }
  if (requests_.size() == before) return false;
  if (Status built = build(); !built.ok()) {
    requests_.resize(before);
    return built.error();
  }
  return true;
}

Status ParticleAtlas::build() {
  MOTE_TRY_ASSIGN(assets::Atlas atlas, assets::build_atlas(requests_));
  MOTE_TRY_ASSIGN(gpu::Image image,
                  gpu::Image::create(*device_, {.width = atlas.image.width,
                                                .height = atlas.image.height,
                                                .format = VK_FORMAT_R8G8B8A8_SRGB,
                                                .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                .name = "mote.render.atlas"}));
  MOTE_TRY(gpu::upload_image(*device_, image, atlas.image.pixels));
  // Warn once per texture: entries already in the old atlas were reported when they arrived.
  for (const assets::AtlasEntry& entry : atlas.entries)
    if (entry.fallback && !atlas_.find(entry.key))
      warnings_.push_back(fmt::format("texture '{}' fell back to the soft disc: {}", entry.key, entry.problem));
  atlas_ = std::move(atlas);
  if (image_.valid()) retired_.push_back({std::move(image_), frames_});
  image_ = std::move(image);
  return ok_status();
}

void ParticleAtlas::frame_recorded(uint32_t frames_in_flight) {
  ++frames_;
  while (!retired_.empty() && retired_.front().frame + frames_in_flight < frames_) retired_.pop_front();
}

}  // namespace mote::render
