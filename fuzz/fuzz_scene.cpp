// libFuzzer harness: scene files (load_scene: the strict JSON reader with the list limits, every
// section's reader, the transform levels), then the camera and transform evaluation a renderer
// runs on what loaded.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "scene/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mote::Result<mote::scene::Scene> scene =
      mote::scene::load_scene(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
  if (!scene.ok()) return 0;
  for (float t : {0.0f, 0.5f, 7.25f}) {
    const mote::scene::CameraPose pose = mote::scene::evaluate_camera(scene->camera, t);
    FUZZ_REQUIRE(std::isfinite(pose.position.x) && std::isfinite(pose.target.z), "a finite camera");
    for (const mote::scene::Transform& transform : scene->transforms)
      (void)mote::scene::evaluate_transform(transform, t);
  }
  for (const mote::scene::Transform& transform : scene->transforms)
    FUZZ_REQUIRE(transform.parent.empty() || scene->find_transform(transform.parent).has_value(), "parents resolve");
  return 0;
}
