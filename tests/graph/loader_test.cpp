// Loader and graph-check rejections: one per reason, each with the JSON pointer expected.
#include <gtest/gtest.h>

#include "core/json_reader.hpp"
#include "graph_test_util.hpp"
#include "mote/effect.hpp"

namespace {

const char* kStore = R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0}})";

void expect_rejected(const std::string& doc, const std::string& where) {
  auto r = mote::compile_effect(doc);
  ASSERT_FALSE(r.ok()) << "accepted; expected an error at " << where;
  EXPECT_EQ(r.error().code, mote::ErrorCode::kParse) << r.error().to_string();
  EXPECT_EQ(r.error().where, where) << r.error().to_string();
  EXPECT_FALSE(r.error().message.empty());
}

TEST(Loader, AcceptsTheMinimalDocument) {
  auto r = mote::compile_effect(effect_with(kStore, kStore));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->emitter_defaults.size(), 1u);
  EXPECT_TRUE(r->globals.empty());  // declared globals nobody reads are not imported
}

TEST(Loader, RejectsInvalidJson) { expect_rejected("{\"name\": ", "/"); }
TEST(Loader, RejectsUnknownTopLevelKey) { expect_rejected(effect_with(kStore, kStore, R"("colour": 1,)"), "/colour"); }
TEST(Loader, RejectsUnknownEmissionKey) {
  expect_rejected(effect_with(kStore, kStore, R"("emission": {"rate": 1, "burst": []},)"), "/emission/burst");
}
TEST(Loader, RejectsWrongJsonType) {
  expect_rejected(effect_with(kStore, kStore, R"("emission": {"rate": "fast"},)"), "/emission/rate");
}
TEST(Loader, RejectsOutOfRange) {
  expect_rejected(effect_with(kStore, kStore, R"("emission": {"capacity": 0},)"), "/emission/capacity");
}
TEST(Loader, RejectsNonIntegerCount) {
  expect_rejected(effect_with(kStore, kStore, R"("emission": {"bursts": [{"time": 0, "count": 1.5}]},)"),
                  "/emission/bursts/0/count");
}
TEST(Loader, RejectsHugeNumber) {
  expect_rejected(
      effect_with(R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 1e300}})",
                  kStore),
      "/init/nodes/0/inputs/value");
}
TEST(Loader, RejectsBadEnum) {
  expect_rejected(effect_with(kStore, kStore, R"("render": {"blend": "multiply"},)"), "/render/blend");
}
TEST(Loader, RejectsRenderFieldNotDeclared) {
  expect_rejected(effect_with(kStore, kStore, R"("render": {"fields": {"size": "radius"}},)"), "/render/fields/size");
}
// A ribbon effect (docs/design/ribbons.md): the serial, id and normal fields it names are
// declared particle fields of the right width; its keys only with projection "ribbon".
std::string ribbon_effect(const std::string& render) {
  const std::string fields =
      R"({"name": "t", "particle_fields": [{"name": "position", "width": 3}, {"name": "ribbon_serial", "width": 1},
      {"name": "trail", "width": 1}, {"name": "up", "width": 3}, {"name": "color", "width": 4}],)";
  return fields + R"("render": )" + render +
         R"(, "init": {"nodes": [{"id": "i", "type": "builtin", "params": {"name": "particle_index"}},
      {"id": "s", "type": "set_field", "params": {"field": "ribbon_serial"}, "inputs": {"value": "i"}}]},
      "update": {"nodes": []}})";
}

