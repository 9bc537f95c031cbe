#include "gpu/commands.hpp"

#include <vector>

#include "core/check.hpp"

namespace mote::gpu {

ComputeRecorder& ComputeRecorder::bind(const ComputePipeline& pipeline) {
  MOTE_CHECK(pipeline.valid(), "binding an empty pipeline");
  pipeline_ = &pipeline;
  vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
  return *this;
}

void push_descriptors(Device& device, VkCommandBuffer cmd, VkPipelineBindPoint bind_point, VkPipelineLayout layout,
                      const ShaderReflection& reflection, std::span<const BufferBinding> buffers,
                      std::span<const ImageBinding> images) {
  std::vector<VkDescriptorBufferInfo> buffer_infos;
  buffer_infos.reserve(buffers.size());
  std::vector<VkDescriptorImageInfo> image_infos;
  image_infos.reserve(images.size());
  std::vector<VkWriteDescriptorSet> writes;
  writes.reserve(buffers.size() + images.size());
  for (const BufferBinding& b : buffers) {
    const ReflectedBinding* reflected = reflection.find_binding(0, b.binding);
    MOTE_CHECK(reflected, "binding not declared by the shader");
    MOTE_CHECK(reflected->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
                   reflected->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
               "binding is not a buffer in the shader");
    MOTE_CHECK(b.buffer && b.buffer->valid(), "binding an empty buffer");
    buffer_infos.push_back({b.buffer->handle(), b.offset, b.range});
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstBinding = b.binding;
    w.descriptorCount = 1;
    w.descriptorType = reflected->type;
    w.pBufferInfo = &buffer_infos.back();
    writes.push_back(w);
  }
  for (const ImageBinding& i : images) {
    const ReflectedBinding* reflected = reflection.find_binding(0, i.binding);
    MOTE_CHECK(reflected, "image binding not declared by the shader");
    MOTE_CHECK(reflected->type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
                   reflected->type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
                   reflected->type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
               "binding is not an image in the shader");
    MOTE_CHECK(i.view != VK_NULL_HANDLE, "binding an empty image view");
    MOTE_CHECK(reflected->type != VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER || i.sampler != VK_NULL_HANDLE,
               "a combined image sampler needs a sampler");
    image_infos.push_back({i.sampler, i.view, i.layout});
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstBinding = i.binding;
    w.descriptorCount = 1;
    w.descriptorType = reflected->type;
    w.pImageInfo = &image_infos.back();
    writes.push_back(w);
  }
  if (!writes.empty())
    device.cmd_push_descriptor_set(cmd, bind_point, layout, 0, uint32_t(writes.size()), writes.data());
}

ComputeRecorder& ComputeRecorder::buffers(std::initializer_list<BufferBinding> bindings) {
  return bind_resources(bindings, {});
}

ComputeRecorder& ComputeRecorder::buffers(std::span<const BufferBinding> bindings) {
  MOTE_CHECK(pipeline_ != nullptr, "buffers() before bind()");
  push_descriptors(device_, cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_->layout(), pipeline_->reflection(),
                   bindings, {});
  return *this;
}

ComputeRecorder& ComputeRecorder::bind_resources(std::initializer_list<BufferBinding> bindings,
                                                 std::initializer_list<ImageBinding> images) {
  MOTE_CHECK(pipeline_, "resources before bind()");
  push_descriptors(device_, cmd_, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_->layout(), pipeline_->reflection(),
                   std::span<const BufferBinding>(bindings.begin(), bindings.size()),
                   std::span<const ImageBinding>(images.begin(), images.size()));
  return *this;
}

ComputeRecorder& ComputeRecorder::push_bytes(const void* data, uint32_t size) {
  MOTE_CHECK(pipeline_, "push() before bind()");
  // The niagara habit: the C++ struct must be exactly what the shader declares.
  MOTE_CHECK(size == pipeline_->reflection().push_constant_size, "push constant size differs from the shader's");
  vkCmdPushConstants(cmd_, pipeline_->layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, size, data);
  return *this;
}

ComputeRecorder& ComputeRecorder::dispatch(uint32_t x, uint32_t y, uint32_t z) {
  MOTE_CHECK(pipeline_, "dispatch() before bind()");
  const auto& limits = device_.limits();
  MOTE_CHECK(x <= limits.maxComputeWorkGroupCount[0] && y <= limits.maxComputeWorkGroupCount[1] &&
                 z <= limits.maxComputeWorkGroupCount[2],
             "dispatch exceeds maxComputeWorkGroupCount");
  if (auto* log = device_.dispatch_log()) log->push_back({pipeline_->name(), {x, y, z}, nullptr, 0});
  if (x && y && z) vkCmdDispatch(cmd_, x, y, z);
  return *this;
}

ComputeRecorder& ComputeRecorder::dispatch_threads(uint32_t invocations) {
  const uint32_t local = pipeline_->local_size_x();
  return dispatch((invocations + local - 1) / local);
}

ComputeRecorder& ComputeRecorder::dispatch_indirect(const Buffer& args, VkDeviceSize offset) {
  MOTE_CHECK(pipeline_, "dispatch_indirect() before bind()");
  if (auto* log = device_.dispatch_log()) log->push_back({pipeline_->name(), {0, 0, 0}, &args, offset});
  vkCmdDispatchIndirect(cmd_, args.handle(), offset);
  return *this;
}

GraphicsRecorder& GraphicsRecorder::bind(const GraphicsPipeline& pipeline, uint32_t width, uint32_t height) {
  MOTE_CHECK(pipeline.valid(), "binding an empty pipeline");
  pipeline_ = &pipeline;
  vkCmdBindPipeline(cmd_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.handle());
  VkViewport viewport{0.0f, 0.0f, float(width), float(height), 0.0f, 1.0f};
  VkRect2D scissor{{0, 0}, {width, height}};
  vkCmdSetViewport(cmd_, 0, 1, &viewport);
  vkCmdSetScissor(cmd_, 0, 1, &scissor);
  return *this;
}

GraphicsRecorder& GraphicsRecorder::resources(std::initializer_list<BufferBinding> buffers,
                                              std::initializer_list<ImageBinding> images) {
  MOTE_CHECK(pipeline_, "resources() before bind()");
  push_descriptors(device_, cmd_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_->layout(), pipeline_->reflection(),
                   std::span<const BufferBinding>(buffers.begin(), buffers.size()),
                   std::span<const ImageBinding>(images.begin(), images.size()));
  return *this;
}

GraphicsRecorder& GraphicsRecorder::push_bytes(const void* data, uint32_t size) {
  MOTE_CHECK(pipeline_, "push() before bind()");
  MOTE_CHECK(size == pipeline_->reflection().push_constant_size, "push constant size differs from the shader's");
  vkCmdPushConstants(cmd_, pipeline_->layout(), pipeline_->push_constant_stages(), 0, size, data);
  return *this;
}

GraphicsRecorder& GraphicsRecorder::vertex_buffer(const Buffer& buffer, VkDeviceSize offset) {
  VkBuffer handle = buffer.handle();
  vkCmdBindVertexBuffers(cmd_, 0, 1, &handle, &offset);
  return *this;
}

GraphicsRecorder& GraphicsRecorder::index_buffer(const Buffer& buffer, VkDeviceSize offset) {
  vkCmdBindIndexBuffer(cmd_, buffer.handle(), offset, VK_INDEX_TYPE_UINT32);
  return *this;
}

GraphicsRecorder& GraphicsRecorder::draw(uint32_t vertices, uint32_t instances) {
  MOTE_CHECK(pipeline_, "draw() before bind()");
  if (vertices && instances) vkCmdDraw(cmd_, vertices, instances, 0, 0);
  return *this;
}

GraphicsRecorder& GraphicsRecorder::draw_indexed(uint32_t indices, uint32_t instances) {
  MOTE_CHECK(pipeline_, "draw_indexed() before bind()");
  if (indices && instances) vkCmdDrawIndexed(cmd_, indices, instances, 0, 0, 0);
  return *this;
}

GraphicsRecorder& GraphicsRecorder::draw_indirect(const Buffer& args, VkDeviceSize offset) {
  MOTE_CHECK(pipeline_, "draw_indirect() before bind()");
  vkCmdDrawIndirect(cmd_, args.handle(), offset, 1, sizeof(VkDrawIndirectCommand));
  return *this;
}

GraphicsRecorder& GraphicsRecorder::draw_indexed_indirect(const Buffer& args, VkDeviceSize offset) {
  MOTE_CHECK(pipeline_, "draw_indexed_indirect() before bind()");
  vkCmdDrawIndexedIndirect(cmd_, args.handle(), offset, 1, sizeof(VkDrawIndexedIndirectCommand));
  return *this;
}

void begin_rendering(VkCommandBuffer cmd, std::initializer_list<ColorTarget> colors, DepthTarget depth,
                     VkImageLayout depth_layout) {
  std::vector<VkRenderingAttachmentInfo> color_infos;
  uint32_t width = 0, height = 0;
  for (const ColorTarget& c : colors) {
    MOTE_CHECK(c.image && c.image->valid(), "rendering to an empty image");
    VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    a.imageView = c.image->view();
    a.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    a.loadOp = c.clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.clearValue.color = c.clear_value;
    color_infos.push_back(a);
    width = c.image->width();
    height = c.image->height();
  }
  VkRenderingAttachmentInfo depth_info{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  if (depth.image) {
    depth_info.imageView = depth.image->view();
    depth_info.imageLayout = depth_layout;
    depth_info.loadOp = depth.clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    depth_info.storeOp = depth.store ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_NONE;
    depth_info.clearValue.depthStencil = {depth.clear_depth, 0};
    width = depth.image->width();
    height = depth.image->height();
  }
  VkRenderingInfo info{VK_STRUCTURE_TYPE_RENDERING_INFO};
  info.renderArea = {{0, 0}, {width, height}};
  info.layerCount = 1;
  info.colorAttachmentCount = uint32_t(color_infos.size());
  info.pColorAttachments = color_infos.data();
  info.pDepthAttachment = depth.image ? &depth_info : nullptr;
  vkCmdBeginRendering(cmd, &info);
}

void image_barrier(VkCommandBuffer cmd, const Image& image, VkImageLayout from, VkImageLayout to,
                   VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                   VkAccessFlags2 dst_access) {
  VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image.handle();
  b.subresourceRange = {image.aspect(), 0, 1, 0, 1};
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.imageMemoryBarrierCount = 1;
  dep.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &dep);
}

void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
  VkMemoryBarrier2 b{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  b.srcStageMask = src_stage;
  b.srcAccessMask = src_access;
  b.dstStageMask = dst_stage;
  b.dstAccessMask = dst_access;
  VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dep.memoryBarrierCount = 1;
  dep.pMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cmd, &dep);
}

void compute_to_compute(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void compute_to_indirect(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                     VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void transfer_to_compute(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                 VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

void compute_to_transfer(VkCommandBuffer cmd) {
  memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
}

}  // namespace mote::gpu
