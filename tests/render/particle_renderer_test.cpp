// render::ParticleRenderer (src/render/particle_renderer.hpp) as a host engine uses it, on the
// device with validation on: its recording entry points into the test's command buffer, drawing
// into colour and depth images the test owns and hands over as borrowed images
// (gpu::Image::borrow), in each layout the contract accepts:
//   * sprites on every path composite over the host's colour, hidden by its depth, the depth left
//     as it was, the same pixels whatever the layouts, and both images back in their layouts (the
//     test's own barriers name those layouts: the validation layer fails a wrong one);
//   * draw records set between recordings reach the GPU in command-buffer order (four frames in
//     one command buffer see four different record states);
//   * the atlas grows when a texture arrives and the rows' texture rects follow it; fallbacks warn;
//   * mesh particles write the host's depth and cast into the host's shadow map;
//   * what breaks the contract is an error, not a crash.
#include "render/particle_renderer.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>
#include <vector>

#include "assets/mesh.hpp"
#include "core/file.hpp"
#include "gpu/commands.hpp"
#include "gpu/transfer.hpp"
#include "render/gpu_mesh.hpp"
#include "shared/frame.h"
#include "support/gpu_fixture.hpp"
#include "support/particle_scene.hpp"

namespace mote::render {
namespace {

namespace fs = std::filesystem;
using test::particle_scene::Camera;
using test::particle_scene::make_view;

const fs::path kSourceDir = MOTE_SOURCE_DIR;
constexpr uint32_t kCapacity = 16;
constexpr uint32_t kAliveCountWord = 0;
const glm::vec4 kBackground(0.25f, 0.5f, 0.75f, 1.0f);  // exact in half floats
constexpr float kWallDistance = 1.5f;                   // the host's depth: a wall facing the camera
constexpr float kHalfTolerance = 4e-3f;

Result<CompiledEffect> load_effect(const fs::path& path) {
  MOTE_TRY_ASSIGN(std::string text, read_file_text(path.string()));
  return compile_effect(text);
}

// grid_billboard's layout (position, size, colour, a 1-word roll), drawn with the white texel:
// a sprite is a flat square of its colour.
Result<CompiledEffect> white_billboard() {
  MOTE_TRY_ASSIGN(CompiledEffect effect, load_effect(kSourceDir / "tests/render/effects/grid_billboard.json"));
  effect.render.texture = assets::kWhiteKey;
  return effect;
}

struct Sprite {
  glm::vec3 position{0.0f};
  float size = 1.0f;
  glm::vec4 color{1.0f};  // straight alpha
  uint32_t row = 0, generation = 1;
};

// The host's pool, alive list and counters, written where `record` says the fields are.
struct HostParticles {
  gpu::Buffer pool, alive, counters;
  uint32_t record_words = 0;

  ParticleBuffers buffers() const {
    return {.pool = &pool,
            .record_words = record_words,
            .capacity = kCapacity,
            .alive = &alive,
            .counters = &counters,
            .alive_count_word = kAliveCountWord};
  }
};

// A host image and the borrowed Image the renderer is handed (the host keeps ownership).
struct HostImage {
  gpu::Image owned;
  gpu::Image borrowed;
};

class ParticleRendererTest : public test::GpuTest {
 protected:
  void SetUp() override {
    GpuTest::SetUp();
    if (!device_->description().queue_has_graphics) GTEST_SKIP() << "the device's queue cannot draw";
  }

  HostImage host_image(uint32_t width, uint32_t height, VkFormat format, const char* name) {
    const bool depth = format == kDepthFormat;
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                    VK_IMAGE_USAGE_SAMPLED_BIT |
                                    (depth ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                                           : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT);
    const VkImageAspectFlags aspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    auto created = gpu::Image::create(
        *device_, {.width = width, .height = height, .format = format, .usage = usage, .aspect = aspect, .name = name});
    EXPECT_TRUE(created.ok()) << created.error().to_string();
    HostImage h;
    if (!created.ok()) return h;
    h.owned = std::move(created).value();
    h.borrowed = gpu::Image::borrow(h.owned.handle(), h.owned.view(), format, width, height, aspect);
    return h;
  }

  gpu::Buffer buffer_of(std::span<const uint32_t> words, const char* name) {
    auto buffer = gpu::Buffer::create(*device_, {.size = words.size_bytes(), .name = name});
    EXPECT_TRUE(buffer.ok()) << buffer.error().to_string();
    EXPECT_TRUE(gpu::upload_span(*device_, buffer.value(), words).ok());
    return std::move(buffer).value();
  }

