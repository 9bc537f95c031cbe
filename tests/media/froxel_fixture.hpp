// What the froxel fog's tests share: the noise atlas with the built-in tile, host-style colour and
// depth targets, a view from a camera pose, and a frame recorded over cleared targets with the
// colour read back.
#pragma once

#include <gtest/gtest.h>

#include <glm/gtc/packing.hpp>
#include <vector>

#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "media/froxel_fog.hpp"
#include "media/noise_bake.hpp"
#include "media/tile_atlas.hpp"
#include "media/volume_table.hpp"
#include "render/render_view.hpp"
#include "support/gpu_fixture.hpp"

namespace mote::media::test {

class FroxelTest : public mote::test::GpuTest {
 protected:
  void TearDown() override {
    color_ = {};
    depth_ = {};
    atlas_ = {};
    GpuTest::TearDown();
  }
  void make_targets(uint32_t width, uint32_t height) {
    width_ = width;
    height_ = height;
    auto color = gpu::Image::create(device(), {.width = width,
                                               .height = height,
                                               .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                               .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                                        VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                               .name = "test.color"});
    ASSERT_TRUE(color.ok()) << color.error().to_string();
    color_ = std::move(color).value();
    auto depth = gpu::Image::create(device(), {.width = width,
                                               .height = height,
                                               .format = VK_FORMAT_D32_SFLOAT,
                                               .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                               .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                               .name = "test.depth"});
    ASSERT_TRUE(depth.ok()) << depth.error().to_string();
    depth_ = std::move(depth).value();
  }

  void make_atlas() {
    auto atlas = TileAtlas3D::create(device(), {});
    ASSERT_TRUE(atlas.ok()) << atlas.error().to_string();
    atlas_ = std::move(atlas).value();
    const uint32_t slot = atlas_.allocate().value();
    auto bake = NoiseBake::create(device());
    ASSERT_TRUE(bake.ok());
    ASSERT_TRUE(bake_noise_tile(device(), bake.value(), atlas_, slot, shader::kMediaNoiseOctaves).ok());
  }

  // A camera at `eye` looking at `target`, 60 degrees vertically, near 0.1.
  shader::RenderView view_from(glm::vec3 eye, glm::vec3 target) const {
    render::ViewSetup setup;
    setup.camera.position = eye;
    setup.camera.target = target;
    setup.camera.fov_y_degrees = 60.0f;
    setup.camera.near_plane = 0.1f;
    setup.width = width_;
    setup.height = height_;
    setup.environment.ambient_intensity = 0.0f;
    return render::make_render_view(setup);
  }

  // One frame: the colour cleared to `color`, the depth to `depth` (reversed-Z), then the fog.
  void record_frame(FroxelFog& fog, const shader::RenderView& view, std::span<const shader::PointLightGpu> lights,
                    std::span<const shader::MediaVolume> rows, glm::vec4 color, float depth,
                    const FogShadowMap& shadow = {}) {
    Status recorded = ok_status();
    ASSERT_TRUE(device()
                    .submit_and_wait([&](VkCommandBuffer cmd) {
                      clear_targets(cmd, color, depth);
                      recorded = fog.record(cmd, view, lights, rows, atlas_,
                                            {&color_, VK_IMAGE_LAYOUT_GENERAL, &depth_,
                                             VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                                            shadow);
                    })
                    .ok());
    ASSERT_TRUE(recorded.ok()) << recorded.error().to_string();
  }

  // The colour target as linear RGBA, rows top to bottom.
  std::vector<glm::vec4> read_color() {
    auto bytes = gpu::readback_image(device(), color_, VK_IMAGE_LAYOUT_GENERAL, 8);
    EXPECT_TRUE(bytes.ok());
    std::vector<glm::vec4> out(size_t(width_) * height_);
    const auto* halves = reinterpret_cast<const uint16_t*>(bytes.value().data());
    for (size_t i = 0; i < out.size(); ++i)
      for (int c = 0; c < 4; ++c) out[i][c] = glm::unpackHalf1x16(halves[i * 4 + c]);
    return out;
  }

  shader::MediaNoiseAtlasView atlas_texels(std::vector<uint8_t>& storage) {
    storage = atlas_.read_tile(0).value();
    return {storage.data(), atlas_.tile(), atlas_.tile(), atlas_.tile()};
  }

  uint32_t width_ = 0, height_ = 0;
  gpu::Image color_;
  gpu::Image depth_;
  TileAtlas3D atlas_;

 private:
  void clear_targets(VkCommandBuffer cmd, glm::vec4 color, float depth) {
    gpu::image_barrier(cmd, color_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const VkClearColorValue c{{color.r, color.g, color.b, color.a}};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd, color_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &range);
    gpu::image_barrier(cmd, color_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                       VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, render::kTargetStages,
                       VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    gpu::image_barrier(cmd, depth_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const VkClearDepthStencilValue d{depth, 0};
    const VkImageSubresourceRange depth_range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    vkCmdClearDepthStencilImage(cmd, depth_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &d, 1, &depth_range);
    gpu::image_barrier(cmd, depth_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                       VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, render::kTargetStages,
                       VK_ACCESS_2_MEMORY_READ_BIT);
  }
};

// A box volume: the unit box scaled by `size` and centred at `centre`.
inline shader::MediaVolume box_row(glm::vec3 centre, glm::vec3 size, float density, float strength = 0.0f,
                                   float noise_scale = 32.0f, float warp = 0.0f) {
  VolumeParams p;
  p.transform = glm::scale(glm::translate(glm::mat4(1.0f), centre), size);
  p.density = density;
  p.noise_strength = strength;
  p.noise_scale = noise_scale;
  p.noise_warp = warp;
  return make_volume_row(p, {});
}

}  // namespace mote::media::test
