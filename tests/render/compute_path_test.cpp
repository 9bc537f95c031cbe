// The compute draw path (src/render/particle_compute_path.cpp) on the device with validation:
// coverage of a projected square, colour, UV orientation, compositing order whatever the alive
// order, additive, occlusion by and soft fade against the scene depth, seams across tiles, the
// GPU-given count, pair overflow, an empty frame, what is not drawn, near-plane clipping, and a
// random scene against the CPU reference renderer (src/render/reference_renderer.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>

#include "gpu/commands.hpp"
#include "gpu/image.hpp"
#include "gpu/sampler.hpp"
#include "gpu/transfer.hpp"
#include "media/irradiance_volume.hpp"
#include "render/particle_compute_path.hpp"
#include "render/reference_renderer.hpp"
#include "shared/frame.h"
#include "shared/particle_lighting.h"
#include "shared/particle_render.h"
#include "support/gpu_fixture.hpp"
#include "support/particle_scene.hpp"

namespace mote::render {
namespace {

using shader::ParticleDrawRecord;

// Camera, make_view, quad_record, TestParticle, append_particle and the pool layout's words.
using namespace test::particle_scene;  // tests/support/particle_scene.hpp

// The runtime counters block the tests hand over: the alive count at word 2, poison elsewhere.
constexpr uint32_t kAliveCountWord = 2;

// Exact in half floats, so untouched pixels compare equal.
const glm::vec4 kBackground(0.25f, 0.375f, 0.5f, 1.0f);

struct Scene {
  Camera camera;
  std::vector<ParticleDrawRecord> records{quad_record(shader::kProjectionBillboard)};
  std::vector<uint32_t> pool;
  std::vector<uint32_t> alive;
  std::optional<uint32_t> alive_count;  // the counters word; default alive.size()
  std::optional<uint32_t> capacity;     // default: the pool's slots
  ReferenceTexture atlas{1, 1, {255, 255, 255, 255}};
  std::vector<float> depth;  // reversed-Z per pixel, rows top to bottom; empty: 0 (far)
  glm::vec4 background = kBackground;
  // Lighting for kDrawFlagLit: the view's sun and ambient, and point lights, through an
  // irradiance volume of `lighting_grid` froxels between 0.1 and 20 m recorded before the path.
  glm::vec4 sun_direction{0.0f}, sun_radiance{0.0f}, sky_ambient{0.0f}, ground_ambient{0.0f};
  std::vector<shader::PointLightGpu> point_lights;
  glm::uvec3 lighting_grid{8, 8, 16};

  // Appends a record to the pool and its slot to the alive list; returns the slot.
  uint32_t add(const TestParticle& p) {
    const uint32_t slot = append_particle(pool, p);
    alive.push_back(slot);
    return slot;
  }
  uint32_t slots() const { return uint32_t(pool.size() / kRecordWords); }
  uint32_t pixel_count() const { return camera.width * camera.height; }
};

// The reversed-Z depth of a plane facing the camera at view distance d.
float depth_at_distance(const Camera& c, float d) { return c.near_plane / d; }

struct Frame {
  std::vector<glm::vec4> pixels;  // rows top to bottom
  ComputePathStats stats;
  const glm::vec4& at(const Camera& c, uint32_t x, uint32_t y) const { return pixels[size_t(y) * c.width + x]; }
};

class ComputePathTest : public test::GpuTest {
 protected:
  template <typename T>
  gpu::Buffer make_buffer(std::span<const T> data, VkBufferUsageFlags usage, const char* name) {
    const VkDeviceSize bytes = std::max<VkDeviceSize>(data.size_bytes(), 16);
    auto buffer = gpu::Buffer::create(*device_,
                                      {.size = bytes, .usage = usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, .name = name});
    EXPECT_TRUE(buffer.ok()) << buffer.error().to_string();
    std::vector<uint8_t> bytes_in(bytes, 0);
    if (!data.empty()) std::memcpy(bytes_in.data(), data.data(), data.size_bytes());
    EXPECT_TRUE(gpu::upload(*device_, buffer.value(), bytes_in).ok());
    return std::move(buffer).value();
  }