  gpu::Buffer readback_buffer(VkDeviceSize bytes) {
    auto buffer = gpu::Buffer::create(*device_, {.size = bytes,
                                                 .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                 .memory = gpu::MemoryUsage::kReadback,
                                                 .name = "test.readback"});
    EXPECT_TRUE(buffer.ok()) << buffer.error().to_string();
    return std::move(buffer).value();
  }

  // Fills the pool with `sprites` at the words of `record` (the rest of each slot zero).
  HostParticles particles(const shader::ParticleDrawRecord& record, uint32_t record_words,
                          const std::vector<Sprite>& sprites) {
    std::vector<uint32_t> pool(size_t(kCapacity) * record_words, 0u);
    for (size_t i = 0; i < sprites.size(); ++i) {
      uint32_t* w = &pool[i * record_words];
      const Sprite& s = sprites[i];
      w[0] = s.row | (s.generation << shader::kFrameHeaderRowBits);
      for (int k = 0; k < 3; ++k) w[record.position_word + k] = std::bit_cast<uint32_t>(s.position[k]);
      if (record.size_word != shader::kDrawUnbound) w[record.size_word] = std::bit_cast<uint32_t>(s.size);
      if (record.color_word != shader::kDrawUnbound)
        for (int k = 0; k < 4; ++k) w[record.color_word + k] = std::bit_cast<uint32_t>(s.color[k]);
    }
    std::vector<uint32_t> alive(kCapacity, 0xFFFFFFFFu);  // past the count: poison
    for (uint32_t i = 0; i < sprites.size(); ++i) alive[i] = i;
    const std::vector<uint32_t> counters{uint32_t(sprites.size()), 0, 0, 0};
    HostParticles p;
    p.record_words = record_words;
    p.pool = buffer_of(pool, "test.pool");
    p.alive = buffer_of(alive, "test.alive");
    p.counters = buffer_of(counters, "test.counters");
    return p;
  }

