// A compiled effect: what an effect document (JSON, docs/design/effects.md) becomes — the
// program, the emitter field defaults, the global field previews, and the emission and render
// settings the runtime and the renderer read. Produced by compile_effect (src/graph/),
// consumed by the reference simulation (src/sim/), the GPU runtime and the renderer.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mote/program.hpp"
#include "mote/result.hpp"

namespace mote {

struct Burst {
  float time = 0.0f;      // seconds after the emitter starts
  uint32_t count = 0;     // particles per burst
  uint32_t cycles = 1;    // how many times it fires (0 = forever)
  float interval = 0.0f;  // seconds between cycles
};

// The most bursts with a count an effect may declare: the GPU frame schedules that many per
// emitter (shaders/shared/frame.h, kFrameMaxBursts), and compile_effect refuses the next one.
inline constexpr uint32_t kMaxBursts = 4;

struct EmissionSettings {
  float rate = 0.0f;  // particles per second (the emitter field "rate" overrides when declared)
  std::vector<Burst> bursts;
  float prewarm_seconds = 0.0f;   // simulated before the first frame
  uint32_t capacity_hint = 1024;  // particles the effect expects to hold at once
  // Culling of spawning (docs/design/runtime_frame.md, "Culling"): while the particle system has
  // a camera and the emitter's measured bounds lie outside its view, the emitter spawns nothing
  // and sleeps; when it is seen again it pays back at most max_catchup_seconds of its rate.
  bool cull = false;
  float max_catchup_seconds = 1.0f;
};

// How an emitter with projection "ribbon" joins its particles into strips (docs/design/ribbons.md):
// particles of one ribbon id are linked in birth order (the serial field, which the effect's INIT
// writes from `builtin particle_index`), each strip re-linked every frame. Width and colour along
// a strip are the render fields' `size` and `color` at each point.
struct RibbonSettings {
  std::string id_field;                        // width-1 field naming the ribbon; "" = one ribbon per emitter
  std::string serial_field = "ribbon_serial";  // width-1 field holding the birth serial
  std::string uv_mode = "stretched";           // stretched (over the length) | tiled (by distance) | segment
  float uv_tile_length = 1.0f;                 // metres per texture repeat for uv_mode "tiled"
  std::string facing = "camera";               // camera | normal (the strip's normal from normal_field)
  std::string normal_field;                    // width-3 field, required for facing "normal", "" otherwise
  uint32_t subdivisions = 1;                   // Catmull-Rom pieces per segment, 1..8 (1 = straight)
};

// Particles that light the scene (docs/design/particle_lights.md): each alive particle of the
// emitter is a point light at its position, of radiance color × intensity (× the particle's
// colour rgb × alpha when use_particle_color) and range `radius` metres (or its drawn size ×
// radius_from_size when that is above 0). The renderer keeps the brightest of the frame's
// particle lights (ParticleRendererDesc::max_particle_lights) for the opaque scene, the lit
// particles and the fog.
struct LightSettings {
  bool enabled = false;                          // the document's render "light" object is given
  std::array<float, 3> color{1.0f, 1.0f, 1.0f};  // linear, each 0 .. 1e6
  float intensity = 1.0f;                        // 0 .. 1e6
  bool use_particle_color = true;
  float radius = 2.0f;            // metres, (0, 1e4]
  float radius_from_size = 0.0f;  // 0 .. 1e4; above 0 the range is the drawn size × this
};

struct RenderSettings {
  std::string texture;                   // image path, "" = the built-in soft disc
  std::string projection = "billboard";  // billboard | stretched | vertical | horizontal | facing_world | mesh | ribbon
  std::string blend = "alpha";           // alpha | additive (one premultiplied pipeline)
  uint32_t flipbook_columns = 1;
  uint32_t flipbook_rows = 1;
  bool flipbook_blend = false;
  bool soft = false;  // soft-depth fade
  bool lit = false;
  std::string mesh;  // for projection "mesh": box | sphere | a glTF path
  // Which particle fields the renderer reads (names in the program's particle layout).
  std::string position_field = "position";
  std::string size_field = "size";
  std::string color_field = "color";
  std::string velocity_field = "velocity";
  std::string rotation_field = "rotation";
  std::string frame_field;  // flipbook frame; "" = from age/life
  RibbonSettings ribbon;    // read for projection "ribbon" only
  LightSettings light;      // the particles as lights (enabled: a "light" object)
};

// A value for a named emitter or global field (EmitterDesc, SimulationOptions, scene emitters).
struct FieldValue {
  std::string name;
  std::vector<float> values;  // 1 value splats over the field's width
};

struct GlobalPreview {
  std::string name;
  std::vector<float> values;  // width = values.size()
};

// The SPIR-V of one of an effect's kernels, compiled ahead of time (compile_effect_kernels below,
// `mote compile`) and kept in its cooked file (docs/design/cooked.md, KERN), so that a program
// linking the runtime alone (no GLSL compiler) runs compiled simulate. The runtime uses a kernel
// only for the program it was compiled from (program_hash, and the same section code); for an effect
// whose program imports global fields, the system's placement of the globals changes the code, so
// its kernels are compiled there (the tools) or its sections interpreted (the runtime alone).
enum class KernelStage : uint32_t {
  kEmit = 0,      // INIT, in the frame's emit pass
  kSimulate = 1,  // UPDATE, in the frame's simulate pass
};
struct CookedKernel {
  KernelStage stage = KernelStage::kSimulate;
  uint64_t program_hash = 0;    // Program::hash() of the program it was compiled from
  std::vector<uint32_t> spirv;  // a SPIR-V module for Vulkan 1.3, validated by the loader
};

struct CompiledEffect {
  std::string name;
  Program program;                         // verified, unlinked (global imports by index)
  std::vector<uint32_t> emitter_defaults;  // f32 bits, program.emitter_field_words() of them
  std::vector<GlobalPreview> globals;      // preview values, one per program.global_imports entry
  EmissionSettings emission;
  RenderSettings render;
  // The names of the effect's event outputs (the document's "event_outputs"), output i's at
  // index i: what scenes and the API bind (docs/design/events.md). Empty for an effect with
  // none, and for a cooked effect (cooked files keep no names: bind its outputs by index).
  std::vector<std::string> event_outputs;
  // The names of the vector fields its `vector_field` nodes sample (the document's
  // "vector_fields"), slot i's at index i: what ParticleSystem::set_vector_field and a scene's
  // `vector_fields` fill by name (docs/design/vector_field.md). Empty for an effect with none and
  // for a cooked effect (set its slots by index).
  std::vector<std::string> vector_fields;
  // Kernels compiled ahead of time, at most one per stage (empty unless compile_effect_kernels or
  // a cooked file gave them).
  std::vector<CookedKernel> kernels;
  // The document's file when it was compiled from one (compile_effect_file; empty otherwise): the
  // render settings' relative texture and mesh paths resolve against its directory (against the
  // working directory when it is empty).
  std::string source_path;
};

// Loads, validates and compiles an effect document. Errors carry a JSON pointer in `where`
// ("/update/nodes/3/inputs/a"). Deterministic: the same text gives byte-identical programs. In the
// tools library (mote::tools); the runtime (mote::runtime) loads cooked effects instead
// (mote/cooked_effect.hpp).
Result<CompiledEffect> compile_effect(std::string_view json_text);

// A module document (docs/design/modules.md: stages of modules instead of, or beside, raw node
// graphs) as the plain graph document it expands to, pretty-printed; any other document as it
// is. compile_effect does this itself; this shows what it compiles. In the tools library.
Result<std::string> expand_effect_document(std::string_view json_text);

// Compiles `effect`'s kernels (simulate; emit when the program has an INIT section) to SPIR-V
// with the tools' GLSL compiler and stores them in effect.kernels (replacing any), for
// save_cooked_effect to keep. No device is needed. In the tools library. Errors: the
// translator's and compiler's (kParse: a Mote bug).
Status compile_effect_kernels(CompiledEffect& effect);

}  // namespace mote
