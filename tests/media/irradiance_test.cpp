// The froxel irradiance volume on lavapipe (src/media/irradiance_volume.cpp,
// shaders/media/froxel_irradiance.comp): every froxel holds the ambient, the sun and the point
// lights projected at that frame's jittered point in it (computed here from the shared functions);
// the sun is shadowed through its shadow map; the jitter moves between frames.
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "media/froxel_fixture.hpp"
#include "media/irradiance_volume.hpp"
#include "shared/particle_lighting.h"

namespace mote::media::test {
namespace {

// The volume as linear RGBA, x fastest, then y, then z.
std::vector<glm::vec4> read_volume(gpu::Device& device, const Image3D& image) {
  const size_t texels = size_t(image.width()) * image.height() * image.depth();
  auto staging = gpu::Buffer::create(device, {.size = texels * 8,
                                              .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              .memory = gpu::MemoryUsage::kReadback,
                                              .name = "test.volume_readback"});
  EXPECT_TRUE(staging.ok());
  if (!staging.ok()) return {};
  EXPECT_TRUE(device
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
                    VkBufferImageCopy region{};
                    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
                    region.imageExtent = {image.width(), image.height(), image.depth()};
                    vkCmdCopyImageToBuffer(cmd, image.handle(), VK_IMAGE_LAYOUT_GENERAL, staging.value().handle(), 1,
                                           &region);
                    gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                        VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
                  })
                  .ok());
  EXPECT_TRUE(staging.value().invalidate().ok());
  std::vector<glm::vec4> out(texels);
  const auto* halves = static_cast<const uint16_t*>(staging.value().mapped());
  for (size_t i = 0; i < texels; ++i)
    for (int c = 0; c < 4; ++c) out[i][c] = glm::unpackHalf1x16(halves[i * 4 + c]);
  return out;
}

// froxel_common.glsl's froxel_world on the CPU.
glm::vec3 froxel_world(const shader::RenderView& view, const IrradianceVolumeDesc& d, glm::vec3 g) {
  const glm::vec2 ndc = glm::vec2(g.x / float(d.grid.x), g.y / float(d.grid.y)) * 2.0f - 1.0f;
  const glm::vec4 on_ray = view.inverse_view_projection * glm::vec4(ndc, 0.5f, 1.0f);
  const glm::vec3 eye(view.camera_position);
  const glm::vec3 dir = glm::normalize(glm::vec3(on_ray) / on_ray.w - eye);
  const float depth = shader::media_slice_depth(g.z, d.near_distance, d.far_distance, float(d.grid.z));
  return eye + dir * (depth / std::max(glm::dot(dir, glm::vec3(view.camera_forward)), 1e-4f));
}

// What froxel_irradiance.comp sums at p (the sun lit, `sun_visible` of it).
shader::IrradianceSh expected_at(const shader::RenderView& view, std::span<const shader::PointLightGpu> lights,
                                 glm::vec3 p, float sun_visible = 1.0f) {
  shader::IrradianceSh sh = shader::irradiance_sh_ambient(glm::vec3(view.sky_ambient), glm::vec3(view.ground_ambient));
  sh = shader::irradiance_sh_add(sh, shader::irradiance_sh_light(glm::vec3(view.sun_radiance) * sun_visible,
                                                                 -glm::vec3(view.sun_direction)));
  for (const shader::PointLightGpu& l : lights) {
    const glm::vec3 to_light = glm::vec3(l.position_range) - p;
    const float d = glm::length(to_light);
    sh = shader::irradiance_sh_add(sh,
                                   shader::irradiance_sh_light(glm::vec3(l.radiance) *
                                                                   shader::media_point_falloff(d, l.position_range.w),
                                                               to_light / d));
  }
  return sh;
}

class IrradianceTest : public FroxelTest {
 protected:
  Status record(IrradianceVolume& volume, const shader::RenderView& view, std::span<const shader::PointLightGpu> lights,
                const SunShadowMap& shadow = {}) {
    Status recorded = ok_status();
    MOTE_TRY(device().submit_and_wait([&](VkCommandBuffer cmd) {
      recorded = volume.record(cmd, view, lights, shadow);
    }));
    return recorded;
  }
};

