// The node table as effect documents see it: every node's ports, widths, defaults and
// parameters, written out and compared with the table as it stood before the math nodes were
// derived from the ISA table (src/graph/node_library.cpp, include/mote/isa/isa_table.inc).
// Documents in effects/ and the goldens in tests/graph/golden/ name these ports, so a change here
// is a change of the effect format.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "node_library.hpp"

namespace mote::graph {
namespace {

std::string width_text(uint8_t width) {
  if (width == kGeneric) return "N";
  if (width == kFromParams) return "P";
  return std::to_string(width);
}

std::string port_text(const PortSpec& p) {
  std::ostringstream s;
  s << p.name << ":" << width_text(p.width);
  switch (p.def) {
    case PortSpec::Default::kRequired: break;
    case PortSpec::Default::kOptional: s << "?"; break;
    case PortSpec::Default::kBuiltin: s << "=@" << isa::builtin_info(uint32_t(p.builtin))->name; break;
    case PortSpec::Default::kValue:
      s << "=(";
      for (uint32_t k = 0; k < p.value_width; ++k) s << (k ? "," : "") << p.value[k];
      s << ")";
      break;
  }
  return s.str();
}

std::string spec_text(const NodeSpec& n) {
  std::ostringstream s;
  s << n.type << " s" << int(n.sections) << " in(";
  for (size_t i = 0; i < n.inputs.size(); ++i) s << (i ? " " : "") << port_text(n.inputs[i]);
  s << ") out(";
  for (size_t i = 0; i < n.outputs.size(); ++i)
    s << (i ? " " : "") << n.outputs[i].name << ":" << width_text(n.outputs[i].width);
  s << ")";
  for (const ParamSpec& p : n.params) s << " param " << p.name << ":" << int(p.kind) << (p.required ? "" : "?");
  if (n.sink) s << " sink";
  if (n.random) s << " random";
  return s.str();
}

// The table before the ISA table drove it, sorted by type.
constexpr const char* kExpected[] = {
    "abs s3 in(a:N) out(out:N)",
    "acos s3 in(a:N) out(out:N)",
    "add s3 in(a:N b:N) out(out:N)",
    "age_step s3 in(age:1 dt:1=@DT) out(out:1)",
    "and s3 in(a:N b:N) out(out:N)",
    "asin s3 in(a:N) out(out:N)",
    "atan2 s3 in(y:N x:N) out(out:N)",
    "attractor s3 in(position:3 velocity:3 target:3 strength:1=(1) dt:1=@DT) out(out:3)",
    "builtin s3 in() out(out:P) param name:3",
    "ceil s3 in(a:N) out(out:N)",
    "clamp s3 in(x:N lo:N=(0) hi:N=(1)) out(out:N)",
    "collide_box s2 in(position:3 velocity:3 center:3=(0,0,0) extent:3=(1,1,1) restitution:1=(0.5) friction:1=(0)) "
    "out(position:3 velocity:3 hit:1)",
    "collide_capsule s2 in(position:3 velocity:3 a:3=(0,0,0) b:3=(0,1,0) radius:1=(0.5) restitution:1=(0.5) "
    "friction:1=(0)) out(position:3 velocity:3 hit:1)",
    "collide_depth s2 in(position:3 velocity:3 thickness:1=(0.5) restitution:1=(0.5) friction:1=(0)) "
    "out(position:3 velocity:3 hit:1)",
    "collide_plane s2 in(position:3 velocity:3 point:3=(0,0,0) normal:3=(0,1,0) restitution:1=(0.5) friction:1=(0)) "
    "out(position:3 velocity:3 hit:1)",
    "collide_sphere s2 in(position:3 velocity:3 center:3=(0,0,0) radius:1=(1) restitution:1=(0.5) friction:1=(0)) "
    "out(position:3 velocity:3 hit:1)",
    "color s3 in() out(out:4) param value:8",
    "combine s3 in(x:1 y:1 z:1? w:1?) out(out:P)",
    "compare s3 in(a:N b:N) out(out:N) param op:6",
    "cos s3 in(a:N) out(out:N)",
    "cross s3 in(a:3 b:3) out(out:3)",
    "curl_noise s3 in(position:3 frequency:1=(1) amplitude:1=(1)) out(out:3)",
    "curve s3 in(t:1) out(out:P) param keys:4 param interpolation:5?",
    "distance s3 in(a:N b:N) out(out:1)",
    "div s3 in(a:N b:N) out(out:N)",
    "dot s3 in(a:N b:N) out(out:1)",
    "drag s3 in(velocity:3 coefficient:1=(0) dt:1=@DT) out(out:3)",
    "ease_in_cubic s3 in(t:1) out(out:1)",
    "ease_in_out_cubic s3 in(t:1) out(out:1)",
    "ease_in_out_quad s3 in(t:1) out(out:1)",
    "ease_in_out_sine s3 in(t:1) out(out:1)",
    "ease_in_quad s3 in(t:1) out(out:1)",
    "ease_in_sine s3 in(t:1) out(out:1)",
    "ease_out_cubic s3 in(t:1) out(out:1)",
    "ease_out_quad s3 in(t:1) out(out:1)",
    "ease_out_sine s3 in(t:1) out(out:1)",
    "emit_box s3 in(extent:3=(1,1,1)) out(position:3 offset:3) random",
    "emit_cone s3 in(direction:3=(0,1,0) angle:1=(0.5) height:1=(1)) out(position:3 offset:3) random",
    "emit_disk s3 in(normal:3=(0,1,0) radius:1=(1)) out(position:3 offset:3) random",
    "emit_plane s3 in(normal:3=(0,1,0) size:2=(1,1)) out(position:3 offset:3) random",
    "emit_point s3 in() out(position:3 offset:3)",
    "emit_sphere s3 in(radius:1=(1)) out(position:3 offset:3) random",
    "emit_sphere_surface s3 in(radius:1=(1)) out(position:3 offset:3) random",
    "emitter_field s3 in() out(out:P) param field:1",
    "emitter_rotation s3 in() out(out:4)",
    "exp s3 in(a:N) out(out:N)",
    "expired s3 in(age:1 lifetime:1) out(out:1)",
    "float s3 in() out(out:1) param value:7",
    "floor s3 in(a:N) out(out:N)",
    "fma s3 in(a:N b:N c:N) out(out:N)",
    "fract s3 in(a:N) out(out:N)",
    "get_field s3 in() out(out:P) param field:0",
    "global_field s3 in() out(out:P) param field:2",
    "gradient s3 in(t:1) out(out:P) param keys:4 param interpolation:5?",
    "gravity s3 in(velocity:3 gravity:3=(0,-9.81,0) dt:1=@DT) out(out:3)",
    "hash s3 in(a:N b:N) out(out:N)",
    "integrate s3 in(position:3 velocity:3 acceleration:3=(0,0,0) dt:1=@DT) out(position:3 velocity:3)",
    "kill_if s2 in(condition:1) out() sink",
    "length s3 in(a:N) out(out:1)",
    "lifetime s4 in(time:1=@TIME life_min:1=(2) life_max:1=(5)) out(life:1 iteration:1 phase:1 particle_time:1 "
    "emission_time:1 seed:1) random",
    "log s3 in(a:N) out(out:N)",
    "max s3 in(a:N b:N) out(out:N)",
    "min s3 in(a:N b:N) out(out:N)",
    "mix s3 in(a:N b:N t:N) out(out:N)",
    "mod s3 in(a:N b:N) out(out:N)",
    "mul s3 in(a:N b:N) out(out:N)",
    "negate s3 in(a:N) out(out:N)",
    "noise s3 in(position:3 frequency:1=(1)) out(out:1)",
    "normalize s3 in(a:N) out(out:N)",
    "normalized_age s3 in(age:1 lifetime:1) out(out:1)",
    "not s3 in(a:N) out(out:N)",
    "one_minus s3 in(a:N) out(out:N)",
    "or s3 in(a:N b:N) out(out:N)",
    "orbit s3 in(position:3 center:3=(0,0,0) axis:3=(0,1,0) angular_speed:1=(1) dt:1=@DT) out(out:3)",
    "path_circle s3 in(time:1=@TIME radius:1=(10) angular_speed:1=(1) center:3=(0,0,0)) out(out:3)",
    "path_line s3 in(time:1=@TIME velocity:3=(30,0,0) origin:3=(0,0,0)) out(out:3)",
    "point_force s3 in(position:3 velocity:3 center:3=(0,0,0) strength:1=(1) radius:1=(0) dt:1=@DT) out(out:3)",
    "pow s3 in(a:N b:N) out(out:N)",
    "quat_from_axis_angle s3 in(axis:3 angle:1) out(out:4)",
    "quat_integrate s3 in(q:4 angular_velocity:3 dt:1=@DT) out(out:4)",
    "quat_look_rotation s3 in(forward:3 up:3=(0,1,0)) out(out:4)",
    "quat_multiply s3 in(a:4 b:4) out(out:4)",
    "quat_random s3 in() out(out:4) random",
    "quat_rotate s3 in(q:4 v:3) out(out:3)",
    "random_in_box s3 in(extent:3=(1,1,1)) out(out:3) random",
    "random_in_cone s3 in(direction:3=(0,1,0) angle:1=(0.5)) out(out:3) random",
    "random_in_disk s3 in(radius:1=(1)) out(out:2) random",
    "random_in_sphere s3 in(radius:1=(1)) out(out:3) random",
    "random_on_sphere s3 in(radius:1=(1)) out(out:3) random",
    "random_pick s3 in(count:1=(1) o0:N o1:N=(0) o2:N=(0) o3:N=(0) o4:N=(0) o5:N=(0) o6:N=(0) o7:N=(0)) out(out:N) "
    "random",
    "random_range s3 in(min:N=(0) max:N=(1)) out(out:N) random",
    "rsqrt s3 in(a:N) out(out:N)",
    "scale_in_out s3 in(phase:1 size:1=(1) grow:1=(0.2) shrink:1=(0.2)) out(out:1)",
    "seeded_direction s3 in(seed:1) out(out:3) random",
    "seeded_in_ball s3 in(seed:1 radius:1=(1)) out(out:3) random",
    "seeded_in_box s3 in(seed:1 min:3=(-1,-1,-1) max:3=(1,1,1)) out(out:3) random",
    "seeded_random s3 in(seed:1 min:N=(0) max:N=(1)) out(out:N) random",
    "seeded_rotation s3 in(seed:1 angle:1) out(out:4) random",
    "select s3 in(mask:N a:N b:N) out(out:N)",
    "send_event s3 in(count:1) out() param output:9 sink",
    "set_field s3 in(value:P) out() param field:0 sink",
    "sign s3 in(a:N) out(out:N)",
    "sin s3 in(a:N) out(out:N)",
    "smoothstep s3 in(e0:N e1:N x:N) out(out:N)",
    "split s3 in(value:N) out(x:1 y:1 z:1 w:1)",
    "sqrt s3 in(a:N) out(out:N)",
    "step s3 in(edge:N x:N) out(out:N)",
    "sub s3 in(a:N b:N) out(out:N)",
    "tan s3 in(a:N) out(out:N)",
    "time_window s3 in(time:1=@TIME start:1=(0) end:1=(3)) out(out:1)",
    "turbulence s3 in(position:3 velocity:3 frequency:1=(1) strength:1=(1) dt:1=@DT) out(out:3)",
    "vec2 s3 in() out(out:2) param value:8",
    "vec3 s3 in() out(out:3) param value:8",
    "vec4 s3 in() out(out:4) param value:8",
    "vector_field s3 in(position:3) out(out:3) param field:10",
    "velocity_box s3 in(min:3=(-1,-1,-1) max:3=(1,1,1)) out(out:3) random",
    "velocity_cone s3 in(direction:3=(0,1,0) angle:1=(0.5) speed_min:1=(1) speed_max:1=(1)) out(out:3) random",
    "velocity_fixed s3 in(direction:3=(0,1,0) speed:1=(1)) out(out:3)",
    "velocity_sphere s3 in(speed_min:1=(1) speed_max:1=(1)) out(out:3) random",
    "vortex s3 in(position:3 velocity:3 center:3=(0,0,0) axis:3=(0,1,0) strength:1=(1) dt:1=@DT) out(out:3)",
    "wind s3 in(position:3) out(out:3)",
};

TEST(NodeLibrary, EveryNodeKeepsItsPortsWidthsAndDefaults) {
  std::vector<std::string> got;
  for (const NodeSpec& n : all_node_specs()) got.push_back(spec_text(n));
  std::sort(got.begin(), got.end());
  const std::vector<std::string> expected(std::begin(kExpected), std::end(kExpected));
  EXPECT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < std::max(got.size(), expected.size()); ++i) {
    const std::string g = i < got.size() ? got[i] : "(none)";
    const std::string e = i < expected.size() ? expected[i] : "(none)";
    EXPECT_EQ(g, e) << "entry " << i;
  }
}

TEST(NodeLibrary, TypesAreUniqueAndFound) {
  std::vector<std::string_view> types;
  for (const NodeSpec& n : all_node_specs()) {
    types.push_back(n.type);
    EXPECT_EQ(find_node_spec(n.type), &n) << n.type;
  }
  std::sort(types.begin(), types.end());
  EXPECT_EQ(std::adjacent_find(types.begin(), types.end()), types.end());
  EXPECT_EQ(find_node_spec("no_such_node"), nullptr);
}

}  // namespace
}  // namespace mote::graph
