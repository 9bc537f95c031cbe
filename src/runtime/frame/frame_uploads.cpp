#include "runtime/frame/frame_uploads.hpp"

#include <algorithm>
#include <cstring>

namespace mote::runtime {

void update_buffer(VkCommandBuffer cmd, const gpu::Buffer& buffer, VkDeviceSize offset, const void* data,
                   size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t done = 0; done < bytes;) {
    const size_t n = std::min<size_t>(bytes - done, 65536);
    vkCmdUpdateBuffer(cmd, buffer.handle(), offset + done, n, p + done);
    done += n;
  }
}

void FrameUploads::add(const gpu::Buffer& dst, VkDeviceSize offset, const void* data, VkDeviceSize bytes) {
  regions_.push_back({&dst, offset, data, bytes});
}

Status FrameUploads::stage(gpu::Device& device, bool inline_only) {
  current_ = nullptr;
  if (inline_only) return ok_status();
  VkDeviceSize staged_bytes = 0;
  for (const Region& r : regions_)
    if (r.bytes > kInlineUpdateBytes) staged_bytes += r.bytes;
  if (staged_bytes == 0) return ok_status();
  MOTE_TRY_ASSIGN(current_, staging_for(device, staged_bytes));
  auto* mapped = static_cast<uint8_t*>(current_->buffer.mapped());
  VkDeviceSize at = 0;
  for (Region& r : regions_) {
    if (r.bytes <= kInlineUpdateBytes) continue;
    std::memcpy(mapped + at, r.data, r.bytes);
    r.staged = true;
    r.staging_offset = at;
    at += r.bytes;
  }
  return current_->buffer.flush();
}

void FrameUploads::record(VkCommandBuffer cmd) const {
  // One copy command per destination, in the order the destinations first appear.
  std::vector<const gpu::Buffer*> destinations;
  for (const Region& r : regions_)
    if (r.staged && std::find(destinations.begin(), destinations.end(), r.dst) == destinations.end())
      destinations.push_back(r.dst);
  for (const gpu::Buffer* dst : destinations) {
    std::vector<VkBufferCopy> copies;
    for (const Region& r : regions_)
      if (r.staged && r.dst == dst) copies.push_back({r.staging_offset, r.offset, r.bytes});
    vkCmdCopyBuffer(cmd, current_->buffer.handle(), dst->handle(), uint32_t(copies.size()), copies.data());
  }
  for (const Region& r : regions_)
    if (!r.staged) update_buffer(cmd, *r.dst, r.offset, r.data, size_t(r.bytes));
}

void FrameUploads::submitted(uint64_t serial, UploadStats& stats) {
  if (current_) current_->serial = serial;
  for (const Region& r : regions_) ++(r.staged ? stats.staged_regions : stats.updated_regions);
  regions_.clear();
  current_ = nullptr;
}

Result<FrameUploads::Staging*> FrameUploads::staging_for(gpu::Device& device, VkDeviceSize bytes) {
  MOTE_TRY_ASSIGN(const uint64_t completed, device.completed_serial());
  Staging* best = nullptr;
  for (Staging& s : staging_)
    if (s.serial <= completed && s.buffer.size() >= bytes && (!best || s.buffer.size() < best->buffer.size()))
      best = &s;
  if (best) return best;
  // None free and large enough: a new one (powers of two from 64 KiB), replacing a free one if any.
  VkDeviceSize size = 65536;
  while (size < bytes) size *= 2;
  MOTE_TRY_ASSIGN(gpu::Buffer buffer, gpu::Buffer::create(device, {.size = size,
                                                                   .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                                   .memory = gpu::MemoryUsage::kUpload,
                                                                   .name = "mote.frame.staging"}));
  for (Staging& s : staging_)
    if (s.serial <= completed) {
      s.buffer = std::move(buffer);  // the old one is destroyed once the GPU is done with it
      s.serial = 0;
      return &s;
    }
  staging_.push_back({std::move(buffer), 0});
  return &staging_.back();
}

void RetiredBuffers::release(uint64_t frame, uint32_t frames_in_flight) {
  while (!retired_.empty() && retired_.front().frame + frames_in_flight <= frame) retired_.pop_front();
}

}  // namespace mote::runtime