TEST_F(IrradianceTest, EachFroxelHoldsItsLightsAtThisFramesJitteredPoint) {
  make_targets(32, 18);
  const IrradianceVolumeDesc desc{.grid = {8, 5, 12}, .near_distance = 0.5f, .far_distance = 30.0f};
  auto volume = IrradianceVolume::create(device(), desc);
  ASSERT_TRUE(volume.ok()) << volume.error().to_string();
  shader::RenderView view = view_from({0.0f, 1.0f, 0.0f}, {0.3f, 0.8f, -10.0f});
  view.sky_ambient = glm::vec4(0.3f, 0.4f, 0.6f, 0.0f);
  view.ground_ambient = glm::vec4(0.1f, 0.08f, 0.05f, 0.0f);
  view.sun_direction = glm::vec4(glm::normalize(glm::vec3(0.3f, -1.0f, 0.2f)), 1.0f);
  view.sun_radiance = glm::vec4(2.0f, 1.8f, 1.5f, 0.0f);  // no shadow map
  // Point lights away from the camera's rays' froxels' points by more than a metre.
  const std::vector<shader::PointLightGpu> lights = {{glm::vec4(-3.0f, 4.0f, -6.0f, 12.0f),
                                                      glm::vec4(8.0f, 4.0f, 1.0f, 0.0f)},
                                                     {glm::vec4(4.0f, -2.0f, -15.0f, 9.0f),
                                                      glm::vec4(0.5f, 2.0f, 6.0f, 0.0f)}};
  view.point_light_count = uint32_t(lights.size());
  for (uint32_t frame = 0; frame < 2; ++frame) {
    SCOPED_TRACE(frame);
    ASSERT_TRUE(record(volume.value(), view, lights).ok());
    const std::vector<glm::vec4> luma = read_volume(device(), volume.value().luma());
    const std::vector<glm::vec4> chroma = read_volume(device(), volume.value().chroma());
    ASSERT_EQ(luma.size(), size_t(8 * 5 * 12));
    double worst = 0.0;
    for (uint32_t z = 0; z < desc.grid.z; ++z)
      for (uint32_t y = 0; y < desc.grid.y; ++y)
        for (uint32_t x = 0; x < desc.grid.x; ++x) {
          const glm::vec3 jitter = shader::media_jitter({x, y, z}, frame,
                                                        {shader::kMediaIrradianceDecorrelationX,
                                                         shader::kMediaIrradianceDecorrelationY});
          const glm::vec3 p = froxel_world(view, desc, glm::vec3(x, y, z) + jitter);
          const shader::IrradianceSh want = expected_at(view, lights, p);
          const size_t i = (size_t(z) * desc.grid.y + y) * desc.grid.x + x;
          for (int c = 0; c < 4; ++c) {
            worst = std::max(worst, double(std::abs(luma[i][c] - want.luma[c]) / (1e-2f + std::abs(want.luma[c]))));
            if (c < 2)
              worst = std::max(worst,
                               double(std::abs(chroma[i][c] - want.chroma[c]) / (1e-2f + std::abs(want.chroma[c]))));
          }
        }
    // Half floats: 2^-11 relative, and float rounding of the point and the falloff.
    EXPECT_LT(worst, 4e-3);
  }
  // The jitter moved: the second frame's point differs from the first's.
  EXPECT_EQ(volume.value().frame_index(), 2u);
}

