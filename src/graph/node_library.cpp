// The node table. Port order is documentation order; lookups are by name. The math nodes that
// are one instruction come from the ISA table's node column (include/mote/isa/isa_table.inc):
// a pure opcode gets its node by its row.
#include "node_library.hpp"

#include <optional>

namespace mote::graph {

namespace {

// ---- The node column: "type port port=default ...", words separated by one space, a default
// being a decimal number or an engine builtin's name (builtins.inc). Parsed at compile time to
// check every row (below) and at start-up to build the nodes.

// The next space-separated word of `rest`, removed from it.
constexpr std::string_view next_word(std::string_view& rest) {
  const size_t end = rest.find(' ');
  const std::string_view word = rest.substr(0, end);
  rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  return word;
}

constexpr bool is_identifier(std::string_view name) {
  if (name.empty()) return false;
  for (char ch : name)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
  return !(name[0] >= '0' && name[0] <= '9');
}

// A decimal number, [-]digits[.digits]; nothing for anything else.
constexpr std::optional<float> parse_decimal(std::string_view text) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  double value = 0.0, scale = 1.0;
  bool fraction = false, digits = false;
  for (char ch : text) {
    if (ch == '.' && !fraction) {
      fraction = true;
    } else if (ch >= '0' && ch <= '9') {
      value = value * 10.0 + double(ch - '0');
      if (fraction) scale *= 10.0;
      digits = true;
    } else {
      return std::nullopt;
    }
  }
  if (!digits) return std::nullopt;
  return float((negative ? -value : value) / scale);
}

// A value, not a pointer into the table: GCC's UBSan makes a table address's null test
// non-constant, and the static_assert below must stay a constant expression under
// MOTE_SANITIZE (scripts/sanitize.sh).
constexpr std::optional<isa::Builtin> builtin_named(std::string_view name) {
  for (const isa::BuiltinInfo& b : isa::all_builtins())
    if (b.name == name) return b.builtin;
  return std::nullopt;
}

// One port of the column: required, or with a number or builtin default.
constexpr std::optional<PortSpec> parse_port(std::string_view word, uint8_t width) {
  const size_t eq = word.find('=');
  PortSpec port{word.substr(0, eq), width, PortSpec::Default::kRequired, {}, 1, isa::Builtin::DT};
  if (!is_identifier(port.name)) return std::nullopt;
  if (eq == std::string_view::npos) return port;
  const std::string_view def = word.substr(eq + 1);
  if (const std::optional<isa::Builtin> builtin = builtin_named(def)) {
    port.def = PortSpec::Default::kBuiltin;
    port.builtin = *builtin;
    return port;
  }
  const std::optional<float> value = parse_decimal(def);
  if (!value) return std::nullopt;
  port.def = PortSpec::Default::kValue;
  port.value = {*value, 0.0f, 0.0f, 0.0f};
  return port;
}

// The width of a row's value source or result in its node: generic where the row's lane count
// ranges, fixed otherwise.
constexpr uint8_t op_width(const isa::OpInfo& op, isa::SrcRule rule) {
  if (rule != isa::SrcRule::kVal) return uint8_t(isa::source_width(rule, 0));
  return op.lanes_min < op.lanes_max ? kGeneric : op.lanes_min;
}
constexpr uint8_t op_out_width(const isa::OpInfo& op) {
  if (op.dst == isa::DstRule::kDstScalar) return 1;
  return op.lanes_min < op.lanes_max ? kGeneric : op.lanes_min;
}

// The node of an ISA row with a node column; nothing when the column does not parse or names
// a port count other than the row's value sources.
constexpr std::optional<NodeSpec> op_node(const isa::OpInfo& op) {
  std::string_view rest = op.node;
  NodeSpec node{next_word(rest), kInit | kUpdate, {}, {{"out", op_out_width(op)}}, {}};
  node.op = &op;
  if (!is_identifier(node.type) || op.form == isa::OpForm::kSpecial) return std::nullopt;
  for (isa::SrcRule rule : op.src) {
    if (rule == isa::SrcRule::kUnused) continue;
    const std::optional<PortSpec> port = parse_port(next_word(rest), op_width(op, rule));
    if (!port) return std::nullopt;
    node.inputs.push_back(*port);
  }
  if (!rest.empty()) return std::nullopt;
  return node;
}

constexpr bool node_columns_parse() {
  for (const isa::OpInfo& op : isa::all_ops())
    if (!op.node.empty() && !op_node(op)) return false;
  return true;
}
static_assert(node_columns_parse(), "an isa_table.inc node column does not parse or does not match its row's sources");

using D = PortSpec::Default;

PortSpec req(std::string_view name, uint8_t width) { return {name, width, D::kRequired, {}, 1, isa::Builtin::DT}; }
PortSpec opt(std::string_view name, uint8_t width) { return {name, width, D::kOptional, {}, 1, isa::Builtin::DT}; }
PortSpec val(std::string_view name, uint8_t width, float x) {
  return {name, width, D::kValue, {x, 0, 0, 0}, 1, isa::Builtin::DT};
}
PortSpec vec(std::string_view name, uint8_t width, std::array<float, 4> v, uint8_t vw) {
  return {name, width, D::kValue, v, vw, isa::Builtin::DT};
}
PortSpec dt_port() { return {"dt", 1, D::kBuiltin, {}, 1, isa::Builtin::DT}; }
OutSpec out(uint8_t width) { return {"out", width}; }

// Randomness, curves and gradients, noise and forces.
void add_random_curve_and_force_nodes(std::vector<NodeSpec>& t) {
  const uint8_t N = kGeneric;
  const std::array<float, 4> up{0, 1, 0, 0};
  // Randomness: RAND plus arithmetic.
  t.push_back({"random_range", kInit | kUpdate, {val("min", N, 0.0f), val("max", N, 1.0f)}, {out(N)}, {}, false, true});
  // One of up to 8 options, uniformly among the first `count` (e.g. a per-particle UV rect drawn
  // from a palette; docs/design/nodes.md).
  t.push_back({"random_pick",
               kInit | kUpdate,
               {val("count", 1, 1.0f), req("o0", N), val("o1", N, 0.0f), val("o2", N, 0.0f), val("o3", N, 0.0f),
                val("o4", N, 0.0f), val("o5", N, 0.0f), val("o6", N, 0.0f), val("o7", N, 0.0f)},
               {out(N)},
               {},
               false,
               true});
  t.push_back({"random_in_sphere", kInit | kUpdate, {val("radius", 1, 1.0f)}, {out(3)}, {}, false, true});
  t.push_back({"random_on_sphere", kInit | kUpdate, {val("radius", 1, 1.0f)}, {out(3)}, {}, false, true});
  t.push_back({"random_in_disk", kInit | kUpdate, {val("radius", 1, 1.0f)}, {out(2)}, {}, false, true});
  t.push_back({"random_in_cone",
               kInit | kUpdate,
               {vec("direction", 3, up, 3), val("angle", 1, 0.5f)},
               {out(3)},
               {},
               false,
               true});
  t.push_back({"random_in_box", kInit | kUpdate, {vec("extent", 3, {1, 1, 1, 0}, 3)}, {out(3)}, {}, false, true});
  // Curves and gradients: piecewise arithmetic over keys.
  t.push_back({"curve",
               kInit | kUpdate,
               {req("t", 1)},
               {out(kFromParams)},
               {{"keys", ParamKind::kCurveKeys}, {"interpolation", ParamKind::kInterpolation, false}}});
  t.push_back({"gradient",
               kInit | kUpdate,
               {req("t", 1)},
               {out(kFromParams)},
               {{"keys", ParamKind::kCurveKeys}, {"interpolation", ParamKind::kInterpolation, false}}});
  // Noise and forces.
  t.push_back({"curl_noise",
               kInit | kUpdate,
               {req("position", 3), val("frequency", 1, 1.0f), val("amplitude", 1, 1.0f)},
               {out(3)},
               {}});
  t.push_back({"noise", kInit | kUpdate, {req("position", 3), val("frequency", 1, 1.0f)}, {out(1)}, {}});
  t.push_back({"wind", kInit | kUpdate, {req("position", 3)}, {out(3)}, {}});
  // An authored 3-D vector field at `position` (docs/design/vector_field.md): `field` names one of
  // the document's "vector_fields"; 0 until the system is given that field.
  t.push_back({"vector_field", kInit | kUpdate, {req("position", 3)}, {out(3)}, {{"field", ParamKind::kVectorField}}});
  t.push_back({"integrate",
               kInit | kUpdate,
               {req("position", 3), req("velocity", 3), vec("acceleration", 3, {}, 3), dt_port()},
               {{"position", 3}, {"velocity", 3}},
               {}});
  t.push_back({"gravity",
               kInit | kUpdate,
               {req("velocity", 3), vec("gravity", 3, {0, -9.81f, 0, 0}, 3), dt_port()},
               {out(3)},
               {}});
  t.push_back({"drag", kInit | kUpdate, {req("velocity", 3), val("coefficient", 1, 0.0f), dt_port()}, {out(3)}, {}});
  t.push_back({"attractor",
               kInit | kUpdate,
               {req("position", 3), req("velocity", 3), req("target", 3), val("strength", 1, 1.0f), dt_port()},
               {out(3)},
               {}});
}

// The force fields and the analytic colliders (docs/design/nodes.md, "Forces and collisions"):
// arithmetic on the existing instructions, so every executor runs them.
void add_field_and_collider_nodes(std::vector<NodeSpec>& t) {
  const std::array<float, 4> up{0, 1, 0, 0};
  const std::array<float, 4> origin{0, 0, 0, 0};
  t.push_back({"point_force",
               kInit | kUpdate,
               {req("position", 3), req("velocity", 3), vec("center", 3, origin, 3), val("strength", 1, 1.0f),
                val("radius", 1, 0.0f), dt_port()},
               {out(3)},
               {}});
  t.push_back({"vortex",
               kInit | kUpdate,
               {req("position", 3), req("velocity", 3), vec("center", 3, origin, 3), vec("axis", 3, up, 3),
                val("strength", 1, 1.0f), dt_port()},
               {out(3)},
               {}});
  t.push_back({"orbit",
               kInit | kUpdate,
               {req("position", 3), vec("center", 3, origin, 3), vec("axis", 3, up, 3), val("angular_speed", 1, 1.0f),
                dt_port()},
               {out(3)},
               {}});
  t.push_back({"turbulence",
               kInit | kUpdate,
               {req("position", 3), req("velocity", 3), val("frequency", 1, 1.0f), val("strength", 1, 1.0f), dt_port()},
               {out(3)},
               {}});
  // Colliders keep a particle outside the shape: pushed back to its surface, the velocity into it
  // reflected by restitution and its tangential part cut by friction; hit = 1 on contact.
  const std::vector<OutSpec> collide_out{{"position", 3}, {"velocity", 3}, {"hit", 1}};
  const PortSpec restitution = val("restitution", 1, 0.5f);
  const PortSpec friction = val("friction", 1, 0.0f);
  t.push_back({"collide_plane",
               kUpdate,
               {req("position", 3), req("velocity", 3), vec("point", 3, origin, 3), vec("normal", 3, up, 3),
                restitution, friction},
               collide_out,
               {}});
  t.push_back({"collide_sphere",
               kUpdate,
               {req("position", 3), req("velocity", 3), vec("center", 3, origin, 3), val("radius", 1, 1.0f),
                restitution, friction},
               collide_out,
               {}});
  t.push_back({"collide_box",
               kUpdate,
               {req("position", 3), req("velocity", 3), vec("center", 3, origin, 3), vec("extent", 3, {1, 1, 1, 0}, 3),
                restitution, friction},
               collide_out,
               {}});
  t.push_back({"collide_capsule",
               kUpdate,
               {req("position", 3), req("velocity", 3), vec("a", 3, origin, 3), vec("b", 3, up, 3),
                val("radius", 1, 0.5f), restitution, friction},
               collide_out,
               {}});
  // Against the collision depth the system is given (docs/design/depth_collision.md): a particle
  // at most `thickness` behind the surface seen through its texel.
  t.push_back({"collide_depth",
               kUpdate,
               {req("position", 3), req("velocity", 3), val("thickness", 1, 0.5f), restitution, friction},
               collide_out,
               {}});
}

// Emit shapes, velocity patterns, age and the quaternions beyond the ISA's own.
void add_shape_and_motion_nodes(std::vector<NodeSpec>& t) {
  const std::array<float, 4> up{0, 1, 0, 0};
  // Emit shapes: positions in the emitter's frame.
  const std::vector<OutSpec> shape_out{{"position", 3}, {"offset", 3}};
  t.push_back({"emit_point", kInit | kUpdate, {}, shape_out, {}});
  t.push_back({"emit_box", kInit | kUpdate, {vec("extent", 3, {1, 1, 1, 0}, 3)}, shape_out, {}, false, true});
  t.push_back({"emit_sphere", kInit | kUpdate, {val("radius", 1, 1.0f)}, shape_out, {}, false, true});
  t.push_back({"emit_sphere_surface", kInit | kUpdate, {val("radius", 1, 1.0f)}, shape_out, {}, false, true});
  t.push_back({"emit_plane",
               kInit | kUpdate,
               {vec("normal", 3, up, 3), vec("size", 2, {1, 1, 0, 0}, 2)},
               shape_out,
               {},
               false,
               true});
  t.push_back(
      {"emit_disk", kInit | kUpdate, {vec("normal", 3, up, 3), val("radius", 1, 1.0f)}, shape_out, {}, false, true});
  t.push_back({"emit_cone",
               kInit | kUpdate,
               {vec("direction", 3, up, 3), val("angle", 1, 0.5f), val("height", 1, 1.0f)},
               shape_out,
               {},
               false,
               true});
  // Velocity patterns, in the emitter's frame (docs/design/nodes.md).
  t.push_back({"velocity_fixed", kInit | kUpdate, {vec("direction", 3, up, 3), val("speed", 1, 1.0f)}, {out(3)}, {}});
  t.push_back({"velocity_cone",
               kInit | kUpdate,
               {vec("direction", 3, up, 3), val("angle", 1, 0.5f), val("speed_min", 1, 1.0f),
                val("speed_max", 1, 1.0f)},
               {out(3)},
               {},
               false,
               true});
  t.push_back({"velocity_sphere",
               kInit | kUpdate,
               {val("speed_min", 1, 1.0f), val("speed_max", 1, 1.0f)},
               {out(3)},
               {},
               false,
               true});
  t.push_back({"velocity_box",
               kInit | kUpdate,
               {vec("min", 3, {-1, -1, -1, 0}, 3), vec("max", 3, {1, 1, 1, 0}, 3)},
               {out(3)},
               {},
               false,
               true});
  // Age.
  t.push_back({"age_step", kInit | kUpdate, {req("age", 1), dt_port()}, {out(1)}, {}});
  t.push_back({"normalized_age", kInit | kUpdate, {req("age", 1), req("lifetime", 1)}, {out(1)}, {}});
  t.push_back({"expired", kInit | kUpdate, {req("age", 1), req("lifetime", 1)}, {out(1)}, {}});
  // Quaternions (xyzw) beyond the ISA's own (quat_multiply, quat_rotate, ... come from the table).
  t.push_back({"quat_look_rotation", kInit | kUpdate, {req("forward", 3), vec("up", 3, up, 3)}, {out(4)}, {}});
  t.push_back({"quat_random", kInit | kUpdate, {}, {out(4)}, {}, false, true});
}

PortSpec time_port() { return {"time", 1, D::kBuiltin, {}, 1, isa::Builtin::TIME}; }

// The stateless nodes (docs/design/nodes.md, "Stateless nodes"): the lifetime loop (EVAL only),
// random numbers keyed by an iteration's seed, emitter paths and windows over time, easing, scale
// in/out. All but the loop are plain functions of their inputs, so every section has them.
void add_stateless_nodes(std::vector<NodeSpec>& t) {
  const uint8_t N = kGeneric;
  const uint8_t any = kInit | kUpdate;
  t.push_back({"lifetime",
               kEval,
               {time_port(), val("life_min", 1, 2.0f), val("life_max", 1, 5.0f)},
               {{"life", 1}, {"iteration", 1}, {"phase", 1}, {"particle_time", 1}, {"emission_time", 1}, {"seed", 1}},
               {},
               false,
               true});
  t.push_back(
      {"seeded_random", any, {req("seed", 1), val("min", N, 0.0f), val("max", N, 1.0f)}, {out(N)}, {}, false, true});
  t.push_back({"seeded_direction", any, {req("seed", 1)}, {out(3)}, {}, false, true});
  t.push_back({"seeded_in_box",
               any,
               {req("seed", 1), vec("min", 3, {-1, -1, -1, 0}, 3), vec("max", 3, {1, 1, 1, 0}, 3)},
               {out(3)},
               {},
               false,
               true});
  t.push_back({"seeded_in_ball", any, {req("seed", 1), val("radius", 1, 1.0f)}, {out(3)}, {}, false, true});
  t.push_back({"seeded_rotation", any, {req("seed", 1), req("angle", 1)}, {out(4)}, {}, false, true});
  t.push_back({"path_circle",
               any,
               {time_port(), val("radius", 1, 10.0f), val("angular_speed", 1, 1.0f), vec("center", 3, {}, 3)},
               {out(3)},
               {}});
  t.push_back(
      {"path_line", any, {time_port(), vec("velocity", 3, {30, 0, 0, 0}, 3), vec("origin", 3, {}, 3)}, {out(3)}, {}});
  t.push_back({"time_window", any, {time_port(), val("start", 1, 0.0f), val("end", 1, 3.0f)}, {out(1)}, {}});
  t.push_back({"scale_in_out",
               any,
               {req("phase", 1), val("size", 1, 1.0f), val("grow", 1, 0.2f), val("shrink", 1, 0.2f)},
               {out(1)},
               {}});
  for (std::string_view e : kEasingNodes) t.push_back({e, any, {req("t", 1)}, {out(1)}, {}});
}

std::vector<NodeSpec> build_table() {
  const uint8_t N = kGeneric;
  std::vector<NodeSpec> t;
  // Constants.
  t.push_back({"float", kInit | kUpdate, {}, {out(1)}, {{"value", ParamKind::kNumber}}});
  t.push_back({"vec2", kInit | kUpdate, {}, {out(2)}, {{"value", ParamKind::kVector}}});
  t.push_back({"vec3", kInit | kUpdate, {}, {out(3)}, {{"value", ParamKind::kVector}}});
  t.push_back({"vec4", kInit | kUpdate, {}, {out(4)}, {{"value", ParamKind::kVector}}});
  t.push_back({"color", kInit | kUpdate, {}, {out(4)}, {{"value", ParamKind::kVector}}});
  // Fields and builtins.
  t.push_back({"get_field", kInit | kUpdate, {}, {out(kFromParams)}, {{"field", ParamKind::kParticleField}}});
  t.push_back(
      {"set_field", kInit | kUpdate, {req("value", kFromParams)}, {}, {{"field", ParamKind::kParticleField}}, true});
  t.push_back({"emitter_field", kInit | kUpdate, {}, {out(kFromParams)}, {{"field", ParamKind::kEmitterField}}});
  t.push_back({"global_field", kInit | kUpdate, {}, {out(kFromParams)}, {{"field", ParamKind::kGlobalField}}});
  t.push_back({"builtin", kInit | kUpdate, {}, {out(kFromParams)}, {{"name", ParamKind::kBuiltinName}}});
  t.push_back({"emitter_rotation", kInit | kUpdate, {}, {out(4)}, {}});
  // Math that is one instruction: one node per ISA row with a node column (math, geometry and
  // the quaternion operations).
  for (const isa::OpInfo& op : isa::all_ops())
    if (!op.node.empty()) t.push_back(*op_node(op));
  // Math of more than one instruction, or with parameters.
  for (std::string_view u : {"negate", "one_minus"}) t.push_back({u, kInit | kUpdate, {req("a", N)}, {out(N)}, {}});
  t.push_back({"compare", kInit | kUpdate, {req("a", N), req("b", N)}, {out(N)}, {{"op", ParamKind::kCompare}}});
  t.push_back({"split", kInit | kUpdate, {req("value", N)}, {{"x", 1}, {"y", 1}, {"z", 1}, {"w", 1}}, {}});
  t.push_back(
      {"combine", kInit | kUpdate, {req("x", 1), req("y", 1), opt("z", 1), opt("w", 1)}, {out(kFromParams)}, {}});
  // Control.
  t.push_back({"kill_if", kUpdate, {req("condition", 1)}, {}, {}, true});
  // Events (docs/design/events.md): `count` events (floored; below 1 sends none) to the declared
  // event output; each child's INIT reads this particle's position, velocity and colour after
  // the run through the event_position, event_velocity and event_color builtins.
  t.push_back({"send_event", kInit | kUpdate, {req("count", 1)}, {}, {{"output", ParamKind::kEventOutput}}, true});
  add_random_curve_and_force_nodes(t);
  add_shape_and_motion_nodes(t);
  add_field_and_collider_nodes(t);
  add_stateless_nodes(t);
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
