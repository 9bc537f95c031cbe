#include "runtime/drivers/manual_driver.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "gpu/commands.hpp"
#include "shared/emitter_record.h"
#include "shared/frame.h"
#include "shared/particle.h"

namespace mote::runtime {

namespace {

Error no_manual_row(uint32_t row) {
  return make_error(ErrorCode::kNotFound, "no manual emitter at row " + std::to_string(row));
}

}  // namespace

Status check_standard_particle(const Program& program) {
  for (size_t i = 0; i < kParticleMembers.size(); ++i) {
    const ParticleMember& want = kParticleMembers[i];
    if (i >= program.particle_fields.size())
      return make_error(ErrorCode::kInvalidArgument, "particle_fields[" + std::to_string(i) +
                                                         "]: missing; the standard particle has '" +
                                                         std::string(want.name) + "' there");
    const FieldDecl& f = program.particle_fields[i];
    if (f.name != want.name || f.width != want.width)
      return make_error(ErrorCode::kInvalidArgument, "particle_fields[" + std::to_string(i) + "]: '" + f.name +
                                                         "' (width " + std::to_string(f.width) +
                                                         "), the standard particle has '" + std::string(want.name) +
                                                         "' (width " + std::to_string(want.width) + ") there");
  }
  return ok_status();
}

Result<ManualDrivers> ManualDrivers::create(gpu::Device& device) {
  ManualDrivers d;
  d.device_ = &device;
  MOTE_TRY_ASSIGN(d.fill_, gpu::ComputePipeline::create(device, "runtime/drivers/manual_fill"));
  return d;
}

Status ManualDrivers::add(gpu::Device& device, uint32_t row, uint32_t max_count) {
  if (max_count == 0 || max_count > (1u << 24))
    return make_error(ErrorCode::kInvalidArgument,
                      "a manual emitter holds 1 .. 2^24 records, " + std::to_string(max_count) + " asked");
  Row r;
  r.max_count = max_count;
  r.records.resize(max_count);
  MOTE_TRY_ASSIGN(r.source, gpu::Buffer::create(device, {.size = VkDeviceSize(max_count) * sizeof(Particle),
                                                         .name = "mote.manual_records"}));
  rows_.insert_or_assign(row, std::move(r));
  return ok_status();
}

void ManualDrivers::remove(uint32_t row) {
  rows_.erase(row);
  std::erase_if(fills_, [&](const auto& f) { return f.first == row; });
}

Result<ManualDrivers::Row*> ManualDrivers::find(uint32_t row) {
  auto it = rows_.find(row);
  if (it == rows_.end()) return no_manual_row(row);
  return &it->second;
}

Result<const ManualDrivers::Row*> ManualDrivers::find(uint32_t row) const {
  auto it = rows_.find(row);
  if (it == rows_.end()) return no_manual_row(row);
  return &it->second;
}

Result<Particle> ManualDrivers::get(uint32_t row, uint32_t index) const {
  MOTE_TRY_ASSIGN(const Row* r, find(row));
  if (index >= r->max_count)
    return make_error(ErrorCode::kInvalidArgument, "get(" + std::to_string(index) + "): the manual emitter holds " +
                                                       std::to_string(r->max_count) + " records");
  return r->records[index];
}

Status ManualDrivers::set(uint32_t row, uint32_t index, const Particle& particle) {
  return write_range(row, index, std::span(&particle, 1));
}

Status ManualDrivers::write_range(uint32_t row, uint32_t first, std::span<const Particle> particles) {
  MOTE_TRY_ASSIGN(Row * r, find(row));
  if (first > r->max_count || particles.size() > r->max_count - first)
    return make_error(ErrorCode::kInvalidArgument, "write_range(" + std::to_string(first) + ", " +
                                                       std::to_string(particles.size()) + " records): past the " +
                                                       std::to_string(r->max_count) + " the manual emitter holds");
  std::copy(particles.begin(), particles.end(), r->records.begin() + first);
  return ok_status();
}

Status ManualDrivers::set_count(uint32_t row, uint32_t count) {
  MOTE_TRY_ASSIGN(Row * r, find(row));
  if (count > r->max_count)
    return make_error(ErrorCode::kInvalidArgument, "set_count(" + std::to_string(count) +
                                                       "): the manual emitter holds " + std::to_string(r->max_count) +
                                                       " records");
  r->count = count;
  return ok_status();
}

Status ManualDrivers::upload(uint32_t row) {
  MOTE_TRY_ASSIGN(Row * r, find(row));
  r->upload_pending = true;
  return ok_status();
}

uint32_t ManualDrivers::count(uint32_t row) const {
  auto it = rows_.find(row);
  return it == rows_.end() ? 0u : it->second.count;
}

uint32_t ManualDrivers::max_count(uint32_t row) const {
  auto it = rows_.find(row);
  return it == rows_.end() ? 0u : it->second.max_count;
}

Status ManualDrivers::prepare(EmitterLifecycle& emitters, FrameUploads& uploads) {
  // Fills left from a prepared frame that was refused before it was recorded go out again.
  for (const auto& [row, count] : fills_)
    if (auto it = rows_.find(row); it != rows_.end()) it->second.upload_pending = true;
  fills_.clear();
  for (auto& [row, r] : rows_) {
    if (!r.upload_pending) continue;
    MOTE_TRY(emitters.set_control(row, shader::kEmitterFlagReplace, true));
    if (r.count > 0) {
      MOTE_TRY(emitters.burst(row, r.count));
      uploads.add(r.source, 0, r.records.data(), VkDeviceSize(r.count) * sizeof(Particle));
      fills_.emplace_back(row, r.count);
    }
    r.upload_pending = false;
  }
  return ok_status();
}

void ManualDrivers::record(const FrameRecording& frame) const {
  if (fills_.empty()) return;
  const FrameBuffers& b = frame.buffers;
  for (const auto& [row, count] : fills_) {
    const Row& r = rows_.at(row);
    const shader::ManualFillPush push{row, count, 0u, 0u};
    gpu::ComputeRecorder(frame.device, frame.cmd)
        .bind(fill_)
        .buffers({{shader::kFrameBindingParams, &b.params},
                  {shader::kFrameBindingCounters, &b.counters},
                  {shader::kFrameBindingStates, &b.states},
                  {shader::kFrameBindingSpawnSums, &b.spawn_sums},
                  {shader::kFrameBindingSpawnPlaces, &b.spawn_places},
                  {shader::kFrameBindingAliveOut, &frame.alive_out},
                  {shader::kFrameBindingPool, &b.pool},
                  {shader::kManualFillBindingRecords, &r.source}})
        .push(push)
        .dispatch_threads(count);
  }
  gpu::compute_to_compute(frame.cmd);
}

void ManualDrivers::recorded(EmitterLifecycle& emitters) {
  for (const auto& [row, r] : rows_) {
    if (!emitters.is_live(row)) continue;
    const EmitterLifecycle::Row* live = emitters.row(row);
    if (live != nullptr && (live->emitter.control_flags & shader::kEmitterFlagReplace) != 0)
      (void)emitters.set_control(row, shader::kEmitterFlagReplace, false);  // a live row: cannot fail
  }
  fills_.clear();
}

}  // namespace mote::runtime