// The sun straight down through a shadow map whose left half (x < 0) is covered above the
// froxels: on the left the froxels hold the ambient alone, on the right the sun's 1/4 too.
TEST_F(IrradianceTest, TheSunIsShadowedThroughItsShadowMap) {
  make_targets(32, 18);
  const IrradianceVolumeDesc desc{.grid = {16, 9, 8}, .near_distance = 0.5f, .far_distance = 20.0f};
  auto volume = IrradianceVolume::create(device(), desc);
  ASSERT_TRUE(volume.ok()) << volume.error().to_string();
  shader::RenderView view = view_from({0.0f, 2.0f, 0.0f}, {0.0f, 2.0f, -15.0f});
  view.sun_direction = glm::vec4(0.0f, -1.0f, 0.0f, 1.0f);
  view.sun_radiance = glm::vec4(4.0f, 4.0f, 4.0f, 1.0f / 64.0f);
  view.sky_ambient = glm::vec4(0.2f, 0.2f, 0.2f, 0.0f);
  view.ground_ambient = view.sky_ambient;
  view.sun_view_projection = glm::orthoRH_ZO(-40.0f, 40.0f, -40.0f, 40.0f, 0.0f, 40.0f) *
                             glm::lookAtRH(glm::vec3(0, 20, -15), glm::vec3(0, 0, -15), glm::vec3(0, 0, -1));
  auto shadow = gpu::Image::create(device(), {.width = 64,
                                              .height = 64,
                                              .format = VK_FORMAT_D32_SFLOAT,
                                              .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                              .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                              .name = "test.shadow"});
  ASSERT_TRUE(shadow.ok());
  // Depth 0.05 is y = 18 in the sun's view: above every froxel the camera sees up to 20 m.
  std::vector<float> depths(64 * 64, 1.0f);
  for (uint32_t y = 0; y < 64; ++y)
    for (uint32_t x = 0; x < 64; ++x) {
      const glm::vec4 ndc((float(x) + 0.5f) / 32.0f - 1.0f, (float(y) + 0.5f) / 32.0f - 1.0f, 0.5f, 1.0f);
      const glm::vec4 world = glm::inverse(view.sun_view_projection) * ndc;
      if (world.x / world.w < 0.0f) depths[y * 64 + x] = 0.05f;
    }
  ASSERT_TRUE(gpu::upload_image(device(), shadow.value(),
                                std::span(reinterpret_cast<const uint8_t*>(depths.data()), depths.size() * 4))
                  .ok());
  ASSERT_TRUE(record(volume.value(), view, {}, {shadow->view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}).ok());
  const std::vector<glm::vec4> luma = read_volume(device(), volume.value().luma());
  uint32_t lit = 0, dark = 0, checked = 0;
  for (uint32_t z = 0; z < desc.grid.z; ++z)
    for (uint32_t y = 0; y < desc.grid.y; ++y)
      for (uint32_t x = 0; x < desc.grid.x; ++x) {
        const glm::vec3 jitter = shader::media_jitter({x, y, z}, 0,
                                                      {shader::kMediaIrradianceDecorrelationX,
                                                       shader::kMediaIrradianceDecorrelationY});
        const glm::vec3 p = froxel_world(view, desc, glm::vec3(x, y, z) + jitter);
        // The shadow edge: a bilinear compare tap spans a texel (1.25 m) either side.
        if (std::abs(p.x) < 2.0f) continue;
        ++checked;
        const float c0 = luma[(size_t(z) * desc.grid.y + y) * desc.grid.x + x].x;
        const float ambient = 0.2f, sun = 0.25f * 4.0f;
        if (p.x < 0.0f) {
          EXPECT_NEAR(c0, ambient, 2e-3f) << "shadowed at " << p.x << "," << p.y << "," << p.z;
          dark += std::abs(c0 - ambient) < 2e-3f;
        } else {
          EXPECT_NEAR(c0, ambient + sun, 4e-3f) << "sunlit at " << p.x << "," << p.y << "," << p.z;
          lit += std::abs(c0 - ambient - sun) < 4e-3f;
        }
      }
  EXPECT_GT(lit, checked / 4);
  EXPECT_GT(dark, checked / 4);
  shadow = gpu::Image();
}

TEST_F(IrradianceTest, RefusesBadGridsAndMissingLights) {
  EXPECT_EQ(IrradianceVolume::create(device(), {.grid = {0, 4, 4}}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(
      IrradianceVolume::create(device(), {.grid = {4, 4, 4}, .near_distance = 5.0f, .far_distance = 5.0f}).error().code,
      ErrorCode::kInvalidArgument);
  auto volume = IrradianceVolume::create(device(), {.grid = {4, 4, 4}});
  ASSERT_TRUE(volume.ok());
  make_targets(8, 8);
  shader::RenderView view = view_from({0, 0, 0}, {0, 0, -1});
  view.point_light_count = 2;
  EXPECT_EQ(record(volume.value(), view, {}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(irradiance_grid_for(1920, 1080), glm::uvec3(120, 68, 64));
}

}  // namespace
}  // namespace mote::media::test
