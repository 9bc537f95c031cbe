// The glTF loader: flattening with node transforms, buffers (data URI, external, GLB), computed
// normals, skipped modes — and hostile files, each of which must be an error, never a crash.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "assets/mesh.hpp"
#include "assets_test_util.hpp"
#include "gltf_builder.hpp"
#include "mesh_checks.hpp"

namespace {

using mote::ErrorCode;
using mote::Result;
using mote::assets::Mesh;
using mote::assets::MeshVertex;
using mote::test::GltfBuilder;
using mote::test::normal_of;
using mote::test::position_of;
using mote::test::TempDir;
using nlohmann::json;

Result<Mesh> decode_text(const std::string& text, const std::filesystem::path& base = {}) {
  return mote::assets::decode_gltf(mote::test::to_bytes(text), base, "test.gltf");
}
Result<Mesh> decode_glb(const std::vector<uint8_t>& glb) { return mote::assets::decode_gltf(glb, {}, "test.glb"); }

glm::vec3 uv_of(const mote::assets::MeshVertex& v) { return {v.uv[0], v.uv[1], 0.0f}; }

void expect_near(glm::vec3 got, glm::vec3 want, const char* what, size_t i, float eps = 1e-5f) {
  EXPECT_NEAR(got.x, want.x, eps) << what << " " << i;
  EXPECT_NEAR(got.y, want.y, eps) << what << " " << i;
  EXPECT_NEAR(got.z, want.z, eps) << what << " " << i;
}

// Every triangle's front face (CCW) points the way its corners' normals do.
void expect_winding_agrees_with_normals(const Mesh& m) {
  for (size_t t = 0; t < m.indices.size(); t += 3) {
    const glm::vec3 face = mote::test::face_normal(m, t);
    for (int k = 0; k < 3; ++k)
      EXPECT_GT(glm::dot(face, normal_of(m.vertices[m.indices[t + size_t(k)]])), 0.0f) << "triangle " << t / 3;
  }
}

// See reference_scene() in gltf_builder.hpp.
void expect_reference_scene(const Mesh& m) {
  mote::test::expect_valid_mesh(m);
  ASSERT_EQ(m.vertices.size(), 7u);
  ASSERT_EQ(m.indices.size(), 9u);
  // Node 1 (under node 0) comes first in the scene's order: 2 * p + (10, 10, 0).
  const glm::vec3 quad[] = {{10, 10, 0}, {12, 10, 0}, {12, 12, 0}, {10, 12, 0}};
  const glm::vec3 quad_uv[] = {{0, 1, 0}, {1, 1, 0}, {1, 0, 0}, {0, 0, 0}};
  for (size_t i = 0; i < 4; ++i) {
    expect_near(position_of(m.vertices[i]), quad[i], "quad position", i);
    expect_near(normal_of(m.vertices[i]), {0, 0, 1}, "quad normal", i);
    expect_near(uv_of(m.vertices[i]), quad_uv[i], "quad uv", i);
  }
  const glm::vec3 tri[] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}};
  for (size_t i = 0; i < 3; ++i) {
    expect_near(position_of(m.vertices[4 + i]), tri[i], "triangle position", i);
    expect_near(normal_of(m.vertices[4 + i]), {0, 1, 0}, "computed normal", i);
    expect_near(uv_of(m.vertices[4 + i]), {0, 0, 0}, "default uv", i);
  }
  EXPECT_EQ(m.indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3, 4, 5, 6}));
  EXPECT_EQ(m.bounds_min, glm::vec3(0, 0, 0));
  EXPECT_EQ(m.bounds_max, glm::vec3(12, 12, 1));
  expect_winding_agrees_with_normals(m);
}

TEST(Gltf, EmbeddedBufferFileAppliesTheNodeHierarchy) {
  TempDir dir;
  mote::test::write_text(dir / "scene.gltf", mote::test::reference_scene().to_gltf_embedded());
  auto mesh = mote::assets::load_gltf(dir / "scene.gltf");
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  expect_reference_scene(mesh.value());
}

TEST(Gltf, GlbInMemoryAndOnDisk) {
  const std::vector<uint8_t> glb = mote::test::reference_scene().to_glb();
  auto mesh = decode_glb(glb);
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  expect_reference_scene(mesh.value());

  TempDir dir;
  mote::test::write_bytes(dir / "scene.glb", glb);
  auto loaded = mote::assets::load_gltf(dir / "scene.glb");
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  ASSERT_EQ(loaded->vertices.size(), mesh->vertices.size());
  EXPECT_EQ(std::memcmp(loaded->vertices.data(), mesh->vertices.data(), mesh->vertices.size() * sizeof(MeshVertex)), 0);
}

