// The lowerings of the stateless nodes (docs/design/nodes.md, "Stateless nodes"): the lifetime
// loop, the seeded random nodes that follow a particle's iteration, the emitter paths over time,
// the easing curves, scale in/out and the rotation about a random axis.
#include <array>
#include <string_view>

#include "lower_nodes.hpp"
#include "shared/isa_encoding.h"

namespace mote::graph {

namespace {

using isa::Op;
constexpr float kTwoPi = 6.28318530717958647692f;
constexpr float kHalfPi = 1.57079632679489661923f;
// HASH returns k * 2^-24: times 2^24 it is the integer k, a key for the next HASH.
constexpr float kHashKeyScale = 16777216.0f;
// The shortest life the loop runs at: a life computed at run time that is not above it is
// raised to it (docs/design/nodes.md, "lifetime"), so the phase stays defined.
constexpr float kMinimumLife = 1e-3f;

struct StatelessLowerer {
  IrBuilder& b;
  uint8_t generic;
  uint32_t draw;

  ValueRef k(float x) { return b.scalar(x); }
  ValueRef op(Op o, uint8_t lanes, std::initializer_list<Src> s) { return b.op(o, lanes, s); }
  ValueRef c(ValueRef v, int i) { return IrBuilder::component(v, i); }
  // `lanes` uniforms on [0, 1) keyed by (seed, this node's draws): the seeded counterpart of RAND.
  ValueRef hash(ValueRef seed, uint8_t lanes) {
    std::array<float, 4> draws{};
    for (uint32_t i = 0; i < 4; ++i) draws[i] = float(draw + i);
    return op(Op::HASH, lanes, {seed, b.constant(draws, lanes)});
  }
  ValueRef direction(ValueRef u0, ValueRef u1) {  // uniform on the unit sphere
    ValueRef z = op(Op::FMA, 1, {u0, k(-2.0f), k(1.0f)});
    ValueRef s = op(Op::SQRT, 1, {op(Op::SUB, 1, {k(1.0f), op(Op::MUL, 1, {z, z})})});
    ValueRef phi = op(Op::MUL, 1, {u1, k(kTwoPi)});
    std::array<ValueRef, 3> v = {op(Op::MUL, 1, {s, op(Op::COS, 1, {phi})}), op(Op::MUL, 1, {s, op(Op::SIN, 1, {phi})}),
                                 z};
    return b.combine(v);
  }
  ValueRef saturate(ValueRef t) { return op(Op::CLAMP, 1, {t, k(0.0f), k(1.0f)}); }
};

// The lifetime loop: life and phase offset from the particle's seed, then the iteration the
// time falls in, the phase within it, the particle's own time, the time it was emitted and the
// iteration's seed (a HASH key: a fresh particle every iteration).
std::vector<ValueRef> lower_lifetime(StatelessLowerer& L, const std::vector<ValueRef>& in) {
  ValueRef u = L.op(Op::RAND, 3, {Src::raw(L.draw)});
  ValueRef life = L.op(Op::MAX, 1, {L.op(Op::MIX, 1, {in[1], in[2], L.c(u, 0)}), L.k(kMinimumLife)});
  ValueRef offset = L.op(Op::MUL, 1, {life, L.op(Op::SUB, 1, {L.c(u, 1), L.k(1.0f)})});  // in (-life, 0]
  ValueRef x = L.op(Op::DIV, 1, {L.op(Op::ADD, 1, {in[0], offset}), life});
  ValueRef iteration = L.op(Op::FLOOR, 1, {x});
  // x - floor(x) may round up to 1 just below an integer: keep the phase below 1.
  ValueRef phase = L.op(Op::MIN, 1, {L.op(Op::SUB, 1, {x, iteration}), L.k(0.99999994f)});
  ValueRef particle_time = L.op(Op::MUL, 1, {phase, life});
  ValueRef emission_time = L.op(Op::SUB, 1, {in[0], particle_time});
  ValueRef particle_key = L.op(Op::MUL, 1, {L.c(u, 2), L.k(kHashKeyScale)});
  ValueRef seed = L.op(Op::MUL, 1, {L.op(Op::HASH, 1, {iteration, particle_key}), L.k(kHashKeyScale)});
  return {life, iteration, phase, particle_time, emission_time, seed};
}

// The easing curves over t clamped to [0, 1].
ValueRef lower_ease(StatelessLowerer& L, std::string_view curve, ValueRef t_in) {
  ValueRef t = L.saturate(t_in);
  ValueRef one_minus = L.op(Op::SUB, 1, {L.k(1.0f), t});
  auto times = [&](ValueRef a, ValueRef b) { return L.op(Op::MUL, 1, {a, b}); };
  auto out_of = [&](ValueRef v) { return L.op(Op::SUB, 1, {L.k(1.0f), v}); };
  // in_out from in: 2^(n-1) t^n below 1/2, mirrored above (the usual set).
  auto in_out = [&](ValueRef below, ValueRef above) {
    ValueRef lower_half = L.op(Op::CMP, 1, {t, L.k(0.5f), Src::raw(shader::kVmCmpLt)});
    return L.op(Op::SELECT, 1, {lower_half, below, above});
  };
  if (curve == "ease_in_quad") return times(t, t);
  if (curve == "ease_out_quad") return out_of(times(one_minus, one_minus));
  if (curve == "ease_in_out_quad") {
    ValueRef m = L.op(Op::FMA, 1, {t, L.k(-2.0f), L.k(2.0f)});  // 2 - 2t
    return in_out(L.op(Op::MUL, 1, {L.k(2.0f), times(t, t)}), out_of(L.op(Op::MUL, 1, {L.k(0.5f), times(m, m)})));
  }
  if (curve == "ease_in_cubic") return times(t, times(t, t));
  if (curve == "ease_out_cubic") return out_of(times(one_minus, times(one_minus, one_minus)));
  if (curve == "ease_in_out_cubic") {
    ValueRef m = L.op(Op::FMA, 1, {t, L.k(-2.0f), L.k(2.0f)});
    return in_out(L.op(Op::MUL, 1, {L.k(4.0f), times(t, times(t, t))}),
                  out_of(L.op(Op::MUL, 1, {L.k(0.5f), times(m, times(m, m))})));
  }
  if (curve == "ease_in_sine") return out_of(L.op(Op::COS, 1, {L.op(Op::MUL, 1, {t, L.k(kHalfPi)})}));
  if (curve == "ease_out_sine") return L.op(Op::SIN, 1, {L.op(Op::MUL, 1, {t, L.k(kHalfPi)})});
  // ease_in_out_sine: (1 - cos(pi t)) / 2
  return L.op(Op::MUL, 1, {L.k(0.5f), out_of(L.op(Op::COS, 1, {L.op(Op::MUL, 1, {t, L.k(2.0f * kHalfPi)})}))});
}

}  // namespace

bool is_easing_node(std::string_view type) {
  for (std::string_view e : kEasingNodes)
    if (e == type) return true;
  return false;
}

std::optional<std::vector<ValueRef>> lower_stateless_node(IrBuilder& builder, std::string_view type, uint8_t generic,
                                                          uint32_t draw, const std::vector<ValueRef>& in) {
  StatelessLowerer L{builder, generic, draw};
  if (type == "lifetime") return lower_lifetime(L, in);
  if (is_easing_node(type)) return std::vector{lower_ease(L, type, in[0])};
  if (type == "seeded_random") return std::vector{L.op(Op::MIX, generic, {in[1], in[2], L.hash(in[0], generic)})};
  if (type == "seeded_direction") {
    ValueRef u = L.hash(in[0], 2);
    return std::vector{L.direction(L.c(u, 0), L.c(u, 1))};
  }
  if (type == "seeded_in_box") return std::vector{L.op(Op::MIX, 3, {in[1], in[2], L.hash(in[0], 3)})};
  if (type == "seeded_in_ball") {
    ValueRef u = L.hash(in[0], 3);
    ValueRef r = L.op(Op::MUL, 1, {in[1], L.op(Op::POW, 1, {L.c(u, 2), L.k(1.0f / 3.0f)})});
    return std::vector{L.op(Op::MUL, 3, {L.direction(L.c(u, 0), L.c(u, 1)), r})};
  }
  if (type == "seeded_rotation") {  // about a random axis by `angle`
    ValueRef u = L.hash(in[0], 2);
    return std::vector{L.op(Op::QFROM_AXIS_ANGLE, 4, {L.direction(L.c(u, 0), L.c(u, 1)), in[1]})};
  }
  if (type == "path_circle") {  // radius * (sin wt, 0, -cos wt) about center, in the XZ plane
    ValueRef angle = L.op(Op::MUL, 1, {in[0], in[2]});
    std::array<ValueRef, 3> v = {L.op(Op::MUL, 1, {in[1], L.op(Op::SIN, 1, {angle})}), L.k(0.0f),
                                 L.op(Op::MUL, 1, {L.op(Op::SUB, 1, {L.k(0.0f), in[1]}), L.op(Op::COS, 1, {angle})})};
    return std::vector{L.op(Op::ADD, 3, {in[3], builder.combine(v)})};
  }
  if (type == "path_line") return std::vector{L.op(Op::FMA, 3, {in[1], in[0], in[2]})};  // origin + velocity * t
  if (type == "time_window") {                                                           // 1 where start <= t < end
    ValueRef after = L.op(Op::CMP, 1, {in[0], in[1], Src::raw(shader::kVmCmpGe)});
    ValueRef before = L.op(Op::CMP, 1, {in[0], in[2], Src::raw(shader::kVmCmpLt)});
    return std::vector{L.op(Op::AND, 1, {after, before})};
  }
  if (type == "scale_in_out") {
    // size * ease_out_quad(phase / grow) * ease_out_quad((1 - phase) / shrink)
    ValueRef grow = lower_ease(L, "ease_out_quad", L.op(Op::DIV, 1, {in[0], in[2]}));
    ValueRef shrink = lower_ease(L, "ease_out_quad", L.op(Op::DIV, 1, {L.op(Op::SUB, 1, {L.k(1.0f), in[0]}), in[3]}));
    return std::vector{L.op(Op::MUL, 1, {in[1], L.op(Op::MUL, 1, {grow, shrink})})};
  }
  return std::nullopt;
}

}  // namespace mote::graph