TEST(Loader, ReadsRibbonSettings) {
  auto r = mote::compile_effect(ribbon_effect(
      R"({"projection": "ribbon", "ribbon": {"id_field": "trail", "uv": "tiled", "tile_length": 0.5,
          "facing": "normal", "normal_field": "up", "subdivisions": 4}})"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const mote::RibbonSettings& ribbon = r->render.ribbon;
  EXPECT_EQ(r->render.projection, "ribbon");
  EXPECT_EQ(ribbon.id_field, "trail");
  EXPECT_EQ(ribbon.serial_field, "ribbon_serial");
  EXPECT_EQ(ribbon.uv_mode, "tiled");
  EXPECT_EQ(ribbon.uv_tile_length, 0.5f);
  EXPECT_EQ(ribbon.facing, "normal");
  EXPECT_EQ(ribbon.normal_field, "up");
  EXPECT_EQ(ribbon.subdivisions, 4u);
  // Without a "ribbon" object: one ribbon per emitter, camera facing, stretched UV, straight.
  auto d = mote::compile_effect(ribbon_effect(R"({"projection": "ribbon"})"));
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_EQ(d->render.ribbon.id_field, "");
  EXPECT_EQ(d->render.ribbon.uv_mode, "stretched");
  EXPECT_EQ(d->render.ribbon.facing, "camera");
  EXPECT_EQ(d->render.ribbon.subdivisions, 1u);
}

TEST(Loader, RejectsBadRibbonSettings) {
  const auto rejected = [](const std::string& render, const std::string& where) {
    expect_rejected(ribbon_effect(render), where);
  };
  rejected(R"({"projection": "billboard", "ribbon": {}})", "/render/ribbon");
  rejected(R"({"projection": "ribbon", "flipbook": {"columns": 2}})", "/render/flipbook");
  rejected(R"({"projection": "ribbon", "lit": true})", "/render/lit");
  rejected(R"({"projection": "ribbon", "ribbon": {"serial": "x"}})", "/render/ribbon/serial");
  rejected(R"({"projection": "ribbon", "ribbon": {"serial_field": "birth"}})", "/render/ribbon/serial_field");
  rejected(R"({"projection": "ribbon", "ribbon": {"serial_field": "up"}})", "/render/ribbon/serial_field");
  rejected(R"({"projection": "ribbon", "ribbon": {"id_field": "color"}})", "/render/ribbon/id_field");
  rejected(R"({"projection": "ribbon", "ribbon": {"uv": "mirrored"}})", "/render/ribbon/uv");
  rejected(R"({"projection": "ribbon", "ribbon": {"tile_length": 2}})", "/render/ribbon/tile_length");
  rejected(R"({"projection": "ribbon", "ribbon": {"uv": "tiled", "tile_length": 0}})", "/render/ribbon/tile_length");
  rejected(R"({"projection": "ribbon", "ribbon": {"facing": "normal"}})", "/render/ribbon");
  rejected(R"({"projection": "ribbon", "ribbon": {"normal_field": "up"}})", "/render/ribbon/normal_field");
  rejected(R"({"projection": "ribbon", "ribbon": {"facing": "normal", "normal_field": "trail"}})",
           "/render/ribbon/normal_field");
  rejected(R"({"projection": "ribbon", "ribbon": {"subdivisions": 9}})", "/render/ribbon/subdivisions");
  rejected(R"({"projection": "ribbon", "ribbon": {"subdivisions": 0}})", "/render/ribbon/subdivisions");
  // The default serial field must be declared too; the error points at the projection.
  expect_rejected(effect_with(kStore, kStore, R"("render": {"projection": "ribbon"},)"), "/render/projection");
}

// render.light (docs/design/particle_lights.md): every key optional, the particles' colour and a
// fixed radius by default; each number in its range, refused at its own pointer.
TEST(Loader, ReadsLightSettings) {
  auto r = mote::compile_effect(
      effect_with(kStore, kStore,
                  R"("render": {"light": {"color": [1, 0.5, 0.25], "intensity": 3, "use_particle_color": false,
                                "radius": 1.5, "radius_from_size": 4}},)"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const mote::LightSettings& l = r->render.light;
  EXPECT_TRUE(l.enabled);
  EXPECT_EQ(l.color, (std::array<float, 3>{1.0f, 0.5f, 0.25f}));
  EXPECT_EQ(l.intensity, 3.0f);
  EXPECT_FALSE(l.use_particle_color);
  EXPECT_EQ(l.radius, 1.5f);
  EXPECT_EQ(l.radius_from_size, 4.0f);
  auto d = mote::compile_effect(effect_with(kStore, kStore, R"("render": {"light": {}},)"));
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_TRUE(d->render.light.enabled);
  EXPECT_TRUE(d->render.light.use_particle_color);
  EXPECT_EQ(d->render.light.radius, 2.0f);
  auto none = mote::compile_effect(effect_with(kStore, kStore, R"("render": {},)"));
  ASSERT_TRUE(none.ok()) << none.error().to_string();
  EXPECT_FALSE(none->render.light.enabled);
}

