// The public API (include/mote/particles.hpp, include/mote/vulkan_interop.hpp) over the
// internal layers: gpu::Device, runtime::TransformTable and runtime::ParticleSystem. Ids carry
// generations so a stale EmitterId is refused instead of touching a reused row.
#include "mote/particles.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "api/api_access.hpp"
#include "core/alloc_guard.hpp"
#include "runtime/frame/pool_invariants.hpp"
#include "mote/vulkan_interop.hpp"

namespace mote {

using detail::ApiAccess;

namespace {

runtime::Channel to_channel(TransformChannel c) {
  switch (c) {
    case TransformChannel::kPosition: return runtime::Channel::kPosition;
    case TransformChannel::kDirection: return runtime::Channel::kDirection;
    case TransformChannel::kUp: return runtime::Channel::kUp;
    case TransformChannel::kOrientation: return runtime::Channel::kOrientation;
  }
  return runtime::Channel::kPosition;
}

}  // namespace

Context::Context() : state_(std::make_unique<detail::ContextState>()) {}
Context::~Context() = default;

Result<std::unique_ptr<Context>> Context::create(const ContextOptions& options) {
  std::unique_ptr<Context> c(new Context());
  MOTE_TRY_ASSIGN(c->state_->owned,
                  gpu::Device::create({.validation = options.validation, .device_selector = options.device}));
  c->state_->device = c->state_->owned.get();
  return c;
}

Result<std::unique_ptr<Context>> Context::adopt(const HostVulkanDevice& host) {
  std::unique_ptr<Context> c(new Context());
  MOTE_TRY_ASSIGN(c->state_->owned, gpu::Device::adopt(host));
  c->state_->device = c->state_->owned.get();
  return c;
}

std::string Context::device_name() const { return state_->device->description().name; }

Context::MemoryInUse Context::device_memory_in_use() const {
  const gpu::Device::MemoryInUse m = state_->device->memory_in_use();
  return {m.bytes, m.allocations};
}

VulkanContext vulkan_context(Context& context) {
  gpu::Device& d = ApiAccess::device(context);
  return {d.instance(), d.physical_device(), d.handle(), d.queue(), d.queue_family(), d.timeline()};
}

ParticleSystem::ParticleSystem() : state_(std::make_unique<detail::ParticleSystemState>()) {}
ParticleSystem::~ParticleSystem() {
  if (state_ && state_->context) (void)ApiAccess::device(*state_->context).wait_idle();
}

namespace {

// The limits a desc is held to before anything is allocated, each error naming the limit and the
// number asked for (docs/design/reliability.md, "Limits").
Status check_desc(const gpu::Device& device, const ParticleSystemDesc& desc) {
  constexpr uint32_t kMaxCapacity = 1u << 24;  // PARTICLE_INDEX is a float
  constexpr uint32_t kMaxEmitters = 1u << 20;  // the particle header's row bits
  constexpr uint32_t kMaxTransforms = 1u << 20;
  if (desc.capacity == 0 || desc.capacity > kMaxCapacity)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("capacity {} is outside 1 .. {} particles", desc.capacity, kMaxCapacity), "capacity");
  if (desc.max_emitters == 0 || desc.max_emitters > kMaxEmitters)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("max_emitters {} is outside 1 .. {}", desc.max_emitters, kMaxEmitters),
                      "max_emitters");
  if (desc.max_transforms > kMaxTransforms)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("max_transforms {} is over the limit of {}", desc.max_transforms, kMaxTransforms),
                      "max_transforms");
  const uint64_t pool_bytes = uint64_t(desc.capacity) * desc.record_words * 4;
  const uint64_t range = device.limits().maxStorageBufferRange;
  if (pool_bytes > range)
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("a pool of {} particles x {} words is {} bytes; the device's maxStorageBufferRange "
                                  "is {} bytes (at most {} particles of {} words)",
                                  desc.capacity, desc.record_words, pool_bytes, range,
                                  range / (uint64_t(desc.record_words ? desc.record_words : 1) * 4), desc.record_words),
                      "capacity");
  return ok_status();
}

}  // namespace

