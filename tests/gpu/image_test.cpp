// Borrowed images (gpu::Image::borrow): a host's image and view passed where Mote takes a
// `const gpu::Image&`, used by Mote's helpers, and never destroyed by Mote — the validation layer
// reports a use or a destruction of a handle Mote had destroyed, so these tests fail if a borrow
// ever frees what it wraps.
#include <gtest/gtest.h>

#include <cstring>
#include <utility>
#include <vector>

#include "gpu/commands.hpp"
#include "gpu/image.hpp"
#include "gpu/transfer.hpp"
#include "gpu/vk_check.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::test {
namespace {

constexpr uint32_t kWidth = 8, kHeight = 4;

// An RGBA8 image, its memory and a view made with the raw API, as a host engine makes its own.
struct HostImage {
  VkDevice device = VK_NULL_HANDLE;
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;

  void destroy() {
    if (view) vkDestroyImageView(device, view, nullptr);
    if (image) vkDestroyImage(device, image, nullptr);
    if (memory) vkFreeMemory(device, memory, nullptr);
    view = VK_NULL_HANDLE;
    image = VK_NULL_HANDLE;
    memory = VK_NULL_HANDLE;
  }
};

Status make_host_image(gpu::Device& device, HostImage& out) {
  out.device = device.handle();
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = VK_FORMAT_R8G8B8A8_UNORM;
  ci.extent = {kWidth, kHeight, 1};
  ci.mipLevels = 1;
  ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  MOTE_VK_TRY(vkCreateImage(out.device, &ci, nullptr, &out.image));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(out.device, out.image, &req);
  MOTE_TRY_ASSIGN(uint32_t type, device.find_memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT));
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = req.size;
  ai.memoryTypeIndex = type;
  MOTE_VK_TRY(vkAllocateMemory(out.device, &ai, nullptr, &out.memory));
  MOTE_VK_TRY(vkBindImageMemory(out.device, out.image, out.memory, 0));
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = out.image;
  vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vi.format = ci.format;
  vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  MOTE_VK_TRY(vkCreateImageView(out.device, &vi, nullptr, &out.view));
  return ok_status();
}

// Clears `image` (in `from`) to `rgba` and leaves it in TRANSFER_SRC_OPTIMAL.
Status clear_to(gpu::Device& device, const gpu::Image& image, VkImageLayout from, const float (&rgba)[4]) {
  return device.submit_and_wait([&](VkCommandBuffer cmd) {
    gpu::transition_image(cmd, image, from, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkClearColorValue clear{};
    std::memcpy(clear.float32, rgba, sizeof(rgba));
    const VkImageSubresourceRange range{image.aspect(), 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &clear, 1, &range);
    gpu::transition_image(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  });
}

std::vector<uint8_t> texels_of(uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
  std::vector<uint8_t> out;
  for (uint32_t i = 0; i < kWidth * kHeight; ++i) out.insert(out.end(), {r, g, b, a});
  return out;
}

class ImageBorrowTest : public GpuTest {};

TEST_F(ImageBorrowTest, BorrowedHostImageIsUsedAndLeftToItsOwner) {
  HostImage host;
  ASSERT_TRUE(make_host_image(*device_, host).ok());
  {
    const gpu::Image borrowed = gpu::Image::borrow(host.image, host.view, VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight);
    EXPECT_TRUE(borrowed.valid());
    EXPECT_TRUE(borrowed.borrowed());
    EXPECT_EQ(borrowed.handle(), host.image);
    EXPECT_EQ(borrowed.view(), host.view);
    EXPECT_EQ(borrowed.format(), VK_FORMAT_R8G8B8A8_UNORM);
    EXPECT_EQ(borrowed.width(), kWidth);
    EXPECT_EQ(borrowed.height(), kHeight);
    EXPECT_EQ(borrowed.aspect(), VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT));
    const float red[4] = {1.0f, 0.0f, 0.0f, 1.0f};
    ASSERT_TRUE(clear_to(*device_, borrowed, VK_IMAGE_LAYOUT_UNDEFINED, red).ok());
    auto texels = gpu::readback_image(*device_, borrowed, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 4);
    ASSERT_TRUE(texels.ok()) << texels.error().to_string();
    EXPECT_EQ(texels.value(), texels_of(255, 0, 0, 255));
  }
  // The borrow is gone and its (would-be) deferred destructions have had every chance to run:
  // the host's image still works through a new borrow, then the host destroys it itself.
  ASSERT_TRUE(device_->wait_idle().ok());
  device_->collect_garbage();
  const gpu::Image again = gpu::Image::borrow(host.image, host.view, VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight);
  const float blue[4] = {0.0f, 0.0f, 1.0f, 1.0f};
  ASSERT_TRUE(clear_to(*device_, again, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, blue).ok());
  auto texels = gpu::readback_image(*device_, again, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 4);
  ASSERT_TRUE(texels.ok()) << texels.error().to_string();
  EXPECT_EQ(texels.value(), texels_of(0, 0, 255, 255));
  ASSERT_TRUE(device_->wait_idle().ok());
  host.destroy();
}

TEST_F(ImageBorrowTest, MovingABorrowMovesTheHandlesAndStillOwnsNothing) {
  auto owned = gpu::Image::create(*device_, {.width = kWidth,
                                             .height = kHeight,
                                             .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                                      VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                             .name = "test.owned"});
  ASSERT_TRUE(owned.ok()) << owned.error().to_string();
  EXPECT_FALSE(owned.value().borrowed());
  gpu::Image moved;
  {
    gpu::Image borrowed = gpu::Image::borrow(owned.value().handle(), owned.value().view(), owned.value().format(),
                                             kWidth, kHeight);
    moved = std::move(borrowed);
    EXPECT_FALSE(borrowed.valid());  // NOLINT(bugprone-use-after-move): the moved-from state is the point
    EXPECT_FALSE(borrowed.borrowed());
  }
  EXPECT_TRUE(moved.borrowed());
  EXPECT_EQ(moved.handle(), owned.value().handle());
  // Replacing the borrow (move-assigning over it) releases nothing either.
  moved = gpu::Image::borrow(VK_NULL_HANDLE, VK_NULL_HANDLE, VK_FORMAT_UNDEFINED, 0, 0);
  EXPECT_FALSE(moved.valid());
  ASSERT_TRUE(device_->wait_idle().ok());
  device_->collect_garbage();
  // The owner's image is intact and usable.
  const float green[4] = {0.0f, 1.0f, 0.0f, 1.0f};
  ASSERT_TRUE(clear_to(*device_, owned.value(), VK_IMAGE_LAYOUT_UNDEFINED, green).ok());
  auto texels = gpu::readback_image(*device_, owned.value(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 4);
  ASSERT_TRUE(texels.ok()) << texels.error().to_string();
  EXPECT_EQ(texels.value(), texels_of(0, 255, 0, 255));
}

}  // namespace
}  // namespace mote::test
