// The node table. Port order is documentation order; lookups are by name.
#include "node_library.hpp"

namespace mote::graph {

namespace {

using D = PortSpec::Default;

PortSpec req(std::string_view name, uint8_t width) { return {name, width, D::kRequired, {}, 1, isa::Builtin::DT}; }
PortSpec opt(std::string_view name, uint8_t width) { return {name, width, D::kOptional, {}, 1, isa::Builtin::DT}; }
PortSpec val(std::string_view name, uint8_t width, float x) { return {name, width, D::kValue, {x, 0, 0, 0}, 1, isa::Builtin::DT}; }
PortSpec vec(std::string_view name, uint8_t width, std::array<float, 4> v, uint8_t vw) {
  return {name, width, D::kValue, v, vw, isa::Builtin::DT};
}
PortSpec dt_port() { return {"dt", 1, D::kBuiltin, {}, 1, isa::Builtin::DT}; }
OutSpec out(uint8_t width) { return {"out", width}; }

std::vector<NodeSpec> build_table() {
  const uint8_t N = kGeneric;
  const std::array<float, 4> up{0, 1, 0, 0};
  std::vector<NodeSpec> t;
  // Constants.
  t.push_back({"float", kInit | kUpdate, {}, {out(1)}, {{"value", ParamKind::kNumber}}});
  t.push_back({"vec2", kInit | kUpdate, {}, {out(2)}, {{"value", ParamKind::kVector}}});
  t.push_back({"vec3", kInit | kUpdate, {}, {out(3)}, {{"value", ParamKind::kVector}}});
  t.push_back({"vec4", kInit | kUpdate, {}, {out(4)}, {{"value", ParamKind::kVector}}});
  t.push_back({"color", kInit | kUpdate, {}, {out(4)}, {{"value", ParamKind::kVector}}});
  // Fields and builtins.
  t.push_back({"get_field", kInit | kUpdate, {}, {out(kFromParams)}, {{"field", ParamKind::kParticleField}}});
  t.push_back({"set_field", kInit | kUpdate, {req("value", kFromParams)}, {}, {{"field", ParamKind::kParticleField}}, true});
  t.push_back({"emitter_field", kInit | kUpdate, {}, {out(kFromParams)}, {{"field", ParamKind::kEmitterField}}});
  t.push_back({"global_field", kInit | kUpdate, {}, {out(kFromParams)}, {{"field", ParamKind::kGlobalField}}});
  t.push_back({"builtin", kInit | kUpdate, {}, {out(kFromParams)}, {{"name", ParamKind::kBuiltinName}}});
  t.push_back({"emitter_rotation", kInit | kUpdate, {}, {out(4)}, {}});
  // Lane-wise math, one node per opcode.
  for (std::string_view u : {"abs", "sign", "floor", "ceil", "fract", "sqrt", "rsqrt", "exp", "log", "sin", "cos", "tan",
                             "asin", "acos", "normalize", "not", "negate", "one_minus"})
    t.push_back({u, kInit | kUpdate, {req("a", N)}, {out(N)}, {}});
  for (std::string_view b : {"add", "sub", "mul", "div", "min", "max", "mod", "pow", "and", "or"})
    t.push_back({b, kInit | kUpdate, {req("a", N), req("b", N)}, {out(N)}, {}});
  t.push_back({"atan2", kInit | kUpdate, {req("y", N), req("x", N)}, {out(N)}, {}});
  t.push_back({"step", kInit | kUpdate, {req("edge", N), req("x", N)}, {out(N)}, {}});
  t.push_back({"fma", kInit | kUpdate, {req("a", N), req("b", N), req("c", N)}, {out(N)}, {}});
  t.push_back({"clamp", kInit | kUpdate, {req("x", N), val("lo", N, 0.0f), val("hi", N, 1.0f)}, {out(N)}, {}});
  t.push_back({"mix", kInit | kUpdate, {req("a", N), req("b", N), req("t", N)}, {out(N)}, {}});
  t.push_back({"smoothstep", kInit | kUpdate, {req("e0", N), req("e1", N), req("x", N)}, {out(N)}, {}});
  t.push_back({"select", kInit | kUpdate, {req("mask", N), req("a", N), req("b", N)}, {out(N)}, {}});
  t.push_back({"compare", kInit | kUpdate, {req("a", N), req("b", N)}, {out(N)}, {{"op", ParamKind::kCompare}}});
  t.push_back({"dot", kInit | kUpdate, {req("a", N), req("b", N)}, {out(1)}, {}});
  t.push_back({"length", kInit | kUpdate, {req("a", N)}, {out(1)}, {}});
  t.push_back({"distance", kInit | kUpdate, {req("a", N), req("b", N)}, {out(1)}, {}});
  t.push_back({"cross", kInit | kUpdate, {req("a", 3), req("b", 3)}, {out(3)}, {}});
  t.push_back({"split", kInit | kUpdate, {req("value", N)}, {{"x", 1}, {"y", 1}, {"z", 1}, {"w", 1}}, {}});
  t.push_back({"combine", kInit | kUpdate, {req("x", 1), req("y", 1), opt("z", 1), opt("w", 1)}, {out(kFromParams)}, {}});
  // Control.
  t.push_back({"kill_if", kUpdate, {req("condition", 1)}, {}, {}, true});
  // Randomness: RAND plus arithmetic.
  t.push_back({"random_range", kInit | kUpdate, {val("min", N, 0.0f), val("max", N, 1.0f)}, {out(N)}, {}, false, true});
  // One of up to 8 options, uniformly among the first `count` (wsg D15/D18: a per-particle UV
  // rect drawn from a palette).
  t.push_back({"random_pick", kInit | kUpdate,
               {val("count", 1, 1.0f), req("o0", N), val("o1", N, 0.0f), val("o2", N, 0.0f), val("o3", N, 0.0f),
                val("o4", N, 0.0f), val("o5", N, 0.0f), val("o6", N, 0.0f), val("o7", N, 0.0f)},
               {out(N)}, {}, false, true});
  t.push_back({"random_in_sphere", kInit | kUpdate, {val("radius", 1, 1.0f)}, {out(3)}, {}, false, true});
  t.push_back({"random_on_sphere", kInit | kUpdate, {val("radius", 1, 1.0f)}, {out(3)}, {}, false, true});
  t.push_back({"random_in_disk", kInit | kUpdate, {val("radius", 1, 1.0f)}, {out(2)}, {}, false, true});
  t.push_back({"random_in_cone", kInit | kUpdate, {vec("direction", 3, up, 3), val("angle", 1, 0.5f)}, {out(3)}, {}, false, true});
  t.push_back({"random_in_box", kInit | kUpdate, {vec("extent", 3, {1, 1, 1, 0}, 3)}, {out(3)}, {}, false, true});
  // Curves and gradients: piecewise arithmetic over keys.
  t.push_back({"curve", kInit | kUpdate, {req("t", 1)}, {out(kFromParams)},
               {{"keys", ParamKind::kCurveKeys}, {"interpolation", ParamKind::kInterpolation, false}}});
  t.push_back({"gradient", kInit | kUpdate, {req("t", 1)}, {out(kFromParams)},
               {{"keys", ParamKind::kCurveKeys}, {"interpolation", ParamKind::kInterpolation, false}}});
  // Noise and forces.
  t.push_back({"curl_noise", kInit | kUpdate, {req("position", 3), val("frequency", 1, 1.0f), val("amplitude", 1, 1.0f)}, {out(3)}, {}});
  t.push_back({"noise", kInit | kUpdate, {req("position", 3), val("frequency", 1, 1.0f)}, {out(1)}, {}});
  t.push_back({"wind", kInit | kUpdate, {req("position", 3)}, {out(3)}, {}});
  t.push_back({"integrate", kInit | kUpdate, {req("position", 3), req("velocity", 3), vec("acceleration", 3, {}, 3), dt_port()},
               {{"position", 3}, {"velocity", 3}}, {}});
  t.push_back({"gravity", kInit | kUpdate, {req("velocity", 3), vec("gravity", 3, {0, -9.81f, 0, 0}, 3), dt_port()}, {out(3)}, {}});
  t.push_back({"drag", kInit | kUpdate, {req("velocity", 3), val("coefficient", 1, 0.0f), dt_port()}, {out(3)}, {}});
  t.push_back({"attractor", kInit | kUpdate,
               {req("position", 3), req("velocity", 3), req("target", 3), val("strength", 1, 1.0f), dt_port()}, {out(3)}, {}});
  // Emit shapes: positions in the emitter's frame.
  const std::vector<OutSpec> shape_out{{"position", 3}, {"offset", 3}};
  t.push_back({"emit_point", kInit | kUpdate, {}, shape_out, {}});
  t.push_back({"emit_box", kInit | kUpdate, {vec("extent", 3, {1, 1, 1, 0}, 3)}, shape_out, {}, false, true});
  t.push_back({"emit_sphere", kInit | kUpdate, {val("radius", 1, 1.0f)}, shape_out, {}, false, true});
  t.push_back({"emit_sphere_surface", kInit | kUpdate, {val("radius", 1, 1.0f)}, shape_out, {}, false, true});
  t.push_back({"emit_plane", kInit | kUpdate, {vec("normal", 3, up, 3), vec("size", 2, {1, 1, 0, 0}, 2)}, shape_out, {}, false, true});
  t.push_back({"emit_disk", kInit | kUpdate, {vec("normal", 3, up, 3), val("radius", 1, 1.0f)}, shape_out, {}, false, true});
  t.push_back({"emit_cone", kInit | kUpdate, {vec("direction", 3, up, 3), val("angle", 1, 0.5f), val("height", 1, 1.0f)}, shape_out, {},
               false, true});
  // Velocity patterns (wsg §5.2), in the emitter's frame.
  t.push_back({"velocity_fixed", kInit | kUpdate, {vec("direction", 3, up, 3), val("speed", 1, 1.0f)}, {out(3)}, {}});
  t.push_back({"velocity_cone", kInit | kUpdate,
               {vec("direction", 3, up, 3), val("angle", 1, 0.5f), val("speed_min", 1, 1.0f), val("speed_max", 1, 1.0f)}, {out(3)}, {},
               false, true});
  t.push_back({"velocity_sphere", kInit | kUpdate, {val("speed_min", 1, 1.0f), val("speed_max", 1, 1.0f)}, {out(3)}, {}, false, true});
  t.push_back({"velocity_box", kInit | kUpdate, {vec("min", 3, {-1, -1, -1, 0}, 3), vec("max", 3, {1, 1, 1, 0}, 3)}, {out(3)}, {}, false,
               true});
  // Age.
  t.push_back({"age_step", kInit | kUpdate, {req("age", 1), dt_port()}, {out(1)}, {}});
  t.push_back({"normalized_age", kInit | kUpdate, {req("age", 1), req("lifetime", 1)}, {out(1)}, {}});
  t.push_back({"expired", kInit | kUpdate, {req("age", 1), req("lifetime", 1)}, {out(1)}, {}});
  // Quaternions (xyzw).
  t.push_back({"quat_from_axis_angle", kInit | kUpdate, {req("axis", 3), req("angle", 1)}, {out(4)}, {}});
  t.push_back({"quat_multiply", kInit | kUpdate, {req("a", 4), req("b", 4)}, {out(4)}, {}});
  t.push_back({"quat_rotate", kInit | kUpdate, {req("q", 4), req("v", 3)}, {out(3)}, {}});
  t.push_back({"quat_integrate", kInit | kUpdate, {req("q", 4), req("angular_velocity", 3), dt_port()}, {out(4)}, {}});
  t.push_back({"quat_look_rotation", kInit | kUpdate, {req("forward", 3), vec("up", 3, up, 3)}, {out(4)}, {}});
  t.push_back({"quat_random", kInit | kUpdate, {}, {out(4)}, {}, false, true});
  return t;
}

const std::vector<NodeSpec>& table() {
  static const std::vector<NodeSpec> t = build_table();
  return t;
}

}  // namespace

const NodeSpec* find_node_spec(std::string_view type) {
  for (const NodeSpec& s : table())
    if (s.type == type) return &s;
  return nullptr;
}

std::span<const NodeSpec> all_node_specs() { return table(); }

}  // namespace mote::graph