Result<std::unique_ptr<ParticleSystem>> ParticleSystem::create(Context& context, const ParticleSystemDesc& desc) {
  return core::guard_allocation("ParticleSystem::create", [&]() -> Result<std::unique_ptr<ParticleSystem>> {
    std::unique_ptr<ParticleSystem> s(new ParticleSystem());
    gpu::Device& device = ApiAccess::device(context);
    MOTE_TRY(check_desc(device, desc));
    s->state_->context = &context;
    MOTE_TRY_ASSIGN(s->state_->system,
                    runtime::ParticleSystem::create(device, {.capacity = desc.capacity,
                                                             .record_words = desc.record_words,
                                                             .max_emitters = desc.max_emitters,
                                                             .serial_word = desc.serial_word,
                                                             .compiled_simulate = desc.compiled_simulate,
                                                             .compile_in_background = desc.compile_in_background,
                                                             .frames_in_flight = desc.frames_in_flight}));
    if (desc.max_transforms > 0) {
      MOTE_TRY_ASSIGN(s->state_->transforms, runtime::TransformTable::create(device, desc.max_transforms));
      s->state_->has_transforms = true;
      MOTE_TRY(s->state_->system.set_transforms(&s->state_->transforms));
    }
    if (desc.profile) {
      MOTE_TRY_ASSIGN(s->state_->profiler, gpu::GpuProfiler::create(device, 16));
      s->state_->system.set_profiler(&s->state_->profiler);
    }
    return s;
  });
}

namespace {

Status check_id(runtime::ParticleSystem& system, EmitterId id) {
  if (!system.is_live(id.row) || system.generation(id.row) != id.generation)
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("emitter {} (generation {}) is not live", id.row, id.generation));
  return ok_status();
}

}  // namespace

Result<EmitterId> ParticleSystem::add_emitter(const CompiledEffect& effect, const EmitterDesc& desc) {
  return core::guard_allocation("ParticleSystem::add_emitter", [&]() -> Result<EmitterId> {
    runtime::ParticleSystem& system = state_->system;
    if (desc.transform.valid() && (!state_->has_transforms || !state_->transforms.is_live(desc.transform.row)))
      return make_error(ErrorCode::kInvalidArgument, "the emitter's transform is not a live row");
    if (!effect.program.eval.empty()) {
      MOTE_TRY_ASSIGN(const StatelessEmitter stateless, add_stateless_emitter(effect, desc));
      return stateless.id();
    }
    MOTE_TRY_ASSIGN(uint32_t row, system.add_emitter(effect, desc));
    state_->row_changed(row, &effect);
    return EmitterId{row, system.generation(row)};
  });
}

Status ParticleSystem::remove_emitter(EmitterId id) {
  MOTE_TRY(check_id(state_->system, id));
  MOTE_TRY(state_->system.remove_emitter(id.row));
  state_->cpu_emitters.erase(id.row);
  state_->detached.erase(id.row);
  state_->row_changed(id.row, nullptr);
  return ok_status();
}

Result<EmitterId> ParticleSystem::swap_effect(EmitterId id, const CompiledEffect& effect) {
  return core::guard_allocation("ParticleSystem::swap_effect", [&]() -> Result<EmitterId> {
    MOTE_TRY(check_id(state_->system, id));
    if (state_->cpu_emitters.count(id.row) != 0)
      return make_error(ErrorCode::kUnsupported, "swap_effect of a cpu emitter: remove it and add it again");
    MOTE_TRY(state_->system.swap_effect(id.row, effect));
    state_->row_changed(id.row, &effect);
    return EmitterId{id.row, state_->system.generation(id.row)};
  });
}

Status ParticleSystem::burst(EmitterId id, uint32_t count) {
  MOTE_TRY(check_id(state_->system, id));
  // A host-driven row's spawns are its driver's (the manual uploads; a cpu emitter's simulation).
  if (auto cpu = state_->cpu_emitters.find(id.row); cpu != state_->cpu_emitters.end()) {
    cpu->second->simulation.burst(count);  // its next step spawns them (pool-full policy: drop)
    return ok_status();
  }
  if (state_->system.manual().is_manual(id.row))
    return make_error(ErrorCode::kInvalidArgument, "burst() of a manual emitter: its particles are its uploads");
  return state_->system.burst(id.row, count);
}

Status ParticleSystem::set_emitter_field(EmitterId id, std::string_view field, std::span<const float> values) {
  MOTE_TRY(check_id(state_->system, id));
  return state_->system.set_emitter_field(id.row, field, values);
}

Status ParticleSystem::set_global(std::string_view name, std::span<const float> values) {
  return state_->system.set_global(name, values);
}

Result<TransformId> ParticleSystem::add_transform(TransformId parent) {
  if (!state_->has_transforms) return make_error(ErrorCode::kInvalidArgument, "the system has no transform table");
  MOTE_TRY_ASSIGN(uint32_t row, state_->transforms.add_row(parent.valid() ? parent.row : runtime::kNoParent));
  return TransformId{row};
}

