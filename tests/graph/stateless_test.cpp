// Stateless effect documents (docs/design/effects.md, "Stateless effects"): "stateless": true,
// one graph "eval" compiled to the EVAL section, and what such a document cannot say.
#include <gtest/gtest.h>

#include <bit>
#include <string>

#include "mote/effect.hpp"
#include "mote/verifier.hpp"
#include "mote/vm.hpp"

namespace mote {
namespace {

// A stateless document over position (3) and size (1) with the given eval nodes.
std::string stateless_with(const std::string& eval_nodes, const std::string& extra = "") {
  return R"({"name": "s", "stateless": true, "particle_fields": [{"name": "position", "width": 3},
    {"name": "size", "width": 1}], "emission": {"capacity": 64}, )" +
         extra + R"("eval": {"nodes": [)" + eval_nodes + "]}}";
}

// position = (time, index, 0), size = 0.5.
const char* kTimeAndIndex = R"(
  {"id": "t", "type": "builtin", "params": {"name": "time"}},
  {"id": "i", "type": "builtin", "params": {"name": "particle_index"}},
  {"id": "p", "type": "combine", "inputs": {"x": "t", "y": "i", "z": 0}},
  {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "p"}},
  {"id": "ss", "type": "set_field", "params": {"field": "size"}, "inputs": {"value": 0.5}})";

Error compile_error(const std::string& text) {
  Result<CompiledEffect> r = compile_effect(text);
  EXPECT_FALSE(r.ok()) << "compiled, expected a refusal";
  return r.ok() ? Error{} : r.error();
}

TEST(Stateless, CompilesToEvalAlone) {
  Result<CompiledEffect> r = compile_effect(stateless_with(kTimeAndIndex));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const Program& p = r->program;
  EXPECT_TRUE(p.init.empty());
  EXPECT_TRUE(p.update.empty());
  ASSERT_FALSE(p.eval.empty());
  EXPECT_TRUE(verify_program(p).ok());
  EXPECT_EQ(r->emission.capacity_hint, 64u);

  // Run it: every particle's record is (time, index, 0, 0.5), whatever the records held.
  RunInput in;
  in.program = &p;
  in.section = Section::kEval;
  in.count = 5;
  in.records.assign(5 * 5, 0xFFFFFFFFu);  // NaNs: EVAL must not read them
  in.emitter.time = -3.25f;
  in.first_particle_index = 10;
  Result<RunOutput> out = make_reference_executor()->run(in);
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  for (uint32_t i = 0; i < 5; ++i) {
    const uint32_t* rec = out->records.data() + i * 5;
    EXPECT_EQ(std::bit_cast<float>(rec[1]), -3.25f);
    EXPECT_EQ(std::bit_cast<float>(rec[2]), float(10 + i));
    EXPECT_EQ(std::bit_cast<float>(rec[3]), 0.0f);
    EXPECT_EQ(std::bit_cast<float>(rec[4]), 0.5f);
  }
}

TEST(Stateless, RefusesReadingAParticleField) {
  const Error e = compile_error(stateless_with(std::string(kTimeAndIndex) + R"(,
    {"id": "old", "type": "get_field", "params": {"field": "position"}},
    {"id": "s2", "type": "set_field", "params": {"field": "size"}, "inputs": {"value": "old.out"}})"));
  EXPECT_EQ(e.code, ErrorCode::kParse);
  EXPECT_EQ(e.where, "/eval/nodes/5/params/field") << e.to_string();
  EXPECT_NE(e.message.find("nothing persists between frames"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("'position'"), std::string::npos) << e.message;
}

TEST(Stateless, RefusesStateNodesAndTheTicksDt) {
  Error kill = compile_error(stateless_with(std::string(kTimeAndIndex) + R"(,
    {"id": "k", "type": "kill_if", "inputs": {"condition": 1}})"));
  EXPECT_EQ(kill.where, "/eval/nodes/5/type") << kill.to_string();

  Error dt = compile_error(stateless_with(std::string(kTimeAndIndex) + R"(,
    {"id": "d", "type": "builtin", "params": {"name": "dt"}},
    {"id": "s2", "type": "set_field", "params": {"field": "size"}, "inputs": {"value": "d"}})"));
  EXPECT_EQ(dt.where, "/eval/nodes/5/params/name") << dt.to_string();

  // integrate's dt input defaults to the tick's dt: refused unless connected.
  Error integrate = compile_error(stateless_with(R"(
    {"id": "g", "type": "integrate", "inputs": {"position": [0, 0, 0], "velocity": [1, 0, 0]}},
    {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "g.position"}})"));
  EXPECT_EQ(integrate.where, "/eval/nodes/0/inputs") << integrate.to_string();
  EXPECT_NE(integrate.message.find("'dt'"), std::string::npos) << integrate.message;

  // Connected to time, the same node is a function of time and compiles.
  Result<CompiledEffect> connected = compile_effect(stateless_with(R"(
    {"id": "t", "type": "builtin", "params": {"name": "time"}},
    {"id": "g", "type": "integrate", "inputs": {"position": [0, 0, 0], "velocity": [1, 0, 0], "dt": "t"}},
    {"id": "sp", "type": "set_field", "params": {"field": "position"}, "inputs": {"value": "g.position"}})"));
  EXPECT_TRUE(connected.ok()) << connected.error().to_string();
}

TEST(Stateless, DocumentShapeIsStrict) {
  // A stateless document has no init or update...
  Error init = compile_error(stateless_with(kTimeAndIndex, R"("init": {"nodes": []}, )"));
  EXPECT_EQ(init.where, "/init") << init.to_string();
  // ...and needs its eval graph.
  Error missing =
      compile_error(R"({"name": "s", "stateless": true, "particle_fields": [{"name": "size", "width": 1}]})");
  EXPECT_NE(missing.message.find("eval"), std::string::npos) << missing.to_string();
  // A stateful document has no eval graph.
  Error eval = compile_error(
      R"({"name": "s", "particle_fields": [{"name": "size", "width": 1}], "init": {"nodes": []},
          "update": {"nodes": []}, "eval": {"nodes": []}})");
  EXPECT_EQ(eval.where, "/eval") << eval.to_string();
  // It spawns nothing: no rate, bursts or prewarm.
  Error rate = compile_error(
      R"({"name": "s", "stateless": true, "particle_fields": [{"name": "size", "width": 1}],
          "emission": {"rate": 10}, "eval": {"nodes": []}})");
  EXPECT_EQ(rate.where, "/emission/rate") << rate.to_string();
  Error flag = compile_error(
      R"({"name": "s", "stateless": 1, "particle_fields": [{"name": "size", "width": 1}], "eval": {"nodes": []}})");
  EXPECT_EQ(flag.where, "/stateless") << flag.to_string();
}

TEST(Stateless, StatefulDocumentsCompileAsBefore) {
  Result<CompiledEffect> r = compile_effect(
      R"({"name": "s", "particle_fields": [{"name": "size", "width": 1}], "init": {"nodes": [
        {"id": "ss", "type": "set_field", "params": {"field": "size"}, "inputs": {"value": 0.5}}]},
        "update": {"nodes": []}})");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_TRUE(r->program.eval.empty());
  EXPECT_FALSE(r->program.init.empty());
}

}  // namespace
}  // namespace mote
