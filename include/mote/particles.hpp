// Mote's public runtime API: a Vulkan context, a GPU particle system on it, emitters placed by
// value or at rows of a transform hierarchy the GPU composes, and the frame: `execute(dt)`
// records every emitter's spawn, INIT and UPDATE (docs/design/runtime_frame.md) and submits it.
// Everything the frame decides — how many spawn, who dies, how many to draw — stays on the GPU;
// `read_stats()` copies the counters out for tools and HUDs and is never needed for a frame.
//
// Threading: a Context and everything created on it are used from one thread at a time.
// Errors are values (mote/result.hpp). Vulkan types appear only in mote/vulkan_interop.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mote/effect.hpp"
#include "mote/emitter.hpp"
#include "mote/particle.hpp"
#include "mote/result.hpp"
#include "mote/depth_image.hpp"
#include "mote/vector_field.hpp"
#include "mote/wind.hpp"

namespace mote {

namespace detail {
struct ContextState;
struct ParticleSystemState;
// Mote's own way in (defined in src/api/): the internal layers reach a Context's device and a
// system's runtime through it, never through a public member.
struct ApiAccess;
}  // namespace detail
struct HostVulkanDevice;  // mote/vulkan_interop.hpp
}  // namespace mote
// <vulkan/vulkan.h>'s VkCommandBuffer is a pointer to this: record() takes one without this
// header declaring any Vulkan type.
struct VkCommandBuffer_T;
namespace mote {

struct ContextOptions {
  bool validation = false;  // the Khronos validation layer (also MOTE_VALIDATION=1)
  std::string device;       // "" = automatic (discrete, integrated, cpu); an index, a type or a name substring
};

// A Vulkan instance and device Mote creates and owns (lavapipe when there is no GPU), or the host
// application's own device (Context::adopt, mote/vulkan_interop.hpp). A renderer that draws
// Mote's particles creates its resources on this device (mote/vulkan_interop.hpp).
class Context {
 public:
  static Result<std::unique_ptr<Context>> create(const ContextOptions& options = {});
  // Mote on the host's device and queue, not owned: see HostVulkanDevice for what the host must
  // have enabled. Destroying the Context destroys what Mote created, never the device.
  static Result<std::unique_ptr<Context>> adopt(const HostVulkanDevice& host);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // The chosen device's name; mote/device.hpp describes it in full.
  std::string device_name() const;

  // The device memory Mote holds on this context's device now: every buffer, image and volume
  // of every system and renderer made on it (a released one counts until the GPU has finished
  // with it and its memory is freed). A leak check for long runs (bench/soak.cpp).
  struct MemoryInUse {
    uint64_t bytes = 0;
    uint64_t allocations = 0;
  };
  MemoryInUse device_memory_in_use() const;

