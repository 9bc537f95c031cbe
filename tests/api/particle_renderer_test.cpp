// The public particle renderer (mote/particle_renderer.hpp) drawing into images the test owns, in
// a command buffer the test submits — as a host renderer does: every path draws the particles the
// public ParticleSystem recorded into the same command buffer, the paths agree, the host's depth
// hides what is behind it, emitters added, swapped and removed later are followed, textures
// resolve against their effect file, and misuse is an error.
#include <gtest/gtest.h>

#include <glm/glm.hpp>
#include <glm/gtc/packing.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

#include "api/api_access.hpp"
#include "api_fixture.hpp"
#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/image.hpp"
#include "mote/particle_renderer.hpp"

namespace mote {
namespace {

// The presets draw textures beside them (effects/textures/): the renderer's asset root is their folder.
const std::filesystem::path kPresets = MOTE_EFFECTS_DIR;
constexpr uint32_t kWidth = 96;
constexpr uint32_t kHeight = 64;
constexpr float kDt = 1.0f / 60.0f;

// A camera 4 m back from the origin, looking at y = 1 (the conventions ParticleView documents).
ParticleView front_view() {
  ParticleView v;
  const glm::vec3 eye(0.0f, 1.0f, 4.0f), target(0.0f, 1.0f, 0.0f);
  const glm::vec3 f = glm::normalize(target - eye), r = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0)));
  const glm::vec3 u = glm::cross(r, f);
  glm::mat4 view(1.0f);
  view[0] = glm::vec4(r.x, u.x, -f.x, 0);
  view[1] = glm::vec4(r.y, u.y, -f.y, 0);
  view[2] = glm::vec4(r.z, u.z, -f.z, 0);
  view[3] = glm::vec4(-glm::dot(r, eye), -glm::dot(u, eye), glm::dot(f, eye), 1);
  const float near = 0.1f, focal = 1.0f / std::tan(0.5f), aspect = float(kWidth) / float(kHeight);
  glm::mat4 projection(0.0f);
  projection[0][0] = focal / aspect;
  projection[1][1] = -focal;
  projection[2][3] = -1.0f;
  projection[3][2] = near;
  std::copy_n(glm::value_ptr(view), 16, v.view.begin());
  std::copy_n(glm::value_ptr(projection), 16, v.projection.begin());
  v.near_plane = near;
  return v;
}

class ParticleRendererTest : public test::ApiTest {
 protected:
  void TearDown() override {
    // The host's images go before the context that made them.
    color_ = {};
    depth_ = {};
    readback_ = {};
    test::ApiTest::TearDown();
  }
  gpu::Device& device() { return detail::ApiAccess::device(context()); }