  // Renders `scene` with the compute path over a colour target cleared to its background and a
  // depth target holding its depth; returns the pixels and the path's stats. Runs `frames`
  // frames (the counters are rewritten each frame: stats and pixels must not depend on it).
  Frame render(const Scene& scene, ComputePathOptions options = {},
               VkImageLayout depth_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, uint32_t frames = 1) {
    const Camera& cam = scene.camera;
    const uint32_t capacity = scene.capacity.value_or(std::max(scene.slots(), 1u));
    options.max_particles = options.max_particles ? options.max_particles : capacity;
    options.width = cam.width;
    options.height = cam.height;
    auto created = ParticleComputePath::create(*device_, options);
    EXPECT_TRUE(created.ok()) << created.error().to_string();
    if (!created.ok()) return {};
    ParticleComputePath path = std::move(created).value();

    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    std::vector<uint32_t> pool = scene.pool;
    pool.resize(std::max<size_t>(pool.size(), size_t(capacity) * kRecordWords), 0u);
    std::vector<uint32_t> alive = scene.alive;
    alive.resize(std::max<size_t>(alive.size(), capacity), 0xFFFFFFFFu);  // past the count: poison
    std::vector<uint32_t> counters(4, 0xFFFFFFFFu);
    counters[kAliveCountWord] = scene.alive_count.value_or(uint32_t(scene.alive.size()));
    shader::RenderView view = make_view(cam);
    view.sun_direction = scene.sun_direction;
    view.sun_radiance = scene.sun_radiance;
    view.sky_ambient = scene.sky_ambient;
    view.ground_ambient = scene.ground_ambient;
    view.point_light_count = uint32_t(scene.point_lights.size());
    std::vector<shader::PointLightGpu> lights = scene.point_lights;
    lights.resize(shader::kMaxPointLights, shader::PointLightGpu{});
    gpu::Buffer lights_buffer = make_buffer(std::span<const shader::PointLightGpu>(lights), storage, "test.lights");
    gpu::Buffer pool_buffer = make_buffer(std::span<const uint32_t>(pool), storage, "test.pool");
    gpu::Buffer alive_buffer = make_buffer(std::span<const uint32_t>(alive), storage, "test.alive");
    gpu::Buffer counters_buffer = make_buffer(std::span<const uint32_t>(counters), storage, "test.counters");
    gpu::Buffer records_buffer = make_buffer(std::span<const ParticleDrawRecord>(scene.records), storage,
                                             "test.records");
    gpu::Buffer view_buffer = make_buffer(std::span<const shader::RenderView>(&view, 1),
                                          VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, "test.view");

    auto atlas = gpu::Image::create(*device_, {.width = scene.atlas.width,
                                               .height = scene.atlas.height,
                                               .format = VK_FORMAT_R8G8B8A8_SRGB,
                                               .name = "test.atlas"});
    EXPECT_TRUE(atlas.ok());
    EXPECT_TRUE(gpu::upload_image(*device_, atlas.value(), scene.atlas.rgba8_srgb).ok());
    auto linear = gpu::Sampler::create(*device_, {.filter = VK_FILTER_LINEAR, .name = "test.atlas_sampler"});
    auto nearest = gpu::Sampler::create(*device_, {.filter = VK_FILTER_NEAREST, .name = "test.depth_sampler"});
    EXPECT_TRUE(linear.ok() && nearest.ok());

    auto color = gpu::Image::create(*device_, {.width = cam.width,
                                               .height = cam.height,
                                               .format = VK_FORMAT_R16G16B16A16_SFLOAT,
                                               .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                                        VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                               .name = "test.color"});
    auto depth = gpu::Image::create(*device_, {.width = cam.width,
                                               .height = cam.height,
                                               .format = VK_FORMAT_D32_SFLOAT,
                                               .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                                        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                               .aspect = VK_IMAGE_ASPECT_DEPTH_BIT,
                                               .name = "test.depth"});
    EXPECT_TRUE(color.ok() && depth.ok());
    std::vector<float> depth_texels = scene.depth;
    depth_texels.resize(scene.pixel_count(), 0.0f);
    auto depth_staging = gpu::Buffer::create(*device_, {.size = depth_texels.size() * 4,
                                                        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                                        .memory = gpu::MemoryUsage::kUpload,
                                                        .name = "test.depth_staging"});
    EXPECT_TRUE(depth_staging.ok());
    std::memcpy(depth_staging.value().mapped(), depth_texels.data(), depth_texels.size() * 4);
    EXPECT_TRUE(depth_staging.value().flush().ok());

    ParticleInputs inputs;
    inputs.pool = &pool_buffer;
    inputs.record_words = kRecordWords;
    inputs.capacity = capacity;
    inputs.alive = &alive_buffer;
    inputs.counters = &counters_buffer;
    inputs.alive_count_word = kAliveCountWord;
    inputs.records = &records_buffer;
    inputs.record_count = uint32_t(scene.records.size());
    inputs.view = &view_buffer;
    inputs.point_lights = &lights_buffer;
    inputs.atlas = atlas.value().view();
    inputs.atlas_sampler = linear.value().handle();
    auto irradiance = media::IrradianceVolume::create(*device_, {.grid = scene.lighting_grid,
                                                                 .near_distance = 0.1f,
                                                                 .far_distance = 20.0f});
    EXPECT_TRUE(irradiance.ok()) << irradiance.error().to_string();
    if (!irradiance.ok()) return {};
    inputs.lighting = {irradiance.value().luma_view(), irradiance.value().chroma_view(), irradiance.value().sampler(),
                       &irradiance.value().sampling_buffer()};

    for (uint32_t f = 0; f < frames; ++f) {
      const Status done = device_->submit_and_wait([&](VkCommandBuffer cmd) {
        gpu::image_barrier(cmd, color.value(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                           VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkClearColorValue clear{};
        for (int i = 0; i < 4; ++i) clear.float32[i] = scene.background[i];
        VkImageSubresourceRange color_range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdClearColorImage(cmd, color.value().handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &clear, 1,
                             &color_range);
        gpu::image_barrier(cmd, color.value(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                           VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        gpu::image_barrier(cmd, depth.value(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        region.imageExtent = {cam.width, cam.height, 1};
        vkCmdCopyBufferToImage(cmd, depth_staging.value().handle(), depth.value().handle(),
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        gpu::image_barrier(cmd, depth.value(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, depth_layout,
                           VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
        EXPECT_TRUE(irradiance.value().record(cmd, view, scene.point_lights, {}).ok());
        path.record(cmd, inputs,
                    {.color = &color.value(),
                     .color_layout = VK_IMAGE_LAYOUT_GENERAL,
                     .depth = &depth.value(),
                     .depth_layout = depth_layout},
                    nearest.value().handle());
      });
      EXPECT_TRUE(done.ok()) << done.error().to_string();
    }
    auto texels = gpu::readback_image(*device_, color.value(), VK_IMAGE_LAYOUT_GENERAL, 8);
    EXPECT_TRUE(texels.ok()) << texels.error().to_string();
    Frame frame;
    if (texels.ok()) {
      const std::vector<uint8_t>& bytes = texels.value();
      frame.pixels.resize(scene.pixel_count());
      for (size_t i = 0; i < frame.pixels.size(); ++i) {
        uint16_t h[4];
        std::memcpy(h, bytes.data() + i * 8, 8);
        frame.pixels[i] = glm::vec4(glm::unpackHalf1x16(h[0]), glm::unpackHalf1x16(h[1]), glm::unpackHalf1x16(h[2]),
                                    glm::unpackHalf1x16(h[3]));
      }
    }
    auto stats = path.read_stats();
    EXPECT_TRUE(stats.ok()) << stats.error().to_string();
    if (stats.ok()) frame.stats = stats.value();
    return frame;
  }
};

// Half-float rounding of values in [0, 4]: 2^-9 relative, plus the compositing's f32 error.
constexpr float kHalfTolerance = 4e-3f;

bool near_color(const glm::vec4& a, const glm::vec4& b, float tolerance = kHalfTolerance) {
  return glm::all(glm::lessThanEqual(glm::abs(a - b), glm::vec4(tolerance)));
}

std::string str(const glm::vec4& v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ", " +
         std::to_string(v.w) + ")";
}

// The pixel rectangle [x0, x1) x [y0, y1) whose centres a billboard of `size` at view-space
// (x, y, -d) covers, for the tests' camera at the origin looking down -Z (fov_y 90 degrees: f = 1).
struct PixelRect {
  double x0, x1, y0, y1;  // continuous pixel coordinates of the projected square
  bool covers(uint32_t px, uint32_t py) const {
    const double cx = px + 0.5, cy = py + 0.5;
    return cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
  }
  // A pixel centre within `margin` of an edge (a test avoids them or tolerates them).
  bool near_edge(uint32_t px, uint32_t py, double margin = 1e-3) const {
    const double cx = px + 0.5, cy = py + 0.5;
    return std::abs(cx - x0) < margin || std::abs(cx - x1) < margin || std::abs(cy - y0) < margin ||
           std::abs(cy - y1) < margin;
  }
};

PixelRect projected_square(const Camera& c, glm::vec3 p, float size) {
  const double f = 1.0 / std::tan(0.5 * double(c.fov_y));
  const double aspect = double(c.width) / double(c.height);
  const double d = -double(p.z);
  auto px = [&](double x) { return (x / d * f / aspect * 0.5 + 0.5) * c.width; };
  auto py = [&](double y) { return (-y / d * f * 0.5 + 0.5) * c.height; };  // view +Y is up on screen
  const double h = 0.5 * size;
  return {px(p.x - h), px(p.x + h), py(p.y + h), py(p.y - h)};
}

TEST_F(ComputePathTest, OpaqueWhiteBillboardCoversItsProjectedSquare) {
  Scene scene;
  const TestParticle p{.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f};
  scene.add(p);
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  const PixelRect rect = projected_square(scene.camera, p.position, p.size);
  EXPECT_NEAR(rect.x0, 24.0, 1e-4);  // 8 px either side of the centre: tiles 1 and 2, a border at 32
  EXPECT_NEAR(rect.x1, 40.0, 1e-4);
  uint32_t covered = 0;
  for (uint32_t y = 0; y < scene.camera.height; ++y)
    for (uint32_t x = 0; x < scene.camera.width; ++x) {
      const glm::vec4& c = frame.at(scene.camera, x, y);
      const bool white = c == glm::vec4(1.0f);
      covered += white;
      if (rect.covers(x, y)) EXPECT_TRUE(white) << x << "," << y << " " << str(c);
      else EXPECT_EQ(c, kBackground) << x << "," << y << " " << str(c);
    }
  EXPECT_EQ(covered, 16u * 16u);
  EXPECT_EQ(frame.stats.pairs, 4u);  // tiles (1..2) x (1..2)
  EXPECT_EQ(frame.stats.dropped_pairs, 0u);
}

TEST_F(ComputePathTest, TranslucentColourIsPremultipliedOverTheTarget) {
  Scene scene;
  const glm::vec4 color(0.8f, 0.4f, 0.2f, 0.5f);
  scene.records[0].tint = glm::vec4(1.0f, 1.0f, 0.5f, 1.0f);  // blue halved
  scene.add({.position = {0.3f, -0.2f, -3.0f}, .size = 0.7f, .color = color});
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  const PixelRect rect = projected_square(scene.camera, {0.3f, -0.2f, -3.0f}, 0.7f);
  const glm::vec3 rgb = glm::vec3(0.8f, 0.4f, 0.1f) * 0.5f + 0.5f * glm::vec3(kBackground);
  const glm::vec4 expected(rgb, 0.5f + 0.5f * kBackground.a);
  uint32_t covered = 0, expected_covered = 0;
  for (uint32_t y = 0; y < scene.camera.height; ++y)
    for (uint32_t x = 0; x < scene.camera.width; ++x) {
      if (rect.near_edge(x, y)) continue;
      const glm::vec4& c = frame.at(scene.camera, x, y);
      if (rect.covers(x, y)) {
        ++expected_covered;
        covered += near_color(c, expected);
        EXPECT_TRUE(near_color(c, expected)) << x << "," << y << " " << str(c) << " vs " << str(expected);
      } else {
        EXPECT_EQ(c, kBackground) << x << "," << y;
      }
    }
  EXPECT_GT(expected_covered, 50u);
  EXPECT_EQ(covered, expected_covered);
}

TEST_F(ComputePathTest, UvZeroZeroIsTheImagesTopLeftOnScreen) {
  Scene scene;
  // 2 x 2 atlas: red, green / blue, white (rows top to bottom); bilinear with clamp, so a quad's
  // outer quarter-texel border shows each texel unmixed.
  scene.atlas = {2, 2, {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255}};
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f});  // pixels [24, 40)^2
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  EXPECT_TRUE(near_color(frame.at(scene.camera, 24, 24), {1, 0, 0, 1})) << str(frame.at(scene.camera, 24, 24));
  EXPECT_TRUE(near_color(frame.at(scene.camera, 39, 24), {0, 1, 0, 1})) << str(frame.at(scene.camera, 39, 24));
  EXPECT_TRUE(near_color(frame.at(scene.camera, 24, 39), {0, 0, 1, 1})) << str(frame.at(scene.camera, 24, 39));
  EXPECT_TRUE(near_color(frame.at(scene.camera, 39, 39), {1, 1, 1, 1})) << str(frame.at(scene.camera, 39, 39));
}

TEST_F(ComputePathTest, OverlappingParticlesCompositeNearestFirstWhateverTheAliveOrder) {
  const TestParticle near_red{.position = {-0.2f, 0.0f, -2.0f}, .size = 1.0f, .color = {1.0f, 0.0f, 0.0f, 0.6f}};
  const TestParticle far_green{.position = {0.3f, 0.1f, -3.0f}, .size = 2.0f, .color = {0.0f, 1.0f, 0.0f, 0.6f}};
  Scene a, b;
  a.add(near_red);
  a.add(far_green);
  b.add(far_green);
  b.add(near_red);
  const Frame fa = render(a), fb = render(b);
  ASSERT_EQ(fa.pixels.size(), a.pixel_count());
  ASSERT_EQ(fb.pixels.size(), b.pixel_count());
  EXPECT_EQ(fa.pixels, fb.pixels) << "the alive-list order changed the image";
  // The centre pixel lies in both: red over green over the background.
  const glm::vec3 bg(kBackground);
  const glm::vec3 right = glm::vec3(0.6f, 0, 0) + 0.4f * (glm::vec3(0, 0.6f, 0) + 0.4f * bg);
  const glm::vec3 wrong = glm::vec3(0, 0.6f, 0) + 0.4f * (glm::vec3(0.6f, 0, 0) + 0.4f * bg);
  const glm::vec4 centre = fa.at(a.camera, 32, 32);
  EXPECT_TRUE(near_color(centre, glm::vec4(right, 1.0f))) << str(centre);
  EXPECT_FALSE(near_color(centre, glm::vec4(wrong, 1.0f))) << str(centre);
}

TEST_F(ComputePathTest, AdditiveAddsOverTheBackgroundAndKeepsItsAlpha) {
  Scene scene;
  scene.records[0].flags |= shader::kDrawFlagAdditive;
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f, .color = {0.5f, 0.25f, 2.0f, 0.8f}});
  scene.background = glm::vec4(0.25f, 0.375f, 0.5f, 0.5f);
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  const glm::vec4 expected = scene.background + glm::vec4(0.4f, 0.2f, 1.6f, 0.0f);
  EXPECT_TRUE(near_color(frame.at(scene.camera, 32, 32), expected)) << str(frame.at(scene.camera, 32, 32));
  EXPECT_EQ(frame.at(scene.camera, 10, 10), scene.background);
}

// Lit sprites are lit per pixel from the irradiance volume (shared/particle_lighting.h): at the
// sprite's centre its normal faces the eye, so a sun shining from behind the camera gives
// E (1/4 + 1/2) and nothing through the back; the colour is the albedo / pi times the luma there
// in the chroma of the mean. Towards an edge the bent normal turns away from the sun and the
// sprite darkens; a point light in front brightens it; an unlit record ignores all of it.
TEST_F(ComputePathTest, LitSpritesTakeTheScenesLightPerPixel) {
  Scene scene;
  scene.records[0].flags |= shader::kDrawFlagLit;
  const float pi = glm::pi<float>();
  scene.sky_ambient = glm::vec4(0.25f, 0.5f, 0.0f, 0.0f) * pi;
  scene.ground_ambient = scene.sky_ambient;                  // ambient independent of the normal
  scene.sun_direction = glm::vec4(0.0f, 0.0f, -1.0f, 1.0f);  // travelling away from the eye
  scene.sun_radiance = glm::vec4(0.5f, 0.0f, 0.25f, 0.0f) * pi;
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f});
  const Frame lit = render(scene);
  ASSERT_EQ(lit.pixels.size(), scene.pixel_count());
  const shader::IrradianceSh sh = shader::irradiance_sh_add(
      shader::irradiance_sh_ambient(glm::vec3(scene.sky_ambient), glm::vec3(scene.ground_ambient)),
      shader::irradiance_sh_light(glm::vec3(scene.sun_radiance), glm::vec3(0.0f, 0.0f, 1.0f)));
  const glm::vec3 centre = shader::irradiance_sh_evaluate(sh.luma, sh.chroma, glm::vec3(0.0f, 0.0f, 1.0f)) / pi;
  // The luma at the centre in closed form: Y(ambient) + (1/4 + 1/2) Y(sun).
  EXPECT_NEAR(shader::lighting_luma(centre),
              shader::lighting_luma(glm::vec3(0.25f, 0.5f, 0.0f)) +
                  0.75f * shader::lighting_luma(glm::vec3(0.5f, 0.0f, 0.25f)),
              1e-5f);
  EXPECT_TRUE(near_color(lit.at(scene.camera, 32, 32), glm::vec4(centre, 1.0f))) << str(lit.at(scene.camera, 32, 32));
  // Towards the right edge the normal leans away from the light: darker, not black.
  const glm::vec4 edge = lit.at(scene.camera, 32 + 7, 32);  // quad coordinate c.x = 0.47
  EXPECT_LT(shader::lighting_luma(glm::vec3(edge)), shader::lighting_luma(centre) - 0.015f) << str(edge);
  EXPECT_GT(shader::lighting_luma(glm::vec3(edge)), 0.1f) << str(edge);
  // A point light in front of the sprite adds to it.
  scene.point_lights.push_back({glm::vec4(0.0f, 0.0f, -1.0f, 10.0f), glm::vec4(4.0f, 4.0f, 4.0f, 0.0f)});
  const Frame with_point = render(scene);
  ASSERT_EQ(with_point.pixels.size(), scene.pixel_count());
  const glm::vec4 brighter = with_point.at(scene.camera, 32, 32);
  EXPECT_GT(brighter.r, centre.r + 0.1f) << str(brighter);
  EXPECT_GT(brighter.b, centre.b + 0.1f) << str(brighter);
  scene.records[0].flags &= ~shader::kDrawFlagLit;
  const Frame unlit = render(scene);
  ASSERT_EQ(unlit.pixels.size(), scene.pixel_count());
  EXPECT_EQ(unlit.at(scene.camera, 32, 32), glm::vec4(1.0f));
}

TEST_F(ComputePathTest, AParticleBehindTheSceneDepthIsHidden) {
  // Each depth layout a host may hand it in (an attachment layout is moved to a sampled one and back).
  for (const VkImageLayout layout :
       {VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL,
        VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL}) {
    Scene scene;
    scene.depth.assign(scene.pixel_count(), depth_at_distance(scene.camera, 1.5f));
    scene.add({.position = {-0.3f, 0.0f, -2.0f}, .size = 0.5f});  // behind the wall at 1.5 m
    scene.add({.position = {0.3f, 0.0f, -1.0f}, .size = 0.25f});  // in front of it
    const Frame frame = render(scene, {}, layout);
    ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
    const PixelRect hidden = projected_square(scene.camera, {-0.3f, 0.0f, -2.0f}, 0.5f);
    const PixelRect shown = projected_square(scene.camera, {0.3f, 0.0f, -1.0f}, 0.25f);
    uint32_t white = 0;
    for (uint32_t y = 0; y < scene.camera.height; ++y)
      for (uint32_t x = 0; x < scene.camera.width; ++x) {
        const glm::vec4& c = frame.at(scene.camera, x, y);
        if (shown.covers(x, y)) {
          EXPECT_EQ(c, glm::vec4(1.0f)) << x << "," << y;
          ++white;
        } else {
          EXPECT_EQ(c, kBackground) << x << "," << y << (hidden.covers(x, y) ? " (hidden particle)" : "");
        }
      }
    EXPECT_EQ(white, 8u * 8u);
  }
}

TEST_F(ComputePathTest, SoftParticlesFadeNearTheSceneDepth) {
  Scene scene;
  scene.records[0].flags |= shader::kDrawFlagSoft;
  scene.records[0].soft_distance = 1.0f;
  scene.background = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
  scene.depth.assign(scene.pixel_count(), depth_at_distance(scene.camera, 2.25f));
  scene.add({.position = {-0.5f, 0.0f, -2.0f}, .size = 0.5f});  // 0.25 m in front: fade 0.25
  scene.add({.position = {0.5f, 0.0f, -1.0f}, .size = 0.25f});  // 1.25 m in front: fade 1
  const Frame soft = render(scene);
  ASSERT_EQ(soft.pixels.size(), scene.pixel_count());
  scene.records[0].flags &= ~shader::kDrawFlagSoft;
  const Frame hard = render(scene);
  ASSERT_EQ(hard.pixels.size(), scene.pixel_count());
  // Particle 0's centre pixel (-0.5 / 2 -> NDC -0.25 -> x = 24), particle 1's (x = 48).
  const glm::vec4 faded = soft.at(scene.camera, 24, 32), unfaded = hard.at(scene.camera, 24, 32);
  EXPECT_TRUE(near_color(faded, {0.25f, 0.25f, 0.25f, 1.0f})) << str(faded);
  EXPECT_TRUE(near_color(unfaded, {1.0f, 1.0f, 1.0f, 1.0f})) << str(unfaded);
  EXPECT_LT(faded.r, unfaded.r - 0.5f);
  EXPECT_EQ(soft.at(scene.camera, 48, 32), glm::vec4(1.0f));
  EXPECT_EQ(hard.at(scene.camera, 48, 32), glm::vec4(1.0f));
}

TEST_F(ComputePathTest, ASpriteOverManyTilesHasNoSeams) {
  Scene scene;
  scene.camera.width = 200;  // partial tiles on the right and bottom edges (200 = 12.5 tiles)
  scene.camera.height = 120;
  // Reaches past the right and bottom edges, into the partial tiles there.
  const TestParticle p{.position = {2.0f, -0.9f, -2.0f}, .size = 3.0f, .color = {0.9f, 0.6f, 0.3f, 1.0f}};
  scene.add(p);
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  const PixelRect rect = projected_square(scene.camera, p.position, p.size);
  uint32_t inside = 0, mismatched = 0;
  for (uint32_t y = 0; y < scene.camera.height; ++y)
    for (uint32_t x = 0; x < scene.camera.width; ++x) {
      ASSERT_FALSE(rect.near_edge(x, y, 1e-2)) << "the test's square should not graze a pixel centre";
      const glm::vec4& c = frame.at(scene.camera, x, y);
      const glm::vec4 expected = rect.covers(x, y) ? glm::vec4(0.9f, 0.6f, 0.3f, 1.0f) : kBackground;
      inside += rect.covers(x, y);
      if (!near_color(c, expected)) {
        ++mismatched;
        ADD_FAILURE() << x << "," << y << " " << str(c) << " expected " << str(expected);
        if (mismatched > 20) return;
      }
    }
  EXPECT_GT(inside, 5000u);
  // 13 x 8 tiles on screen; the square's pixels [115, 205) x [42, 132), one pixel of margin, are
  // clamped to tiles 7..12 by 2..7.
  EXPECT_EQ(frame.stats.pairs, 6u * 6u);
}

TEST_F(ComputePathTest, OnlyTheCountFromTheCountersBufferIsDrawn) {
  Scene scene;
  scene.add({.position = {-0.5f, 0.5f, -2.0f}, .size = 0.4f, .color = {1, 0, 0, 1}});
  scene.add({.position = {0.5f, 0.5f, -2.0f}, .size = 0.4f, .color = {0, 1, 0, 1}});
  scene.add({.position = {0.0f, -0.5f, -2.0f}, .size = 0.4f, .color = {0, 0, 1, 1}});
  scene.alive_count = 2;
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  EXPECT_EQ(frame.at(scene.camera, 24, 24), glm::vec4(1, 0, 0, 1));
  EXPECT_EQ(frame.at(scene.camera, 40, 24), glm::vec4(0, 1, 0, 1));
  EXPECT_EQ(frame.at(scene.camera, 32, 40), kBackground) << "the third entry is past the count";
}

TEST_F(ComputePathTest, CountsAndSlotsPastTheCapacityAreClamped) {
  Scene scene;
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f, .color = {0, 1, 0, 1}});
  scene.add({.position = {0.0f, 0.0f, -1.0f}, .size = 0.2f, .color = {1, 0, 0, 1}});
  scene.alive[1] = 1000;       // clamped to the last slot (1): still the red one
  scene.alive_count = 100000;  // clamped to the capacity (2); entries past it never read
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  EXPECT_EQ(frame.at(scene.camera, 32, 32), glm::vec4(1, 0, 0, 1));
  EXPECT_EQ(frame.at(scene.camera, 26, 32), glm::vec4(0, 1, 0, 1));
}

TEST_F(ComputePathTest, PairsOverTheLimitAreCountedAndDroppedByTile) {
  Scene scene;
  scene.camera.width = 128;  // 8 x 8 = 64 tiles
  scene.camera.height = 128;
  // Two sprites larger than the screen: 64 pairs each, 128 asked for, 100 kept: the first
  // particle's 64 and the second's first 36 tiles (row-major), since pairs follow the alive list.
  scene.add({.position = {0.0f, 0.0f, -1.0f}, .size = 5.0f, .color = {1.0f, 0.0f, 0.0f, 0.5f}});
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 9.0f, .color = {0.0f, 1.0f, 0.0f, 0.5f}});
  const Frame frame = render(scene, {.max_tile_pairs = 100}, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, 2);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  EXPECT_EQ(frame.stats.pairs, 128u);
  EXPECT_EQ(frame.stats.dropped_pairs, 28u);
  const glm::vec3 bg(kBackground);
  const glm::vec4 both(glm::vec3(0.5f, 0, 0) + 0.5f * (glm::vec3(0, 0.5f, 0) + 0.5f * bg), 1.0f);
  const glm::vec4 red_only(glm::vec3(0.5f, 0, 0) + 0.5f * bg, 1.0f);
  for (uint32_t tile = 0; tile < 64; ++tile) {
    const uint32_t x = (tile % 8) * 16 + 7, y = (tile / 8) * 16 + 7;
    const glm::vec4& c = frame.at(scene.camera, x, y);
    EXPECT_TRUE(near_color(c, tile < 36 ? both : red_only)) << "tile " << tile << " " << str(c);
  }
}

TEST_F(ComputePathTest, AnEmptyAliveListLeavesTheTargetUnchanged) {
  Scene scene;
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f});
  scene.alive_count = 0;
  const Frame frame = render(scene, {}, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, 2);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  for (const glm::vec4& c : frame.pixels) ASSERT_EQ(c, kBackground);
  EXPECT_EQ(frame.stats.pairs, 0u);
  EXPECT_EQ(frame.stats.dropped_pairs, 0u);
}

