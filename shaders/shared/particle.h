// The standard particle (include/mote/particle.hpp, docs/design/drivers.md): 80 bytes after a
// record's header word, the same bytes in C++ and GLSL std430. The 3-wide members are float
// arrays, not vec3 (whose std430 alignment of 16 would move `velocity` to 16): arrays of float
// have a stride of 4 in std430, so the layout is the packed one, with no padding.
#ifndef MOTE_SHADERS_SHARED_PARTICLE_H
#define MOTE_SHADERS_SHARED_PARTICLE_H
#include "shared/interop.h"
MOTE_SHARED_BEGIN

struct Particle {
  float position[3];
  float velocity[3];
  float age;
  float lifetime;
  float size;
  float size_growth;
  float angle;
  float angular_velocity;
  vec4 color;
  vec4 uv_rect;
};
MOTE_ASSERT_SIZE(Particle, 80);
MOTE_ASSERT_OFFSET(Particle, position, 0);
MOTE_ASSERT_OFFSET(Particle, velocity, 12);
MOTE_ASSERT_OFFSET(Particle, age, 24);
MOTE_ASSERT_OFFSET(Particle, lifetime, 28);
MOTE_ASSERT_OFFSET(Particle, size, 32);
MOTE_ASSERT_OFFSET(Particle, size_growth, 36);
MOTE_ASSERT_OFFSET(Particle, angle, 40);
MOTE_ASSERT_OFFSET(Particle, angular_velocity, 44);
MOTE_ASSERT_OFFSET(Particle, color, 48);
MOTE_ASSERT_OFFSET(Particle, uv_rect, 64);
MOTE_CONSTANT(uint, kParticleWords, 20u);
MOTE_CONSTANT(uint, kParticleFirstWord, 1u);  // word 0 of a record is its header

// One record the manual driver writes (shaders/runtime/drivers/particle_write.comp): the pool
// slot, the header it takes (row | generation << 20, shared/frame.h), then the particle.
struct ParticleWrite {
  uint slot;
  uint header;
  uint pad0;
  uint pad1;
  Particle particle;
};
MOTE_ASSERT_SIZE(ParticleWrite, 96);
MOTE_ASSERT_OFFSET(ParticleWrite, slot, 0);
MOTE_ASSERT_OFFSET(ParticleWrite, header, 4);
MOTE_ASSERT_OFFSET(ParticleWrite, pad0, 8);
MOTE_ASSERT_OFFSET(ParticleWrite, pad1, 12);
MOTE_ASSERT_OFFSET(ParticleWrite, particle, 16);

struct ParticleWritePush {
  uint count;         // writes
  uint record_words;  // the pool's stride
  uint capacity;      // slots; a write at or past it is skipped
  uint pad0;
};
MOTE_ASSERT_SIZE(ParticleWritePush, 16);
MOTE_ASSERT_OFFSET(ParticleWritePush, count, 0);
MOTE_ASSERT_OFFSET(ParticleWritePush, record_words, 4);
MOTE_ASSERT_OFFSET(ParticleWritePush, capacity, 8);
MOTE_ASSERT_OFFSET(ParticleWritePush, pad0, 12);

// The manual driver's fill (shaders/runtime/drivers/manual_fill.comp): after emit, record
// first + i of the row's upload goes to the row's i-th newborn of the frame, and its slot into the
// row's slot map; its patch (manual_patch.comp): records [first, first + count) over the slots the
// map holds for them. Bound beside the frame's buffers (shared/frame.h's kFrameBinding*; neither
// binds the event buffers whose numbers they reuse), the upload and the map at their own bindings.
MOTE_CONSTANT(uint, kManualFillBindingRecords, 31u);
MOTE_CONSTANT(uint, kManualFillBindingSlots, 32u);
struct ManualFillPush {
  uint row;     // the manual emitter's row
  uint count;   // records placed (fill: what the frame's command asked the row to spawn) or patched
  uint first;   // the first of them in the row's records
  uint header;  // patch: the record header its slots must still hold (row | generation << 20)
};
MOTE_ASSERT_SIZE(ManualFillPush, 16);
MOTE_ASSERT_OFFSET(ManualFillPush, row, 0);
MOTE_ASSERT_OFFSET(ManualFillPush, count, 4);
MOTE_ASSERT_OFFSET(ManualFillPush, first, 8);
MOTE_ASSERT_OFFSET(ManualFillPush, header, 12);

// The stateless driver's scatter (shaders/runtime/drivers/stateless_scatter.comp): the row's
// evaluated records (binding kStatelessBindingEvaluated, eval_words apiece) over the slots its
// manual slot map (kManualFillBindingSlots) holds.
MOTE_CONSTANT(uint, kStatelessBindingEvaluated, 33u);
struct StatelessScatterPush {
  uint count;       // particles evaluated
  uint eval_words;  // the program's record words (header included), at most the pool's stride
  uint header;      // the record header the slots must hold (row | generation << 20)
  uint pad0;
};
MOTE_ASSERT_SIZE(StatelessScatterPush, 16);
MOTE_ASSERT_OFFSET(StatelessScatterPush, count, 0);
MOTE_ASSERT_OFFSET(StatelessScatterPush, eval_words, 4);
MOTE_ASSERT_OFFSET(StatelessScatterPush, header, 8);
MOTE_ASSERT_OFFSET(StatelessScatterPush, pad0, 12);

MOTE_SHARED_END
#endif