  void make_targets() {
    auto color = gpu::Image::create(device(),
                                    {.width = kWidth,
                                     .height = kHeight,
                                     .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                     .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                              VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                     .name = "test.host_color"});
    auto depth = gpu::Image::create(device(), {.width = kWidth,
                                               .height = kHeight,
                                               .format = VK_FORMAT_D32_SFLOAT,
                                               .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                                        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                               .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                               .name = "test.host_depth"});
    auto readback = gpu::Buffer::create(device(), {.size = VkDeviceSize(kWidth) * kHeight * 8,
                                                   .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                   .memory = gpu::MemoryUsage::kReadback,
                                                   .name = "test.host_readback"});
    ASSERT_TRUE(color.ok() && depth.ok() && readback.ok());
    color_ = std::move(color).value();
    depth_ = std::move(depth).value();
    readback_ = std::move(readback).value();
  }
  ParticleTargets targets() const {
    return {color_.handle(), color_.view(), VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            depth_.handle(), depth_.view(), VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  }

  // One host frame: clear (depth to `depth_clear`), the particle frame, the particle draw, the
  // readback. Returns the linear RGB of every pixel.
  std::vector<glm::vec3> frame(ParticleSystem& system, ParticleRenderer& renderer, float depth_clear = 0.0f,
                               const ParticleView& view = front_view()) {
    Status recorded = ok_status();
    Status submitted = device().submit_and_wait([&](VkCommandBuffer cmd) {
      gpu::image_barrier(cmd, color_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
      gpu::image_barrier(cmd, depth_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
      const VkClearColorValue sky{{0.1f, 0.2f, 0.3f, 1.0f}};
      const VkClearDepthStencilValue far{depth_clear, 0};
      const VkImageSubresourceRange c{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}, d{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cmd, color_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &sky, 1, &c);
      vkCmdClearDepthStencilImage(cmd, depth_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1, &d);
      gpu::image_barrier(cmd, color_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                         VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE);
      gpu::image_barrier(cmd, depth_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                         VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE);
      recorded = system.record(cmd, kDt);
      if (recorded.ok()) recorded = renderer.record(cmd, view, targets());
      // The contract hands the colour back in COLOR_ATTACHMENT_OPTIMAL: the barrier says so, and the
      // validation layer checks it.
      gpu::image_barrier(cmd, color_, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                         VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
      VkBufferImageCopy region{};
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {kWidth, kHeight, 1};
      vkCmdCopyImageToBuffer(cmd, color_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.handle(), 1,
                             &region);
    });
    EXPECT_TRUE(submitted.ok()) << submitted.error().to_string();
    EXPECT_TRUE(recorded.ok()) << recorded.error().to_string();
    EXPECT_TRUE(readback_.invalidate().ok());
    std::vector<glm::vec3> rgb(size_t(kWidth) * kHeight);
    const auto* halves = static_cast<const uint16_t*>(readback_.mapped());
    for (size_t i = 0; i < rgb.size(); ++i)
      for (int k = 0; k < 3; ++k) rgb[i][k] = glm::unpackHalf1x16(halves[i * 4 + size_t(k)]);
    return rgb;
  }

  static uint32_t lit_pixels(const std::vector<glm::vec3>& rgb) {
    uint32_t n = 0;
    for (const glm::vec3& p : rgb) n += glm::length(p - glm::vec3(0.1f, 0.2f, 0.3f)) > 0.02f ? 1u : 0u;
    return n;
  }
  static double mean_abs(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
    double sum = 0.0;
    for (size_t i = 0; i < a.size(); ++i) sum += glm::length(a[i] - b[i]);
    return sum / double(a.size());
  }

  gpu::Image color_;
  gpu::Image depth_;
  gpu::Buffer readback_;
};

TEST_F(ParticleRendererTest, EveryPathDrawsTheFrameRecordedBeforeItAndThePathsAgree) {
  make_targets();
  const CompiledEffect fire = test::load_effect("fire.json");
  std::vector<std::vector<glm::vec3>> pictures;
  for (auto [path, transparency] :
       {std::pair{DrawPath::kRaster, Transparency::kSorted}, std::pair{DrawPath::kCompute, Transparency::kOit},
        std::pair{DrawPath::kRaster, Transparency::kOit}, std::pair{DrawPath::kRaster, Transparency::kAvboit}}) {
    ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4, .compile_in_background = false});
    auto renderer = ParticleRenderer::create(
        system,
        {.width = kWidth, .height = kHeight, .path = path, .transparency = transparency, .asset_root = kPresets});
    ASSERT_TRUE(renderer.ok()) << renderer.error().to_string();
    const std::vector<glm::vec3> empty = frame(system, **renderer);
    EXPECT_EQ(lit_pixels(empty), 0u) << "nothing alive draws nothing";
    ASSERT_TRUE(system.add_emitter(fire, {.seed = 3}).ok());
    std::vector<glm::vec3> last;
    for (int f = 0; f < 40; ++f) last = frame(system, **renderer);
    EXPECT_GT(lit_pixels(last), 20u) << "the fire is drawn";
    pictures.push_back(std::move(last));
    renderer->reset();
  }
  // Exact order (sorted raster, compute tiles) agrees closely; weighted OIT approximates it; the
  // additive fire writes no extinction, so AVBOIT adds its light unattenuated, exactly.
  ASSERT_EQ(pictures.size(), 4u);
  EXPECT_LT(mean_abs(pictures[0], pictures[1]), 0.01);
  EXPECT_LT(mean_abs(pictures[0], pictures[2]), 0.05);
  EXPECT_LT(mean_abs(pictures[0], pictures[3]), 0.01);
}

TEST_F(ParticleRendererTest, TheHostsDepthHidesWhatIsBehindIt) {
  make_targets();
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 2, .compile_in_background = false});
  auto renderer = ParticleRenderer::create(system, {.width = kWidth, .height = kHeight, .asset_root = kPresets});
  ASSERT_TRUE(renderer.ok()) << renderer.error().to_string();
  ASSERT_TRUE(system.add_emitter(test::load_effect("fire.json"), {.seed = 1}).ok());
  std::vector<glm::vec3> hidden;
  for (int f = 0; f < 30; ++f) hidden = frame(system, **renderer, /*depth_clear=*/1.0f);  // a wall at the near plane
  EXPECT_EQ(lit_pixels(hidden), 0u);
  EXPECT_GT(lit_pixels(frame(system, **renderer, 0.0f)), 20u);
}

