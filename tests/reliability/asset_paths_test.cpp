// Asset paths (docs/design/reliability.md, "Asset paths"): files a scene or effect names resolve
// relative to the naming file and stay inside the asset root; absolute paths, escapes and
// symbolic links out are refused at the path's pointer.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "assets/assets_test_util.hpp"
#include "core/asset_path.hpp"
#include "scene/scene.hpp"

namespace {

using mote::ErrorCode;
using mote::core::canonical_asset_root;
using mote::core::resolve_asset_path;
using mote::test::TempDir;
namespace fs = std::filesystem;

class AssetPaths : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_ / "root" / "scenes");
    fs::create_directories(dir_ / "root" / "effects");
    mote::test::write_text(dir_ / "root" / "effects" / "fx.json", "{}");
    mote::test::write_text(dir_ / "outside.json", "{}");
    auto root = canonical_asset_root(dir_ / "root");
    ASSERT_TRUE(root.ok()) << root.error().to_string();
    root_ = *root;
  }
  mote::Result<fs::path> resolve(const std::string& named, const std::string& from = "scenes") {
    return resolve_asset_path(named, dir_ / "root" / from, root_, "/p");
  }
  TempDir dir_;
  fs::path root_;
};

TEST_F(AssetPaths, RelativePathsInsideTheRootResolve) {
  for (const char* named : {"../effects/fx.json", "./../effects/fx.json", "x/../../effects/fx.json", "new.json"}) {
    auto p = resolve(named);
    ASSERT_TRUE(p.ok()) << named << ": " << p.error().to_string();
    EXPECT_TRUE(p->is_absolute());
    EXPECT_EQ(p->lexically_relative(root_).begin()->string() != "..", true) << *p;
  }
  EXPECT_EQ(*resolve("../effects/fx.json"), root_ / "effects" / "fx.json");
}

TEST_F(AssetPaths, EscapesAbsolutePathsAndOddNamesAreRefused) {
  for (const std::string& named :
       {std::string("../../outside.json"), std::string("../../root2/x"), std::string("../effects/../../outside.json"),
        (dir_ / "outside.json").string(), std::string("/etc/passwd"), std::string(""), std::string("a\0b", 3)}) {
    auto p = resolve(named);
    ASSERT_FALSE(p.ok()) << named << " resolved to " << *p;
    EXPECT_EQ(p.error().where, "/p");
  }
  // A sibling folder whose name starts with the root's is outside it (a prefix check would pass).
  fs::create_directories(dir_ / "root_evil");
  EXPECT_FALSE(resolve("../../root_evil/x.json").ok());
}

TEST_F(AssetPaths, SymbolicLinksOutOfTheRootAreRefused) {
  fs::create_symlink(dir_ / "outside.json", dir_ / "root" / "effects" / "out.json");
  fs::create_directory_symlink(dir_.path(), dir_ / "root" / "up");
  EXPECT_FALSE(resolve("../effects/out.json").ok());
  EXPECT_FALSE(resolve("../up/outside.json").ok());
  fs::create_symlink(dir_ / "root" / "effects" / "fx.json", dir_ / "root" / "effects" / "in.json");
  EXPECT_TRUE(resolve("../effects/in.json").ok());
}

TEST_F(AssetPaths, TheSceneLoaderRefusesAtThePathsPointer) {
  const std::string base = (dir_ / "root" / "scenes").string();
  auto up = mote::scene::load_scene(R"({"version": 1, "emitters": [{"effect": "../../outside.json"}]})", base, root_);
  ASSERT_FALSE(up.ok());
  EXPECT_EQ(up.error().code, ErrorCode::kParse);
  EXPECT_EQ(up.error().where, "/emitters/0/effect");
  auto mesh = mote::scene::load_scene(R"({"version": 1, "objects": [{"shape": "mesh", "mesh": "/x/model.glb"}]})", base,
                                      root_);
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.error().where, "/objects/0/mesh");
  auto inside = mote::scene::load_scene(R"({"version": 1, "emitters": [{"effect": "../effects/fx.json"}]})", base,
                                        root_);
  ASSERT_TRUE(inside.ok()) << inside.error().to_string();
  EXPECT_EQ(inside->emitters[0].effect, root_ / "effects" / "fx.json");
  EXPECT_EQ(inside->asset_root, root_);
}

TEST_F(AssetPaths, TheDefaultRootIsTheCurrentDirectory) {
  auto root = canonical_asset_root("");
  ASSERT_TRUE(root.ok());
  EXPECT_EQ(*root, fs::weakly_canonical(fs::current_path()));
}

}  // namespace
