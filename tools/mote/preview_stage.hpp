// The default stage `mote preview` renders an effect on and `mote edit` previews it on: a dark
// ground, a sun and sky light, and a camera framed on the effect's extent (the reference
// simulation's particle bounds), circling it or standing still.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

#include "mote/effect.hpp"

namespace mote::cli {

struct Framing {
  std::array<float, 3> center{0.0f, 0.5f, 0.0f};
  float extent = 1.0f;  // half the largest side of the particles' bounds
};

// A continuous emitter is shown warmed up by a second; one that only bursts from its start.
float warmup_seconds(const CompiledEffect& effect);

// The union of the particles' bounds over `frames` frames of `dt` after the warm-up (the default
// framing when nothing is alive).
Framing frame_effect(const CompiledEffect& effect, uint32_t frames, float dt);

struct StageOptions {
  uint32_t frames = 48;
  float fps = 24.0f;
  uint32_t width = 480;
  uint32_t height = 270;
  float warmup = 0.0f;          // the scene's warm-up, seconds
  float orbit_degrees = 90.0f;  // how far the camera circles over the frames (0: it stands still)
};

// The stage as a scene document whose one emitter is `effect` (a path relative to the folder the
// scene is parsed in: its base).
std::string stage_scene(const std::filesystem::path& effect, const Framing& framing, const StageOptions& options);

}  // namespace mote::cli