  Camera camera_;
};

// The host's frame set-up: colour cleared to the background, depth to the wall (or `depth_value`),
// each moved to the layout it is handed over in.
void record_clear(VkCommandBuffer cmd, const gpu::Image& color, VkImageLayout color_layout, const gpu::Image& depth,
                  VkImageLayout depth_layout, float depth_value) {
  for (const gpu::Image* image : {&color, &depth})
    gpu::image_barrier(cmd, *image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT);
  VkClearColorValue clear{};
  for (int i = 0; i < 4; ++i) clear.float32[i] = kBackground[i];
  const VkImageSubresourceRange color_range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdClearColorImage(cmd, color.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &clear, 1, &color_range);
  const VkClearDepthStencilValue wall{depth_value, 0};
  const VkImageSubresourceRange depth_range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  vkCmdClearDepthStencilImage(cmd, depth.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &wall, 1, &depth_range);
  gpu::image_barrier(cmd, color, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, color_layout, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, kTargetStages, VK_ACCESS_2_MEMORY_READ_BIT);
  gpu::image_barrier(cmd, depth, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, depth_layout, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, kTargetStages, VK_ACCESS_2_MEMORY_READ_BIT);
}

// The host reads an image back in the layout it handed it over in: a renderer that left it in
// another layout fails validation here.
void record_copy_out(VkCommandBuffer cmd, const gpu::Image& image, VkImageLayout layout, const gpu::Buffer& out) {
  gpu::image_barrier(cmd, image, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kTargetStages,
                     VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {image.aspect(), 0, 0, 1};
  region.imageExtent = {image.width(), image.height(), 1};
  vkCmdCopyImageToBuffer(cmd, image.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.handle(), 1, &region);
  gpu::image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, layout, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_NONE, kTargetStages, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  gpu::memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                      VK_ACCESS_2_HOST_READ_BIT);
}

std::vector<glm::vec4> rgba16f(const gpu::Buffer& buffer, size_t texels) {
  EXPECT_TRUE(buffer.invalidate().ok());
  std::vector<glm::vec4> out(texels);
  const auto* h = static_cast<const uint16_t*>(buffer.mapped());
  for (size_t i = 0; i < texels; ++i)
    for (int c = 0; c < 4; ++c) out[i][c] = glm::unpackHalf1x16(h[i * 4 + c]);
  return out;
}

std::vector<float> depth32(const gpu::Buffer& buffer, size_t texels) {
  EXPECT_TRUE(buffer.invalidate().ok());
  std::vector<float> out(texels);
  std::memcpy(out.data(), buffer.mapped(), texels * sizeof(float));
  return out;
}

bool near_color(const glm::vec4& a, const glm::vec4& b) {
  return glm::all(glm::lessThanEqual(glm::abs(a - b), glm::vec4(kHalfTolerance)));
}

struct PathCase {
  const char* name;
  DrawPath path;
  Transparency transparency;
};
void PrintTo(const PathCase& c, std::ostream* os) { *os << c.name; }

class ParticleRendererPathTest : public ParticleRendererTest, public ::testing::WithParamInterface<PathCase> {
 protected:
  Result<ParticleRenderer> make_renderer(uint32_t rows = 1) {
    return ParticleRenderer::create(*device_, {.width = camera_.width,
                                               .height = camera_.height,
                                               .path = GetParam().path,
                                               .transparency = GetParam().transparency,
                                               .capacity = kCapacity,
                                               .max_emitters = rows});
  }
};

// Sprite A in front of the wall (orange, drawn), sprite B behind it (green, hidden).
const Sprite kInFront{.position = {-0.3f, 0.0f, -1.0f}, .size = 0.25f, .color = {1.0f, 0.5f, 0.25f, 1.0f}};
const Sprite kBehind{.position = {0.3f, 0.0f, -2.0f}, .size = 0.5f, .color = {0.0f, 1.0f, 0.0f, 1.0f}};
// Their centres' pixels at the default camera (64 x 64, 90°): x = (ndc + 1) / 2 * 64.
constexpr uint32_t kInFrontX = 22, kBehindX = 36, kCentreY = 32;

TEST_P(ParticleRendererPathTest, DrawsIntoBorrowedTargetsInEveryLayoutAndHandsThemBack) {
  auto created = make_renderer();
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleRenderer renderer = std::move(created).value();
  auto effect = white_billboard();
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  ASSERT_TRUE(renderer.set_emitter(0, effect.value(), 1).ok());
  const HostParticles host = particles(renderer.records()[0], effect.value().program.particle_record_words(),
                                       {kInFront, kBehind});
  HostImage color = host_image(camera_.width, camera_.height, kHdrFormat, "test.host_color");
  HostImage depth = host_image(camera_.width, camera_.height, kDepthFormat, "test.host_depth");
  const shader::RenderView view = make_view(camera_);
  const float wall = camera_.near_plane / kWallDistance;
  const size_t texels = size_t(camera_.width) * camera_.height;
  gpu::Buffer color_out = readback_buffer(texels * 8);
  gpu::Buffer depth_out = readback_buffer(texels * 4);

  std::vector<glm::vec4> first;
  for (const VkImageLayout color_layout : {VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL}) {
    for (const VkImageLayout depth_layout :
         {VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}) {
      SCOPED_TRACE(testing::Message() << "colour layout " << color_layout << ", depth layout " << depth_layout);
      const ParticleTargets targets{.color = &color.borrowed,
                                    .color_layout = color_layout,
                                    .depth = &depth.borrowed,
                                    .depth_layout = depth_layout};
      Status recorded = ok_status();
      ASSERT_TRUE(device_
                      ->submit_and_wait([&](VkCommandBuffer cmd) {
                        record_clear(cmd, color.borrowed, color_layout, depth.borrowed, depth_layout, wall);
                        recorded = renderer.record_prepare(cmd, host.buffers(), view, {});
                        if (recorded.ok()) recorded = renderer.record_opaque(cmd, targets);  // no mesh rows
                        if (recorded.ok()) recorded = renderer.record_transparent(cmd, targets);
                        record_copy_out(cmd, color.borrowed, color_layout, color_out);
                        record_copy_out(cmd, depth.borrowed, depth_layout, depth_out);
                      })
                      .ok());
      ASSERT_TRUE(recorded.ok()) << recorded.error().to_string();
      const std::vector<glm::vec4> pixels = rgba16f(color_out, texels);
      const glm::vec4 drawn = pixels[kCentreY * camera_.width + kInFrontX];
      EXPECT_TRUE(near_color(drawn, kInFront.color)) << drawn.r << " " << drawn.g << " " << drawn.b << " " << drawn.a;
      EXPECT_EQ(pixels[kCentreY * camera_.width + kBehindX], kBackground) << "the sprite behind the wall shows";
      EXPECT_EQ(pixels[0], kBackground);
      const std::vector<float> depths = depth32(depth_out, texels);
      for (size_t i = 0; i < texels; ++i) ASSERT_EQ(depths[i], wall) << "the sprites changed the host's depth at " << i;
      if (first.empty()) {
        first = pixels;
      } else {
        EXPECT_TRUE(pixels == first) << "the picture depends on the layouts the images came in";
      }
    }
  }
}

TEST_P(ParticleRendererPathTest, RecordChangesReachTheGpuInCommandBufferOrder) {
  auto created = make_renderer();
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleRenderer renderer = std::move(created).value();
  auto effect = white_billboard();
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  ASSERT_TRUE(renderer.set_emitter(0, effect.value(), 1).ok());
  const HostParticles host = particles(renderer.records()[0], effect.value().program.particle_record_words(),
                                       {kInFront});
  HostImage color = host_image(camera_.width, camera_.height, kHdrFormat, "test.host_color");
  HostImage depth = host_image(camera_.width, camera_.height, kDepthFormat, "test.host_depth");
  const ParticleTargets targets{.color = &color.borrowed,
                                .color_layout = VK_IMAGE_LAYOUT_GENERAL,
                                .depth = &depth.borrowed,
                                .depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  const shader::RenderView view = make_view(camera_);
  const size_t texels = size_t(camera_.width) * camera_.height;
  // Four frames in one command buffer, the host changing the row between them: generation 1
  // (drawn), 2 (the particles are stale), 1 again (drawn), cleared (nothing).
  std::vector<gpu::Buffer> outs;
  for (int i = 0; i < 4; ++i) outs.push_back(readback_buffer(texels * 8));
  Status recorded = ok_status();
  ASSERT_TRUE(device_
                  ->submit_and_wait([&](VkCommandBuffer cmd) {
                    for (int frame = 0; frame < 4 && recorded.ok(); ++frame) {
                      if (frame == 1) recorded = renderer.set_emitter(0, effect.value(), 2);
                      if (frame == 2) recorded = renderer.set_emitter(0, effect.value(), 1);
                      if (frame == 3) recorded = renderer.clear_emitter(0);
                      record_clear(cmd, color.borrowed, targets.color_layout, depth.borrowed, targets.depth_layout,
                                   0.0f);
                      if (recorded.ok()) recorded = renderer.record_prepare(cmd, host.buffers(), view, {});
                      if (recorded.ok()) recorded = renderer.record_transparent(cmd, targets);
                      record_copy_out(cmd, color.borrowed, targets.color_layout, outs[frame]);
                    }
                  })
                  .ok());
  ASSERT_TRUE(recorded.ok()) << recorded.error().to_string();
  const bool drawn_expected[4] = {true, false, true, false};
  for (int frame = 0; frame < 4; ++frame) {
    const glm::vec4 pixel = rgba16f(outs[frame], texels)[kCentreY * camera_.width + kInFrontX];
    if (drawn_expected[frame]) {
      EXPECT_TRUE(near_color(pixel, kInFront.color)) << "frame " << frame << ": " << pixel.r << " " << pixel.g;
    } else {
      EXPECT_EQ(pixel, kBackground) << "frame " << frame;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Paths, ParticleRendererPathTest,
                         ::testing::Values(PathCase{"raster_oit", DrawPath::kRaster, Transparency::kOit},
                                           PathCase{"raster_sorted", DrawPath::kRaster, Transparency::kSorted},
                                           PathCase{"raster_avboit", DrawPath::kRaster, Transparency::kAvboit},
                                           PathCase{"compute", DrawPath::kCompute, Transparency::kOit}),
                         [](const testing::TestParamInfo<PathCase>& param) { return std::string(param.param.name); });

Result<ParticleRenderer> raster_renderer(gpu::Device& device, const Camera& camera, uint32_t rows) {
  return ParticleRenderer::create(
      device, {.width = camera.width, .height = camera.height, .capacity = kCapacity, .max_emitters = rows});
}

TEST_F(ParticleRendererTest, TheAtlasGrowsWhenATextureArrivesAndTheRowsFollowIt) {
  auto created = raster_renderer(*device_, camera_, 2);
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleRenderer renderer = std::move(created).value();
  EXPECT_EQ(renderer.atlas().entries.size(), 2u) << "the soft disc and white are always there";
  auto effect = load_effect(kSourceDir / "tests/render/effects/grid_billboard.json");
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  const std::string key = effect.value().render.texture;
  const fs::path effects = kSourceDir / "tests/render/effects";

  // A row cannot name a texture the atlas was never given.
  const Status unknown = renderer.set_emitter(0, effect.value(), 1);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(renderer.records()[0].flags, 0u) << "a refused row stays as it was";

  const assets::AtlasRequest quadrants{key, effects / key};
  ASSERT_TRUE(renderer.add_textures(std::span(&quadrants, 1)).ok());
  ASSERT_NE(renderer.atlas().find(key), nullptr);
  EXPECT_FALSE(renderer.atlas().find(key)->fallback) << renderer.atlas().find(key)->problem;
  ASSERT_TRUE(renderer.set_emitter(0, effect.value(), 1).ok());
  EXPECT_EQ(renderer.records()[0].atlas_rect, renderer.atlas().find(key)->rect);
  EXPECT_NE(renderer.records()[0].atlas_rect, glm::vec4(0.0f, 0.0f, 1.0f, 1.0f));

  // A second texture rebuilds the atlas; the set row's rect is the texture's new place.
  const std::vector<assets::AtlasRequest> more = {{"../textures/flipbook_2x2.png",
                                                   effects / "../textures/flipbook_2x2.png"},
                                                  quadrants};
  ASSERT_TRUE(renderer.add_textures(more).ok());
  EXPECT_EQ(renderer.atlas().entries.size(), 4u);
  EXPECT_EQ(renderer.records()[0].atlas_rect, renderer.atlas().find(key)->rect);
  EXPECT_TRUE(renderer.warnings().empty());

  // A missing file falls back to the soft disc with one warning, once.
  const assets::AtlasRequest missing{"no_such_texture.png", effects / "no_such_texture.png"};
  ASSERT_TRUE(renderer.add_textures(std::span(&missing, 1)).ok());
  ASSERT_TRUE(renderer.add_textures(std::span(&missing, 1)).ok());
  ASSERT_EQ(renderer.warnings().size(), 1u);
  EXPECT_NE(renderer.warnings()[0].find("no_such_texture.png"), std::string::npos) << renderer.warnings()[0];
  ASSERT_NE(renderer.atlas().find("no_such_texture.png"), nullptr);
  EXPECT_TRUE(renderer.atlas().find("no_such_texture.png")->fallback);
  EXPECT_EQ(renderer.atlas().entries.size(), 5u);
  EXPECT_EQ(renderer.records()[0].atlas_rect, renderer.atlas().find(key)->rect);
}

TEST_F(ParticleRendererTest, MeshParticlesWriteTheHostsDepthAndCastIntoItsShadowMap) {
  auto created = raster_renderer(*device_, camera_, 1);
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleRenderer renderer = std::move(created).value();
  auto effect = load_effect(kSourceDir / "effects/fountain.json");
  ASSERT_TRUE(effect.ok()) << effect.error().to_string();
  ASSERT_EQ(effect.value().render.projection, "mesh");
  auto box = GpuMesh::upload(*device_, assets::make_box(), "test.box");
  ASSERT_TRUE(box.ok()) << box.error().to_string();
  const Status no_mesh = renderer.set_emitter(0, effect.value(), 1);
  ASSERT_FALSE(no_mesh.ok());
  EXPECT_EQ(no_mesh.error().code, ErrorCode::kInvalidArgument);
  ASSERT_TRUE(renderer.set_emitter(0, effect.value(), 1, &box.value()).ok());
  EXPECT_TRUE(renderer.has_mesh_particles());
  // One box, 0.5 m a side, 2 m in front of the camera.
  const HostParticles host = particles(renderer.records()[0], effect.value().program.particle_record_words(),
                                       {{.position = {0.0f, 0.0f, -2.0f}, .size = 0.5f}});
  HostImage color = host_image(camera_.width, camera_.height, kHdrFormat, "test.host_color");
  HostImage depth = host_image(camera_.width, camera_.height, kDepthFormat, "test.host_depth");
  constexpr uint32_t kShadowSize = 32;
  HostImage shadow = host_image(kShadowSize, kShadowSize, kDepthFormat, "test.host_shadow");
  shader::RenderView view = make_view(camera_);
  view.sky_ambient = glm::vec4(0.5f);
  // The sun straight down on the box: an orthographic [0, 1]-depth view 10 m above it.
  view.sun_view_projection = glm::orthoRH_ZO(-1.0f, 1.0f, -1.0f, 1.0f, 0.1f, 20.0f) *
                             glm::lookAtRH(glm::vec3(0.0f, 10.0f, -2.0f), glm::vec3(0.0f, 0.0f, -2.0f),
                                           glm::vec3(0.0f, 0.0f, -1.0f));
  const size_t texels = size_t(camera_.width) * camera_.height;
  gpu::Buffer color_out = readback_buffer(texels * 8);
  gpu::Buffer depth_out = readback_buffer(texels * 4);
  gpu::Buffer shadow_out = readback_buffer(size_t(kShadowSize) * kShadowSize * 4);
  const ParticleTargets targets{.color = &color.borrowed,
                                .color_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                .depth = &depth.borrowed,
                                .depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  Status recorded = ok_status();
  ASSERT_TRUE(device_
                  ->submit_and_wait([&](VkCommandBuffer cmd) {
                    record_clear(cmd, color.borrowed, targets.color_layout, depth.borrowed, targets.depth_layout, 0.0f);
                    gpu::image_barrier(cmd, shadow.borrowed, VK_IMAGE_LAYOUT_UNDEFINED,
                                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                       VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
                    const VkClearDepthStencilValue far{1.0f, 0};
                    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
                    vkCmdClearDepthStencilImage(cmd, shadow.borrowed.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                                &far, 1, &range);
                    gpu::image_barrier(cmd, shadow.borrowed, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                       VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                                       VK_ACCESS_2_TRANSFER_WRITE_BIT, kTargetStages, VK_ACCESS_2_MEMORY_READ_BIT);
                    recorded = renderer.record_prepare(cmd, host.buffers(), view, {});
                    if (recorded.ok())
                      recorded = renderer.record_shadow_casters(cmd,
                                                                {&shadow.borrowed,
                                                                 VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL});
                    gpu::image_barrier(cmd, shadow.borrowed, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, kTargetStages,
                                       VK_ACCESS_2_MEMORY_WRITE_BIT, kTargetStages, VK_ACCESS_2_MEMORY_READ_BIT);
                    if (recorded.ok())
                      recorded = renderer.record_opaque(cmd, targets,
                                                        {&shadow.borrowed, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
                    if (recorded.ok()) recorded = renderer.record_transparent(cmd, targets);  // no sprites
                    record_copy_out(cmd, color.borrowed, targets.color_layout, color_out);
                    record_copy_out(cmd, depth.borrowed, targets.depth_layout, depth_out);
                    record_copy_out(cmd, shadow.borrowed, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, shadow_out);
                  })
                  .ok());
  ASSERT_TRUE(recorded.ok()) << recorded.error().to_string();
  // The box's front face is 1.75 m away: reversed-Z depth near / 1.75 at the centre.
  const std::vector<float> depths = depth32(depth_out, texels);
  const float centre = depths[size_t(camera_.height / 2) * camera_.width + camera_.width / 2];
  EXPECT_NEAR(centre, camera_.near_plane / 1.75f, 1e-4f);
  EXPECT_EQ(depths[0], 0.0f) << "outside the box the depth stays at far";
  const std::vector<glm::vec4> pixels = rgba16f(color_out, texels);
  EXPECT_NE(pixels[size_t(camera_.height / 2) * camera_.width + camera_.width / 2], kBackground);
  EXPECT_EQ(pixels[0], kBackground);
  // Its top is 9.75 m below the sun's eye: depth (9.75 - 0.1) / 19.9 at the shadow map's centre.
  const std::vector<float> shadow_depths = depth32(shadow_out, size_t(kShadowSize) * kShadowSize);
  EXPECT_NEAR(shadow_depths[(kShadowSize / 2) * kShadowSize + kShadowSize / 2], (9.75f - 0.1f) / 19.9f, 1e-3f);
  EXPECT_EQ(shadow_depths[0], 1.0f);
}

TEST_F(ParticleRendererTest, WhatBreaksTheContractIsAnError) {
  auto created = raster_renderer(*device_, camera_, shader::kMaxMeshParticleDraws + 1);
  ASSERT_TRUE(created.ok()) << created.error().to_string();
  ParticleRenderer renderer = std::move(created).value();
  auto billboard = white_billboard();
  auto fountain = load_effect(kSourceDir / "effects/fountain.json");
  ASSERT_TRUE(billboard.ok() && fountain.ok());
  auto box = GpuMesh::upload(*device_, assets::make_box(), "test.box");
  ASSERT_TRUE(box.ok()) << box.error().to_string();
  auto fails_with = [](const Status& s, ErrorCode code) { return !s.ok() && s.error().code == code; };

  EXPECT_TRUE(fails_with(renderer.set_emitter(shader::kMaxMeshParticleDraws + 1, billboard.value(), 1),
                         ErrorCode::kInvalidArgument));
  EXPECT_TRUE(fails_with(renderer.clear_emitter(shader::kMaxMeshParticleDraws + 1), ErrorCode::kInvalidArgument));
  for (uint32_t row = 0; row < shader::kMaxMeshParticleDraws; ++row)
    ASSERT_TRUE(renderer.set_emitter(row, fountain.value(), 1, &box.value()).ok()) << row;
  EXPECT_TRUE(fails_with(renderer.set_emitter(shader::kMaxMeshParticleDraws, fountain.value(), 1, &box.value()),
                         ErrorCode::kUnsupported));
  EXPECT_TRUE(renderer.set_emitter(0, fountain.value(), 2, &box.value()).ok())
      << "replacing a mesh row is not one more";
  ASSERT_TRUE(renderer.set_emitter(shader::kMaxMeshParticleDraws, billboard.value(), 1).ok());

  const HostParticles host = particles(renderer.records()[0], billboard.value().program.particle_record_words(),
                                       {kInFront});
  HostImage color = host_image(camera_.width, camera_.height, kHdrFormat, "test.host_color");
  HostImage depth = host_image(camera_.width, camera_.height, kDepthFormat, "test.host_depth");
  HostImage small = host_image(camera_.width / 2, camera_.height, kHdrFormat, "test.small_color");
  const shader::RenderView view = make_view(camera_);
  const ParticleTargets good{.color = &color.borrowed,
                             .color_layout = VK_IMAGE_LAYOUT_GENERAL,
                             .depth = &depth.borrowed,
                             .depth_layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL};
  ParticleTargets wrong_size = good;
  wrong_size.color = &small.borrowed;
  ParticleTargets swapped = good;
  std::swap(swapped.color, swapped.depth);
  ParticleTargets bad_color_layout = good;
  bad_color_layout.color_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  ParticleTargets bad_depth_layout = good;
  bad_depth_layout.depth_layout = VK_IMAGE_LAYOUT_GENERAL;
  ParticleTargets missing = good;
  missing.depth = nullptr;
  ParticleBuffers too_big = host.buffers();
  too_big.capacity = kCapacity + 1;
  ParticleBuffers no_pool = host.buffers();
  no_pool.pool = nullptr;

  ASSERT_TRUE(
      device_
          ->submit_and_wait([&](VkCommandBuffer cmd) {
            // Nothing recorded before record_prepare in this command buffer.
            EXPECT_TRUE(fails_with(renderer.record_transparent(cmd, good), ErrorCode::kInvalidArgument));
            EXPECT_TRUE(fails_with(renderer.record_opaque(cmd, good), ErrorCode::kInvalidArgument));
            EXPECT_TRUE(fails_with(renderer.record_prepare(cmd, too_big, view, {}), ErrorCode::kInvalidArgument));
            EXPECT_TRUE(fails_with(renderer.record_prepare(cmd, no_pool, view, {}), ErrorCode::kInvalidArgument));
            ASSERT_TRUE(renderer.record_prepare(cmd, host.buffers(), view, {}).ok());
            for (const ParticleTargets* t : {&wrong_size, &swapped, &bad_color_layout, &bad_depth_layout, &missing}) {
              EXPECT_TRUE(fails_with(renderer.record_transparent(cmd, *t), ErrorCode::kInvalidArgument));
              EXPECT_TRUE(fails_with(renderer.record_opaque(cmd, *t), ErrorCode::kInvalidArgument));
            }
            EXPECT_TRUE(fails_with(renderer.record_shadow_casters(cmd, {&color.borrowed,
                                                                        VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}),
                                   ErrorCode::kInvalidArgument))
                << "a colour image is no shadow map";
            EXPECT_TRUE(fails_with(renderer.record_shadow_casters(cmd, {}), ErrorCode::kInvalidArgument));
          })
          .ok());
}

}  // namespace
}  // namespace mote::render