TEST_F(ComputePathTest, MeshStaleHiddenAndTransparentParticlesAreNotDrawn) {
  Scene scene;
  scene.records = {quad_record(shader::kProjectionMesh), quad_record(shader::kProjectionBillboard),
                   quad_record(shader::kProjectionBillboard), quad_record(shader::kProjectionBillboard)};
  scene.records[2].flags &= ~shader::kDrawFlagLive;                                             // a hidden emitter
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f, .row = 0});                         // mesh
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f, .row = 1, .generation = 2});        // stale
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f, .row = 2});                         // hidden
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f, .color = {1, 1, 1, 0}, .row = 3});  // alpha 0
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = 1.0f, .row = 7});                         // no such row
  scene.add({.position = {0.0f, 0.0f, 2.0f}, .size = 1.0f, .row = 1});                          // behind the eye
  scene.add({.position = {9.0f, 0.0f, -2.0f}, .size = 1.0f, .row = 1});                         // off the screen
  scene.add({.position = {std::nanf(""), 0.0f, -2.0f}, .size = 1.0f, .row = 1});                // NaN
  scene.add({.position = {0.0f, 0.0f, -2.0f}, .size = std::numeric_limits<float>::infinity(), .row = 1});
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  for (const glm::vec4& c : frame.pixels) ASSERT_EQ(c, kBackground);
  EXPECT_EQ(frame.stats.pairs, 0u);
}

