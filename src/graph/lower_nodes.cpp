// Node lowerings (docs/design/nodes.md gives each node's formula).
#include "lower_nodes.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "shared/isa_encoding.h"

namespace mote::graph {

namespace {

using isa::Op;
constexpr float kTwoPi = 6.28318530717958647692f;

struct Lowerer {
  IrBuilder& b;

  ValueRef k(float x) { return b.scalar(x); }
  ValueRef k3(float x, float y, float z) { return b.constant({x, y, z, 0.0f}, 3); }
  ValueRef op(Op o, uint8_t lanes, std::initializer_list<Src> s) { return b.op(o, lanes, s); }
  ValueRef c(ValueRef v, int i) { return IrBuilder::component(v, i); }
  ValueRef builtin(isa::Builtin id, uint8_t width) { return op(Op::LOAD_BUILTIN, width, {Src::raw(uint32_t(id))}); }
  ValueRef rand(uint32_t draw, uint8_t lanes) { return op(Op::RAND, lanes, {Src::raw(draw)}); }
  ValueRef combine(std::initializer_list<ValueRef> parts) {
    std::vector<ValueRef> v(parts);
    return b.combine(v);
  }

  // (cos, sin) of 2*pi*u.
  std::pair<ValueRef, ValueRef> circle(ValueRef u) {
    ValueRef phi = op(Op::MUL, 1, {u, k(kTwoPi)});
    return {op(Op::COS, 1, {phi}), op(Op::SIN, 1, {phi})};
  }
  // A unit vector, uniform on the sphere, from two uniforms.
  ValueRef sphere_direction(ValueRef u0, ValueRef u1) {
    ValueRef z = op(Op::FMA, 1, {u0, k(-2.0f), k(1.0f)});
    ValueRef s = op(Op::SQRT, 1, {op(Op::SUB, 1, {k(1.0f), op(Op::MUL, 1, {z, z})})});
    auto [cs, sn] = circle(u1);
    return combine({op(Op::MUL, 1, {s, cs}), op(Op::MUL, 1, {s, sn}), z});
  }
  // The quaternion turning +Z onto unit vector d (the shortest arc; 180 degrees about X for -Z).
  ValueRef z_to(ValueRef d) {
    ValueRef w = op(Op::ADD, 1, {k(1.0f), c(d, 2)});
    ValueRef q = op(Op::NORMALIZE, 4, {combine({op(Op::SUB, 1, {k(0.0f), c(d, 1)}), c(d, 0), k(0.0f), w})});
    ValueRef flip = op(Op::CMP, 1, {w, k(1e-6f), Src::raw(shader::kVmCmpLt)});
    return op(Op::SELECT, 4, {flip, b.constant({1, 0, 0, 0}, 4), q});
  }
  ValueRef rotate_z_to(ValueRef direction, ValueRef local) {
    return op(Op::QROTATE, 3, {z_to(op(Op::NORMALIZE, 3, {direction})), local});
  }
  // A unit vector within `angle` of +Z (uniform over the cap) from two uniforms.
  ValueRef cone_local(ValueRef angle, ValueRef u0, ValueRef u1) {
    ValueRef ct = op(Op::MIX, 1, {k(1.0f), op(Op::COS, 1, {angle}), u0});
    ValueRef st = op(Op::SQRT, 1, {op(Op::SUB, 1, {k(1.0f), op(Op::MUL, 1, {ct, ct})})});
    auto [cs, sn] = circle(u1);
    return combine({op(Op::MUL, 1, {st, cs}), op(Op::MUL, 1, {st, sn}), ct});
  }
  ValueRef emitter_rotation() { return builtin(isa::Builtin::EMITTER_ROTATION, 4); }
  ValueRef to_world(ValueRef local) { return op(Op::QROTATE, 3, {emitter_rotation(), local}); }
  ValueRef disk(ValueRef radius, ValueRef u0, ValueRef u1) {
    ValueRef r = op(Op::MUL, 1, {radius, op(Op::SQRT, 1, {u0})});
    auto [cs, sn] = circle(u1);
    return combine({op(Op::MUL, 1, {r, cs}), op(Op::MUL, 1, {r, sn})});
  }