TEST(Gltf, ExternalBufferBesideTheFile) {
  TempDir dir;
  const GltfBuilder b = mote::test::reference_scene();
  std::filesystem::create_directories(dir / "data");
  mote::test::write_bytes(dir / "data" / "scene.bin", b.bin());
  mote::test::write_text(dir / "scene.gltf", b.to_gltf_external("data/scene.bin"));
  auto mesh = mote::assets::load_gltf(dir / "scene.gltf");
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  expect_reference_scene(mesh.value());
}

TEST(Gltf, MissingBufferFileIsNotFound) {
  TempDir dir;
  const std::filesystem::path file = dir / "scene.gltf";
  mote::test::write_text(file, mote::test::reference_scene().to_gltf_external("scene.bin"));
  auto mesh = mote::assets::load_gltf(file);
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.error().code, ErrorCode::kNotFound) << mesh.error().to_string();
  EXPECT_EQ(mesh.error().where, file.string());
  EXPECT_NE(mesh.error().message.find("scene.bin"), std::string::npos) << mesh.error().message;

  // A buffer file of the wrong size is refused too.
  mote::test::write_bytes(dir / "scene.bin", {1, 2, 3, 4});
  auto wrong = mote::assets::load_gltf(file);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().where, file.string());

  // And a missing .gltf itself.
  auto none = mote::assets::load_gltf(dir / "none.glb");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(none.error().where, (dir / "none.glb").string());
}

TEST(Gltf, ExternalBuffersAreNotLookedUpInTheWorkingDirectory) {
  // tinygltf's own search falls back to "."; ours must not: the file is only found beside the model.
  TempDir model_dir, cwd_dir;
  const GltfBuilder b = mote::test::reference_scene();
  mote::test::write_bytes(cwd_dir / "scene.bin", b.bin());
  mote::test::write_text(model_dir / "scene.gltf", b.to_gltf_external("scene.bin"));
  const std::filesystem::path saved = std::filesystem::current_path();
  std::filesystem::current_path(cwd_dir.path());
  auto mesh = mote::assets::load_gltf(model_dir / "scene.gltf");
  std::filesystem::current_path(saved);
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.error().code, ErrorCode::kNotFound) << mesh.error().to_string();
}

TEST(Gltf, MissingNormalsAreAreaWeighted) {
  // Vertex 0 is shared by a triangle in XY of area 2 (normal +Z) and one in XZ of area 0.5
  // (normal +Y): weighted by area its normal is (0, 1, 4) / sqrt(17); an unweighted average would
  // give (0, 1, 1) / sqrt(2).
  GltfBuilder b;
  const int pos = b.add_floats({0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 1, 0, 0}, 3);
  const int idx = b.add_indices_u8({0, 1, 2, 0, 3, 4});
  b.add_mesh(pos, -1, -1, idx);
  b.add_node({{"mesh", 0}});
  b.set_scene({0});
  auto mesh = decode_text(b.to_gltf_embedded());
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  mote::test::expect_valid_mesh(mesh.value());
  expect_near(normal_of(mesh->vertices[0]), glm::vec3(0, 1, 4) / std::sqrt(17.0f), "shared vertex", 0);
  expect_near(normal_of(mesh->vertices[1]), {0, 0, 1}, "vertex", 1);
  expect_near(normal_of(mesh->vertices[3]), {0, 1, 0}, "vertex", 3);
  expect_winding_agrees_with_normals(mesh.value());
}

TEST(Gltf, NormalsUseTheInverseTranspose) {
  // A normal (1, 1, 0) / sqrt(2) under scale (2, 1, 1) becomes (0.5, 1, 0) normalised (the plane
  // x + y = c stretched along x), not (2, 1, 0).
  GltfBuilder b;
  const float h = std::sqrt(0.5f);
  const int pos = b.add_floats({1, 0, 0, 0, 1, 0, 0, 0, 1}, 3);  // on x + y + z = 1; only normals matter here
  const int nrm = b.add_floats({h, h, 0, h, h, 0, h, h, 0}, 3);
  b.add_mesh(pos, nrm);
  b.add_node({{"scale", {2, 1, 1}}, {"mesh", 0}});
  b.set_scene({0});
  auto mesh = decode_text(b.to_gltf_embedded());
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  const glm::vec3 want = glm::normalize(glm::vec3(0.5f, 1, 0));
  for (size_t i = 0; i < 3; ++i) expect_near(normal_of(mesh->vertices[i]), want, "normal", i);
  expect_near(position_of(mesh->vertices[0]), {2, 0, 0}, "position", 0);
}