TEST_F(ComputePathTest, CreateRefusesMoreThan65536Tiles) {
  auto ok = ParticleComputePath::create(*device_, {.max_particles = 16, .width = 4096, .height = 4096});
  EXPECT_TRUE(ok.ok()) << ok.error().to_string();
  auto too_many = ParticleComputePath::create(*device_, {.max_particles = 16, .width = 4097, .height = 4096});
  ASSERT_FALSE(too_many.ok());
  EXPECT_EQ(too_many.error().code, ErrorCode::kUnsupported);
  auto empty = ParticleComputePath::create(*device_, {.max_particles = 0, .width = 64, .height = 64});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().code, ErrorCode::kInvalidArgument);
}

// ---- Against the CPU reference renderer ----

ReferenceImage reference_of(const Scene& scene) {
  ReferenceInputs in;
  in.pool = scene.pool;
  in.record_words = kRecordWords;
  const uint32_t count = std::min<uint32_t>(scene.alive_count.value_or(uint32_t(scene.alive.size())),
                                            uint32_t(scene.alive.size()));
  in.alive_slots = std::span<const uint32_t>(scene.alive.data(), count);
  in.records = scene.records;
  in.view = make_view(scene.camera);
  in.atlas = &scene.atlas;
  in.scene_depth = scene.depth;
  ReferenceImage background{scene.camera.width, scene.camera.height,
                            std::vector<glm::vec4>(scene.pixel_count(), scene.background)};
  in.background = &background;
  auto image = render_particles_reference(in);
  EXPECT_TRUE(image.ok()) << image.error().to_string();
  return image.ok() ? std::move(image).value() : ReferenceImage{};
}