 private:
  friend struct detail::ApiAccess;
  Context();
  std::unique_ptr<detail::ContextState> state_;
};

// An emitter as the system knows it: its row and the generation it was given (a removed and
// reused row never answers to an old id).
struct EmitterId {
  uint32_t row = UINT32_MAX;
  uint32_t generation = 0;
};

// The transform channel a field binding copies every frame.
enum class TransformChannel { kPosition, kDirection, kUp, kOrientation };

struct ParticleSystemDesc {
  uint32_t capacity = 1u << 16;  // particles, 1 .. 2^24
  uint32_t record_words = 32;    // pool stride; every effect's record must fit
  uint32_t max_emitters = 64;
  uint32_t max_transforms = 256;  // 0 = no transform hierarchy
  // Run each effect's UPDATE and INIT as their own compiled kernels instead of the bytecode
  // interpreter: faster frames and bursts at large counts (the figures are in
  // docs/PERFORMANCE.md). A kernel takes tens of milliseconds to build, once per effect; with
  // compile_in_background a worker thread builds it while the effect runs on the interpreter,
  // so no frame waits for it.
  bool compiled_simulate = true;
  bool compile_in_background = true;
  // A debugging and tools aid (0 = off): emit writes each newborn's birth serial — how many
  // particles its emitter spawned before it — into this record word, which must lie inside the
  // record and past every effect's fields (add_emitter refuses an effect it overlaps). Lets a tool
  // match particles across runs (mote/compare.hpp does, against the reference simulation).
  uint32_t serial_word = 0;
  // Frames a host may have recorded (record()) and not yet seen complete on the GPU: what a frame
  // replaces (a grown program buffer, a rebuilt texture atlas) stays alive that many further
  // frames. 1 .. 8. execute() tracks its own submissions.
  uint32_t frames_in_flight = 3;
  // GPU timestamps around each pass of every frame (a few queries a frame), read by
  // read_pass_times(): for tools and HUDs.
  bool profile = false;
};

// The live particles' records as the last completed frame left them (read_alive_records).
struct AliveRecords {
  uint32_t record_words = 0;      // words per record (the system's stride)
  std::vector<uint32_t> slots;    // pool slots, in alive-list order
  std::vector<uint32_t> records;  // slots.size() * record_words words, record i of slots[i]
};

// One emitter's clock and spawn count as the last completed frame left them (read_emitter_state);
// all zero before the emitter's first frame.
// An emitter's measured bounds, as the GPU publishes them at the end of every frame: the world box
// that holds every alive particle's drawn shape (a sprite's quad in any view and stretch, a
// mesh's extent). Nothing alive (or nothing drawable): min = +inf, max = -inf (bounds_empty()).
// A shape the runtime cannot measure (a glTF mesh, no position field): min = -inf, max = +inf.
struct EmitterBounds {
  static constexpr float kInfinity = std::numeric_limits<float>::infinity();
  uint32_t alive = 0;  // the emitter's particles in the last frame's alive list
  std::array<float, 3> min = {kInfinity, kInfinity, kInfinity};  // empty until measured
  std::array<float, 3> max = {-kInfinity, -kInfinity, -kInfinity};
  bool empty() const { return min[0] > max[0]; }
};

struct EmitterState {
  float age = 0.0f;       // seconds since the emitter started (EMITTER_AGE after the frame's tick)
  uint32_t spawned = 0;   // particles spawned so far: the next newborn's birth serial
  uint32_t newborns = 0;  // spawned by the last frame
  EmitterBounds bounds;   // as the last frame measured them
};

// One pass of a frame as the GPU timed it (ParticleSystemDesc::profile).
struct PassTime {
  // "reset", "tick", "scan", "emit_args", "emit", "bucket" (two or more effects), "simulate",
  // "compact", "finish", "bounds"
  std::string name;
  double ms = 0.0;
};

struct ParticleStats {
  uint32_t alive = 0;
  uint32_t free = 0;
  uint32_t newborns = 0;  // last frame
  uint32_t dropped = 0;   // spawns the pool had no room for, last frame
  uint32_t killed = 0;
  uint32_t orphaned = 0;  // particles of removed emitters freed last frame
  uint32_t frames = 0;
  uint32_t prewarmed = 0;  // particles a pre-warm (an effect's prewarm_seconds) added last frame
  // Every live emitter's measured bounds and alive count (ids in row order).
  std::vector<std::pair<EmitterId, EmitterBounds>> emitters;
};

class ParticleSystem;

// What moves an emitter's particles (docs/design/drivers.md): the GPU frame (add_emitter), the
// effect's bytecode on the host (add_cpu_emitter), or the application (add_manual_emitter).
// kNone: detached (detach_driver): the emitter's row and id stay, nothing moves, spawns or draws.
// kStateless: a stateless effect's emitter (add_stateless_emitter), evaluated every frame; it
// keeps that driver (set_driver and detach_driver refuse it, kUnsupported).
enum class Driver { kGpu, kCpu, kManual, kNone, kStateless };

// What an emitter's burst() does when the pool cannot hold it (docs/design/drivers.md,
// "Pool-full policies"): drop what does not fit (counted in ParticleStats::dropped), or replace
// the emitter's oldest particles (a ring: the emitter keeps its newest).
enum class PoolFullPolicy { kDrop, kReplaceOldest };

// A manual emitter's records (docs/design/drivers.md, "The manual driver"): the application
// writes standard particles (mote/particle.hpp) and Mote draws exactly them, with the emitter's
// effect's render settings. `set`, `write_range` and `set_count` edit the host's copy; `upload()`
// makes the next frame hold exactly the first count() records. It sends only what changed: the
// records written since the last upload and, when the count grew, the new ones (placed as
// newborns beside the others, so the draw's order is no longer the records' order); the first
// upload, and one that rewrote every record, or after the count shrank or the emitter was
// inactive, places them all anew in their order, replacing what the emitter held. A pool without room for
// the records it places drops the rest, counted in ParticleStats::dropped (such a record stays
// out until the emitter's records are placed anew). Between uploads the frame keeps the particles
// as they are: no rate, no UPDATE, no ageing. Errors (kInvalidArgument) name the index and the
// bound, and change nothing; a handle whose emitter was removed refuses every call.
class ManualEmitter {
 public:
  ManualEmitter() = default;
  EmitterId id() const { return id_; }
  uint32_t max_count() const;
  uint32_t count() const;
  Result<Particle> get(uint32_t index) const;
  Status set(uint32_t index, const Particle& particle);
  Status write_range(uint32_t first, std::span<const Particle> particles);
  Status set_count(uint32_t count);
  Status upload();

