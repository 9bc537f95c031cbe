// The scene file's `vector_fields` list (src/scene/scene_vector_fields.*, docs/design/scene.md):
// named .mvf paths resolved against the scene's folder and confined to the asset root.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "scene/scene.hpp"

namespace mote::scene {
namespace {

namespace fs = std::filesystem;

Result<Scene> load(const std::string& fields, const fs::path& root = {}) {
  return load_scene(R"({"version": 1, "vector_fields": )" + fields + "}", "/assets/scenes", root);
}

TEST(SceneVectorFields, NamedPathsResolveAgainstTheScenesFolder) {
  auto s = load(R"([{"name": "gust", "path": "fields/gust.mvf"}, {"name": "swirl", "path": "/data/swirl.mvf"}])");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  ASSERT_EQ(s->vector_fields.size(), 2u);
  EXPECT_EQ(s->vector_fields[0].name, "gust");
  EXPECT_EQ(s->vector_fields[0].path, fs::path("/assets/scenes/fields/gust.mvf"));
  EXPECT_EQ(s->vector_fields[1].path, fs::path("/data/swirl.mvf"));
}

TEST(SceneVectorFields, BadEntriesAreRefusedAtTheirPointer) {
  const struct {
    const char* fields;
    const char* where;
  } cases[] = {
      {R"({})", "/vector_fields"},
      {R"([{"path": "a.mvf"}])", "/vector_fields/0"},
      {R"([{"name": "a"}])", "/vector_fields/0"},
      {R"([{"name": "a", "path": ""}])", "/vector_fields/0/path"},
      {R"([{"name": "a b", "path": "a.mvf"}])", "/vector_fields/0/name"},
      {R"([{"name": "a", "path": "a.mvf", "scale": 2}])", "/vector_fields/0/scale"},
      {R"([{"name": "a", "path": "a.mvf"}, {"name": "a", "path": "b.mvf"}])", "/vector_fields/1/name"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.fields);
    auto s = load(c.fields);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::kParse);
    EXPECT_EQ(s.error().where, c.where);
  }
  auto many = load(R"([{"name": "a", "path": "a"}, {"name": "b", "path": "b"}, {"name": "c", "path": "c"},
                       {"name": "d", "path": "d"}, {"name": "e", "path": "e"}])");
  ASSERT_FALSE(many.ok()) << "more than kMaxSceneVectorFields";
  EXPECT_EQ(many.error().code, ErrorCode::kParse);
}

TEST(SceneVectorFields, PathsStayInsideTheAssetRoot) {
  const fs::path root = fs::temp_directory_path() / "mote_scene_vector_fields_root";
  fs::create_directories(root / "scenes");
  const fs::path canonical = fs::canonical(root);
  auto inside = load_scene(R"({"version": 1, "vector_fields": [{"name": "a", "path": "../fields/a.mvf"}]})",
                           canonical / "scenes", canonical);
  ASSERT_TRUE(inside.ok()) << inside.error().to_string();
  EXPECT_EQ(inside->vector_fields[0].path.lexically_normal(), (canonical / "fields/a.mvf").lexically_normal());
  auto outside = load_scene(R"({"version": 1, "vector_fields": [{"name": "a", "path": "../../a.mvf"}]})",
                            canonical / "scenes", canonical);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.error().where, "/vector_fields/0/path");
  fs::remove_all(root);
}

}  // namespace
}  // namespace mote::scene