ReferenceImage as_image(const Scene& scene, const Frame& frame) {
  return {scene.camera.width, scene.camera.height, frame.pixels};
}

// A ground plane y = -1.5 under the camera as reversed-Z depth (0 where the pixel sees sky).
std::vector<float> ground_depth(const Camera& c) {
  const shader::RenderView v = make_view(c);
  std::vector<float> depth(size_t(c.width) * c.height, 0.0f);
  for (uint32_t y = 0; y < c.height; ++y)
    for (uint32_t x = 0; x < c.width; ++x) {
      const glm::vec2 ndc((x + 0.5f) / c.width * 2.0f - 1.0f, (y + 0.5f) / c.height * 2.0f - 1.0f);
      const glm::vec4 far_point = v.inverse_view_projection * glm::vec4(ndc, 0.5f, 1.0f);
      const glm::vec3 dir = glm::normalize(glm::vec3(far_point) / far_point.w - c.eye);
      if (dir.y >= -1e-4f) continue;
      const float t = (-1.5f - c.eye.y) / dir.y;
      const float distance = t * glm::dot(dir, glm::vec3(v.camera_forward));
      depth[size_t(y) * c.width + x] = c.near_plane / distance;
    }
  return depth;
}

// ~200 camera-facing particles (billboards, stretched, rolled) of every colour path (additive,
// soft against a ground plane, flipbook with blending, palette rects, tinted) at 128 x 128.
Scene random_scene(uint32_t seed, uint32_t count) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  Scene scene;
  scene.camera.width = 128;
  scene.camera.height = 128;
  scene.camera.eye = glm::vec3(0.3f, 0.4f, 1.0f);
  scene.camera.target = glm::vec3(0.0f, 0.0f, -6.0f);
  scene.camera.fov_y = glm::radians(60.0f);
  scene.depth = ground_depth(scene.camera);
  // An 8 x 8 atlas of smooth random colours; the effects use its halves and a 2 x 2 flipbook.
  scene.atlas.width = 8;
  scene.atlas.height = 8;
  scene.atlas.rgba8_srgb.resize(8 * 8 * 4);
  for (uint32_t i = 0; i < 64; ++i) {
    const float x = float(i % 8) / 7.0f, y = float(i / 8) / 7.0f;
    scene.atlas.rgba8_srgb[i * 4 + 0] = uint8_t(255.0f * (0.5f + 0.5f * std::sin(3.0f * x + 1.0f)));
    scene.atlas.rgba8_srgb[i * 4 + 1] = uint8_t(255.0f * (0.5f + 0.5f * std::cos(2.0f * y)));
    scene.atlas.rgba8_srgb[i * 4 + 2] = uint8_t(255.0f * (0.5f + 0.4f * x * y));
    scene.atlas.rgba8_srgb[i * 4 + 3] =
        uint8_t(255.0f * (0.3f + 0.7f * (1.0f - std::abs(x - 0.5f) - std::abs(y - 0.5f) * 0.5f)));
  }
  ParticleDrawRecord plain = quad_record(shader::kProjectionBillboard);
  plain.atlas_rect = glm::vec4(0.0f, 0.0f, 0.5f, 1.0f);
  ParticleDrawRecord additive = quad_record(shader::kProjectionBillboard, shader::kDrawFlagAdditive);
  additive.tint = glm::vec4(0.6f, 0.8f, 1.4f, 1.0f);
  ParticleDrawRecord stretched = quad_record(shader::kProjectionStretched);
  stretched.velocity_word = kVelocityWord;
  ParticleDrawRecord soft = quad_record(shader::kProjectionBillboard, shader::kDrawFlagSoft);
  soft.soft_distance = 0.8f;
  ParticleDrawRecord flipbook = quad_record(shader::kProjectionBillboard, shader::kDrawFlagFlipbookBlend);
  flipbook.flipbook_columns = 2;
  flipbook.flipbook_rows = 2;
  flipbook.age_word = kAgeWord;
  flipbook.lifetime_word = kLifetimeWord;
  flipbook.rotation_word = kRotationWord;
  flipbook.rotation_width = 1;
  ParticleDrawRecord palette = quad_record(shader::kProjectionBillboard);
  palette.uv_rect_word = kUvRectWord;
  palette.rotation_word = kRotationWord;
  palette.rotation_width = 4;
  palette.atlas_rect = glm::vec4(0.5f, 0.0f, 0.5f, 1.0f);
  scene.records = {plain, additive, stretched, soft, flipbook, palette};
  for (uint32_t i = 0; i < count; ++i) {
    TestParticle p;
    p.row = uint32_t(u(rng) * 6.0f) % 6;
    const float d = 2.0f + 10.0f * u(rng);
    p.position = glm::vec3((u(rng) - 0.5f) * d * 1.1f, (u(rng) - 0.5f) * d * 1.1f - 0.3f, 1.0f - d);
    p.size = 0.15f + 1.2f * u(rng);
    p.color = glm::vec4(u(rng), u(rng), u(rng), 0.15f + 0.85f * u(rng));
    p.velocity = glm::vec3(u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f) * 3.0f;
    // Rolls only (a quaternion about +Z for the 4-word field): the quads stay camera-facing.
    const float roll = 6.283f * u(rng);
    p.rotation = p.row == 5 ? (0.5f + u(rng)) * glm::vec4(0.0f, 0.0f, std::sin(0.5f * roll), std::cos(0.5f * roll))
                            : glm::vec4(roll, 0.0f, 0.0f, 0.0f);
    p.uv_rect = glm::vec4(0.5f * u(rng), 0.5f * u(rng), 0.5f, 0.5f);
    p.age = u(rng);
    p.lifetime = 1.0f;
    scene.add(p);
  }
  return scene;
}

