// The graphics side of src/gpu: a pipeline built from reflected vertex + fragment SPIR-V draws
// into a dynamic-rendering target with a depth test, and the pixels read back are counted.
#include <gtest/gtest.h>

#include <array>
#include <cstring>

#include "gpu/commands.hpp"
#include "gpu/graphics_pipeline.hpp"
#include "gpu/image.hpp"
#include "gpu/transfer.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::test {
namespace {

struct TrianglePush {
  std::array<float, 4> corners[3];
  std::array<float, 4> color;
};

class GraphicsTest : public GpuTest {
 protected:
  gpu::Image make_target(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect) {
    auto image = gpu::Image::create(
        *device_,
        {.width = kSize, .height = kSize, .format = format, .usage = usage, .aspect = aspect, .name = "test.target"});
    EXPECT_TRUE(image.ok()) << image.error().to_string();
    return std::move(image).value();
  }
  static constexpr uint32_t kSize = 64;
};

TEST_F(GraphicsTest, DrawsATriangleWithADepthTestAndReadsItBack) {
  if (!device_->description().queue_has_graphics) GTEST_SKIP() << "the device's queue cannot draw";
  gpu::Image color = make_target(VK_FORMAT_R8G8B8A8_UNORM,
                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                 VK_IMAGE_ASPECT_COLOR_BIT);
  gpu::Image depth = make_target(VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                 VK_IMAGE_ASPECT_DEPTH_BIT);
  auto pipeline = gpu::GraphicsPipeline::create(*device_, {.name = "test.triangle",
                                                           .vertex_shader = "gpu/test_triangle.vert",
                                                           .fragment_shader = "gpu/test_triangle.frag",
                                                           .color_formats = {VK_FORMAT_R8G8B8A8_UNORM},
                                                           .depth_format = VK_FORMAT_D32_SFLOAT,
                                                           .cull = VK_CULL_MODE_NONE});
  ASSERT_TRUE(pipeline.ok()) << pipeline.error().to_string();
  EXPECT_EQ(pipeline.value().reflection().push_constant_size, sizeof(TrianglePush));

  // The left half of the screen, nearer (reversed-Z: larger depth wins), red; then a full-screen
  // pair covering everything at a farther depth, green: only the right half turns green.
  TrianglePush near_tri{{{{-1, -1, 0.75f, 1}}, {{0, -1, 0.75f, 1}}, {{-1, 3, 0.75f, 1}}}, {{1, 0, 0, 1}}};
  TrianglePush near_tri2{{{{0, -1, 0.75f, 1}}, {{0, 3, 0.75f, 1}}, {{-1, 3, 0.75f, 1}}}, {{1, 0, 0, 1}}};
  TrianglePush far_tri{{{{-1, -1, 0.25f, 1}}, {{3, -1, 0.25f, 1}}, {{-1, 3, 0.25f, 1}}}, {{0, 1, 0, 1}}};
  ASSERT_TRUE(device_
                  ->submit_and_wait([&](VkCommandBuffer cmd) {
                    gpu::image_barrier(cmd, color, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                       VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
                    gpu::image_barrier(cmd, depth, VK_IMAGE_LAYOUT_UNDEFINED,
                                       VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_NONE,
                                       VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT,
                                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
                    gpu::begin_rendering(cmd, {{.image = &color, .clear = true, .clear_value = {{0, 0, 0, 1}}}},
                                         {.image = &depth, .clear = true, .clear_depth = 0.0f});
                    gpu::GraphicsRecorder rec(*device_, cmd);
                    rec.bind(pipeline.value(), kSize, kSize);
                    rec.push(near_tri).draw(3).push(near_tri2).draw(3).push(far_tri).draw(3);
                    vkCmdEndRendering(cmd);
                  })
                  .ok());
  auto pixels = gpu::readback_image(*device_, color, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 4);
  ASSERT_TRUE(pixels.ok()) << pixels.error().to_string();
  uint32_t red = 0, green = 0, other = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint8_t* p = pixels.value().data() + (y * kSize + x) * 4;
      const bool is_red = p[0] == 255 && p[1] == 0, is_green = p[0] == 0 && p[1] == 255;
      red += is_red;
      green += is_green;
      other += !is_red && !is_green;
      if (x < kSize / 2) EXPECT_TRUE(is_red) << x << "," << y;
      else EXPECT_TRUE(is_green) << x << "," << y;
    }
  EXPECT_EQ(red, kSize * kSize / 2);
  EXPECT_EQ(green, kSize * kSize / 2);
  EXPECT_EQ(other, 0u);
}

TEST_F(GraphicsTest, UploadedImageReadsBackUnchanged) {
  gpu::Image image = make_target(VK_FORMAT_R8G8B8A8_UNORM,
                                 VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                 VK_IMAGE_ASPECT_COLOR_BIT);
  std::vector<uint8_t> texels(kSize * kSize * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t((i * 2654435761u) >> 13);
  ASSERT_TRUE(gpu::upload_image(*device_, image, texels).ok());
  auto back = gpu::readback_image(*device_, image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, 4);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back.value(), texels);
}

TEST_F(GraphicsTest, AMismatchedStagePairIsRefused) {
  auto pipeline = gpu::GraphicsPipeline::create(*device_, {.name = "test.bad",
                                                           .vertex_shader = "gpu/test_triangle.frag",
                                                           .fragment_shader = "gpu/test_triangle.frag",
                                                           .color_formats = {VK_FORMAT_R8G8B8A8_UNORM}});
  ASSERT_FALSE(pipeline.ok());
  EXPECT_EQ(pipeline.error().code, ErrorCode::kInvalidArgument);
  auto missing = gpu::GraphicsPipeline::create(*device_, {.vertex_shader = "gpu/no_such_shader"});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

}  // namespace
}  // namespace mote::test