TEST(Loader, RejectsBadLightSettings) {
  const auto rejected = [](const std::string& light, const std::string& where) {
    expect_rejected(effect_with(kStore, kStore, R"("render": {"light": )" + light + "},"), where);
  };
  rejected(R"({"radius": -1})", "/render/light/radius");
  rejected(R"({"radius": 0})", "/render/light/radius");
  rejected(R"({"radius": 1e5})", "/render/light/radius");
  rejected(R"({"intensity": 1e39})", "/render/light/intensity");  // no finite float
  rejected(R"({"intensity": -0.5})", "/render/light/intensity");
  rejected(R"({"intensity": "bright"})", "/render/light/intensity");
  rejected(R"({"radius_from_size": -2})", "/render/light/radius_from_size");
  rejected(R"({"color": [1, 1]})", "/render/light/color");
  rejected(R"({"color": [1, -1, 1]})", "/render/light/color/1");
  rejected(R"({"use_particle_color": 1})", "/render/light/use_particle_color");
  rejected(R"({"range": 3})", "/render/light/range");
  rejected(R"(true)", "/render/light");
}

TEST(Loader, RejectsDuplicateNodeId) {
  expect_rejected(effect_with(std::string(kStore) + "," + kStore, kStore), "/init/nodes/1/id");
}
TEST(Loader, RejectsUnknownNodeType) {
  expect_rejected(effect_with(R"({"id": "x", "type": "explode"})", kStore), "/init/nodes/0/type");
}
TEST(Loader, RejectsNodeOutsideItsSection) {
  expect_rejected(effect_with(R"({"id": "k", "type": "kill_if", "inputs": {"condition": 1}})", kStore),
                  "/init/nodes/0/type");
}
TEST(Loader, RejectsUnknownPort) {
  expect_rejected(
      effect_with(R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 0, "valeu": 1}})",
                  kStore),
      "/init/nodes/0/inputs/valeu");
}
TEST(Loader, RejectsUnknownOutputPort) {
  expect_rejected(effect_with(kStore, R"({"id": "a", "type": "get_field", "params": {"field": "age"}},
      {"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": "a.value"}})"),
                  "/update/nodes/1/inputs/value");
}
TEST(Loader, RejectsWrongWidth) {
  expect_rejected(
      effect_with(kStore,
                  R"({"id": "s", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": [1, 2]}})"),
      "/update/nodes/0/inputs/value");
}
TEST(Loader, RejectsCycle) {
  expect_rejected(effect_with(kStore, R"({"id": "a", "type": "add", "inputs": {"a": "b", "b": 1}},
      {"id": "b", "type": "add", "inputs": {"a": "a", "b": 1}},
      {"id": "s", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": "a"}})"),
                  "/update/nodes/1/inputs/a");
}
TEST(Loader, RejectsMissingRequiredInput) {
  expect_rejected(effect_with(kStore, R"({"id": "a", "type": "add", "inputs": {"a": 1}})"), "/update/nodes/0/inputs");
}
TEST(Loader, RejectsUnknownField) {
  expect_rejected(effect_with(kStore, R"({"id": "a", "type": "get_field", "params": {"field": "mass"}})"),
                  "/update/nodes/0/params/field");
}
TEST(Loader, RejectsDuplicateFieldName) {
  expect_rejected(
      R"({"name": "t", "particle_fields": [{"name": "a", "width": 1}, {"name": "a", "width": 2}], "init": {"nodes": []}, "update": {"nodes": []}})",
      "/particle_fields/1/name");
}
TEST(Loader, RejectsDoubleStore) {
  expect_rejected(
      effect_with(kStore,
                  std::string(kStore) +
                      R"(, {"id": "t", "type": "set_field", "params": {"field": "age"}, "inputs": {"value": 1}})"),
      "/update/nodes/1/params/field");
}
TEST(Loader, RejectsUnsortedCurveKeys) {
  expect_rejected(
      effect_with(kStore, R"({"id": "c", "type": "curve", "params": {"keys": [[0, 1], [0, 2]]}, "inputs": {"t": 0}})"),
      "/update/nodes/0/params/keys/1/0");
}
TEST(Loader, RejectsDuplicateKey) {
  // nlohmann::json alone keeps the last of two equal keys; the loader refuses at the second.
  const std::pair<std::string, std::string> cases[] = {
      {effect_with(kStore, kStore, R"("name": "u",)"), "/name"},
      {effect_with(
           kStore,
           R"({"id": "s", "type": "set_field", "params": {"field": "age"}, "type": "set_field", "inputs": {"value": 0}})"),
       "/update/nodes/0/type"},
      {effect_with(kStore, std::string(kStore) + R"(, {"id": "t", "type": "add", "inputs": {"a": 1, "b": 2, "a": 3}})"),
       "/update/nodes/1/inputs/a"},
      {effect_with(kStore, kStore,
                   R"("emission": {"bursts": [{"time": 0, "count": 1}, {"time": 1, "count": 2, "count": 3}]},)"),
       "/emission/bursts/1/count"},
  };
  for (const auto& [doc, where] : cases) {
    SCOPED_TRACE(where);
    expect_rejected(doc, where);
    EXPECT_NE(mote::compile_effect(doc).error().message.find("duplicate key"), std::string::npos);
  }
}
TEST(Loader, RejectsDeepNestingBeforeReadingIt) {
  // Node parameters are free-form JSON until graph_check reads them; the parse bounds their depth.
  const std::string deep = std::string(100, '[') + "0" + std::string(100, ']');
  const std::string doc = effect_with(kStore, R"({"id": "c", "type": "curve", "params": {"keys": )" + deep +
                                                  R"(}, "inputs": {"t": 0}})");
  // The root, "update", "nodes", the node and "params" are levels 1 to 5, so the level past the
  // limit is array number kMaxJsonDepth - 4 of "keys", at index 0 of the arrays around it.
  std::string where = "/update/nodes/0/params/keys";
  for (size_t i = 0; i < mote::core::kMaxJsonDepth - 5; ++i) where += "/0";
  expect_rejected(doc, where);
}
TEST(Loader, RejectsBadVectorFields) {
  const char* sample =
      R"({"id": "f", "type": "vector_field", "params": {"field": "gust"}, "inputs": {"position": [0, 0, 0]}},
      {"id": "s1", "type": "set_field", "params": {"field": "velocity"}, "inputs": {"value": "f"}})";
  // A node naming a field the document does not declare.
  expect_rejected(effect_with(kStore, sample), "/update/nodes/0/params/field");
  expect_rejected(effect_with(kStore, sample, R"("vector_fields": ["flow"],)"), "/update/nodes/0/params/field");
  // Names: identifiers, unique, at most 4.
  expect_rejected(effect_with(kStore, sample, R"("vector_fields": ["gust", "gust"],)"), "/vector_fields/1");
  expect_rejected(effect_with(kStore, sample, R"("vector_fields": ["gust", "2x"],)"), "/vector_fields/1");
  expect_rejected(effect_with(kStore, sample, R"("vector_fields": ["gust", "a", "b", "c", "d"],)"), "/vector_fields");
  expect_rejected(effect_with(kStore, sample, R"("vector_fields": "gust",)"), "/vector_fields");
  EXPECT_TRUE(mote::compile_effect(effect_with(kStore, sample, R"("vector_fields": ["gust"],)")).ok());
}

TEST(Loader, EscapesPointerTokens) { expect_rejected(effect_with(kStore, kStore, R"("a/b~c": 1,)"), "/a~1b~0c"); }

}  // namespace