// Camera-facing quads have one view depth over their area, so per-particle order (this path)
// and per-fragment order (the reference) agree but for centres within one key step (0.026 %);
// what remains is half-float output, the early out at A > 0.996 and filtering precision.
// Bound: 50 dB (a mean squared error of 1e-5 over clamped RGB); lavapipe measures 70-71 dB for
// these seeds, the margin is for a GPU's coarser bilinear weights.
TEST_F(ComputePathTest, MatchesTheReferenceRendererOnARandomScene) {
  for (const uint32_t seed : {1u, 2u}) {
    const Scene scene = random_scene(seed, 200);
    const Frame frame = render(scene);
    ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
    const ReferenceImage expected = reference_of(scene);
    ASSERT_EQ(expected.pixels.size(), scene.pixel_count());
    const ImageError error = compare_images(expected, as_image(scene, frame));
    EXPECT_GE(error.psnr_db, 50.0) << "seed " << seed << ": mean abs " << error.mean_abs << ", max abs "
                                   << error.max_abs;
    // The path did draw: the image is far from the bare background.
    ReferenceImage bare{scene.camera.width, scene.camera.height,
                        std::vector<glm::vec4>(scene.pixel_count(), scene.background)};
    EXPECT_LT(compare_images(bare, as_image(scene, frame)).psnr_db, 25.0);
  }
}