 private:
  friend class ParticleSystem;
  ManualEmitter(ParticleSystem* system, EmitterId id) : system_(system), id_(id) {}
  ParticleSystem* system_ = nullptr;
  EmitterId id_;
};

// A stateless emitter (docs/design/drivers.md, "The stateless driver"): the emitter of a
// stateless effect ("stateless": true, its one graph `eval`), whose emission.capacity particles
// are evaluated on the GPU every frame at the emitter's own clock — each a function of that time,
// its index and the emitter's seed, so any time costs the same: a jump, backwards, negative.
// time() is the time the next frame evaluates; each frame then advances it by dt × time_scale()
// (a paused or inactive emitter's clock stands). set_time is an exact seek; any finite scale is
// allowed (negative runs backwards, 0 stands). Errors: kInvalidArgument for a non-finite time or
// scale (nothing changes) and for a handle whose emitter was removed (time() and time_scale()
// read 0 then).
class StatelessEmitter {
 public:
  StatelessEmitter() = default;
  EmitterId id() const { return id_; }
  uint32_t count() const;  // the particles it evaluates (the effect's emission.capacity)
  Status set_time(double time);
  Status set_time_scale(double scale);
  double time() const;
  double time_scale() const;

 private:
  friend class ParticleSystem;
  StatelessEmitter(ParticleSystem* system, EmitterId id) : system_(system), id_(id) {}
  ParticleSystem* system_ = nullptr;
  EmitterId id_;
};

// What a custom force reads besides the particle (docs/design/drivers.md, "The cpu driver").
struct SceneView {
  float time = 0.0f;  // the system's clock (TIME) after this frame
  float dt = 0.0f;    // this frame's
};
// A custom force (wsg D14): an acceleration (m/s^2) added to a cpu-driven particle after its
// UPDATE each frame — velocity += force * dt, position += force * dt^2, the force integrated with
// UPDATE's own step — e.g. an attractor or a collision with a game object. Called on the thread
// that calls execute()/record(). A non-finite result is not applied (the particle keeps what
// UPDATE gave it) and is counted (CpuEmitter::rejected_forces).
using CustomForce = std::function<std::array<float, 3>(const Particle&, const SceneView&)>;

struct CpuEmitterDesc {
  EmitterDesc emitter;              // seed, pose, overrides (no transform: refused)
  uint32_t max_count = 0;           // particles it holds at most; 0 = the effect's capacity_hint
  std::vector<CustomForce> forces;  // applied in order after UPDATE
  // Threads the emitter's UPDATE runs on (the calling thread and threads - 1 workers of its
  // step; 0: the machine's hardware threads). The particles are the same whatever the count.
  uint32_t threads = 1;
};

// A cpu-driven emitter (docs/design/drivers.md, "The cpu driver"): its effect's INIT and UPDATE
// run on the host (the batch VM of mote/simulation.hpp, the reference simulation's semantics and
// random streams, so its particles are those a GPU-driven emitter of the same effect and seed
// gives), then its custom forces; each frame uploads its live records, which Mote draws with the
// effect's render settings. Its effect's record must be the standard particle.
class CpuEmitter {
 public:
  CpuEmitter() = default;
  EmitterId id() const { return id_; }
  // Custom-force results that were not finite, since the emitter was added (0 for a stale handle).
  uint64_t rejected_forces() const;
  // The forces applied after UPDATE from the next frame on, replacing the emitter's (a cpu emitter
  // that set_driver made starts with none). kInvalidArgument for a stale handle.
  Status set_forces(std::vector<CustomForce> forces);

 private:
  friend class ParticleSystem;
  CpuEmitter(ParticleSystem* system, EmitterId id) : system_(system), id_(id) {}
  ParticleSystem* system_ = nullptr;
  EmitterId id_;
};

class ParticleSystem {
 public:
  static Result<std::unique_ptr<ParticleSystem>> create(Context& context, const ParticleSystemDesc& desc = {});
  ~ParticleSystem();
  ParticleSystem(const ParticleSystem&) = delete;
  ParticleSystem& operator=(const ParticleSystem&) = delete;

