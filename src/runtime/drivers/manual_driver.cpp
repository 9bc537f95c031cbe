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
  MOTE_TRY_ASSIGN(d.patch_, gpu::ComputePipeline::create(device, "runtime/drivers/manual_patch"));
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
  MOTE_TRY_ASSIGN(r.slots,
                  gpu::Buffer::create(device, {.size = VkDeviceSize(max_count) * 4, .name = "mote.manual_slots"}));
  rows_.insert_or_assign(row, std::move(r));
  return ok_status();
}

void ManualDrivers::remove(uint32_t row) {
  rows_.erase(row);
  std::erase_if(fills_, [&](const Work& w) { return w.row == row; });
  std::erase_if(patches_, [&](const Work& w) { return w.row == row; });
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
  if (!particles.empty()) r->written.emplace_back(first, first + uint32_t(particles.size()));
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

std::vector<std::pair<uint32_t, uint32_t>> ManualDrivers::patch_ranges(const Row& r, uint32_t end) {
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
  for (auto [first, last] : r.written)
    if (first < end) ranges.emplace_back(first, std::min(last, end));
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<uint32_t, uint32_t>> merged;
  for (const auto& range : ranges) {
    if (!merged.empty() && range.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, range.second);
    } else {
      merged.push_back(range);
    }
  }
  if (merged.size() > kMaxPatchRanges) merged = {{merged.front().first, merged.back().second}};
  return merged;
}

Status ManualDrivers::prepare(EmitterLifecycle& emitters, FrameUploads& uploads) {
  // Work left from a prepared frame that was refused before it was recorded: its rows place
  // everything again (what the refused frame would have placed or patched is unknown to the GPU).
  for (const std::vector<Work>* left : {&fills_, &patches_})
    for (const Work& w : *left)
      if (auto it = rows_.find(w.row); it != rows_.end()) {
        it->second.upload_pending = true;
        it->second.placed = 0;
      }
  fills_.clear();
  patches_.clear();
  for (auto& [row, r] : rows_) {
    // An inactive row's particles are freed by the frame, and a new generation's (swap_effect)
    // orphans the old one's: its next upload places them anew.
    const EmitterLifecycle::Row* live = emitters.row(row);
    if (live == nullptr || (live->emitter.control_flags & shader::kEmitterFlagInactive) != 0 ||
        emitters.generation(row) != r.placed_generation)
      r.placed = 0;
    if (!r.upload_pending) continue;
    // Everything placed rewritten: placed anew, in the records' order, as the first upload was
    // (what the cpu driver does each frame: its simulation lists its particles newest first).
    const std::vector<std::pair<uint32_t, uint32_t>> patches = patch_ranges(r, r.placed);
    const bool rewritten = patches.size() == 1 && patches[0].first == 0 && patches[0].second == r.placed;
    const bool in_place = r.placed > 0 && r.count >= r.placed && !rewritten;
    if (!in_place) {
      MOTE_TRY(emitters.set_control(row, shader::kEmitterFlagReplace, true));
      if (r.count > 0) {
        MOTE_TRY(emitters.burst(row, r.count));
        uploads.add(r.source, 0, r.records.data(), VkDeviceSize(r.count) * sizeof(Particle));
        uploaded_bytes_ += uint64_t(r.count) * sizeof(Particle);
        fills_.push_back({row, 0, r.count, 0});
      }
    } else {
      const uint32_t header = (row & shader::kFrameHeaderRowMask) |
                              ((emitters.generation(row) & shader::kFrameHeaderGenerationMask)
                               << shader::kFrameHeaderRowBits);
      for (const auto& [first, end] : patches) {
        uploads.add(r.source, VkDeviceSize(first) * sizeof(Particle), r.records.data() + first,
                    VkDeviceSize(end - first) * sizeof(Particle));
        uploaded_bytes_ += uint64_t(end - first) * sizeof(Particle);
        patches_.push_back({row, first, end - first, header});
      }
      if (r.count > r.placed) {
        const uint32_t added = r.count - r.placed;
        MOTE_TRY(emitters.burst(row, added));
        uploads.add(r.source, VkDeviceSize(r.placed) * sizeof(Particle), r.records.data() + r.placed,
                    VkDeviceSize(added) * sizeof(Particle));
        uploaded_bytes_ += uint64_t(added) * sizeof(Particle);
        fills_.push_back({row, r.placed, added, 0});
      }
    }
    r.placed = r.count;
    r.placed_generation = emitters.generation(row);
    r.written.clear();
    r.upload_pending = false;
  }
  return ok_status();
}

void ManualDrivers::record(const FrameRecording& frame) const {
  if (fills_.empty() && patches_.empty()) return;
  const FrameBuffers& b = frame.buffers;
  for (const Work& w : fills_) {
    const Row& r = rows_.at(w.row);
    gpu::ComputeRecorder(frame.device, frame.cmd)
        .bind(fill_)
        .buffers({{shader::kFrameBindingParams, &b.params},
                  {shader::kFrameBindingCounters, &b.counters},
                  {shader::kFrameBindingStates, &b.states},
                  {shader::kFrameBindingSpawnSums, &b.spawn_sums},
                  {shader::kFrameBindingSpawnPlaces, &b.spawn_places},
                  {shader::kFrameBindingAliveOut, &frame.alive_out},
                  {shader::kFrameBindingPool, &b.pool},
                  {shader::kManualFillBindingRecords, &r.source},
                  {shader::kManualFillBindingSlots, &r.slots}})
        .push(shader::ManualFillPush{w.row, w.count, w.first, 0u})
        .dispatch_threads(w.count);
  }
  for (const Work& w : patches_) {
    const Row& r = rows_.at(w.row);
    gpu::ComputeRecorder(frame.device, frame.cmd)
        .bind(patch_)
        .buffers({{shader::kFrameBindingParams, &b.params},
                  {shader::kFrameBindingPool, &b.pool},
                  {shader::kManualFillBindingRecords, &r.source},
                  {shader::kManualFillBindingSlots, &r.slots}})
        .push(shader::ManualFillPush{w.row, w.count, w.first, w.header})
        .dispatch_threads(w.count);
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
  patches_.clear();
}

}  // namespace mote::runtime