// 300 faint sprites over every pixel of a 2 x 2 tile screen (three rounds of 128 staged sprites),
// an opaque one in front of the left half: the left pixels stop early, the right ones must still
// take every round, in depth order across the rounds.
TEST_F(ComputePathTest, ManySpritesInOneTileSpanSeveralRounds) {
  Scene scene;
  scene.camera.width = 32;
  scene.camera.height = 32;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int i = 0; i < 300; ++i) {
    const float d = 2.0f + 8.0f * u(rng);
    scene.add({.position = {0.1f * (u(rng) - 0.5f), 0.1f * (u(rng) - 0.5f), -d},
               .size = 2.5f * d,
               .color = {u(rng), u(rng), u(rng), 0.02f + 0.02f * u(rng)}});
  }
  scene.add({.position = {-0.5f, 0.0f, -1.0f}, .size = 1.0f, .color = {1.0f, 0.0f, 1.0f, 1.0f}});  // x in [-1, 0]
  std::shuffle(scene.alive.begin(), scene.alive.end(), rng);
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  EXPECT_EQ(frame.stats.pairs, 301u * 4u);  // the opaque one's edge at x = 16 reaches tile 1 by the margin
  const ReferenceImage expected = reference_of(scene);
  ASSERT_EQ(expected.pixels.size(), scene.pixel_count());
  EXPECT_GE(compare_images(expected, as_image(scene, frame)).psnr_db, 50.0);
  EXPECT_EQ(frame.at(scene.camera, 4, 16), glm::vec4(1.0f, 0.0f, 1.0f, 1.0f));
  EXPECT_GT(glm::distance(frame.at(scene.camera, 24, 16), kBackground), 0.1f);
}