TEST(Gltf, RotationAndMatrixTransforms) {
  GltfBuilder b;
  const int pos = b.add_floats({1, 0, 0, 0, 1, 0, 0, 0, 0}, 3);  // CCW seen from +Z
  const int nrm = b.add_floats({0, 0, 1, 0, 0, 1, 0, 0, 1}, 3);
  b.add_mesh(pos, nrm);
  const double s = std::sqrt(0.5);
  // 90 degrees about +Y: +Z -> +X, +X -> -Z. Child: a column-major matrix translating by (1, 2, 3).
  b.add_node({{"rotation", {0, s, 0, s}}, {"children", {1}}});
  b.add_node({{"matrix", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1}}, {"mesh", 0}});
  b.set_scene({0});
  auto mesh = decode_text(b.to_gltf_embedded());
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  // R * (p + (1, 2, 3)) with R(x, y, z) = (z, y, -x).
  expect_near(position_of(mesh->vertices[0]), {3, 2, -2}, "position", 0);
  expect_near(position_of(mesh->vertices[1]), {3, 3, -1}, "position", 1);
  expect_near(position_of(mesh->vertices[2]), {3, 2, -1}, "position", 2);
  for (size_t i = 0; i < 3; ++i) expect_near(normal_of(mesh->vertices[i]), {1, 0, 0}, "normal", i);
  expect_winding_agrees_with_normals(mesh.value());
}

// make_box() exported as glTF (u32 indices, normals, UVs).
GltfBuilder box_file(json node) {
  const Mesh box = mote::assets::make_box();
  std::vector<float> pos, nrm, uv;
  for (const auto& v : box.vertices) {
    pos.insert(pos.end(), v.position, v.position + 3);
    nrm.insert(nrm.end(), v.normal, v.normal + 3);
    uv.insert(uv.end(), v.uv, v.uv + 2);
  }
  GltfBuilder b;
  const int p = b.add_floats(pos, 3), n = b.add_floats(nrm, 3), t = b.add_floats(uv, 2);
  b.add_mesh(p, n, t, b.add_indices_u32(box.indices));
  node["mesh"] = 0;
  b.add_node(node);
  b.set_scene({0});
  return b;
}

TEST(Gltf, BoxRoundTripsUnchanged) {
  auto mesh = decode_glb(box_file(json::object()).to_glb());
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  const Mesh box = mote::assets::make_box();
  ASSERT_EQ(mesh->vertices.size(), box.vertices.size());
  for (size_t i = 0; i < box.vertices.size(); ++i) {  // exact, though -0 may come back as +0
    EXPECT_EQ(position_of(mesh->vertices[i]), position_of(box.vertices[i])) << i;
    EXPECT_EQ(normal_of(mesh->vertices[i]), normal_of(box.vertices[i])) << i;
    EXPECT_EQ(uv_of(mesh->vertices[i]), uv_of(box.vertices[i])) << i;
  }
  EXPECT_EQ(mesh->indices, box.indices);
  EXPECT_EQ(mesh->bounds_min, box.bounds_min);
  EXPECT_EQ(mesh->bounds_max, box.bounds_max);
}

TEST(Gltf, MirroringKeepsFrontFacesOutward) {
  // A negative scale turns the winding over; the loader swaps corners so fronts stay CCW outside.
  for (json scale : {json{-1, 1, 1}, json{-2, -1, 3}}) {
    SCOPED_TRACE(scale.dump());
    auto mesh = decode_text(box_file({{"scale", scale}, {"translation", {5, 0, 0}}}).to_gltf_embedded());
    ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
    mote::test::expect_valid_mesh(mesh.value());
    expect_winding_agrees_with_normals(mesh.value());
    mote::test::expect_closed_and_consistently_oriented(mesh.value());
    const glm::vec3 centre = 0.5f * (mesh->bounds_min + mesh->bounds_max);
    for (size_t t = 0; t < mesh->indices.size(); t += 3) {
      const glm::vec3 a = position_of(mesh->vertices[mesh->indices[t]]);
      EXPECT_GT(glm::dot(mote::test::face_normal(mesh.value(), t), a - centre), 0.0f) << "triangle " << t / 3;
    }
  }
}

