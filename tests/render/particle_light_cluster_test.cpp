// The particle lights' cluster grid (docs/design/particle_lights.md, "The clustered list") on
// lavapipe with validation. The binning pass (shaders/render/particle_lights_bin.comp) run on hand-
// made lists: a light whose sphere just reaches a tile's corner is listed in the cluster of that
// corner; no light is missed at any point its sphere reaches (points sampled in every light's
// sphere, each looked up with the readers' own particle_light_cluster_of), while a small light is
// listed in a few clusters only; where the entries run out a cluster is marked for the whole
// list and its lights are counted exactly. Then the scene renderer: many small particle lights
// shading the ground, lit sprites and fog, clustered (with entries to spare, and too few) against
// the loop over the whole list.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/matrix.hpp>
#include <random>
#include <string>
#include <vector>

#include "gpu/buffer.hpp"
#include "gpu/commands.hpp"
#include "gpu/compute_pipeline.hpp"
#include "gpu/transfer.hpp"
#include "render/particle_light_pass.hpp"
#include "render/render_view.hpp"
#include "render/scene_renderer.hpp"
#include "scene/scene.hpp"
#include "shared/particle_lights.h"
#include "support/gpu_fixture.hpp"

namespace mote::render {
namespace {

namespace fs = std::filesystem;

constexpr uint32_t kWidth = 96, kHeight = 64;  // 6 x 4 tiles
constexpr float kNear = 0.5f, kFar = 40.0f;

shader::RenderView test_view() {
  ViewSetup setup;
  setup.camera = {.position = glm::vec3(0.0f, 2.0f, 5.0f), .target = glm::vec3(0.0f), .fov_y_degrees = 50.0f};
  setup.width = kWidth;
  setup.height = kHeight;
  return make_render_view(setup);
}

// The grid's words after the header, read back, and its header.
struct Binned {
  shader::ParticleLightClusterHeader header{};
  std::vector<uint32_t> words;
  // Whether cluster c's entries ran out (its readers loop over the whole list).
  bool whole(uint32_t c) const { return words[2 * c + 1] == shader::kParticleLightClusterWholeList; }
  // The lights listed for cluster c (none when whole).
  std::vector<uint32_t> list(uint32_t c) const {
    if (whole(c)) return {};
    const uint32_t first = words[2 * c], count = words[2 * c + 1];
    return {words.begin() + first, words.begin() + first + count};
  }
};

class ParticleLightClusterTest : public test::GpuTest {
 protected:
  // Bins `lights` (world space) with particle_lights_bin into a grid of `entries` words.
  Binned bin(const std::vector<shader::PointLightGpu>& lights, uint32_t entries) {
    Binned out;
    const shader::RenderView view = test_view();
    const shader::ParticleLightClusterHeader grid = particle_light_cluster_header(kWidth, kHeight, kNear, kFar, entries,
                                                                                  view);
    const uint32_t n = uint32_t(lights.size());
    auto list = gpu::Buffer::create(device(), {.size = particle_light_list_bytes(std::max(n, 1u))});
    auto clusters = gpu::Buffer::create(device(), {.size = particle_light_cluster_bytes(grid.clusters, entries)});
    auto pipeline = gpu::ComputePipeline::create(device(), "render/particle_lights_bin");
    EXPECT_TRUE(list.ok() && clusters.ok() && pipeline.ok());
    if (!list.ok() || !clusters.ok() || !pipeline.ok()) return out;
    const shader::ParticleLightHeader header{n, n, 0, n};
    EXPECT_TRUE(gpu::upload_span(device(), *list, std::span(&header, 1)).ok());
    if (n > 0) {
      EXPECT_TRUE(gpu::upload_span(device(), *list, std::span(lights), sizeof(header)).ok());
    }
    EXPECT_TRUE(gpu::upload_span(device(), *clusters, std::span(&grid, 1)).ok());
    EXPECT_TRUE(device()
                    .submit_and_wait([&](VkCommandBuffer cmd) {
                      gpu::ComputeRecorder(device(), cmd)
                          .bind(*pipeline)
                          .buffers({{0, &*list}, {1, &*clusters}})
                          .dispatch_threads(grid.clusters);
                    })
                    .ok());
    auto h = gpu::readback_as<shader::ParticleLightClusterHeader>(device(), *clusters, 1);
    auto words = gpu::readback_as<uint32_t>(device(), *clusters, 2 * size_t(grid.clusters) + entries,
                                            shader::kParticleLightClusterHeaderBytes);
    EXPECT_TRUE(h.ok() && words.ok());
    if (!h.ok() || !words.ok()) return out;
    out.header = (*h)[0];
    out.words = std::move(words).value();
    return out;
  }
};

shader::PointLightGpu light_at(glm::vec3 world, float range) {
  return {glm::vec4(world, range), glm::vec4(1.0f, 0.5f, 0.2f, 0.0f), glm::vec4(0.0f)};
}

bool listed(const Binned& b, uint32_t cluster, uint32_t light) {
  const std::vector<uint32_t> l = b.list(cluster);
  return std::find(l.begin(), l.end(), light) != l.end();
}

// At each inner tile corner, in two slices, a light whose sphere reaches the corner by 1e-3 of its
// range from the far side (its centre off diagonally into the opposite tile): the cluster whose
// corner it is lists it, as do the other three clusters that meet there.
TEST_F(ParticleLightClusterTest, ALightJustReachingATileCornerIsListedThere) {
  const shader::RenderView view = test_view();
  const shader::ParticleLightClusterHeader h = particle_light_cluster_header(kWidth, kHeight, kNear, kFar, 1, view);
  const glm::mat4 to_world = glm::inverse(view.view);
  constexpr float kRange = 0.25f;
  struct Corner {
    uint32_t tx, ty, s;
  };
  std::vector<Corner> corners;
  std::vector<shader::PointLightGpu> lights;
  for (uint32_t s : {4u, 9u})
    for (uint32_t ty = 1; ty < h.tiles_y; ++ty)
      for (uint32_t tx = 1; tx < h.tiles_x; ++tx) {
        const float x = -1.0f + float(tx) * h.tile_ndc_x, y = -1.0f + float(ty) * h.tile_ndc_y;
        const float d = shader::particle_light_slice_depth(h, float(s) + 0.5f);
        const glm::vec3 corner = shader::particle_light_ray_point(h, x, y, d);
        // Into tile (tx, ty) at the same depth: away from cluster (tx - 1, ty - 1).
        const glm::vec3 away = glm::normalize(shader::particle_light_ray_point(h, x + 0.01f, y + 0.01f, d) - corner);
        const glm::vec3 centre = corner + away * (kRange * (1.0f - 1e-3f));
        corners.push_back({tx, ty, s});
        lights.push_back(light_at(glm::vec3(to_world * glm::vec4(centre, 1.0f)), kRange));
      }
  const Binned b = bin(lights, 1 << 16);
  ASSERT_EQ(b.header.overflow, 0u);
  for (size_t i = 0; i < corners.size(); ++i) {
    const Corner& c = corners[i];
    SCOPED_TRACE(::testing::Message() << "corner " << c.tx << "," << c.ty << " slice " << c.s);
    for (uint32_t dy = 0; dy < 2; ++dy)
      for (uint32_t dx = 0; dx < 2; ++dx) {
        const uint32_t cluster = (c.s * h.tiles_y + c.ty - 1 + dy) * h.tiles_x + c.tx - 1 + dx;
        EXPECT_TRUE(listed(b, cluster, uint32_t(i))) << "cluster " << c.tx - 1 + dx << "," << c.ty - 1 + dy;
      }
  }
}

// 300 lights of 0.05 - 1 m placed in the view; 64 points in each one's sphere (within 0.999 of its
// range, some on its surface): wherever such a point is in a cluster, that cluster lists the light.
// And the grid is no "every light everywhere": a light of 2 cm is listed in at most 8 clusters.
TEST_F(ParticleLightClusterTest, NoLightIsMissedWhereItsSphereReaches) {
  const shader::RenderView view = test_view();
  const glm::mat4 to_world = glm::inverse(view.view);
  const shader::ParticleLightClusterHeader h = particle_light_cluster_header(kWidth, kHeight, kNear, kFar, 1, view);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<shader::PointLightGpu> lights;
  for (int i = 0; i < 300; ++i) {
    const float x = 2.2f * unit(rng) - 1.1f, y = 2.2f * unit(rng) - 1.1f;
    const float d = kNear * std::pow(kFar / kNear, 0.9f * unit(rng));
    const glm::vec3 v = shader::particle_light_ray_point(h, x, y, d);
    lights.push_back(light_at(glm::vec3(to_world * glm::vec4(v, 1.0f)), 0.05f + 0.95f * unit(rng)));
  }
  const uint32_t small = uint32_t(lights.size());
  lights.push_back(
      light_at(glm::vec3(to_world * glm::vec4(shader::particle_light_ray_point(h, 0.1f, 0.1f, 6.0f), 1.0f)), 0.02f));
  const Binned b = bin(lights, 1 << 18);
  ASSERT_EQ(b.header.overflow, 0u);
  uint32_t checked = 0, missed = 0;
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  for (uint32_t i = 0; i < lights.size(); ++i) {
    const glm::vec3 centre(lights[i].position_range);
    const float range = lights[i].position_range.w;
    for (int k = 0; k < 64; ++k) {
      const glm::vec3 dir = glm::normalize(glm::vec3(gauss(rng), gauss(rng), gauss(rng)));
      const float r = k < 16 ? 0.999f * range : 0.999f * range * std::cbrt(unit(rng));
      const int c = shader::particle_light_cluster_of(b.header, centre + dir * r);
      if (c < 0) continue;
      ++checked;
      if (!listed(b, uint32_t(c), i)) ++missed;
    }
  }
  uint32_t small_clusters = 0;
  for (uint32_t c = 0; c < b.header.clusters; ++c) small_clusters += listed(b, c, small) ? 1 : 0;
  std::printf("%u points in the grid checked, %u missed; %u entries for %zu lights in %u clusters; "
              "the 2 cm light in %u clusters\n",
              checked, missed, b.header.entries, lights.size(), b.header.clusters, small_clusters);
  EXPECT_GT(checked, 5000u);
  EXPECT_EQ(missed, 0u);
  EXPECT_GE(small_clusters, 1u);
  EXPECT_LE(small_clusters, 8u);
  EXPECT_LT(b.header.entries, b.header.clusters * uint32_t(lights.size()) / 4) << "binning culls";
}

// Too few entries for the frame: the clusters ask for what they would list (the same total as with
// room to spare); each lists its full list or is marked for the whole list, those listed fit the
// capacity, and the lights of the marked clusters are counted: asked = listed + overflow.
TEST_F(ParticleLightClusterTest, OverflowIsCountedWhenTheEntriesRunOut) {
  const shader::RenderView view = test_view();
  const glm::mat4 to_world = glm::inverse(view.view);
  const shader::ParticleLightClusterHeader h = particle_light_cluster_header(kWidth, kHeight, kNear, kFar, 1, view);
  std::vector<shader::PointLightGpu> lights;
  for (int i = 0; i < 40; ++i) {
    const glm::vec3 v = shader::particle_light_ray_point(h, -0.8f + 0.04f * float(i), 0.1f, 2.0f + 0.2f * float(i));
    lights.push_back(light_at(glm::vec3(to_world * glm::vec4(v, 1.0f)), 0.6f));
  }
  const Binned full = bin(lights, 1 << 16);
  ASSERT_EQ(full.header.overflow, 0u);
  ASSERT_GT(full.header.entries, 200u);
  constexpr uint32_t kCapacity = 100;
  const Binned cut = bin(lights, kCapacity);
  EXPECT_EQ(cut.header.entries, full.header.entries);
  uint32_t listed = 0, marked = 0, marked_lights = 0;
  for (uint32_t c = 0; c < cut.header.clusters; ++c) {
    const std::vector<uint32_t> all = full.list(c);
    if (cut.whole(c)) {
      ++marked;
      marked_lights += uint32_t(all.size());
      continue;
    }
    const std::vector<uint32_t> got = cut.list(c);
    listed += uint32_t(got.size());
    EXPECT_EQ(got, all) << "cluster " << c;
    EXPECT_LE(cut.words[2 * c] + got.size(), 2 * size_t(cut.header.clusters) + kCapacity) << "within the entries";
  }
  std::printf("%u entries asked, %u fit; %u listed, %u clusters marked for the whole list (%u lights)\n",
              cut.header.entries, kCapacity, listed, marked, marked_lights);
  EXPECT_GT(marked, 0u);
  EXPECT_LE(listed, kCapacity);
  EXPECT_EQ(cut.header.overflow, marked_lights);
  EXPECT_EQ(listed + cut.header.overflow, cut.header.entries);
}

const fs::path kSourceDir = MOTE_SOURCE_DIR;
const fs::path kScenes = kSourceDir / "tests/render/scenes";

// 240 small particle lights (0.3 - 0.65 m) a hand over the ground, lit puffs among them and a fog
// bank: the ground (opaque), the lit sprites (irradiance volume) and the fog's in-scatter read the
// lights of their cluster, and the frame is the frame of the loop over the whole list within float
// noise (the clusters list the same lights in the same order where they reach: measured 0); with
// too few entries, the clusters they ran out for read the whole list: the same frame, overflow counted.
TEST_F(ParticleLightClusterTest, ClusteredShadingIsTheWholeListsShading) {
  const std::string text = R"({"version": 1, "name": "particle_light_clusters",
    "camera": {"position": [0, 3, 4], "target": [0, 0, -0.5], "fov_y_degrees": 50},
    "environment": {"sky_color": [0.02, 0.02, 0.03], "ground_color": [0.01, 0.01, 0.01], "ambient_intensity": 0.5,
                    "background": [0, 0, 0]},
    "objects": [{"name": "ground", "shape": "plane", "scale": [20, 1, 20],
                 "material": {"base_color": [0.5, 0.5, 0.5], "roughness": 0.8}}],
    "emitters": [{"name": "lights", "effect": "../effects/particle_light_field.json", "position": [0, 0, 0]},
                 {"name": "puffs", "effect": "../effects/lit_puffs.json", "position": [0, 0.6, 0.3]}],
    "volumes": [{"name": "bank", "position": [0, 0.5, 0], "scale": [8, 1, 8], "density": 0.3, "albedo": [0.9, 0.9, 0.9]}],
    "fog": {"grid": [24, 16, 32], "near": 0.3, "far": 20},
    "output": {"width": 160, "height": 96, "frames": 4, "fps": 10, "seed": 1, "warmup_seconds": 0.2}})";
  auto loaded = scene::load_scene(text, kScenes);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  // The whole list; clustered; clustered with too few entries.
  FrameCapture frames[3];
  for (int run = 0; run < 3; ++run) {
    SceneRenderOptions options;
    options.profile = false;
    options.cluster_particle_lights = run != 0;
    options.particle_light_cluster_entries = run == 2 ? 300 : 0;
    auto created = SceneRenderer::create(device(), *loaded, options);
    ASSERT_TRUE(created.ok()) << created.error().to_string();
    ASSERT_TRUE(created.value()->render_next().ok());
    auto rendered = created.value()->capture_next(frames[run]);
    ASSERT_TRUE(rendered.ok()) << rendered.error().to_string();
    frames[run].atlas = nullptr;
  }
  const FrameCapture &all = frames[0], &clustered = frames[1], &short_of_entries = frames[2];
  ASSERT_EQ(all.particle_light_header.count, 240u);
  ASSERT_EQ(clustered.particle_light_header.count, 240u);
  EXPECT_EQ(all.particle_light_clusters.tiles_x, 0u) << "no grid: the whole list";
  const shader::ParticleLightClusterHeader& g = clustered.particle_light_clusters;
  ASSERT_EQ(g.tiles_x, 10u);
  ASSERT_EQ(g.tiles_y, 6u);
  EXPECT_EQ(g.overflow, 0u);
  const float mean = float(g.entries) / float(g.clusters);
  std::printf("clusters %u, entries %u (%.1f lights a cluster of the list's 240)\n", g.clusters, g.entries, mean);
  EXPECT_LT(mean, 240.0f / 8.0f) << "a cluster lists a few of the lights";
  const auto compare = [](const std::vector<glm::vec4>& a, const std::vector<glm::vec4>& b, const char* what) {
    ASSERT_EQ(a.size(), b.size());
    float peak = 0.0f, diff = 0.0f;
    for (size_t i = 0; i < a.size(); ++i)
      for (int c = 0; c < 3; ++c) {
        peak = std::max(peak, a[i][c]);
        diff = std::max(diff, std::abs(a[i][c] - b[i][c]));
      }
    std::printf("%s, clustered vs the whole list: max |diff| %.3g of peak %.3g\n", what, diff, peak);
    EXPECT_GT(peak, 0.05f) << what;
    EXPECT_LE(diff, 1e-5f * peak) << what;
  };
  compare(all.opaque, clustered.opaque, "the ground");
  compare(all.composited, clustered.composited, "the frame (lit sprites, fog)");
  const shader::ParticleLightClusterHeader& s = short_of_entries.particle_light_clusters;
  std::printf("with 300 entries: %u asked, %u pairs not listed\n", s.entries, s.overflow);
  EXPECT_EQ(s.entries, g.entries);
  EXPECT_GT(s.overflow, 0u);
  EXPECT_LE(s.entries - s.overflow, 300u);
  compare(all.opaque, short_of_entries.opaque, "the ground, entries run out");
  compare(all.composited, short_of_entries.composited, "the frame, entries run out");
}

}  // namespace
}  // namespace mote::render