// A horizontal sprite under the eye reaching behind it: clipped at the near plane, its visible
// part drawn as the reference (which clips like a GPU) draws it.
TEST_F(ComputePathTest, ASpriteThroughTheNearPlaneDrawsItsVisiblePart) {
  Scene scene;
  scene.camera.eye = glm::vec3(0.0f, 0.5f, 0.0f);
  scene.camera.target = glm::vec3(0.0f, 0.2f, -1.0f);
  scene.records = {quad_record(shader::kProjectionHorizontal)};
  scene.add({.position = {0.0f, 0.0f, -1.0f}, .size = 4.0f, .color = {1.0f, 0.5f, 0.25f, 0.8f}});
  const Frame frame = render(scene);
  ASSERT_EQ(frame.pixels.size(), scene.pixel_count());
  const ReferenceImage expected = reference_of(scene);
  ASSERT_EQ(expected.pixels.size(), scene.pixel_count());
  uint32_t drawn = 0, differ = 0;
  for (size_t i = 0; i < frame.pixels.size(); ++i) {
    drawn += frame.pixels[i] != kBackground;
    differ += !near_color(frame.pixels[i], expected.pixels[i], 1e-2f);
  }
  EXPECT_GT(drawn, scene.pixel_count() / 4);
  EXPECT_LE(differ, scene.camera.width) << "more than a row of edge pixels differ from the reference";
  EXPECT_GE(compare_images(expected, as_image(scene, frame)).psnr_db, 35.0);
}

}  // namespace
}  // namespace mote::render