TEST(Gltf, OnlyTrianglesAreKept) {
  GltfBuilder b;
  const int pos = b.add_floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, 3);
  b.json()["meshes"].push_back({{"primitives",
                                 {GltfBuilder::primitive(pos, -1, -1, -1, mote::test::kModePoints),
                                  GltfBuilder::primitive(pos),
                                  GltfBuilder::primitive(pos, -1, -1, -1, mote::test::kModeLines)}}});
  b.add_node({{"mesh", 0}});
  b.set_scene({0});
  auto mesh = decode_text(b.to_gltf_embedded());
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  EXPECT_EQ(mesh->vertices.size(), 3u);
  EXPECT_EQ(mesh->indices.size(), 3u);

  // Nothing but lines: an error, not an empty mesh.
  b.json()["meshes"][0]["primitives"].erase(1);
  auto lines = decode_text(b.to_gltf_embedded());
  ASSERT_FALSE(lines.ok());
  EXPECT_EQ(lines.error().code, ErrorCode::kFormat);
  EXPECT_EQ(lines.error().where, "test.gltf");
}

TEST(Gltf, IndexAndTexcoordComponentTypes) {
  GltfBuilder b;
  const int pos = b.add_floats({0, 0, 0, 1, 0, 0, 0, 1, 0}, 3);
  const uint8_t uv8[] = {0, 255, 255, 255, 0, 0};
  const int uv = b.add_accessor(b.add_view(uv8, sizeof(uv8)), mote::test::kUByte, 3, "VEC2");
  b.json()["accessors"][uv]["normalized"] = true;
  const uint16_t uv16[] = {0, 65535, 32768, 0, 65535, 65535};
  const int uv_short = b.add_accessor(b.add_view(uv16, sizeof(uv16)), mote::test::kUShort, 3, "VEC2");
  b.json()["accessors"][uv_short]["normalized"] = true;
  b.add_mesh(pos, -1, uv, b.add_indices_u8({0, 1, 2}));
  b.add_mesh(pos, -1, uv_short, b.add_indices_u32({0, 1, 2}));
  b.add_node({{"mesh", 0}});
  b.add_node({{"mesh", 1}});
  b.set_scene({0, 1});
  auto mesh = decode_text(b.to_gltf_embedded());
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  ASSERT_EQ(mesh->vertices.size(), 6u);
  EXPECT_EQ(mesh->indices, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5}));
  expect_near(uv_of(mesh->vertices[0]), {0, 1, 0}, "uv8", 0);
  expect_near(uv_of(mesh->vertices[1]), {1, 1, 0}, "uv8", 1);
  expect_near(uv_of(mesh->vertices[4]), {32768 / 65535.0f, 0, 0}, "uv16", 1);

  // Integer UVs that are not normalized are refused (without KHR_mesh_quantization).
  b.json()["accessors"][uv]["normalized"] = false;
  auto bad = decode_text(b.to_gltf_embedded());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().where, "test.gltf#/accessors/" + std::to_string(uv) + "/normalized");
}

TEST(Gltf, SceneSelection) {
  // No "scene": scenes[0]. No scenes at all: every root node.
  GltfBuilder b = mote::test::reference_scene();
  b.json().erase("scene");
  auto first = decode_text(b.to_gltf_embedded());
  ASSERT_TRUE(first.ok()) << first.error().to_string();
  expect_reference_scene(first.value());
  b.json().erase("scenes");
  auto roots = decode_text(b.to_gltf_embedded());
  ASSERT_TRUE(roots.ok()) << roots.error().to_string();
  expect_reference_scene(roots.value());
  // A second scene that is the default: only its nodes.
  b = mote::test::reference_scene();
  b.json()["scenes"].push_back({{"nodes", {2}}});
  b.json()["scene"] = 1;
  auto second = decode_text(b.to_gltf_embedded());
  ASSERT_TRUE(second.ok()) << second.error().to_string();
  EXPECT_EQ(second->vertices.size(), 3u);
}

// ---- hostile files ---------------------------------------------------------------------------