  // Piecewise interpolation over keys [t, v...]: v0 + sum_i (v_{i+1} - v_i) * s_i(t), s_i the
  // clamped ramp (linear) or smoothstep (smooth) over segment i; four segments per instruction.
  ValueRef curve(const TypedNode& n, ValueRef t) {
    const auto& keys = n.keys;
    const uint8_t w = uint8_t(n.field_width);
    std::array<float, 4> v0{};
    for (uint32_t i = 0; i < w; ++i) v0[i] = keys[0][1 + i];
    ValueRef acc = b.constant(v0, w);
    const size_t segments = keys.size() - 1;
    for (size_t first = 0; first < segments; first += 4) {
      const uint8_t m = uint8_t(std::min<size_t>(4, segments - first));
      std::array<float, 4> t0{}, t1{}, span{};
      for (uint32_t j = 0; j < m; ++j) {
        t0[j] = keys[first + j][0];
        t1[j] = keys[first + j + 1][0];
        span[j] = t1[j] - t0[j];
      }
      ValueRef s;
      if (n.smooth) {
        s = op(Op::SMOOTHSTEP, m, {b.constant(t0, m), b.constant(t1, m), t});
      } else {
        ValueRef ramp = op(Op::DIV, m, {op(Op::SUB, m, {t, b.constant(t0, m)}), b.constant(span, m)});
        s = op(Op::CLAMP, m, {ramp, k(0.0f), k(1.0f)});
      }
      for (uint32_t j = 0; j < m; ++j) {
        std::array<float, 4> delta{};
        for (uint32_t i = 0; i < w; ++i) delta[i] = keys[first + j + 1][1 + i] - keys[first + j][1 + i];
        acc = op(Op::FMA, w, {b.constant(delta, w), c(s, int(j)), acc});
      }
    }
    return acc;
  }
};

// A math node that is one instruction (NodeSpec::op, from the ISA table): the row's opcode on
// the node's inputs, at the row's fixed lane count or the node's generic width.
ValueRef lower_op_node(Lowerer& L, const isa::OpInfo& info, uint8_t generic, const std::vector<ValueRef>& in) {
  const uint8_t lanes = info.lanes_min == info.lanes_max ? info.lanes_min : generic;
  switch (in.size()) {
    case 1: return L.op(info.op, lanes, {in[0]});
    case 2: return L.op(info.op, lanes, {in[0], in[1]});
    default: return L.op(info.op, lanes, {in[0], in[1], in[2]});
  }
}

// One node being lowered: its inputs' values (an absent input's is empty), its type, its generic
// width and its first random draw.
struct NodeLowering {
  const TypedNode& n;
  const std::vector<ValueRef>& in;
  std::string_view type;
  uint8_t generic;
  uint32_t draw;
};

// The section's writes, emitted after everything else (see lower_nodes.hpp).
struct Sinks {
  struct Store {
    uint32_t offset;
    uint8_t width;
    ValueRef value;
  };
  std::vector<Store> stores;
  std::vector<ValueRef> kills;
  struct Event {
    uint32_t output;
    ValueRef count;
  };
  std::vector<Event> events;
};

using Outputs = std::optional<std::vector<ValueRef>>;  // empty: the node is not of this family

// The value of each of node `n`'s inputs: a source node's output, a constant or a builtin.
std::vector<ValueRef> input_values(Lowerer& L, const TypedNode& n, const std::vector<std::vector<ValueRef>>& outs) {
  std::vector<ValueRef> in;
  for (const TypedInput& t : n.inputs) {
    switch (t.kind) {
      case TypedInput::Kind::kRef: in.push_back(outs[t.node][t.port]); break;
      case TypedInput::Kind::kConst: in.push_back(L.b.constant(t.value, t.width)); break;
      case TypedInput::Kind::kBuiltin: in.push_back(L.builtin(t.builtin, 1)); break;
      case TypedInput::Kind::kAbsent: in.push_back(ValueRef{}); break;
    }
  }
  return in;
}

// Constants, field and builtin reads, stores and kills, and the nodes that are one instruction or
// only rearrange components.
Outputs lower_data_node(Lowerer& L, const NodeLowering& node, Sinks& sinks) {
  const TypedNode& n = node.n;
  const std::vector<ValueRef>& in = node.in;
  const std::string_view type = node.type;
  if (type == "float" || type == "vec2" || type == "vec3" || type == "vec4" || type == "color")
    return std::vector{L.b.constant(n.constant, n.out_widths[0])};
  if (type == "get_field") return std::vector{L.op(Op::LOAD_FIELD, uint8_t(n.field_width), {Src::raw(n.field_offset)})};
  if (type == "set_field") {
    sinks.stores.push_back({n.field_offset, uint8_t(n.field_width), in[0]});
    return std::vector<ValueRef>{};
  }
  if (type == "emitter_field")
    return std::vector{L.op(Op::LOAD_BUILTIN, uint8_t(n.field_width),
                            {Src::raw((shader::kVmSpaceEmitterField << 16) | n.field_offset)})};
  if (type == "global_field")
    return std::vector{L.b.op(Op::LOAD_BUILTIN, uint8_t(n.field_width),
                              {Src::raw((shader::kVmSpaceGlobalImport << 16) | n.field_index)}, Pending::kGlobal)};
  if (type == "builtin") return std::vector{L.builtin(isa::Builtin(n.builtin_id), uint8_t(n.field_width))};
  if (type == "emitter_rotation") return std::vector{L.emitter_rotation()};
  if (type == "negate" || type == "one_minus")
    return std::vector{L.op(Op::SUB, node.generic, {L.k(type == "negate" ? 0.0f : 1.0f), in[0]})};
  if (n.spec->op != nullptr) return std::vector{lower_op_node(L, *n.spec->op, node.generic, in)};
  if (type == "compare") return std::vector{L.op(Op::CMP, node.generic, {in[0], in[1], Src::raw(n.cmp)})};
  if (type == "split") {
    std::vector<ValueRef> components;
    for (int i = 0; i < 4; ++i) components.push_back(L.c(in[0], i < node.generic ? i : 0));
    return components;
  }
  if (type == "combine") {
    std::vector<ValueRef> parts;
    for (const ValueRef& p : in)
      if (p.id != kNoValue) parts.push_back(L.c(p, 0));
    return std::vector{L.b.combine(parts)};
  }
  if (type == "kill_if") {
    sinks.kills.push_back(in[0]);
    return std::vector<ValueRef>{};
  }
  if (type == "send_event") {
    sinks.events.push_back({n.event_output, in[0]});
    return std::vector<ValueRef>{};
  }
  return std::nullopt;
}

// random_in_sphere, random_on_sphere, emit_sphere and emit_sphere_surface: a point in or on the
// sphere of radius in[0]; the emit_ nodes place it around the emitter, turned by its rotation.
std::vector<ValueRef> lower_sphere_point(Lowerer& L, const NodeLowering& node) {
  const std::string_view type = node.type;
  ValueRef u = L.rand(node.draw, 3);
  ValueRef dir = L.sphere_direction(L.c(u, 0), L.c(u, 1));
  ValueRef r = node.in[0];
  if (type == "random_in_sphere" || type == "emit_sphere")
    r = L.op(Op::MUL, 1, {r, L.op(Op::POW, 1, {L.c(u, 2), L.k(1.0f / 3.0f)})});
  ValueRef local = L.op(Op::MUL, 3, {dir, r});
  if (!type.starts_with("emit")) return {local};
  ValueRef off = L.to_world(local);
  return {L.op(Op::ADD, 3, {L.builtin(isa::Builtin::EMITTER_POSITION, 3), off}), off};
}

// The random nodes other than the emitter shapes and velocities.
Outputs lower_random_node(Lowerer& L, const NodeLowering& node) {
  const std::vector<ValueRef>& in = node.in;
  const std::string_view type = node.type;
  const uint8_t width = node.generic;
  const uint32_t draw = node.draw;
  if (type == "random_range") return std::vector{L.op(Op::MIX, width, {in[0], in[1], L.rand(draw, width)})};
  if (type == "random_pick") {
    // index = floor(u * clamp(count, 1, 8)), then a select chain: predicated, no jumps.
    ValueRef count = L.op(Op::CLAMP, 1, {in[0], L.k(1.0f), L.k(8.0f)});
    ValueRef index = L.op(Op::FLOOR, 1, {L.op(Op::MUL, 1, {L.rand(draw, 1), count})});
    ValueRef pick = in[1];
    for (uint32_t k = 1; k < 8; ++k) {
      ValueRef at_least_k = L.op(Op::CMP, 1, {index, L.k(float(k)), Src::raw(shader::kVmCmpGe)});
      pick = L.op(Op::SELECT, width, {at_least_k, in[1 + k], pick});
    }
    return std::vector{pick};
  }
  if (type == "random_in_sphere" || type == "random_on_sphere") return lower_sphere_point(L, node);
  if (type == "random_in_disk") {
    ValueRef u = L.rand(draw, 2);
    return std::vector{L.disk(in[0], L.c(u, 0), L.c(u, 1))};
  }
  if (type == "random_in_cone") {
    ValueRef u = L.rand(draw, 2);
    return std::vector{L.rotate_z_to(in[0], L.cone_local(in[1], L.c(u, 0), L.c(u, 1)))};
  }
  if (type == "random_in_box")
    return std::vector{L.op(Op::MUL, 3, {L.op(Op::FMA, 3, {L.rand(draw, 3), L.k(2.0f), L.k(-1.0f)}), in[0]})};
  if (type == "quat_random") {  // Shoemake 1992, uniform over rotations
    ValueRef u = L.rand(draw, 3);
    ValueRef a = L.op(Op::SQRT, 1, {L.op(Op::SUB, 1, {L.k(1.0f), L.c(u, 0)})});
    ValueRef bb = L.op(Op::SQRT, 1, {L.c(u, 0)});
    auto [c1, s1] = L.circle(L.c(u, 1));
    auto [c2, s2] = L.circle(L.c(u, 2));
    return std::vector{L.combine({L.op(Op::MUL, 1, {a, s1}), L.op(Op::MUL, 1, {a, c1}), L.op(Op::MUL, 1, {bb, s2}),
                                  L.op(Op::MUL, 1, {bb, c2})})};
  }
  return std::nullopt;
}

// The emitter shapes: the spawn position (around the emitter, turned by its rotation) and its
// offset from the emitter.
Outputs lower_emit_node(Lowerer& L, const NodeLowering& node) {
  const std::vector<ValueRef>& in = node.in;
  const std::string_view type = node.type;
  const uint32_t draw = node.draw;
  if (type == "emit_sphere" || type == "emit_sphere_surface") return lower_sphere_point(L, node);
  if (!type.starts_with("emit_")) return std::nullopt;
  ValueRef local;
  if (type == "emit_point") {
    local = L.k3(0, 0, 0);
  } else if (type == "emit_box") {
    local = L.op(Op::MUL, 3, {L.op(Op::FMA, 3, {L.rand(draw, 3), L.k(2.0f), L.k(-1.0f)}), in[0]});
  } else if (type == "emit_plane") {
    ValueRef p2 = L.op(Op::MUL, 2, {L.op(Op::FMA, 2, {L.rand(draw, 2), L.k(2.0f), L.k(-1.0f)}), in[1]});
    local = L.rotate_z_to(in[0], L.combine({L.c(p2, 0), L.c(p2, 1), L.k(0.0f)}));
  } else if (type == "emit_disk") {
    ValueRef u = L.rand(draw, 2);
    ValueRef d2 = L.disk(in[1], L.c(u, 0), L.c(u, 1));
    local = L.rotate_z_to(in[0], L.combine({L.c(d2, 0), L.c(d2, 1), L.k(0.0f)}));
  } else {  // emit_cone: uniform in the solid cone, apex at the emitter
    ValueRef u = L.rand(draw, 3);
    ValueRef d = L.op(Op::MUL, 1, {in[2], L.op(Op::POW, 1, {L.c(u, 0), L.k(1.0f / 3.0f)})});
    ValueRef rmax = L.op(Op::MUL, 1, {d, L.op(Op::TAN, 1, {in[1]})});
    ValueRef d2 = L.disk(rmax, L.c(u, 1), L.c(u, 2));
    local = L.rotate_z_to(in[0], L.combine({L.c(d2, 0), L.c(d2, 1), d}));
  }
  ValueRef pos = L.builtin(isa::Builtin::EMITTER_POSITION, 3);
  if (type == "emit_point") return std::vector{pos, local};
  ValueRef off = L.to_world(local);
  return std::vector{L.op(Op::ADD, 3, {pos, off}), off};
}

// Curves, noise and wind, the forces and integration, the velocity patterns, age, and the look
// rotation.
Outputs lower_motion_node(Lowerer& L, const NodeLowering& node) {
  const std::vector<ValueRef>& in = node.in;
  const std::string_view type = node.type;
  const uint32_t draw = node.draw;
  if (type == "curve" || type == "gradient") return std::vector{L.curve(node.n, in[0])};
  if (type == "curl_noise")
    return std::vector{L.op(Op::MUL, 3, {L.op(Op::CURL3, 3, {L.op(Op::MUL, 3, {in[0], in[1]})}), in[2]})};
  if (type == "noise") return std::vector{L.op(Op::NOISE3, 3, {L.op(Op::MUL, 3, {in[0], in[1]})})};
  if (type == "wind") return std::vector{L.op(Op::SAMPLE_WIND, 3, {in[0]})};
  if (type == "vector_field") return std::vector{L.op(Op::SAMPLE_FIELD, 3, {in[0], Src::raw(node.n.vector_field)})};
  if (type == "integrate") {
    ValueRef vel = L.op(Op::FMA, 3, {in[2], in[3], in[1]});
    return std::vector{L.op(Op::FMA, 3, {vel, in[3], in[0]}), vel};
  }
  if (type == "gravity") return std::vector{L.op(Op::FMA, 3, {in[1], in[2], in[0]})};
  if (type == "drag") {
    ValueRef f = L.op(Op::EXP, 1, {L.op(Op::SUB, 1, {L.k(0.0f), L.op(Op::MUL, 1, {in[1], in[2]})})});
    return std::vector{L.op(Op::MUL, 3, {in[0], f})};
  }
  if (type == "attractor") {
    ValueRef dir = L.op(Op::NORMALIZE, 3, {L.op(Op::SUB, 3, {in[2], in[0]})});
    return std::vector{L.op(Op::FMA, 3, {dir, L.op(Op::MUL, 1, {in[3], in[4]}), in[1]})};
  }
  if (type == "velocity_fixed")
    return std::vector{L.to_world(L.op(Op::MUL, 3, {L.op(Op::NORMALIZE, 3, {in[0]}), in[1]}))};
  if (type == "velocity_cone") {
    ValueRef u = L.rand(draw, 3);
    ValueRef dir = L.rotate_z_to(in[0], L.cone_local(in[1], L.c(u, 0), L.c(u, 1)));
    ValueRef speed = L.op(Op::MIX, 1, {in[2], in[3], L.c(u, 2)});
    return std::vector{L.to_world(L.op(Op::MUL, 3, {dir, speed}))};
  }
  if (type == "velocity_sphere") {
    ValueRef u = L.rand(draw, 3);
    ValueRef speed = L.op(Op::MIX, 1, {in[0], in[1], L.c(u, 2)});
    return std::vector{L.op(Op::MUL, 3, {L.sphere_direction(L.c(u, 0), L.c(u, 1)), speed})};
  }
  if (type == "velocity_box") return std::vector{L.to_world(L.op(Op::MIX, 3, {in[0], in[1], L.rand(draw, 3)}))};
  if (type == "age_step") return std::vector{L.op(Op::ADD, 1, {in[0], in[1]})};
  if (type == "normalized_age") return std::vector{L.op(Op::DIV, 1, {in[0], in[1]})};
  if (type == "expired") return std::vector{L.op(Op::CMP, 1, {in[0], in[1], Src::raw(shader::kVmCmpGe)})};
  if (type == "quat_look_rotation") {
    ValueRef f = L.op(Op::NORMALIZE, 3, {in[0]});
    ValueRef q1 = L.z_to(f);
    ValueRef up1 = L.op(Op::QROTATE, 3, {q1, L.k3(0, 1, 0)});
    ValueRef along = L.op(Op::MUL, 3, {f, L.op(Op::DOT, 3, {in[1], f})});
    ValueRef upp = L.op(Op::NORMALIZE, 3, {L.op(Op::SUB, 3, {in[1], along})});
    ValueRef sin_part = L.op(Op::DOT, 3, {L.op(Op::CROSS, 3, {up1, upp}), f});
    ValueRef angle = L.op(Op::ATAN2, 1, {sin_part, L.op(Op::DOT, 3, {up1, upp})});
    return std::vector{L.op(Op::QMUL, 4, {L.op(Op::QFROM_AXIS_ANGLE, 4, {f, angle}), q1})};
  }
  return std::nullopt;
}

// The force fields: point_force (attracts for strength > 0, repels below; a radius > 0 fades it
// linearly to nothing there), vortex (about an axis through center), orbit (turns the position
// itself about the axis) and turbulence (curl noise as an acceleration).
Outputs lower_field_node(Lowerer& L, const NodeLowering& node) {
  const std::vector<ValueRef>& in = node.in;
  const std::string_view type = node.type;
  if (type == "point_force") {
    ValueRef to = L.op(Op::SUB, 3, {in[2], in[0]});
    ValueRef ramp = L.op(Op::SUB, 1, {L.k(1.0f), L.op(Op::DIV, 1, {L.op(Op::LENGTH, 3, {to}), in[4]})});
    ValueRef faded = L.op(Op::CLAMP, 1, {ramp, L.k(0.0f), L.k(1.0f)});
    ValueRef falloff = L.op(Op::SELECT, 1,
                            {L.op(Op::CMP, 1, {in[4], L.k(0.0f), Src::raw(shader::kVmCmpGt)}), faded, L.k(1.0f)});
    ValueRef gain = L.op(Op::MUL, 1, {L.op(Op::MUL, 1, {in[3], falloff}), in[5]});
    return std::vector{L.op(Op::FMA, 3, {L.op(Op::NORMALIZE, 3, {to}), gain, in[1]})};
  }
  if (type == "vortex") {
    ValueRef axis = L.op(Op::NORMALIZE, 3, {in[3]});
    ValueRef around = L.op(Op::NORMALIZE, 3, {L.op(Op::CROSS, 3, {axis, L.op(Op::SUB, 3, {in[0], in[2]})})});
    return std::vector{L.op(Op::FMA, 3, {around, L.op(Op::MUL, 1, {in[4], in[5]}), in[1]})};
  }
  if (type == "orbit") {
    ValueRef turn = L.op(Op::QFROM_AXIS_ANGLE, 4, {L.op(Op::NORMALIZE, 3, {in[2]}), L.op(Op::MUL, 1, {in[3], in[4]})});
    return std::vector{L.op(Op::ADD, 3, {in[1], L.op(Op::QROTATE, 3, {turn, L.op(Op::SUB, 3, {in[0], in[1]})})})};
  }
  if (type == "turbulence") {
    ValueRef curl = L.op(Op::CURL3, 3, {L.op(Op::MUL, 3, {in[0], in[2]})});
    return std::vector{L.op(Op::FMA, 3, {curl, L.op(Op::MUL, 1, {in[3], in[4]}), in[1]})};
  }
  return std::nullopt;
}

// A collider's response: `n` the unit outward normal at the nearest surface point, `depth` how
// far inside the particle is (> 0 inside). Inside, the particle moves out along n by depth; if it
// also moves into the surface, its normal velocity is reflected scaled by restitution and its
// tangential velocity scaled by 1 - friction (restitution 0 and friction 1 stick).
std::vector<ValueRef> collide_response(Lowerer& L, const std::vector<ValueRef>& in, ValueRef n, ValueRef depth,
                                       ValueRef restitution, ValueRef friction) {
  const ValueRef p = in[0], v = in[1];
  ValueRef hit = L.op(Op::CMP, 1, {depth, L.k(0.0f), Src::raw(shader::kVmCmpGt)});
  ValueRef vn = L.op(Op::DOT, 3, {v, n});
  ValueRef tangent = L.op(Op::SUB, 3, {v, L.op(Op::MUL, 3, {n, vn})});
  ValueRef kept = L.op(Op::MUL, 3, {tangent, L.op(Op::SUB, 1, {L.k(1.0f), friction})});
  ValueRef bounced = L.op(Op::SUB, 3, {kept, L.op(Op::MUL, 3, {n, L.op(Op::MUL, 1, {vn, restitution})})});
  ValueRef into = L.op(Op::AND, 1, {hit, L.op(Op::CMP, 1, {vn, L.k(0.0f), Src::raw(shader::kVmCmpLt)})});
  return {L.op(Op::SELECT, 3, {hit, L.op(Op::FMA, 3, {n, depth, p}), p}), L.op(Op::SELECT, 3, {into, bounced, v}), hit};
}

// Outside a ball around `center` (a particle at the very center leaves along +Y).
std::vector<ValueRef> collide_ball(Lowerer& L, const std::vector<ValueRef>& in, ValueRef center, ValueRef radius,
                                   ValueRef restitution, ValueRef friction) {
  ValueRef away = L.op(Op::SUB, 3, {in[0], center});
  ValueRef dist = L.op(Op::LENGTH, 3, {away});
  ValueRef at_center = L.op(Op::CMP, 1, {dist, L.k(0.0f), Src::raw(shader::kVmCmpEq)});
  ValueRef n = L.op(Op::SELECT, 3, {at_center, L.k3(0, 1, 0), L.op(Op::NORMALIZE, 3, {away})});
  return collide_response(L, in, n, L.op(Op::SUB, 1, {radius, dist}), restitution, friction);
}

// Outside an axis-aligned box: out through the face nearest the particle (x before y before z
// on a tie).
std::vector<ValueRef> collide_box(Lowerer& L, const std::vector<ValueRef>& in) {
  ValueRef d = L.op(Op::SUB, 3, {in[0], in[2]});
  ValueRef pen = L.op(Op::SUB, 3, {in[3], L.op(Op::ABS, 3, {d})});
  ValueRef depth = L.op(Op::MIN, 1, {L.c(pen, 0), L.op(Op::MIN, 1, {L.c(pen, 1), L.c(pen, 2)})});
  ValueRef is_x = L.op(Op::CMP, 1, {L.c(pen, 0), depth, Src::raw(shader::kVmCmpLe)});
  ValueRef is_y = L.op(Op::AND, 1,
                       {L.op(Op::NOT, 1, {is_x}), L.op(Op::CMP, 1, {L.c(pen, 1), depth, Src::raw(shader::kVmCmpLe)})});
  ValueRef is_z = L.op(Op::NOT, 1, {L.op(Op::OR, 1, {is_x, is_y})});
  ValueRef side = L.op(Op::SELECT, 3,
                       {L.op(Op::CMP, 3, {d, L.k(0.0f), Src::raw(shader::kVmCmpGe)}), L.k(1.0f), L.k(-1.0f)});
  ValueRef n = L.combine({L.op(Op::MUL, 1, {L.c(side, 0), is_x}), L.op(Op::MUL, 1, {L.c(side, 1), is_y}),
                          L.op(Op::MUL, 1, {L.c(side, 2), is_z})});
  return collide_response(L, in, n, depth, in[4], in[5]);
}

Outputs lower_collider_node(Lowerer& L, const NodeLowering& node) {
  const std::vector<ValueRef>& in = node.in;
  const std::string_view type = node.type;
  if (type == "collide_plane") {
    ValueRef n = L.op(Op::NORMALIZE, 3, {in[3]});
    ValueRef height = L.op(Op::DOT, 3, {L.op(Op::SUB, 3, {in[0], in[2]}), n});
    return collide_response(L, in, n, L.op(Op::SUB, 1, {L.k(0.0f), height}), in[4], in[5]);
  }
  if (type == "collide_sphere") return collide_ball(L, in, in[2], in[3], in[4], in[5]);
  if (type == "collide_box") return collide_box(L, in);
  if (type == "collide_depth") {
    // SAMPLE_DEPTH's xyz is the surface normal and w the depth behind it (0 and 0: no hit).
    ValueRef s = L.op(Op::SAMPLE_DEPTH, 4, {in[0], in[2]});
    return collide_response(L, in, IrBuilder::prefix(s, 3), L.c(s, 3), in[3], in[4]);
  }
  if (type == "collide_capsule") {
    // The nearest point of the segment a-b, then a ball there (a == b: a sphere at a).
    ValueRef ab = L.op(Op::SUB, 3, {in[3], in[2]});
    ValueRef len2 = L.op(Op::MAX, 1, {L.op(Op::DOT, 3, {ab, ab}), L.k(1e-30f)});
    ValueRef t = L.op(Op::DIV, 1, {L.op(Op::DOT, 3, {L.op(Op::SUB, 3, {in[0], in[2]}), ab}), len2});
    ValueRef nearest = L.op(Op::FMA, 3, {ab, L.op(Op::CLAMP, 1, {t, L.k(0.0f), L.k(1.0f)}), in[2]});
    return collide_ball(L, in, nearest, in[4], in[5], in[6]);
  }
  return std::nullopt;
}

}  // namespace

Status lower_graph(const TypedGraph& graph, IrBuilder& builder, const std::string& where) {
  Lowerer L{builder};
  std::vector<std::vector<ValueRef>> outs(graph.nodes.size());
  // The k-th random node of the document (in `nodes` order) draws 4k .. 4k+3.
  std::vector<uint32_t> random_ordinal(graph.nodes.size(), 0);
  {
    std::vector<uint32_t> by_index(graph.nodes.size());
    for (uint32_t v = 0; v < graph.nodes.size(); ++v) by_index[v] = v;
    std::sort(by_index.begin(), by_index.end(),
              [&](uint32_t a, uint32_t b) { return graph.nodes[a].index < graph.nodes[b].index; });
    uint32_t next = 0;
    for (uint32_t v : by_index)
      if (graph.nodes[v].spec->random) random_ordinal[v] = next++;
  }
  Sinks sinks;
  for (uint32_t v : graph.order) {
    const TypedNode& n = graph.nodes[v];
    const std::vector<ValueRef> in = input_values(L, n, outs);
    const NodeLowering node{n, in, n.spec->type, n.generic, random_ordinal[v] * kDrawsPerNode};
    Outputs out = lower_data_node(L, node, sinks);
    if (!out) out = lower_random_node(L, node);
    if (!out) out = lower_emit_node(L, node);
    if (!out) out = lower_motion_node(L, node);
    if (!out) out = lower_field_node(L, node);
    if (!out) out = lower_collider_node(L, node);
    if (!out) out = lower_stateless_node(builder, node.type, node.generic, node.draw, in);
    if (!out)
      return make_error(ErrorCode::kInternal, fmt::format("node type '{}' has no lowering", node.type),
                        where + "/nodes/" + std::to_string(n.index) + "/type");
    outs[v] = std::move(*out);
    if (!builder.error().empty())
      return make_error(ErrorCode::kInternal, builder.error(), where + "/nodes/" + std::to_string(n.index));
  }
  for (const Sinks::Store& s : sinks.stores) builder.sink(Op::STORE_FIELD, s.width, {Src::raw(s.offset), s.value});
  for (const ValueRef& k : sinks.kills) builder.sink(Op::KILL, 1, {k});
  for (const Sinks::Event& e : sinks.events) builder.sink(Op::EMIT_EVENT, 1, {e.count, Src::raw(e.output)});
  if (!builder.error().empty()) return make_error(ErrorCode::kInternal, builder.error(), where);
  return {};
}

}  // namespace mote::graph