  // Emitters. add_emitter verifies the effect's program for the pool; emitters of one effect
  // share its placement in the program buffer. Neither call waits for the GPU: what changed goes
  // out with the next execute(). remove_emitter frees the row; its particles die next frame.
  // A stateless effect's add_emitter is add_stateless_emitter's (which waits once, see there).
  Result<EmitterId> add_emitter(const CompiledEffect& effect, const EmitterDesc& desc = {});
  Status remove_emitter(EmitterId id);
  // Replaces a live emitter's effect in place (a live program swap): the row stays, its
  // generation moves on, the old effect's particles die next frame. Returns the new id.
  Result<EmitterId> swap_effect(EmitterId id, const CompiledEffect& effect);
  // Extra spawns for the next frame, through the same budget and INIT as the rate (a gpu-driven
  // emitter's; a manual emitter's spawns are its uploads: kInvalidArgument), and the emitter's
  // pool-full policy for them:
  // - kDrop (the default): what the pool's free slots cannot hold is dropped and counted;
  // - kReplaceOldest: the burst spawns whole, first of the frame's spawns: when the free slots
  //   are short, the emitter's oldest particles (born in the earliest frames; of one frame, the
  //   last in the alive list) are freed before the frame to make room, so the emitter then holds
  //   its newest particles. Only what even an emitter emptied of its particles cannot hold is
  //   dropped. Such a frame reads the last frame back once (it waits for the GPU; with record(),
  //   call it after the host's submission of the last frame completed). A paused or inactive
  //   emitter's burst waits, as with kDrop. Kept by swap_effect.
  Status burst(EmitterId id, uint32_t count);
  Status set_pool_full_policy(EmitterId id, PoolFullPolicy policy);
  Result<PoolFullPolicy> pool_full_policy(EmitterId id) const;
  // Runtime controls (docs/design/drivers.md). None waits; each holds from the next frame on and
  // survives swap_effect. kInvalidArgument for an id that is not live.
  //
  // set_paused(true): the emitter spawns nothing, its clock stands, and its particles stay exactly
  // as they are — still listed, measured and drawn (an editor's frozen frame) — without running
  // UPDATE; queued burst() spawns wait. false resumes where it stood.
  Status set_paused(EmitterId id, bool paused);
  // set_emitting(false): the rate and the declared bursts spawn nothing while the clock runs on
  // and the live particles finish their lives; burst() still spawns. true resumes the rate from
  // where the accumulator stood (no catch-up).
  Status set_emitting(EmitterId id, bool emitting);
  // set_active(false): no spawn, no simulation, no draw, no cost beyond the emitter's tick row: its
  // particles are freed at the next frame (counted in ParticleStats::orphaned) and its clock
  // stands; the row, the id, the values and the bindings stay. true starts it spawning again.
  Status set_active(EmitterId id, bool active);
  // The constant pose of an emitter placed by value (EmitterDesc::position / rotation), read by
  // INIT and UPDATE from the next frame (EMITTER_POSITION, _ROTATION, _DIRECTION, _UP).
  // kInvalidArgument for an emitter standing at a transform (move the transform), a non-finite
  // value or a zero quaternion. set_emitter_position keeps the rotation.
  Status set_emitter_position(EmitterId id, const std::array<float, 3>& position);
  Status set_emitter_pose(EmitterId id, const std::array<float, 3>& position, const std::array<float, 4>& rotation);
  Status set_emitter_field(EmitterId id, std::string_view field, std::span<const float> values);
  // Every live emitter that reads global `name` sees the new value from the next frame.
  Status set_global(std::string_view name, std::span<const float> values);

  // The transform hierarchy (needs desc.max_transforms > 0).
  Result<TransformId> add_transform(TransformId parent = {});
  Status set_transform(TransformId id, const std::array<float, 3>& position, const std::array<float, 4>& rotation,
                       const std::array<float, 3>& scale = {1.0f, 1.0f, 1.0f});
  // Refuses (kInvalidArgument) a row with children, or one an emitter stands at or a field
  // binding reads: move, remove or unbind those first.
  Status remove_transform(TransformId id);
  // Field bindings: every frame the GPU copies the transform's channel into the emitter's field.
  Status bind_field(EmitterId id, std::string_view field, TransformId transform, TransformChannel channel);
  Status unbind_field(EmitterId id, std::string_view field);

