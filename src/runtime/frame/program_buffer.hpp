// The program buffer on the GPU: kFrameShapeWords words of opcode shapes (what the wide
// interpreter's decode reads), then the program heap's image as of the last frame. Each frame
// brings it in line with the heap: when a heap section grew, a larger buffer receives the old
// sections at their new bases by a copy on the GPU (nothing is uploaded again); then the heap's
// zeroed ranges are filled and its written ranges uploaded.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/device.hpp"
#include "mote/result.hpp"
#include "runtime/bookkeeping/program_heap.hpp"
#include "runtime/frame/frame_options.hpp"
#include "runtime/frame/frame_uploads.hpp"

namespace mote::runtime {

class ProgramBuffer {
 public:
  // The shapes and the heap's image, uploaded whole once (counted in `stats`); clears the heap's
  // change records.
  static Result<ProgramBuffer> create(gpu::Device& device, ProgramHeap& heap, UploadStats& stats);

  // This frame's part: a larger buffer when the heap's layout moved (the old one retired), and the
  // heap's changed ranges as fills and upload regions. Returns whether the buffer was replaced.
  Result<bool> prepare(gpu::Device& device, const ProgramHeap& heap, FrameUploads& uploads, UploadStats& stats,
                       RetiredBuffers& retired, uint64_t frame);
  // The growth copy and the fills, recorded before the uploads.
  void record(VkCommandBuffer cmd) const;
  // After the frame was recorded: the GPU has the heap's layout and words.
  void committed(ProgramHeap& heap);

  const gpu::Buffer& buffer() const { return buffer_; }
  // Heap image words on the GPU (after the shapes).
  uint32_t image_words() const { return image_words_; }
  // The image as the last frame left it (waits; tests and tools).
  Result<std::vector<uint32_t>> read_image(gpu::Device& device) const;

 private:
  gpu::Buffer buffer_;
  const gpu::Buffer* grown_from_ = nullptr;                   // this frame's predecessor (retired), when it grew
  std::vector<VkBufferCopy> moves_;                           // the growth copy's regions
  std::vector<std::pair<VkDeviceSize, VkDeviceSize>> fills_;  // byte offset, size
  // The heap layout the buffer has on the GPU (section bases and capacities, image words).
  uint32_t bases_[kHeapSectionCount] = {};
  uint32_t capacities_[kHeapSectionCount] = {};
  uint32_t image_words_ = 0;
};

}  // namespace mote::runtime