struct Hostile {
  const char* name;
  std::function<void(GltfBuilder&)> edit;
  ErrorCode code;
  std::string pointer;  // expected `where` after the file name ("" = just the file name)
  std::string message;  // a substring of the message ("" = anything)
};

void set_u16(GltfBuilder& b, size_t view, size_t element, uint16_t value) {
  const size_t offset = b.json()["bufferViews"][view]["byteOffset"].get<size_t>();
  std::memcpy(b.bin().data() + offset + element * 2, &value, 2);
}

TEST(GltfHostile, MalformedReferencesAndRangesAreErrors) {
  // reference_scene(): views/accessors 0 POSITION (4), 1 NORMAL, 2 TEXCOORD_0, 3 indices (6 x u16),
  // 4 the triangle's POSITION (3).
  const std::vector<Hostile> cases = {
      {"accessor count past the buffer", [](GltfBuilder& b) { b.json()["accessors"][0]["count"] = 1000; },
       ErrorCode::kFormat, "#/accessors/0", "overrun"},
      {"accessor count past its view by one", [](GltfBuilder& b) { b.json()["accessors"][0]["count"] = 5; },
       ErrorCode::kFormat, "#/accessors/0", "overrun"},
      {"bufferView byteOffset overflow",
       [](GltfBuilder& b) { b.json()["bufferViews"][0]["byteOffset"] = std::numeric_limits<uint64_t>::max(); },
       ErrorCode::kFormat, "#/bufferViews/0", "outside buffer"},
      {"bufferView byteLength past the buffer", [](GltfBuilder& b) { b.json()["bufferViews"][4]["byteLength"] = 4096; },
       ErrorCode::kFormat, "#/bufferViews/4", "outside buffer"},
      {"accessor byteOffset overflow",
       [](GltfBuilder& b) { b.json()["accessors"][1]["byteOffset"] = std::numeric_limits<uint64_t>::max() - 3; },
       ErrorCode::kFormat, "#/accessors/1", "overrun"},
      {"index out of range", [](GltfBuilder& b) { set_u16(b, 3, 5, 4); }, ErrorCode::kFormat,
       "#/meshes/0/primitives/0/indices", "out of range of 4 vertices"},
      {"index far out of range", [](GltfBuilder& b) { set_u16(b, 3, 0, 65535); }, ErrorCode::kFormat,
       "#/meshes/0/primitives/0/indices", "out of range"},
      {"index count not a multiple of 3", [](GltfBuilder& b) { b.json()["accessors"][3]["count"] = 5; },
       ErrorCode::kFormat, "#/accessors/3", "multiple of 3"},
      {"byteStride below the element size", [](GltfBuilder& b) { b.json()["bufferViews"][0]["byteStride"] = 4; },
       ErrorCode::kFormat, "#/bufferViews/0/byteStride", "smaller"},
      {"byteStride that reads past the view", [](GltfBuilder& b) { b.json()["bufferViews"][0]["byteStride"] = 16; },
       ErrorCode::kFormat, "#/accessors/0", "overrun"},
      {"POSITION as unsigned short", [](GltfBuilder& b) { b.json()["accessors"][0]["componentType"] = 5123; },
       ErrorCode::kFormat, "#/accessors/0/componentType", ""},
      {"indices as float", [](GltfBuilder& b) { b.json()["accessors"][3]["componentType"] = 5126; }, ErrorCode::kFormat,
       "#/accessors/3/componentType", ""},
      {"indices as signed short", [](GltfBuilder& b) { b.json()["accessors"][3]["componentType"] = 5122; },
       ErrorCode::kFormat, "#/accessors/3/componentType", ""},
      {"POSITION as VEC2", [](GltfBuilder& b) { b.json()["accessors"][0]["type"] = "VEC2"; }, ErrorCode::kFormat,
       "#/accessors/0/type", "expected VEC3"},
      {"no POSITION", [](GltfBuilder& b) { b.json()["meshes"][0]["primitives"][0]["attributes"].erase("POSITION"); },
       ErrorCode::kFormat, "#/meshes/0/primitives/0/attributes", "POSITION"},
      {"POSITION accessor missing",
       [](GltfBuilder& b) { b.json()["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = 99; },
       ErrorCode::kFormat, "#/meshes/0/primitives/0/attributes/POSITION", "does not exist"},
      {"NORMAL count differs", [](GltfBuilder& b) { b.json()["accessors"][1]["count"] = 3; }, ErrorCode::kFormat,
       "#/meshes/0/primitives/0/attributes/NORMAL", "NORMAL has 3"},
      {"accessor bufferView missing", [](GltfBuilder& b) { b.json()["accessors"][2]["bufferView"] = 50; },
       ErrorCode::kFormat, "#/accessors/2/bufferView", ""},
      {"bufferView buffer missing", [](GltfBuilder& b) { b.json()["bufferViews"][1]["buffer"] = 3; },
       ErrorCode::kFormat, "#/bufferViews/1/buffer", ""},
      {"count over the vertex limit",
       [](GltfBuilder& b) { b.json()["accessors"][4]["count"] = mote::assets::kMaxMeshVertices + 1; },
       ErrorCode::kFormat, "#/accessors/4/count", "limit"},
      {"sparse accessor",
       [](GltfBuilder& b) {
         b.json()["accessors"][4]["sparse"] = {{"count", 1},
                                               {"indices", {{"bufferView", 3}, {"componentType", 5123}}},
                                               {"values", {{"bufferView", 4}}}};
       },
       ErrorCode::kUnsupported, "#/accessors/4", "sparse"},
      {"non-finite position",
       [](GltfBuilder& b) {
         const float nan = std::numeric_limits<float>::quiet_NaN();
         std::memcpy(b.bin().data() + 4, &nan, 4);
       },
       ErrorCode::kFormat, "#/accessors/0", "not finite"},
      {"node mesh missing", [](GltfBuilder& b) { b.json()["nodes"][1]["mesh"] = 7; }, ErrorCode::kFormat,
       "#/nodes/1/mesh", ""},
      {"negative node mesh", [](GltfBuilder& b) { b.json()["nodes"][1]["mesh"] = -5; }, ErrorCode::kFormat,
       "#/nodes/1/mesh", ""},
      {"scene node missing",
       [](GltfBuilder& b) {
         b.json()["scenes"][0]["nodes"] = {0, 9};
       },
       ErrorCode::kFormat, "#/scenes/0/nodes/1", ""},
      {"child node missing",
       [](GltfBuilder& b) {
         b.json()["nodes"][0]["children"] = {1, -1};
       },
       ErrorCode::kFormat, "#/nodes/0/children/1", ""},
      {"default scene missing", [](GltfBuilder& b) { b.json()["scene"] = 3; }, ErrorCode::kFormat, "#/scene", ""},
      {"cycle", [](GltfBuilder& b) { b.json()["nodes"][1]["children"] = {0}; }, ErrorCode::kFormat, "#/nodes/0",
       "cycle"},
      {"self child", [](GltfBuilder& b) { b.json()["nodes"][2]["children"] = {2}; }, ErrorCode::kFormat, "#/nodes/2",
       "cycle"},
      {"node with two parents",
       [](GltfBuilder& b) {
         b.json()["scenes"][0]["nodes"] = {0, 2, 1};
       },
       ErrorCode::kFormat, "#/nodes/1", "twice"},
      {"hierarchy too deep",
       [](GltfBuilder& b) {
         auto& nodes = b.json()["nodes"];
         const int first = int(nodes.size());
         for (int i = 0; i < 100; ++i) nodes.push_back({{"children", {first + i + 1}}});
         nodes.push_back({{"mesh", 1}});
         b.json()["scenes"][0]["nodes"] = {first};
       },
       ErrorCode::kFormat, "#/nodes/67", "deeper"},  // the chain starts at node 3; depth 65 is node 67
      {"matrix of 15 numbers",
       [](GltfBuilder& b) { b.json()["nodes"][2]["matrix"] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0}; },
       ErrorCode::kFormat, "#/nodes/2/matrix", ""},
      {"translation of 2 numbers",
       [](GltfBuilder& b) {
         b.json()["nodes"][1]["translation"] = {1, 2};
       },
       ErrorCode::kFormat, "#/nodes/1/translation", ""},
      {"zero quaternion",
       [](GltfBuilder& b) {
         b.json()["nodes"][1]["rotation"] = {0, 0, 0, 0};
       },
       ErrorCode::kFormat, "#/nodes/1/rotation", ""},
      {"scale overflowing to infinity",
       [](GltfBuilder& b) {
         b.json()["nodes"][0]["scale"] = {1e300, 1, 1};
       },
       ErrorCode::kFormat, "#/accessors/0", "not finite"},
      {"draco required",
       [](GltfBuilder& b) {
         b.json()["extensionsUsed"] = {"KHR_draco_mesh_compression"};
         b.json()["extensionsRequired"] = {"KHR_draco_mesh_compression"};
       },
       ErrorCode::kUnsupported, "#/extensionsRequired", "KHR_draco_mesh_compression"},
      {"glTF 1.0", [](GltfBuilder& b) { b.json()["asset"]["version"] = "1.0"; }, ErrorCode::kUnsupported,
       "#/asset/version", ""},
  };
  for (const Hostile& h : cases) {
    SCOPED_TRACE(h.name);
    GltfBuilder b = mote::test::reference_scene();
    h.edit(b);
    for (int form = 0; form < 2; ++form) {
      const std::string file = form == 0 ? "test.gltf" : "test.glb";
      auto r = form == 0 ? decode_text(b.to_gltf_embedded()) : decode_glb(b.to_glb());
      ASSERT_FALSE(r.ok()) << file;
      EXPECT_EQ(r.error().code, h.code) << file << ": " << r.error().to_string();
      EXPECT_EQ(r.error().where, file + h.pointer) << r.error().to_string();
      if (!h.message.empty()) {
        EXPECT_NE(r.error().message.find(h.message), std::string::npos) << r.error().to_string();
      }
    }
  }
}

TEST(GltfHostile, ContainerAndJsonDamageIsAnError) {
  const GltfBuilder b = mote::test::reference_scene();
  auto refused = [](const Result<Mesh>& r, const char* what) {
    ASSERT_FALSE(r.ok()) << what;
    EXPECT_FALSE(r.error().message.empty()) << what;
    EXPECT_FALSE(r.error().where.empty()) << what;
    EXPECT_NE(r.error().code, ErrorCode::kInternal) << what;
  };
  refused(decode_text(""), "empty");
  refused(decode_text("[]"), "array root");
  refused(decode_text("{\"asset\": {\"version\": \"2.0\"}"), "unterminated");
  refused(decode_text("{}"), "no asset");
  refused(decode_text("{\"asset\": {\"version\": \"2.0\"}}"), "nothing to draw");
  refused(decode_text("\xff\xfe garbage \x01"), "garbage");

  // A buffer whose data URI decodes to fewer bytes than byteLength.
  json doc = json::parse(b.to_gltf_embedded());
  doc["buffers"][0]["byteLength"] = doc["buffers"][0]["byteLength"].get<size_t>() + 4;
  refused(decode_text(doc.dump()), "short data URI");

  // Deep nesting in "extras": tinygltf would recurse once per level.
  doc = json::parse(b.to_gltf_embedded());
  std::string text = doc.dump();
  text.insert(text.size() - 1, ",\"extras\":" + std::string(100000, '[') + std::string(100000, ']'));
  auto deep = decode_text(text);
  refused(deep, "deep nesting");
  EXPECT_EQ(deep.error().code, ErrorCode::kParse);
  // ... but nesting inside a string is just text.
  text = doc.dump();
  text.insert(text.size() - 1, ",\"extras\":\"" + std::string(1000, '[') + "\"");
  EXPECT_TRUE(decode_text(text).ok());

  // GLB: every truncation of the header and chunks, lying lengths, wrong chunk types.
  const std::vector<uint8_t> glb = b.to_glb();
  for (size_t n = 0; n < glb.size(); n += (n < 64 ? 1 : 37)) {
    auto r = decode_glb(std::vector<uint8_t>(glb.begin(), glb.begin() + std::ptrdiff_t(n)));
    refused(r, ("truncated to " + std::to_string(n)).c_str());
  }
  auto patched = [&](size_t at, uint32_t value) {
    std::vector<uint8_t> g = glb;
    std::memcpy(g.data() + at, &value, 4);
    return decode_glb(g);
  };
  refused(patched(8, 0xffffffffu), "total length");
  refused(patched(12, 0xfffffff0u), "JSON chunk length");
  refused(patched(12, 3), "JSON chunk length short");
  refused(patched(16, 0x12345678u), "JSON chunk type");
  uint32_t json_length;
  std::memcpy(&json_length, glb.data() + 12, 4);
  refused(patched(20 + json_length, 0xfffffff0u), "BIN chunk length");
  refused(patched(20 + json_length + 4, 0x12345678u), "BIN chunk type");
}

}  // namespace