Status ParticleSystem::set_transform(TransformId id, const std::array<float, 3>& position,
                                     const std::array<float, 4>& rotation, const std::array<float, 3>& scale) {
  if (!state_->has_transforms) return make_error(ErrorCode::kInvalidArgument, "the system has no transform table");
  return state_->transforms.set_local(id.row, {position[0], position[1], position[2]},
                                      glm::quat(rotation[3], rotation[0], rotation[1], rotation[2]),
                                      {scale[0], scale[1], scale[2]});
}

Status ParticleSystem::remove_transform(TransformId id) {
  if (!state_->has_transforms) return make_error(ErrorCode::kInvalidArgument, "the system has no transform table");
  // A row an emitter stands at or a binding reads is refused, as a row with children is.
  if (state_->transforms.is_live(id.row)) MOTE_TRY(state_->system.check_transform_row_unused(id.row));
  return state_->transforms.remove_row(id.row);
}

Status ParticleSystem::bind_field(EmitterId id, std::string_view field, TransformId transform,
                                  TransformChannel channel) {
  MOTE_TRY(check_id(state_->system, id));
  return state_->system.bind_field(id.row, field, transform.row, to_channel(channel));
}

Status ParticleSystem::unbind_field(EmitterId id, std::string_view field) {
  MOTE_TRY(check_id(state_->system, id));
  return state_->system.unbind_field(id.row, field);
}

void ParticleSystem::set_camera(const std::array<float, 16>& view_projection) {
  state_->system.set_cull_camera(view_projection);
}

void ParticleSystem::clear_camera() { state_->system.set_cull_camera(std::nullopt); }

Status ParticleSystem::set_wind(const Wind& wind) { return state_->system.set_wind(wind); }

Status ParticleSystem::set_vector_field(uint32_t slot, const VectorField& field) {
  return state_->system.set_vector_field(slot, field);
}

Status ParticleSystem::set_collision_depth(const DepthImage& image) {
  return state_->system.set_collision_depth(image);
}

Status ParticleSystem::clear_collision_depth() { return state_->system.set_collision_depth(std::nullopt); }

Status ParticleSystem::clear_vector_field(uint32_t slot) { return state_->system.set_vector_field(slot, std::nullopt); }

Status ParticleSystem::execute(float dt) {
  return core::guard_allocation("ParticleSystem::execute", [&]() -> Status {
    gpu::Device& device = ApiAccess::device(*state_->context);
    if (state_->has_transforms) {
      // The table's staging memory is single-buffered: the previous frame must have read it.
      MOTE_TRY(device.wait(device.last_submitted_serial()));
      MOTE_TRY(state_->transforms.upload());
    }
    MOTE_TRY(detail::step_cpu_emitters(*state_, dt));
    MOTE_TRY(state_->system.execute(dt));
    state_->profiled_frame = state_->profiler.valid();
    return ok_status();
  });
}

Status ParticleSystem::record(VkCommandBuffer_T* command_buffer, float dt) {
  return core::guard_allocation("ParticleSystem::record", [&]() -> Status {
    // The transforms' poses go into the command buffer with the frame (no staging to wait for).
    MOTE_TRY(detail::step_cpu_emitters(*state_, dt));
    MOTE_TRY(state_->system.record(command_buffer, dt));
    state_->profiled_frame = state_->profiler.valid();
    return ok_status();
  });
}

Result<std::vector<PassTime>> ParticleSystem::read_pass_times() {
  if (!state_->profiler.valid())
    return make_error(ErrorCode::kInvalidArgument, "the system was made without ParticleSystemDesc::profile");
  std::vector<PassTime> out;
  if (!state_->profiled_frame) return out;
  MOTE_TRY(ApiAccess::device(*state_->context).wait_idle());
  MOTE_TRY_ASSIGN(const std::vector<gpu::PassTime> passes, state_->profiler.resolve());
  for (const gpu::PassTime& p : passes) out.push_back({p.name, p.ms});
  return out;
}

Status ParticleSystem::wait_idle() { return ApiAccess::device(*state_->context).wait_idle(); }

Status ParticleSystem::wait_for_kernels() { return state_->system.wait_for_kernels(); }

namespace {

EmitterBounds public_bounds(const shader::FrameEmitterBounds& b) {
  return EmitterBounds{b.alive,
                       {b.bounds_min.x, b.bounds_min.y, b.bounds_min.z},
                       {b.bounds_max.x, b.bounds_max.y, b.bounds_max.z}};
}

}  // namespace

