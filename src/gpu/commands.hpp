// Recording helpers: bind a compute pipeline, push its descriptors and constants (checked
// against the shader's reflection), dispatch directly or indirectly, and synchronization2
// barriers between the stages Mote uses.
#pragma once

#include <vulkan/vulkan.h>

#include <initializer_list>
#include <span>

#include "gpu/buffer.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/graphics_pipeline.hpp"
#include "gpu/image.hpp"

namespace mote::gpu {

struct BufferBinding {
  uint32_t binding = 0;
  const Buffer* buffer = nullptr;
  VkDeviceSize offset = 0;
  VkDeviceSize range = VK_WHOLE_SIZE;
};

// A sampled image (with its sampler) or a storage image, in the layout it will be in when read.
struct ImageBinding {
  uint32_t binding = 0;
  VkImageView view = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;                               // combined image samplers only
  VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;  // GENERAL for storage images
};

// Pushes descriptors for set 0 of `layout`, each binding checked against `reflection` (a
// mismatch is a Mote bug, caught by a check that stays on in release).
void push_descriptors(Device& device, VkCommandBuffer cmd, VkPipelineBindPoint bind_point, VkPipelineLayout layout,
                      const ShaderReflection& reflection, std::span<const BufferBinding> buffers,
                      std::span<const ImageBinding> images);

class ComputeRecorder {
 public:
  ComputeRecorder(Device& device, VkCommandBuffer cmd) : device_(device), cmd_(cmd) {}

  ComputeRecorder& bind(const ComputePipeline& pipeline);
  // Every binding must exist in the shader with a buffer type; a mismatch is a Mote bug.
  ComputeRecorder& buffers(std::initializer_list<BufferBinding> bindings);
  // The same from a list built at run time (a binding set that depends on the pipeline).
  ComputeRecorder& buffers(std::span<const BufferBinding> bindings);
  // Buffers and images in one push (a push replaces the whole set's pushed bindings only where
  // it writes, so buffers() then images() is equally valid).
  ComputeRecorder& bind_resources(std::initializer_list<BufferBinding> bindings,
                                  std::initializer_list<ImageBinding> images);
  ComputeRecorder& push_bytes(const void* data, uint32_t size);
  template <typename T>
  ComputeRecorder& push(const T& constants) {
    return push_bytes(&constants, sizeof(T));
  }
  ComputeRecorder& dispatch(uint32_t x, uint32_t y = 1, uint32_t z = 1);
  // Enough workgroups of the pipeline's local_size.x to cover `invocations` (1-D).
  ComputeRecorder& dispatch_threads(uint32_t invocations);
  ComputeRecorder& dispatch_indirect(const Buffer& args, VkDeviceSize offset = 0);

  VkCommandBuffer cmd() const { return cmd_; }

 private:
  Device& device_;
  VkCommandBuffer cmd_;
  const ComputePipeline* pipeline_ = nullptr;
};

// Draws with a graphics pipeline inside a dynamic-rendering scope the caller began.
class GraphicsRecorder {
 public:
  GraphicsRecorder(Device& device, VkCommandBuffer cmd) : device_(device), cmd_(cmd) {}
  // Binds the pipeline and sets the viewport (y down, depth 0..1) and scissor to the extent.
  GraphicsRecorder& bind(const GraphicsPipeline& pipeline, uint32_t width, uint32_t height);
  GraphicsRecorder& resources(std::initializer_list<BufferBinding> buffers,
                              std::initializer_list<ImageBinding> images = {});
  GraphicsRecorder& push_bytes(const void* data, uint32_t size);
  template <typename T>
  GraphicsRecorder& push(const T& constants) {
    return push_bytes(&constants, sizeof(T));
  }
  GraphicsRecorder& vertex_buffer(const Buffer& buffer, VkDeviceSize offset = 0);
  GraphicsRecorder& index_buffer(const Buffer& buffer, VkDeviceSize offset = 0);  // u32 indices
  GraphicsRecorder& draw(uint32_t vertices, uint32_t instances = 1);
  GraphicsRecorder& draw_indexed(uint32_t indices, uint32_t instances = 1);
  // VkDrawIndirectCommand / VkDrawIndexedIndirectCommand at `offset`.
  GraphicsRecorder& draw_indirect(const Buffer& args, VkDeviceSize offset = 0);
  GraphicsRecorder& draw_indexed_indirect(const Buffer& args, VkDeviceSize offset = 0);

 private:
  Device& device_;
  VkCommandBuffer cmd_;
  const GraphicsPipeline* pipeline_ = nullptr;
};

struct ColorTarget {
  const Image* image = nullptr;
  bool clear = true;
  VkClearColorValue clear_value{};
};
struct DepthTarget {
  const Image* image = nullptr;
  bool clear = true;
  float clear_depth = 0.0f;  // reversed-Z: far
  bool store = true;         // false: store op NONE, for a depth only read (its contents stay as they were)
};
// vkCmdBeginRendering over the targets' full extent; images must be in ATTACHMENT_OPTIMAL
// (colour) / DEPTH_STENCIL_ATTACHMENT_OPTIMAL or DEPTH_STENCIL_READ_ONLY_OPTIMAL (depth; the
// depth-only layouts would need separateDepthStencilLayouts, which Mote does not enable).
void begin_rendering(VkCommandBuffer cmd, std::initializer_list<ColorTarget> colors, DepthTarget depth,
                     VkImageLayout depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);

// Image layout transition with explicit stages and accesses (synchronization2).
void image_barrier(VkCommandBuffer cmd, const Image& image, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                   VkAccessFlags2 dst_access);

// A global memory barrier (synchronization2).
void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);
// Compute writes -> compute reads/writes.
void compute_to_compute(VkCommandBuffer cmd);
// Compute writes -> indirect argument reads (and compute).
void compute_to_indirect(VkCommandBuffer cmd);
// Transfer writes (copy, fill) -> compute.
void transfer_to_compute(VkCommandBuffer cmd);
// Compute writes -> transfer reads.
void compute_to_transfer(VkCommandBuffer cmd);

}  // namespace mote::gpu