TEST_F(ParticleRendererTest, EmittersAddedSwappedAndRemovedLaterAreFollowed) {
  make_targets();
  ParticleSystem& system = make_system({.capacity = 8192, .max_emitters = 4, .compile_in_background = false});
  auto renderer = ParticleRenderer::create(
      system, {.width = kWidth, .height = kHeight, .path = DrawPath::kCompute, .asset_root = kPresets});
  ASSERT_TRUE(renderer.ok()) << renderer.error().to_string();
  auto fire = system.add_emitter(test::load_effect("fire.json"), {.seed = 1, .position = {-1.0f, 0.0f, 0.0f}});
  ASSERT_TRUE(fire.ok());
  uint32_t one = 0;
  for (int f = 0; f < 30; ++f) one = lit_pixels(frame(system, **renderer));
  auto second = system.add_emitter(test::load_effect("fire.json"), {.seed = 2, .position = {1.2f, 0.0f, 0.0f}});
  ASSERT_TRUE(second.ok());
  uint32_t two = 0;
  for (int f = 0; f < 30; ++f) two = lit_pixels(frame(system, **renderer));
  EXPECT_GT(two, one + 10) << "the second fire is drawn without the host telling the renderer";
  auto swapped = system.swap_effect(*second, test::load_effect("sparkles.json"));
  ASSERT_TRUE(swapped.ok());
  for (int f = 0; f < 20; ++f) (void)frame(system, **renderer);
  ASSERT_TRUE(system.remove_emitter(*fire).ok());
  ASSERT_TRUE(system.remove_emitter(*swapped).ok());
  EXPECT_EQ(lit_pixels(frame(system, **renderer)), 0u) << "removed emitters' particles are not drawn";
}

TEST_F(ParticleRendererTest, TexturesResolveAgainstTheirEffectFile) {
  make_targets();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "mote_particle_renderer_test";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(std::filesystem::path(MOTE_SOURCE_DIR) / "tests/render/textures/quadrants.png",
                             dir / "quadrants.png", std::filesystem::copy_options::overwrite_existing);
  CompiledEffect textured = test::load_effect("fire.json");
  textured.render.texture = "quadrants.png";
  textured.source_path = (dir / "textured.json").string();
  CompiledEffect missing = textured;
  missing.render.texture = "no_such_texture.png";
  ParticleSystem& system = make_system({.capacity = 4096, .max_emitters = 4, .compile_in_background = false});
  auto renderer = ParticleRenderer::create(system, {.width = kWidth, .height = kHeight, .asset_root = dir});
  ASSERT_TRUE(renderer.ok()) << renderer.error().to_string();
  ASSERT_TRUE(system.add_emitter(textured, {.seed = 1}).ok());
  for (int f = 0; f < 10; ++f) (void)frame(system, **renderer);
  EXPECT_TRUE((*renderer)->warnings().empty()) << "quadrants.png beside the effect file was found";
  ASSERT_TRUE(system.add_emitter(missing, {.seed = 2}).ok());
  for (int f = 0; f < 10; ++f) (void)frame(system, **renderer);
  ASSERT_EQ((*renderer)->warnings().size(), 1u);
  EXPECT_NE((*renderer)->warnings()[0].find("no_such_texture.png"), std::string::npos);
}

TEST_F(ParticleRendererTest, MisuseIsAnError) {
  make_targets();
  ParticleSystem& system = make_system({.capacity = 256, .max_emitters = 2});
  EXPECT_EQ(ParticleRenderer::create(system, {.width = 0, .height = 10}).error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(ParticleRenderer::create(system, {.width = 9000, .height = 10}).error().code, ErrorCode::kInvalidArgument);
  auto renderer = ParticleRenderer::create(system, {.width = kWidth, .height = kHeight});
  ASSERT_TRUE(renderer.ok()) << renderer.error().to_string();
  EXPECT_EQ((*renderer)->record(VK_NULL_HANDLE, front_view(), targets()).error().code, ErrorCode::kInvalidArgument);
  Status bad_view = ok_status(), no_views = ok_status(), bad_frame = ok_status();
  ASSERT_TRUE(device()
                  .submit_and_wait([&](VkCommandBuffer cmd) {
                    ParticleView view = front_view();
                    view.near_plane = 0.0f;
                    bad_view = (*renderer)->record(cmd, view, targets());
                    ParticleTargets t = targets();
                    t.depth_view = VK_NULL_HANDLE;
                    no_views = (*renderer)->record(cmd, front_view(), t);
                    bad_frame = system.record(cmd, -1.0f);
                  })
                  .ok());
  EXPECT_EQ(bad_view.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(no_views.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad_frame.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(system.record(nullptr, kDt).error().code, ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace mote
