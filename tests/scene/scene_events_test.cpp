// The scene file's `events` list (src/scene/scene_events.*, docs/design/scene.md): bindings of
// emitters' event outputs to emitters, by name or output index, loaded strictly with pointers.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "scene/scene.hpp"

namespace mote::scene {
namespace {

Result<Scene> load(const std::string& events) {
  return load_scene(R"({"version": 1, "emitters": [
      {"name": "rockets", "effect": "a.json"}, {"name": "sparks", "effect": "b.json"}, {"effect": "c.json"}],
    "events": )" + events +
                        "}",
                    "/scenes");
}

TEST(SceneEvents, BindingsLoadByNameOrIndex) {
  auto s = load(R"([{"source": "rockets", "output": "burst", "target": "sparks"},
                    {"source": "sparks", "output": 2, "target": "rockets"}])");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  ASSERT_EQ(s->events.size(), 2u);
  EXPECT_EQ(s->events[0].source, "rockets");
  EXPECT_EQ(s->events[0].output, "burst");
  EXPECT_EQ(s->events[0].target, "sparks");
  EXPECT_EQ(s->events[1].output, "");
  EXPECT_EQ(s->events[1].output_index, 2u);
  EXPECT_EQ(s->events[1].target, "rockets");
  auto none = load("[]");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->events.empty());
}

TEST(SceneEvents, BadBindingsAreRefusedAtTheirPointer) {
  const struct {
    const char* events;
    const char* where;
  } cases[] = {
      {R"({})", "/events"},
      {R"([{"source": "nobody", "output": "burst", "target": "sparks"}])", "/events/0/source"},
      {R"([{"source": "rockets", "output": "burst", "target": ""}])", "/events/0/target"},
      {R"([{"source": "rockets", "output": "burst"}])", "/events/0"},
      {R"([{"source": "rockets", "target": "sparks"}])", "/events/0"},
      {R"([{"source": "rockets", "output": "", "target": "sparks"}])", "/events/0/output"},
      {R"([{"source": "rockets", "output": 4, "target": "sparks"}])", "/events/0/output"},
      {R"([{"source": "rockets", "output": -1, "target": "sparks"}])", "/events/0/output"},
      {R"([{"source": "rockets", "output": [0], "target": "sparks"}])", "/events/0/output"},
      {R"([{"source": "rockets", "output": "burst", "target": "sparks", "delay": 1}])", "/events/0/delay"},
      {R"([{"source": "rockets", "output": "burst", "target": "sparks"},
           {"source": "rockets", "output": "burst", "target": "sparks"}])",
       "/events/1"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.events);
    auto s = load(c.events);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::kParse);
    EXPECT_EQ(s.error().where, c.where);
  }
}

TEST(SceneEvents, TheEventScenesBindTheirPresets) {
  auto fireworks = load_scene_file(std::filesystem::path(MOTE_SCENES_DIR) / "fireworks.json");
  ASSERT_TRUE(fireworks.ok()) << fireworks.error().to_string();
  ASSERT_EQ(fireworks->events.size(), 2u);
  EXPECT_EQ(fireworks->events[0].output, "burst");
  EXPECT_EQ(fireworks->events[1].output, "crackle");
  auto rain = load_scene_file(std::filesystem::path(MOTE_SCENES_DIR) / "rain_splash.json");
  ASSERT_TRUE(rain.ok()) << rain.error().to_string();
  ASSERT_EQ(rain->events.size(), 1u);
  EXPECT_EQ(rain->events[0].target, "splashes");
}

}  // namespace
}  // namespace mote::scene
