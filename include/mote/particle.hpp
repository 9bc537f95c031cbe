// The standard particle: the 80-byte record body the presets, the cpu and manual drivers and the
// renderer's default bindings share (docs/design/drivers.md, "The standard particle"). It is
// wsg's 80-byte particle with Mote's clock: `age` counts up where wsg's `life` counts down, and
// `lifetime` is wsg's `max_life`. In a pool record it sits right after the header word (record
// words 1..20, `kParticleFirstWord`), so a record of the standard layout is 21 words and fits
// the default stride of 32. Every member is 4-byte aligned and there is no padding: the same
// bytes in C++ and in GLSL's std430 (shaders/shared/particle.h declares the same struct).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace mote {

struct Particle {
  std::array<float, 3> position{0.0f, 0.0f, 0.0f};       // offset 0: world position
  std::array<float, 3> velocity{0.0f, 0.0f, 0.0f};       // offset 12
  float age = 0.0f;                                      // offset 24: seconds since birth
  float lifetime = 1.0f;                                 // offset 28: seconds it lives (it dies once age >= lifetime)
  float size = 1.0f;                                     // offset 32: world units
  float size_growth = 0.0f;                              // offset 36: per second
  float angle = 0.0f;                                    // offset 40: the sprite's rotation, radians
  float angular_velocity = 0.0f;                         // offset 44: radians per second
  std::array<float, 4> color{1.0f, 1.0f, 1.0f, 1.0f};    // offset 48: RGBA
  std::array<float, 4> uv_rect{0.0f, 0.0f, 1.0f, 1.0f};  // offset 64: the texture rect (x, y, width, height)
};

inline constexpr uint32_t kParticleBytes = 80;
inline constexpr uint32_t kParticleWords = kParticleBytes / 4;
// The record word the particle starts at: word 0 is the header (row and generation).
inline constexpr uint32_t kParticleFirstWord = 1;

// The members as an effect's particle fields (name and width in words), in record order. An
// effect whose first ten particle fields are these is of the standard layout: the module
// expander declares them first in this order (docs/design/modules.md), and the manual and cpu
// drivers need it (docs/design/drivers.md).
struct ParticleMember {
  std::string_view name;
  uint32_t width;
};
inline constexpr std::array<ParticleMember, 10> kParticleMembers{{{"position", 3},
                                                                  {"velocity", 3},
                                                                  {"age", 1},
                                                                  {"lifetime", 1},
                                                                  {"size", 1},
                                                                  {"size_growth", 1},
                                                                  {"angle", 1},
                                                                  {"angular_velocity", 1},
                                                                  {"color", 4},
                                                                  {"uv_rect", 4}}};

static_assert(sizeof(Particle) == kParticleBytes, "the standard particle is 80 bytes, no padding");
static_assert(alignof(Particle) == 4);
static_assert(std::is_trivially_copyable_v<Particle>, "records are copied as bytes");
static_assert(offsetof(Particle, position) == 0 && offsetof(Particle, velocity) == 12);
static_assert(offsetof(Particle, age) == 24 && offsetof(Particle, lifetime) == 28);
static_assert(offsetof(Particle, size) == 32 && offsetof(Particle, size_growth) == 36);
static_assert(offsetof(Particle, angle) == 40 && offsetof(Particle, angular_velocity) == 44);
static_assert(offsetof(Particle, color) == 48 && offsetof(Particle, uv_rect) == 64);

}  // namespace mote
