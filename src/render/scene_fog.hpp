// A scene file's fog volumes (docs/design/scene.md "volumes", docs/design/media.md) as the scene
// renderer draws them: a public mote::Fog on the renderer's Context — Mote's own renderer is a
// client of the fog API as any host is — with each volume posed at its transform every frame and
// the noise's phases advanced by the scene time between frames.
#pragma once

#include <memory>
#include <vector>

#include <glm/glm.hpp>

#include "mote/particles.hpp"
#include "mote/result.hpp"
#include "mote/volumes.hpp"
#include "scene/scene.hpp"

namespace mote::render {

class SceneFog {
 public:
  // Nothing (active() false) for a scene without volumes. Errors: a volume the fog refuses, at
  // its pointer ("/volumes/2/noise_texture"); the fog's own.
  static Result<SceneFog> create(Context& context, const scene::Scene& scene, uint32_t width, uint32_t height);
  bool active() const { return fog_ != nullptr; }
  // The volumes posed at the transforms' world matrices and the phases advanced to scene time
  // `time` (the first call starts them there).
  Status update(double time, const std::vector<glm::mat4>& worlds);
  Fog* fog() const { return fog_.get(); }

 private:
  const scene::Scene* scene_ = nullptr;
  std::unique_ptr<Fog> fog_;
  std::vector<VolumeId> ids_;
  double time_ = 0.0;
  bool started_ = false;
};

}  // namespace mote::render