  // The camera emitters that cull (an effect's "emission": {"cull": true}) are tested against from
  // the next frame on: its view-projection, column-major, Vulkan clip space (x, y in [-w, w], z in
  // [0, w], either depth direction). While an emitter's measured bounds lie outside its frustum it
  // spawns nothing; seen again it pays back at most "max_catchup" seconds of its rate. Its live
  // particles keep simulating. clear_camera(): no camera, nothing is culled (the default).
  void set_camera(const std::array<float, 16>& view_projection);
  void clear_camera();
  // The wind SAMPLE_WIND (the `wind` node) reads from the next frame on: a uniform wind with
  // gusts and curl turbulence, evaluated each frame at its time (mote/wind.hpp,
  // docs/design/wind.md). Still air by default; kInvalidArgument when check_wind refuses it.
  Status set_wind(const Wind& wind);
  // The authored vector field (mote/vector_field.hpp, docs/design/vector_field.md) that every
  // `vector_field` node reading slot `slot` samples from the next frame on: an effect's
  // "vector_fields" names its slots in order (CompiledEffect::vector_fields). The field is copied.
  // clear_vector_field empties the slot (it reads 0, as every slot does by default).
  // kInvalidArgument: a slot >= kMaxVectorFieldSlots (where "slot"), a field check_vector_field
  // refuses (where "field." + its member, e.g. "field.vectors[7]").
  Status set_vector_field(uint32_t slot, const VectorField& field);
  Status clear_vector_field(uint32_t slot);
  // The depth every `collide_depth` node (SAMPLE_DEPTH) tests particles against from the next
  // frame on: a reversed-Z depth image and the camera it was drawn with (mote/depth_image.hpp,
  // docs/design/depth_collision.md) — the previous frame's opaque depth, from Mote's scene
  // renderer or the host's own renderer. The image is copied. clear_collision_depth removes it
  // (the default: the node never hits). kInvalidArgument: an image check_depth_image refuses
  // (where "depth." + its member).
  Status set_collision_depth(const DepthImage& image);
  Status clear_collision_depth();

  // One frame of `dt` seconds: uploads the transforms (waiting for the previous frame first),
  // records the frame and submits it. Does not wait for it.
  Status execute(float dt);
  // The same frame recorded into the host's command buffer (a VkCommandBuffer: primary,
  // recording, on the Context's queue family, outside any rendering scope), submitted by the host:
  // every upload — the transforms' poses included — is written into it, so nothing waits. It ends
  // with a barrier that makes the frame's writes visible to compute, indirect and transfer work
  // recorded after it (mote/particle_renderer.hpp's draw adds its own for its stages). The host
  // submits it before the next record() or execute(), no more than desc.frames_in_flight frames
  // ahead of the GPU. Readbacks below wait for Mote's queue only: call them once the host's
  // submission has completed. Errors: kInvalidArgument (a null command buffer, dt not > 0), the
  // frame's own (a transform an emitter uses was removed); nothing is recorded then.
  Status record(VkCommandBuffer_T* command_buffer, float dt);
  // Submits nothing; waits until every submitted frame has completed.
  Status wait_idle();
  // Waits for the kernels compiling in the background (tools and tests; frames never need to).
  Status wait_for_kernels();