Result<ParticleStats> ParticleSystem::read_stats() {
  return core::guard_allocation("ParticleSystem::read_stats", [&]() -> Result<ParticleStats> {
    runtime::ParticleSystem& system = state_->system;
    MOTE_TRY_ASSIGN(runtime::FrameStats s, system.read_stats());
    ParticleStats stats{s.alive, s.free_count, s.newborns, s.dropped, s.killed, s.orphaned, s.frames, s.prewarmed, {}};
    MOTE_TRY_ASSIGN(const std::vector<shader::FrameEmitterBounds> bounds, system.read_emitter_bounds());
    for (uint32_t row = 0; row < bounds.size(); ++row) {
      // Published for the row's current tenant only (an emitter added since the last frame has none yet).
      if (!system.is_live(row) || bounds[row].generation != system.generation(row)) continue;
      stats.emitters.push_back({EmitterId{row, system.generation(row)}, public_bounds(bounds[row])});
    }
    return stats;
  });
}

Status ParticleSystem::check_consistency() {
  return core::guard_allocation("ParticleSystem::check_consistency", [&]() -> Status {
    MOTE_TRY(runtime::check_pool_invariants(state_->system));
    return ok_status();
  });
}

Result<AliveRecords> ParticleSystem::read_alive_records() {
  return core::guard_allocation("ParticleSystem::read_alive_records", [&]() -> Result<AliveRecords> {
    runtime::ParticleSystem& system = state_->system;
    AliveRecords out;
    out.record_words = system.record_words();
    MOTE_TRY_ASSIGN(out.slots, system.read_alive_slots());
    MOTE_TRY_ASSIGN(const std::vector<uint32_t> pool, system.read_pool());
    out.records.resize(out.slots.size() * out.record_words);
    for (size_t i = 0; i < out.slots.size(); ++i) {
      // The slots come from the GPU: one outside the pool would be a runtime bug, reported, not read.
      if (out.slots[i] >= system.capacity())
        return make_error(ErrorCode::kInternal, fmt::format("alive list entry {} is slot {}, past the pool's {}", i,
                                                            out.slots[i], system.capacity()));
      std::copy_n(pool.begin() + ptrdiff_t(size_t(out.slots[i]) * out.record_words), out.record_words,
                  out.records.begin() + ptrdiff_t(i * out.record_words));
    }
    return out;
  });
}

Result<EmitterState> ParticleSystem::read_emitter_state(EmitterId id) {
  return core::guard_allocation("ParticleSystem::read_emitter_state", [&]() -> Result<EmitterState> {
    MOTE_TRY(check_id(state_->system, id));
    MOTE_TRY_ASSIGN(const std::vector<shader::FrameEmitterState> states, state_->system.read_emitter_states());
    if (id.row >= states.size())
      return make_error(ErrorCode::kInternal, fmt::format("emitter row {} was not read back", id.row));
    const shader::FrameEmitterState& s = states[id.row];
    // The tick adopts a row's new generation on the emitter's first frame: until then the state
    // still belongs to the row's previous tenant, and this emitter has not started.
    if (s.generation != id.generation) return EmitterState{};
    EmitterState state{s.age, s.spawned, s.spawn_count, {}};
    MOTE_TRY_ASSIGN(const std::vector<shader::FrameEmitterBounds> bounds, state_->system.read_emitter_bounds());
    if (id.row < bounds.size() && bounds[id.row].generation == id.generation)
      state.bounds = public_bounds(bounds[id.row]);
    return state;
  });
}

uint32_t ParticleSystem::capacity() const { return state_->system.capacity(); }
uint32_t ParticleSystem::record_words() const { return state_->system.record_words(); }
uint32_t ParticleSystem::max_emitters() const { return state_->system.row_capacity(); }

ParticleDrawBuffers draw_buffers(ParticleSystem& system) {
  detail::ParticleSystemState& state = ApiAccess::state(system);
  runtime::ParticleSystem& s = state.system;
  ParticleDrawBuffers b;
  b.pool = s.pool().handle();
  b.alive = s.drawn_alive_list().handle();
  b.counters = s.counters().handle();
  b.alive_count_word = runtime::ParticleSystem::kAliveCountWord;
  b.record_words = s.record_words();
  b.capacity = s.capacity();
  b.frame_serial = ApiAccess::device(*state.context).last_submitted_serial();
  return b;
}

}  // namespace mote
