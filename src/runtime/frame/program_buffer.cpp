#include "runtime/frame/program_buffer.hpp"

#include <algorithm>

#include "gpu/transfer.hpp"
#include "mote/isa.hpp"
#include "runtime/frame/frame_buffers.hpp"
#include "runtime/frame/frame_recording.hpp"

namespace mote::runtime {

namespace {

constexpr uint32_t kShapeWords = shader::kFrameShapeWords;

}  // namespace

Result<ProgramBuffer> ProgramBuffer::create(gpu::Device& device, ProgramHeap& heap, UploadStats& stats) {
  ProgramBuffer p;
  const std::span<const uint32_t> image = heap.image();
  std::vector<uint32_t> words(kShapeWords + image.size(), 0u);
  for (const isa::OpInfo& op : isa::all_ops()) words[op.number * 4] = isa::op_shape(op);
  std::copy(image.begin(), image.end(), words.begin() + kShapeWords);
  MOTE_TRY_ASSIGN(p.buffer_, make_frame_buffer(device, words.size() * 4, kFrameStorageUsage, "mote.frame.program"));
  MOTE_TRY(gpu::upload_span(device, p.buffer_, std::span<const uint32_t>(words)));
  stats.program_bytes += words.size() * 4;
  p.committed(heap);
  return p;
}

Result<bool> ProgramBuffer::prepare(gpu::Device& device, const ProgramHeap& heap, FrameUploads& uploads,
                                    UploadStats& stats, RetiredBuffers& retired, uint64_t frame) {
  // A growth prepared for a frame that was never recorded: the data is still in the old buffer.
  if (grown_from_) buffer_ = retired.take_newest();
  moves_.clear();
  fills_.clear();
  grown_from_ = nullptr;
  const std::span<const uint32_t> image = heap.image();
  bool relayout = image.size() != image_words_;
  for (uint32_t i = 0; i < kHeapSectionCount; ++i)
    relayout = relayout || heap.section_base(HeapSection(i)) != bases_[i] ||
               heap.section_capacity(HeapSection(i)) != capacities_[i];
  if (relayout) {
    MOTE_TRY_ASSIGN(gpu::Buffer grown, make_frame_buffer(device, (VkDeviceSize(kShapeWords) + image.size()) * 4,
                                                         kFrameStorageUsage, "mote.frame.program"));
    moves_.push_back({0, 0, VkDeviceSize(kShapeWords) * 4});
    for (uint32_t i = 0; i < kHeapSectionCount; ++i) {
      const uint32_t words = std::min(capacities_[i], heap.section_capacity(HeapSection(i)));
      if (words == 0) continue;
      moves_.push_back({VkDeviceSize(kShapeWords + bases_[i]) * 4,
                        VkDeviceSize(kShapeWords + heap.section_base(HeapSection(i))) * 4, VkDeviceSize(words) * 4});
    }
    retired.retire(std::move(buffer_), frame);
    buffer_ = std::move(grown);
    ++stats.program_buffer_growths;
  }
  // The heap's changes: zeroed ranges filled first, then the written ranges uploaded.
  const HeapChanges& changes = heap.changes();
  auto region = [&](uint32_t first_word, uint32_t words) {
    uploads.add(buffer_, VkDeviceSize(kShapeWords + first_word) * 4, image.data() + first_word,
                VkDeviceSize(words) * 4);
    stats.program_bytes += VkDeviceSize(words) * 4;
  };
  if (changes.header) region(0, shader::kHeapHeaderWords);
  for (uint32_t i = 0; i < kHeapSectionCount; ++i) {
    const uint32_t base = heap.section_base(HeapSection(i));
    for (const auto& [first, last] : changes.zeroed[i])
      fills_.push_back({VkDeviceSize(kShapeWords + base + first) * 4, VkDeviceSize(last - first) * 4});
    for (const auto& [first, last] : changes.written[i]) region(base + first, last - first);
  }
  if (relayout) grown_from_ = &retired.newest();
  return relayout;
}

void ProgramBuffer::record(VkCommandBuffer cmd) const {
  // The growth: a zeroed larger buffer, the shapes and every section copied to its new base,
  // before anything below writes into it.
  if (grown_from_) {
    vkCmdFillBuffer(cmd, buffer_.handle(), 0, VK_WHOLE_SIZE, 0);
    transfer_to_transfer(cmd);
    vkCmdCopyBuffer(cmd, grown_from_->handle(), buffer_.handle(), uint32_t(moves_.size()), moves_.data());
    transfer_to_transfer(cmd);
  }
  if (!fills_.empty()) {
    for (const auto& [offset, bytes] : fills_) vkCmdFillBuffer(cmd, buffer_.handle(), offset, bytes, 0);
    transfer_to_transfer(cmd);
  }
}

void ProgramBuffer::committed(ProgramHeap& heap) {
  for (uint32_t i = 0; i < kHeapSectionCount; ++i) {
    bases_[i] = heap.section_base(HeapSection(i));
    capacities_[i] = heap.section_capacity(HeapSection(i));
  }
  image_words_ = uint32_t(heap.image().size());
  heap.clear_changes();
  heap.clear_dirty();
  grown_from_ = nullptr;
  moves_.clear();
  fills_.clear();
}

Result<std::vector<uint32_t>> ProgramBuffer::read_image(gpu::Device& device) const {
  return gpu::readback_as<uint32_t>(device, buffer_, image_words_, VkDeviceSize(kShapeWords) * 4);
}

}  // namespace mote::runtime