  // Readbacks: each waits for every submitted frame, copies from the GPU and waits again, so
  // they are for tools, tests and HUDs, never for a frame. Errors: kVulkan, kOutOfMemory.
  //
  // The counters as the last completed frame left them.
  Result<ParticleStats> read_stats();
  // Every live particle's record, in the alive list's order (the order a draw reads them).
  Result<AliveRecords> read_alive_records();
  // A live emitter's state (kInvalidArgument for an id that is not live).
  Result<EmitterState> read_emitter_state(EmitterId id);
  // A manual emitter (ManualEmitter above) of `effect`, whose record must be the standard particle
  // after the header (kInvalidArgument naming the first field that differs), holding up to
  // `max_count` records (1 .. capacity). swap_effect keeps it manual (refusing an effect whose
  // record is not the standard one) and uploads its records again under the new generation.
  Result<ManualEmitter> add_manual_emitter(const CompiledEffect& effect, uint32_t max_count,
                                           const EmitterDesc& desc = {});
  // The handle of a live manual emitter (kInvalidArgument for any other id).
  Result<ManualEmitter> manual_emitter(EmitterId id);
  // A stateless emitter (StatelessEmitter above) of a stateless effect, starting at time 0 and
  // scale 1. It stands at desc's position and rotation (a transform is refused; so is
  // set_emitter_position later, kUnsupported), with desc's seed as given (0 included) and field
  // overrides; the pool's records must hold the standard particle's 21 words (its particles are
  // placed as a manual emitter's) and emission.capacity must fit the pool (kInvalidArgument
  // otherwise); a stateful effect is kUnsupported. add_emitter of a stateless effect adds one
  // (its handle: stateless_emitter). Its particles are placed by the next frame, through the
  // frame's spawn budget like any spawn. swap_effect, burst and the pool-full policy refuse it.
  // Adding waits for the GPU once (the evaluation's program upload).
  Result<StatelessEmitter> add_stateless_emitter(const CompiledEffect& effect, const EmitterDesc& desc = {});
  // The handle of a live stateless emitter (kInvalidArgument for any other id).
  Result<StatelessEmitter> stateless_emitter(EmitterId id);
  // The handle of a live cpu emitter (kInvalidArgument for any other id).
  Result<CpuEmitter> cpu_emitter(EmitterId id);
  // A cpu-driven emitter (CpuEmitter above) of `effect`, whose record must be the standard
  // particle after the header; desc.max_count is 1 .. capacity (0: the effect's capacity_hint).
  // Each execute()/record() first steps it on the host and uploads its live records. A frame
  // needs room for its live records twice (the upload replaces the last one's in the frame).
  // swap_effect refuses it (remove and add it again); set_paused and set_active hold its steps
  // too, set_emitting refuses it (kUnsupported); set_emitter_position moves its simulation.
  Result<CpuEmitter> add_cpu_emitter(const CompiledEffect& effect, const CpuEmitterDesc& desc = {});
  // The emitter's driver, and a live swap of it that keeps the row, the id and the particles:
  // gpu -> manual (its live particles, read back once — this waits for the GPU — become the
  // manual records and stay drawn as they are; the effect's record must be the standard
  // particle), manual -> gpu and cpu -> gpu (the frame's UPDATE and rate drive them from the next
  // frame), cpu -> manual (the last upload's records stay), gpu -> cpu and manual -> cpu (a
  // simulation of the effect on the batch VM adopts the live particles — read back, or the manual
  // records — and the emitter's clock: age, rate accumulator, birth serials, tick; it then runs
  // as add_cpu_emitter's, with no custom forces until CpuEmitter::set_forces; the effect's record
  // must be the standard particle, the emitter must stand at its own pose, not a transform; it
  // holds up to the effect's capacity_hint, its live count, or the manual max_count, whichever is
  // largest, within the capacity; the readbacks wait for the GPU). Swapping to the driver it has
  // does nothing.
  Result<Driver> driver(EmitterId id);
  Status set_driver(EmitterId id, Driver driver);
  // Detaches the emitter's driver (wsg's detach_driver; driver() says kNone): from the next frame
  // its particles are freed (counted in ParticleStats::orphaned), nothing spawns, nothing is
  // simulated or drawn — the zero cost of an inactive emitter — while its row, id, values and
  // bindings stay; a cpu emitter's simulation and a manual emitter's records are dropped.
  // set_driver attaches one again: kGpu (the frame's, from where its clock stood), kManual (no
  // records until an upload), kCpu (a simulation with no particles and the emitter's clock).
  // set_active(true) refuses a detached emitter (kInvalidArgument: attach a driver instead).
  Status detach_driver(EmitterId id);
  // The emitter's particles in the last completed frame's alive list (what it draws).
  Result<uint32_t> read_alive_count(EmitterId id);
  // The bytes of particle records the cpu and manual drivers have sent to the GPU, since the
  // system was made (what their uploads cost; a host count, no wait).
  uint64_t driver_upload_bytes() const;
  // The last completed frame's passes as the GPU timed them (kInvalidArgument without
  // desc.profile; empty before the first frame).
  Result<std::vector<PassTime>> read_pass_times();
  // A diagnostic for tools, tests and long runs (it waits for the GPU and reads the whole pool
  // back): checks the bookkeeping the last completed frame left — alive + free == capacity,
  // every slot in one list once, every live particle's header naming a live emitter at its
  // current generation, every free record zeroed (docs/design/runtime_frame.md, "Pool
  // invariants"). A failure is kInternal naming the slot: a Mote bug, please report it.
  Status check_consistency();

  uint32_t capacity() const;
  uint32_t record_words() const;
  uint32_t max_emitters() const;

 private:
  friend struct detail::ApiAccess;
  ParticleSystem();
  std::unique_ptr<detail::ParticleSystemState> state_;
};

}  // namespace mote
