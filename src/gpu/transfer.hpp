// Staging uploads and readbacks for device-local buffers. Each call submits and waits: these
// are for set-up, tests and tools, never for a per-frame path.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/image.hpp"

namespace mote::gpu {

// Copies bytes into dst at dst_offset through a temporary upload buffer.
Status upload(Device& device, const Buffer& dst, std::span<const uint8_t> bytes, VkDeviceSize dst_offset = 0);
// Copies size bytes from src at src_offset into a new vector through a readback buffer.
Result<std::vector<uint8_t>> readback(Device& device, const Buffer& src, VkDeviceSize size,
                                      VkDeviceSize src_offset = 0);

// Fills a colour image with tightly packed texels (bytes = width * height * texel size) and
// leaves it in SHADER_READ_ONLY_OPTIMAL for fragment and compute shaders.
Status upload_image(Device& device, const Image& image, std::span<const uint8_t> bytes);
// Copies a colour image that is in `layout` into tightly packed texels (texel_bytes each);
// the image is returned to `layout`. Whatever wrote it before must have been submitted.
Result<std::vector<uint8_t>> readback_image(Device& device, const Image& image, VkImageLayout layout,
                                            uint32_t texel_bytes);

template <typename T>
Status upload_span(Device& device, const Buffer& dst, std::span<const T> values, VkDeviceSize dst_offset = 0) {
  return upload(device, dst, std::span(reinterpret_cast<const uint8_t*>(values.data()), values.size_bytes()),
                dst_offset);
}

template <typename T>
Result<std::vector<T>> readback_as(Device& device, const Buffer& src, size_t count, VkDeviceSize src_offset = 0) {
  MOTE_TRY_ASSIGN(std::vector<uint8_t> bytes, readback(device, src, count * sizeof(T), src_offset));
  std::vector<T> out(count);
  if (count) std::memcpy(out.data(), bytes.data(), count * sizeof(T));
  return out;
}

}  // namespace mote::gpu
