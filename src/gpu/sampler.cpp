#include "gpu/sampler.hpp"

#include <utility>

#include "gpu/vk_check.hpp"

namespace mote::gpu {

Result<Sampler> Sampler::create(Device& device, const SamplerCreateInfo& info) {
  Sampler s;
  s.device_ = &device;
  VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  ci.magFilter = info.filter;
  ci.minFilter = info.filter;
  ci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  ci.addressModeU = ci.addressModeV = ci.addressModeW = info.address;
  ci.compareEnable = info.compare ? VK_TRUE : VK_FALSE;
  ci.compareOp = info.compare_op;
  ci.borderColor = info.border;
  ci.maxLod = 0.0f;
  MOTE_VK_TRY(vkCreateSampler(device.handle(), &ci, nullptr, &s.sampler_));
  device.set_name(VK_OBJECT_TYPE_SAMPLER, s.sampler_, info.name);
  return s;
}

Sampler& Sampler::operator=(Sampler&& other) noexcept {
  if (this != &other) {
    release();
    device_ = std::exchange(other.device_, nullptr);
    sampler_ = std::exchange(other.sampler_, VK_NULL_HANDLE);
  }
  return *this;
}

void Sampler::release() {
  if (!device_ || !sampler_) return;
  VkDevice dev = device_->handle();
  VkSampler sampler = sampler_;
  device_->defer_destroy([dev, sampler] { vkDestroySampler(dev, sampler, nullptr); });
  device_ = nullptr;
  sampler_ = VK_NULL_HANDLE;
}

}  // namespace mote::gpu
